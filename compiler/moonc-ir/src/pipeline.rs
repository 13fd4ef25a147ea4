//! moonc's named pass pipelines (defined in C++, `MoonPipelines.cpp`) and
//! reading modules with named source buffers.

use crate::{Error, Result, ffi};
use melior::{Context, StringRef, ir::Module, pass::OperationPassManager};

/// Registers `moon-cpu-pipeline` in MLIR's global pass registry, so that
/// `moonc-opt --moon-cpu-pipeline` and textual pipelines can name it.
pub fn register_pipelines() {
    // SAFETY: only adds entries to MLIR's registry.
    unsafe { ffi::moonRegisterPipelines() }
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
