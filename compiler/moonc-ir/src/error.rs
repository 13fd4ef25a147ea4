//! The error type of moonc-ir.

/// What can go wrong in moonc-ir.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A diagnostic describing the problem has been reported to the MLIR
    /// context (and so to the user); there is nothing more to say.
    #[error("an error diagnostic was reported")]
    Reported,
    /// melior refused to build or read IR.
    #[error(transparent)]
    Melior(#[from] melior::Error),
}

/// A `Result` with moonc-ir's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
