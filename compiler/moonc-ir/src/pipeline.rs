//! moonc's named pass pipelines (defined in C++, `MoonPipelines.cpp`) and
//! reading modules with named source buffers.

use crate::{Error, Result, ffi};
use melior::{Context, StringRef, ir::Module, pass::OperationPassManager};

/// Registers `moon-cpu-pipeline`, `moon-gpu-pipeline` and the C++ passes
/// (`moon-math-approx`, `moon-fuse-elementwise`, ...) in MLIR's global pass
/// registry (once per process, however often it is called), so that
/// `moonc-opt` flags and textual pipelines can name them.
pub fn register_pipelines() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    // SAFETY: only adds entries to MLIR's registry (once per process).
    REGISTERED.call_once(|| unsafe { ffi::moonRegisterPipelines() });
}

/// Appends `moon-cpu-pipeline` (everything down to the LLVM dialect) to a
/// pass manager anchored on `builtin.module`.
pub fn add_cpu_pipeline(pm: OperationPassManager) -> Result<()> {
    // SAFETY: the pass manager is live for the call.
    let result = unsafe { ffi::moonAddCpuPipeline(pm.to_raw()) };
    if result.value == 0 {
        return Err(Error::Reported);
    }
    Ok(())
}

/// Appends `moon-gpu-pipeline` (GPU kernels to PTX in `gpu.binary` ops, the
/// host side to the LLVM dialect) for `chip` (`sm_80` or `sm_90`) to a pass
/// manager anchored on `builtin.module`. `libdevice` is the path of
/// libdevice's bitcode to link math against; without it f32 math becomes
/// polynomial approximations (and other math is an error).
pub fn add_gpu_pipeline(
    pm: OperationPassManager,
    chip: &str,
    libdevice: Option<&str>,
) -> Result<()> {
    // SAFETY: the pass manager and strings are live for the call.
    let result = unsafe {
        ffi::moonAddGpuPipeline(
            pm.to_raw(),
            StringRef::new(chip).to_raw(),
            StringRef::new(libdevice.unwrap_or("")).to_raw(),
        )
    };
    if result.value == 0 {
        return Err(Error::Reported);
    }
    Ok(())
}

/// Parses `source` into a module whose locations name `buffer_name` (e.g.
/// the file path). On failure the errors go to `context`'s diagnostic
/// handlers and `None` is returned.
pub fn parse_module<'c>(
    context: &'c Context,
    source: &str,
    buffer_name: &str,
) -> Option<Module<'c>> {
    // SAFETY: the strings outlive the call; the module returned is owned.
    unsafe {
        Module::from_option_raw(ffi::moonParseModule(
            context.to_raw(),
            StringRef::new(source).to_raw(),
            StringRef::new(buffer_name).to_raw(),
        ))
    }
}
