//! moonrt, the runtime that C and Rust programs calling moonc-compiled code
//! link: memref descriptors ([`MemRef`]), aligned allocation, the LIFO tape
//! arena of reverse-mode code ([`Arena`]), the per-thread default tape that
//! compiled reverse-mode code pushes scalars to (`moonrt_tape_*`),
//! `memrefCopy` (which MLIR's lowering of `memref.copy` calls), BLAS entry
//! points over OpenBLAS (`moonrt_dgemm`, ...), the GPU runtime over the
//! CUDA driver loaded at run time ([`gpu`]: device memory helpers and
//! MLIR's `mgpu*` ABI) and per-thread error reporting.
//!
//! Every C function is declared in `include/moonrt.h`; none of them panics
//! or unwinds. The crate uses only `std`, libc (with `dlopen` for the CUDA
//! driver) and OpenBLAS.

mod alloc;
mod arena;
mod blas;
mod cblas;
mod copy;
mod error;
mod ffi;
pub mod gpu;
mod lapacke;
mod memref;
mod tape;

pub use alloc::{moonrt_aligned_alloc, moonrt_aligned_free, moonrt_keep_freed_memory};
pub use arena::{
    Arena, RawArena, moonrt_arena_bytes_in_use, moonrt_arena_free, moonrt_arena_new,
    moonrt_arena_peak_bytes, moonrt_arena_pop, moonrt_arena_push, moonrt_arena_reset,
};
pub use blas::{
    moonrt_blas_time_ns, moonrt_blas_time_reset, moonrt_dlaswp, moonrt_dpotrf_adjoint,
    moonrt_set_blas_threads, moonrt_slaswp, moonrt_spotrf_adjoint,
};
pub use blas::{
    moonrt_dasum, moonrt_daxpy, moonrt_dcopy, moonrt_ddot, moonrt_dgemm, moonrt_dgemv, moonrt_dger,
    moonrt_dgetrf, moonrt_dgetri, moonrt_dgetrs, moonrt_dnrm2, moonrt_dpotrf, moonrt_dpotrs,
    moonrt_dscal, moonrt_dsymm, moonrt_dsymv, moonrt_dsyrk, moonrt_dsytrf, moonrt_dsytrs,
    moonrt_dtrmm, moonrt_dtrmv, moonrt_dtrsm, moonrt_dtrsv, moonrt_dtrtrs, moonrt_sasum,
    moonrt_saxpy, moonrt_scopy, moonrt_sdot, moonrt_sgemm, moonrt_sgemv, moonrt_sger,
    moonrt_sgetrf, moonrt_sgetri, moonrt_sgetrs, moonrt_snrm2, moonrt_spotrf, moonrt_spotrs,
    moonrt_sscal, moonrt_ssymm, moonrt_ssymv, moonrt_ssyrk, moonrt_ssytrf, moonrt_ssytrs,
    moonrt_strmm, moonrt_strmv, moonrt_strsm, moonrt_strsv, moonrt_strtrs,
};
pub use copy::{UnrankedMemRef, memrefCopy};
pub use error::{
    Error, clear_error, last_error, moonrt_clear_error, moonrt_last_error, moonrt_set_error,
    set_error,
};
pub use gpu::{
    mgpuEventCreate, mgpuEventDestroy, mgpuEventRecord, mgpuEventSynchronize, mgpuLaunchKernel,
    mgpuMemAlloc, mgpuMemFree, mgpuMemHostRegister, mgpuMemHostRegisterMemRef,
    mgpuMemHostUnregister, mgpuMemHostUnregisterMemRef, mgpuMemcpy, mgpuMemset16, mgpuMemset32,
    mgpuModuleGetFunction, mgpuModuleLoad, mgpuModuleLoadJIT, mgpuModuleUnload,
    mgpuSetDefaultDevice, mgpuStreamCreate, mgpuStreamDestroy, mgpuStreamSynchronize,
    mgpuStreamWaitEvent, moonrt_gpu_alloc, moonrt_gpu_available, moonrt_gpu_copy_to_device,
    moonrt_gpu_copy_to_host, moonrt_gpu_device_name, moonrt_gpu_free, moonrt_gpu_synchronize,
};
pub use memref::MemRef;
pub use tape::{
    moonrt_tape_bytes_in_use, moonrt_tape_cursor, moonrt_tape_note_alloc, moonrt_tape_note_free,
    moonrt_tape_peak_bytes, moonrt_tape_pop_f32, moonrt_tape_pop_f64, moonrt_tape_pop_i64,
    moonrt_tape_push_f32, moonrt_tape_push_f64, moonrt_tape_push_i64, moonrt_tape_reset_peak,
    moonrt_tape_set_limit,
};

