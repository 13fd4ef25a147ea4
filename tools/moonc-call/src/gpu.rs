//! `--gpu` for the commands that call compiled code (`run`, `jacobian`,
//! `grad`, `check`): the code is compiled by `moon-gpu-pipeline`, and each
//! call gets its memref arguments in device memory, copied back afterwards.

use crate::{
    failure::{Failure, Outcome},
    values::Arguments,
};
use std::{
    ffi::c_void,
    sync::atomic::{AtomicBool, Ordering},
};

/// Whether `--gpu` was given.
static ENABLED: AtomicBool = AtomicBool::new(false);

/// Makes every later compile and call of this process use the GPU.
pub fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Whether calls run on the GPU (`--gpu`).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Fails unless a CUDA driver and a device are there, with moonrt's error
/// (`no CUDA driver found (...)`), before anything is compiled.
pub fn require_device() -> Outcome<String> {
    moonrt::gpu::device_name().map_err(|e| Failure::new(format!("--gpu: {e}")))
}

/// The chip `--gpu` compiles for: `sm_90` on a device of compute
/// capability 9.0 or later (the driver JIT-compiles its PTX for newer
/// chips), else `sm_80`.
pub fn target_chip() -> &'static str {
    match moonrt::gpu::compute_capability() {
        Ok((major, _)) if major >= 9 => "sm_90",
        _ => moonc_codegen::DEFAULT_CHIP,
    }
}

/// Where `--gpu` looks for libdevice (`libdevice.10.bc`), in order: the
/// file `MOONC_LIBDEVICE` names, then under `CUDA_HOME`, `CUDA_PATH` and
/// the usual CUDA installations.
pub const LIBDEVICE_ENV: &str = "MOONC_LIBDEVICE";

/// The libdevice `--gpu` links (f64 math and CUDA's own f32 functions
/// instead of moonc's polynomials), when one is installed.
pub fn libdevice() -> Option<String> {
    if let Ok(path) = std::env::var(LIBDEVICE_ENV) {
        return Some(path).filter(|p| std::path::Path::new(p).is_file());
    }
    let roots = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .chain([
            "/usr/local/cuda".into(),
            "/usr/lib/nvidia-cuda-toolkit".into(),
        ]);
    roots
        .flat_map(|root| {
            [
                format!("{root}/nvvm/libdevice/libdevice.10.bc"),
                format!("{root}/libdevice/libdevice.10.bc"),
            ]
        })
        .find(|p| std::path::Path::new(p).is_file())
}

/// Calls a packed entry point on `slots`, which hold the addresses of
/// `arguments`' fields; with `--gpu`, every memref argument is copied to
/// device memory first and its descriptor points there during the call,
/// then the contents are copied back and the descriptor restored.
///
/// # Safety
/// `slots` must have been laid out for `entry`'s signature from
/// `arguments` (and the results' storage).
pub unsafe fn call(
    entry: unsafe extern "C" fn(*mut *mut c_void),
    slots: &mut [*mut c_void],
    arguments: &mut Arguments,
) -> Outcome<()> {
    if !enabled() {
        crate::crash::set_running_program();
        // SAFETY: per the contract.
        unsafe { entry(slots.as_mut_ptr()) };
        crate::crash::set_phase("reporting the results");
        return Ok(());
    }
    let on_device = arguments.move_to_device().map_err(Failure::new)?;
    crate::crash::set_running_program();
    // SAFETY: per the contract; the descriptors the slots point to now
    // describe device buffers of the same shape.
    unsafe { entry(slots.as_mut_ptr()) };
    crate::crash::set_phase("reporting the results");
    arguments
        .move_back_from_device(on_device)
        .map_err(Failure::new)
}
