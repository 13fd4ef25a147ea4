//! From the input dialects to the LLVM dialect: `moon-cpu-pipeline`, with
//! C interfaces requested for every public function.

use crate::{Error, Result, signature::public_functions};
use melior::{
    Context,
    ir::{
        BlockLike, Module, OperationRef, RegionLike,
        attribute::Attribute,
        operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
    },
    pass::PassManager,
    utility::register_all_llvm_translations,
};
use mlir_sys::MlirOperation;
use moonc_ir::ir::error_at;

/// Asks `convert-func-to-llvm` for a C interface (`_mlir_ciface_NAME`) of
/// every public function defined in `module`, and for calls through the C
/// interface to every `moonrt_*` function it declares (moonrt's BLAS entry
/// points take memrefs as pointers to descriptors); moonc-codegen later
/// gives each C interface the function's own name.
pub fn mark_c_interface(context: &Context, module: &mut Module) {
    let unit = Attribute::unit(context);
    let mut marked = public_functions(module);
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        let runtime_declaration = op.name().as_string_ref().as_str() == Ok("func.func")
            && op
                .attribute("sym_name")
                .is_ok_and(|n| n.to_string().starts_with("\"moonrt_"))
            && op
                .region(0)
                .is_ok_and(|region| region.first_block().is_none());
        if runtime_declaration {
            marked.push(op);
        }
        next = op.next_in_block();
    }
    for op in marked {
        // SAFETY: the operation belongs to `module`, which we hold mutably.
        let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
        op.set_attribute("llvm.emit_c_interface", unit);
    }
}

/// Gives every private function defined in `module` internal linkage in
/// LLVM (`llvm.linkage`, which `convert-func-to-llvm` honours; it would
/// otherwise make them external): LLVM may then inline a function into its
/// only caller and drop it, as it does for the derivative functions
/// `--moon-autodiff` generates.
fn internalize_private_functions(context: &Context, module: &mut Module) {
    let internal = Attribute::parse(context, "#llvm.linkage<internal>")
        .expect("the LLVM dialect's linkage attribute parses");
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        let private = op.name().as_string_ref().as_str() == Ok("func.func")
            && op
                .attribute("sym_visibility")
                .is_ok_and(|v| v.to_string() == "\"private\"")
            && op
                .region(0)
                .is_ok_and(|region| region.first_block().is_some());
        if private {
            // SAFETY: the operation belongs to `module`, which we hold mutably.
            let mut op = unsafe { melior::ir::operation::OperationRefMut::from_raw(op.to_raw()) };
            op.set_attribute("llvm.linkage", internal);
        }
        next = op.next_in_block();
    }
}

/// The nesting depth from which `moon-cpu-pipeline` verifies only its
/// result, not the IR after each pass (the depth from which the pipeline
/// also skips passes with nothing to do: `kDeep` in MoonPipelines.cpp).
const DEEP: usize = 64;

/// The number of operations from which `moon-cpu-pipeline` verifies only
/// its result.
const BIG: usize = 100_000;

/// Runs `moon-cpu-pipeline` on `module`. Failures, including an op the
/// pipeline leaves behind because nothing lowers it, are reported as
/// located diagnostics to `context`.
pub fn lower_to_llvm_dialect(context: &Context, module: &mut Module) -> Result<()> {
    register_all_llvm_translations(context);
    // The pipeline names moonc's own passes (moon-share-sincos).
    moonc_passes::register_passes();
    internalize_private_functions(context, module);
    let pm = PassManager::new(context);
    moonc_ir::pipeline::add_cpu_pipeline(pm.as_operation_pass_manager())
        .map_err(|_| Error::Llvm("moon-cpu-pipeline could not be built".into()))?;
    // The module is verified after every pass (MLIR's default): without
    // it, IR a pass left invalid crashed the next one instead of being
    // reported (test/Tools/moonc/fuzz-regressions.test). But the verifier
    // checks each operand's dominance by walking up from its user: after
    // each of the pipeline's 30 passes, that took most of a minute for
    // 5000 nested `scf.if`, and a third of the time for 4000 functions.
    // Deep and big modules are verified once, at the end.
    let (ops, depth) = moonc_ir::ir::Op(module.as_operation().to_raw()).nest_size();
    let once = depth > DEEP || ops > BIG;
    pm.enable_verifier(!once);
    pm.run(module).map_err(|_| Error::Reported)?;
    if once && !module.as_operation().verify() {
        return Err(Error::Reported);
    }
    if let Some(op) = first_unlowered(module) {
        // SAFETY: the operation belongs to the live module.
        let op = unsafe { OperationRef::from_raw(op) };
        let name = op
            .name()
            .as_string_ref()
            .as_str()
            .unwrap_or("?")
            .to_string();
        error_at(
            op.location(),
            &format!(
                "`{name}` cannot be compiled for the CPU: moon-cpu-pipeline lowers func, arith, \
                 math, scf, cf, memref, linalg (on memrefs), vector, index and ub; tensors must \
                 be bufferized first"
            ),
        );
        return Err(Error::Reported);
    }
    Ok(())
}

/// The first operation outside the LLVM (and OpenMP) dialects left in `module` (an
/// unrealized cast only when nothing else is left: it merely marks where a
/// conversion stopped).
fn first_unlowered(module: &Module) -> Option<MlirOperation> {
    let (mut found, mut cast) = (None, None);
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        match op.name().as_string_ref().as_str().unwrap_or("") {
            "builtin.module" => WalkResult::Advance,
            "builtin.unrealized_conversion_cast" => {
                cast.get_or_insert(op.to_raw());
                WalkResult::Advance
            }
            // OpenMP operations (from --moon-parallel-min-trips) translate
            // to LLVM IR directly.
            n if n.starts_with("llvm.") || n.starts_with("omp.") => WalkResult::Advance,
            _ => {
                found = Some(op.to_raw());
                WalkResult::Interrupt
            }
        }
    });
    found.or(cast)
}
