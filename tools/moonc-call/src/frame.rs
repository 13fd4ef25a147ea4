//! The packed entry point of a compiled function and the slots of one call
//! to it.

use crate::{
    failure::{Failure, Outcome},
    values::{Arguments, Results},
};
use moonc_codegen::{Jit, Signature};
use std::ffi::c_void;

/// A packed entry point and the slots of one call to it.
pub type Frame = (unsafe extern "C" fn(*mut *mut c_void), Vec<*mut c_void>);

/// The packed entry point of `signature` in `jit`, with the slots of
/// `arguments` followed by those of `results` (both must outlive every
/// call through the frame).
pub fn frame(
    jit: &Jit,
    signature: &Signature,
    arguments: &mut Arguments,
    results: &mut Results,
) -> Outcome<Frame> {
    let entry = jit
        .packed(signature)
        .map_err(|e| Failure::new(e.to_string()))?;
    let mut slots = arguments.slots();
    slots.extend(results.slots());
    Ok((entry, slots))
}
