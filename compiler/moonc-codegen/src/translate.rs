//! From the LLVM dialect to an LLVM IR module in an inkwell context.

use crate::{Error, Result};
use inkwell::{context::Context as LlvmContext, module::Module as LlvmModule};
use melior::ir::Module;

/// Translates `module` (already in the LLVM dialect) into LLVM IR owned by
/// `llvm`. Translation errors are reported to the MLIR context.
pub(crate) fn to_llvm_ir<'ll>(module: &Module, llvm: &'ll LlvmContext) -> Result<LlvmModule<'ll>> {
    // SAFETY: both contexts are live; the returned module belongs to `llvm`,
    // whose lifetime the inkwell module carries.
    unsafe {
        let raw = mlir_sys::mlirTranslateModuleToLLVMIR(
            module.as_operation().to_raw(),
            llvm.raw() as mlir_sys::LLVMContextRef,
        );
        if raw.is_null() {
            return Err(Error::Reported);
        }
        Ok(LlvmModule::new(raw as llvm_sys::prelude::LLVMModuleRef))
    }
}
