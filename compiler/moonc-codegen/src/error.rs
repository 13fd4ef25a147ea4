//! The error type of moonc-codegen.

/// What can go wrong while compiling or loading code.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Diagnostics describing the problem were reported to the MLIR context.
    #[error("an error diagnostic was reported")]
    Reported,
    /// A function's signature uses a type the CPU interface cannot pass.
    #[error("{0}")]
    Unsupported(String),
    /// LLVM refused (target lookup, optimization, object emission, JIT).
    #[error("LLVM: {0}")]
    Llvm(String),
    /// melior refused to build or read IR.
    #[error(transparent)]
    Melior(#[from] melior::Error),
}

/// A `Result` with moonc-codegen's error.
pub type Result<T, E = Error> = std::result::Result<T, E>;
