//! moonc's global options that passes read (LLVM command-line options
//! defined in the moon dialect's C API, so `moonc-opt` parses them).

use crate::ffi;
use mlir_sys::{MlirLocation, MlirStringRef};

/// `--moon-ndual-max-width`: the largest number of distinct differentiable
/// inputs of an element function that reverse mode fuses with N-wide duals
/// (0: the fused path is off).
pub fn ndual_max_width() -> u32 {
    // SAFETY: reads a global option.
    unsafe { ffi::moonNdualMaxWidth() }
}

/// Sets `--moon-ndual-max-width` (for the `moonc` driver).
pub fn set_ndual_max_width(width: u32) {
    // SAFETY: writes a global option; passes read it only while running.
    unsafe { ffi::moonSetNdualMaxWidth(width) }
}

/// `--moon-parallel-min-trips`: the least trip count of a loop that
/// `moon-parallelize` runs on all cores (0: off).
pub fn parallel_min_trips() -> u64 {
    // SAFETY: reads a global option.
    unsafe { ffi::moonParallelMinTrips() }
}

/// The least trip count `moonc --parallel` runs on all cores: below it, the
/// cost of starting the threads (a few microseconds) outweighs the gain.
pub const PARALLEL_DEFAULT_MIN_TRIPS: u64 = 32768;

/// Sets `--moon-parallel-min-trips` (for the `moonc` driver).
pub fn set_parallel_min_trips(trips: u64) {
    // SAFETY: writes a global option; pipelines read it only while built.
    unsafe { ffi::moonSetParallelMinTrips(trips) }
}

/// `moonc --moon-reassociate-sums`: whether the driver lets the sums that
/// loops carry be added in any order (`moon-reassociate-sums`, run before
/// differentiating). A driver setting, not an LLVM option: `moonc-opt`
/// names the pass instead.
static REASSOCIATE_SUMS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether `moonc --moon-reassociate-sums` is on.
pub fn reassociate_sums() -> bool {
    REASSOCIATE_SUMS.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets `moonc --moon-reassociate-sums`.
pub fn set_reassociate_sums(on: bool) {
    REASSOCIATE_SUMS.store(on, std::sync::atomic::Ordering::Relaxed)
}

/// `--moon-keep-subnormals`: whether `moon-cpu-pipeline` leaves reverse
/// sweeps with IEEE subnormals instead of flushing them to zero
/// (`moon-flush-subnormals`).
pub fn keep_subnormals() -> bool {
    // SAFETY: reads a global option.
    unsafe { ffi::moonKeepSubnormals() }
}

/// Sets `--moon-keep-subnormals` (for the `moonc` driver).
pub fn set_keep_subnormals(keep: bool) {
    // SAFETY: writes a global option; pipelines read it only while built.
    unsafe { ffi::moonSetKeepSubnormals(keep) }
}

/// `--moon-blas-min-flops`: the least number of multiply-adds of one linalg
/// matrix product that `moon-cpu-pipeline` hands to moonrt's BLAS (through
/// `moon-linalg-to-blas{min-flops=N}`; 0: off).
pub fn blas_min_flops() -> u64 {
    // SAFETY: reads a global option.
    unsafe { ffi::moonBlasMinFlops() }
}

/// Sets `--moon-blas-min-flops` (for the `moonc` driver).
pub fn set_blas_min_flops(flops: u64) {
    // SAFETY: writes a global option; pipelines read it only while built.
    unsafe { ffi::moonSetBlasMinFlops(flops) }
}

/// `--moon-tape-budget`: the bytes of tape reverse mode lets one loop take
/// before it checkpoints the loop (0: never).
pub fn tape_budget() -> u64 {
    // SAFETY: reads a global option.
    unsafe { ffi::moonTapeBudget() }
}

/// Sets `--moon-tape-budget` (for the `moonc` driver).
pub fn set_tape_budget(bytes: u64) {
    // SAFETY: writes a global option; passes read it only while running.
    unsafe { ffi::moonSetTapeBudget(bytes) }
}

/// `--moon-checkpoint-levels`: the levels of checkpoints a checkpointed
/// loop may use when one level cannot fit the tape budget (at least 1).
pub fn checkpoint_levels() -> u32 {
    // SAFETY: reads a global option.
    unsafe { ffi::moonCheckpointLevels() }.max(1)
}

/// Sets `--moon-checkpoint-levels` (for the `moonc` driver).
pub fn set_checkpoint_levels(levels: u32) {
    // SAFETY: writes a global option; passes read it only while running.
    unsafe { ffi::moonSetCheckpointLevels(levels) }
}

/// Emits `message` as a remark at `location` when `--moon-remarks` is on.
pub fn remark(location: MlirLocation, message: &str) {
    let text = MlirStringRef {
        data: message.as_ptr().cast(),
        length: message.len(),
    };
    // SAFETY: the location is live and the text outlives the call, which
    // copies it.
    unsafe { ffi::moonEmitRemark(location, text) }
}

/// `moonc --checked`: compiled code checks its memref accesses at run time
/// (MLIR's `generate-runtime-verification`). A driver setting.
static CHECKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether `moonc --checked` is on.
pub fn checked() -> bool {
    CHECKED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets `moonc --checked`.
pub fn set_checked(on: bool) {
    CHECKED.store(on, std::sync::atomic::Ordering::Relaxed)
}
