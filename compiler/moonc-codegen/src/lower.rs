//! From the input dialects to the LLVM dialect: `moon-cpu-pipeline`, with
//! C interfaces requested for every public function.

use crate::{Error, Result, signature::public_functions};
use melior::{
    Context,
    ir::{Module, attribute::Attribute},
    pass::PassManager,
    utility::register_all_llvm_translations,
};

/// Asks `convert-func-to-llvm` for a C interface (`_mlir_ciface_NAME`) of
/// every public function defined in `module`; moonc-codegen later gives it
/// the function's own name.
pub fn mark_c_interface(context: &Context, module: &mut Module) {
    let unit = Attribute::unit(context);
    for op in public_functions(module) {
        // SAFETY: the operation belongs to `module`, which we hold mutably.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        op.set_attribute("llvm.emit_c_interface", unit);
    }
}

/// Runs `moon-cpu-pipeline` on `module`. Failures (an op that cannot be
/// lowered, say) are reported as located diagnostics to `context`.
pub fn lower_to_llvm_dialect(context: &Context, module: &mut Module) -> Result<()> {
    register_all_llvm_translations(context);
    let pm = PassManager::new(context);
    moonc_ir::pipeline::add_cpu_pipeline(pm.as_operation_pass_manager())
        .map_err(|_| Error::Llvm("moon-cpu-pipeline could not be built".into()))?;
    pm.run(module).map_err(|_| Error::Reported)
}
