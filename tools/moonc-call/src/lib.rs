//! Compiles one public function of an MLIR module together with its
//! derivative wrappers (JVP, VJP, HVP) and calls them in this process on
//! values given as JSON, reading back every result and memref argument:
//! the machinery `moonc run`, `grad`, `jacobian`, `hessian`, `bench`,
//! `check` and `gradbench` share.
//!
//! A [`program::Session`] loads and compiles a module; [`wrapper`] writes
//! the derivative wrappers of an entry; [`compiled::Compiled`] is an entry
//! compiled with the wrappers asked for, called through [`jvp`], [`vjp`]
//! and [`hvp`]; [`values`] and [`tensor`] carry numbers into and out of the
//! calls; every failure is a user-facing [`failure::Failure`].

pub mod compiled;
pub mod crash;
pub mod diagnostics;
pub mod failure;
pub mod frame;
pub mod gpu;
pub mod hvp;
pub mod json;
pub mod jvp;
pub mod program;
pub mod tensor;
pub mod values;
pub mod vjp;
pub mod wrapper;