/// Includes the Rust bindings `moonc-build` generated for an `.mlir` file
/// (`moonrt::include_mlir!("kernels")` for `kernels.mlir`).
#[macro_export]
macro_rules! include_mlir {
    ($name:literal) => {
        include!(concat!(env!("OUT_DIR"), "/", $name, ".rs"));
    };
}

/// (name, address) of every C function compiled code may call, for a JIT
/// that resolves them inside this process.
pub fn jit_symbols() -> Vec<(&'static str, *const std::ffi::c_void)> {
    macro_rules! symbols {
        ($($f:ident),* $(,)?) => { vec![$((stringify!($f), $f as *const std::ffi::c_void)),*] };
    }
    symbols![
        memrefCopy,
        mgpuEventCreate,
        mgpuEventDestroy,
        mgpuEventRecord,
        mgpuEventSynchronize,
        mgpuLaunchKernel,
        mgpuMemAlloc,
        mgpuMemFree,
        mgpuMemHostRegister,
        mgpuMemHostRegisterMemRef,
        mgpuMemHostUnregister,
        mgpuMemHostUnregisterMemRef,
        mgpuMemcpy,
        mgpuMemset16,
        mgpuMemset32,
        mgpuModuleGetFunction,
        mgpuModuleLoad,
        mgpuModuleLoadJIT,
        mgpuModuleUnload,
        mgpuSetDefaultDevice,
        mgpuStreamCreate,
        mgpuStreamDestroy,
        mgpuStreamSynchronize,
        mgpuStreamWaitEvent,
        moonrt_dasum,
        moonrt_daxpy,
        moonrt_dcopy,
        moonrt_ddot,
        moonrt_dgemm,
        moonrt_dgemv,
        moonrt_dger,
        moonrt_dgetrf,
        moonrt_dgetri,
        moonrt_dgetrs,
        moonrt_dlaswp,
        moonrt_dnrm2,
        moonrt_dpotrf,
        moonrt_dpotrf_adjoint,
        moonrt_dpotrs,
        moonrt_dscal,
        moonrt_dsymm,
        moonrt_dsymv,
        moonrt_dsyrk,
        moonrt_dsytrf,
        moonrt_dsytrs,
        moonrt_dtrmm,
        moonrt_dtrmv,
        moonrt_dtrsm,
        moonrt_dtrsv,
        moonrt_dtrtrs,
        moonrt_sasum,
        moonrt_saxpy,
        moonrt_scopy,
        moonrt_sdot,
        moonrt_sgemm,
        moonrt_sgemv,
        moonrt_sger,
        moonrt_sgetrf,
        moonrt_sgetri,
        moonrt_sgetrs,
        moonrt_slaswp,
        moonrt_snrm2,
        moonrt_spotrf,
        moonrt_spotrf_adjoint,
        moonrt_spotrs,
        moonrt_sscal,
        moonrt_ssymm,
        moonrt_ssymv,
        moonrt_ssyrk,
        moonrt_ssytrf,
        moonrt_ssytrs,
        moonrt_strmm,
        moonrt_strmv,
        moonrt_strsm,
        moonrt_strsv,
        moonrt_strtrs,
        moonrt_aligned_alloc,
        moonrt_aligned_free,
        moonrt_arena_bytes_in_use,
        moonrt_arena_free,
        moonrt_arena_new,
        moonrt_arena_peak_bytes,
        moonrt_arena_pop,
        moonrt_arena_push,
        moonrt_arena_reset,
        moonrt_blas_time_ns,
        moonrt_blas_time_reset,
        moonrt_clear_error,
        moonrt_gpu_alloc,
        moonrt_gpu_available,
        moonrt_gpu_copy_to_device,
        moonrt_gpu_copy_to_host,
        moonrt_gpu_device_name,
        moonrt_gpu_free,
        moonrt_gpu_synchronize,
        moonrt_last_error,
        moonrt_set_error,
        moonrt_tape_bytes_in_use,
        moonrt_tape_cursor,
        moonrt_tape_note_alloc,
        moonrt_tape_note_free,
        moonrt_tape_peak_bytes,
        moonrt_tape_pop_f32,
        moonrt_tape_pop_f64,
        moonrt_tape_pop_i64,
        moonrt_tape_push_f32,
        moonrt_tape_push_f64,
        moonrt_tape_push_i64,
        moonrt_tape_reset_peak,
        moonrt_tape_set_limit,
    ]
}
