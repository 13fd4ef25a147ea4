//! moonc's CPU backend. It lowers a module to the LLVM dialect
//! (`moon-cpu-pipeline`), translates it to LLVM IR, gives every public
//! function a C interface, vectorizes math through glibc's libmvec,
//! optimizes with LLVM's O3 pipeline for the host CPU and emits machine
//! code, which the [`Jit`] can load into the running process. It also
//! writes the C header and Rust bindings of a compiled module, and runs the
//! GPU path (`moon-gpu-pipeline`, PTX).

mod checked_alloc;
mod error;
mod gpu;
mod interface;
mod jit;
mod lower;
mod signature;
mod target;
mod translate;
mod vector_math;
mod wide_results;

pub mod header;
pub mod rust_bindings;

pub use error::{Error, Result};
pub use gpu::{DEFAULT_CHIP, has_gpu_code, lower_for_gpu, ptx_modules};
pub use jit::Jit;
pub use lower::{lower_to_llvm_dialect, mark_c_interface};
pub use signature::{Scalar, Signature, ValueType, public_functions, signature_of};
pub use target::{Emit, emit, set_target_cpu, target_cpu_description};
