//! MLIR contexts that know every dialect moonc reads and writes.

use crate::ffi;
use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    utility::register_all_dialects,
};

/// The handle of the moon dialect.
pub fn moon_dialect_handle() -> DialectHandle {
    // SAFETY: the function only returns a pointer to a static table.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__moon__()) }
}

/// A registry holding every upstream MLIR dialect (with their extensions and
/// interfaces, and their translations to LLVM IR, which
/// `gpu-module-to-binary` needs) and the moon dialect.
pub fn dialect_registry() -> DialectRegistry {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    // SAFETY: the registry is live for the call.
    unsafe { ffi::moonRegisterLLVMTranslations(registry.to_raw()) };
    moon_dialect_handle().insert_dialect(&registry);
    registry
}

/// A context with every dialect of [`dialect_registry`] loaded. It runs
/// passes on the calling thread only: MLIR's worker threads have small
/// stacks, which deeply nested programs overflow, while the drivers run on
/// a thread with a large one (and modules are small).
pub fn create_context() -> Context {
    let context = Context::new();
    context.enable_multi_threading(false);
    context.append_dialect_registry(&dialect_registry());
    context.load_all_available_dialects();
    context
}

/// The dialects whose operations moonc's passes create (each pass's
/// `dependent_dialects`).
pub fn dependent_dialects() -> Vec<DialectHandle> {
    use mlir_sys as sys;
    // SAFETY: these functions only return pointers to static tables.
    let handles = unsafe {
        [
            sys::mlirGetDialectHandle__arith__(),
            sys::mlirGetDialectHandle__math__(),
            sys::mlirGetDialectHandle__memref__(),
            sys::mlirGetDialectHandle__vector__(),
            sys::mlirGetDialectHandle__linalg__(),
            sys::mlirGetDialectHandle__scf__(),
            sys::mlirGetDialectHandle__cf__(),
            sys::mlirGetDialectHandle__func__(),
            sys::mlirGetDialectHandle__tensor__(),
            sys::mlirGetDialectHandle__bufferization__(),
        ]
    };
    handles
        .into_iter()
        // SAFETY: as above.
        .map(|h| unsafe { DialectHandle::from_raw(h) })
        .chain([moon_dialect_handle()])
        .collect()
}
