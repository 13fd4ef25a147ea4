//! melior glue for moonc: the `moon` dialect (builders generated from its ODS
//! definitions, and its handle), MLIR contexts with every dialect moonc
//! reads, small rewriting helpers that melior lacks, and the registration of
//! Rust passes in MLIR's pass registry.

mod context;
mod error;
mod ffi;
pub mod input;
pub mod ir;
pub mod linalg;
pub mod moon;
pub mod opt;
pub mod options;
pub mod pass;
pub mod pipeline;
pub mod rewrite;

pub use context::{create_context, dependent_dialects, dialect_registry, moon_dialect_handle};
pub use error::{Error, Result};
