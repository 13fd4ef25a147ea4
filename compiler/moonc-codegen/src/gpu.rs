//! The GPU path: `moon-gpu-pipeline` (kernels to PTX in `gpu.binary` ops,
//! the host side to the LLVM dialect) and reading the PTX back.

use crate::{Error, Result};
use melior::{
    Context,
    ir::{
        Attribute, AttributeLike, BlockLike, Module,
        attribute::ArrayAttribute,
        operation::{OperationLike, WalkOrder, WalkResult},
    },
    pass::PassManager,
    utility::register_all_llvm_translations,
};
use mlir_sys::{mlirAttributeIsAGPUObjectAttr, mlirGPUObjectAttrGetObject};

/// The GPU chip `moon-gpu-pipeline` compiles for, unless told otherwise.
pub const DEFAULT_CHIP: &str = "sm_80";

/// The GPU chips `moon-gpu-pipeline` compiles for.
pub const CHIPS: [&str; 2] = ["sm_80", "sm_90"];

/// Whether `module` holds an operation of the `gpu` dialect (a kernel the
/// user wrote, a launch), which makes moonc compile it for the GPU.
pub fn has_gpu_code(module: &Module) -> bool {
    let mut found = false;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if op
            .name()
            .as_string_ref()
            .as_str()
            .is_ok_and(|n| n.starts_with("gpu."))
        {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Runs `moon-gpu-pipeline` for `chip` on `module`, linking `libdevice`
/// when given. Afterwards every kernel is PTX in a `gpu.binary` op and the
/// host functions are in the LLVM dialect, launching them through
/// `gpu.launch_func` (which translation to LLVM IR turns into calls of the
/// `mgpu*` functions of moonrt). Failures are located diagnostics.
pub fn lower_for_gpu(
    context: &Context,
    module: &mut Module,
    chip: &str,
    libdevice: Option<&str>,
) -> Result<()> {
    if !CHIPS.contains(&chip) {
        return Err(Error::Unsupported(format!(
            "unsupported GPU chip `{chip}` (expected one of {})",
            CHIPS.join(", ")
        )));
    }
    register_all_llvm_translations(context);
    // The pipeline may name moonc's own (Rust) passes.
    moonc_passes::register_passes();
    let pm = PassManager::new(context);
    moonc_ir::pipeline::add_gpu_pipeline(pm.as_operation_pass_manager(), chip, libdevice)
        .map_err(|_| Error::Llvm("moon-gpu-pipeline could not be built".into()))?;
    pm.run(module).map_err(|_| Error::Reported)
}

/// The PTX of every `gpu.binary` in `module` (after [`lower_for_gpu`]), with
/// the binary's name, in order.
pub fn ptx_modules(module: &Module) -> Vec<(String, String)> {
    let mut found = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        if op.name().as_string_ref().as_str() == Ok("gpu.binary") {
            let name = op
                .attribute("sym_name")
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|a| a.value().to_string())
                .unwrap_or_default();
            if let Ok(objects) = op.attribute("objects") {
                found.extend(objects_text(objects).into_iter().map(|t| (name.clone(), t)));
            }
        }
        next = op.next_in_block();
    }
    found
}

/// The text of each `#gpu.object` in the array attribute `objects`.
fn objects_text(objects: Attribute) -> Vec<String> {
    let Ok(objects) = ArrayAttribute::try_from(objects) else {
        return vec![];
    };
    (0..objects.len())
        .filter_map(|i| objects.element(i).ok())
        // SAFETY: `object` is live and checked to be a #gpu.object before
        // its text is read; the text is owned by the context.
        .filter(|object| unsafe { mlirAttributeIsAGPUObjectAttr(object.to_raw()) })
        .map(|object| unsafe {
            let text = mlirGPUObjectAttrGetObject(object.to_raw());
            let bytes = std::slice::from_raw_parts(text.data.cast::<u8>(), text.length);
            String::from_utf8_lossy(bytes)
                .trim_end_matches('\0')
                .to_string()
        })
        .collect()
}
