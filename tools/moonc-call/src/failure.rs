//! How `moonc` reports failure: one paragraph on stderr, exit status 1.

use std::fmt;

/// A failure, fully described for the user (located when there is a
/// location: `file:line:col: error: ...`).
#[derive(Debug)]
pub struct Failure(pub String);

impl Failure {
    /// A failure without a source location.
    pub fn new(message: impl Into<String>) -> Failure {
        Failure(format!("moonc: error: {}", message.into()))
    }

    /// A failure located at `location` (`file:line:col`), or at nothing.
    pub fn at(location: Option<String>, message: impl fmt::Display) -> Failure {
        match location {
            Some(location) => Failure(format!("{location}: error: {message}")),
            None => Failure::new(message.to_string()),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A `Result` whose error is a user-facing [`Failure`].
pub type Outcome<T> = Result<T, Failure>;
