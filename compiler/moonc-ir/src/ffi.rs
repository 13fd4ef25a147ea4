//! Every foreign function moonc-ir calls that melior does not wrap: the C API
//! of the moon dialect (`dialects/moon/include/Moon-c/Dialects.h`).

use mlir_sys::{
    MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirLocation, MlirLogicalResult,
    MlirModule, MlirOpPassManager, MlirOperation, MlirPass, MlirStringRef, MlirType, MlirTypeID,
};
use std::ffi::{c_char, c_int, c_void};

/// Creates a new instance of a pass for MLIR; see `moonRegisterPass`.
pub type MoonPassFactory = unsafe extern "C" fn(user_data: *mut c_void) -> MlirPass;

/// An unsigned integer option of a pass made by `moonCreatePass`.
#[repr(C)]
pub struct MoonPassOption {
    pub name: MlirStringRef,
    pub description: MlirStringRef,
    pub default_value: u64,
}

/// What a run of a pass made by `moonCreatePass` did (`MoonPassResult`).
pub type MoonPassResult = c_int;
/// The pass failed, after reporting diagnostics.
pub const MOON_PASS_FAILED: MoonPassResult = 0;
/// The pass succeeded; it may have changed the IR.
pub const MOON_PASS_SUCCEEDED: MoonPassResult = 1;
/// The pass succeeded and left the IR as it was.
pub const MOON_PASS_UNCHANGED: MoonPassResult = 2;

/// Runs a pass made by `moonCreatePass` on an operation, given the values
/// of its options.
pub type MoonRunPass = unsafe extern "C" fn(
    op: MlirOperation,
    option_values: *const u64,
    user_data: *mut c_void,
) -> MoonPassResult;

/// What `moonCreatePass` needs to know about a pass (see `Dialects.h`).
#[repr(C)]
pub struct MoonPassDefinition {
    pub type_id: MlirTypeID,
    pub argument: MlirStringRef,
    pub summary: MlirStringRef,
    pub op_name: MlirStringRef,
    pub n_dependent_dialects: isize,
    pub dependent_dialects: *const MlirDialectHandle,
    pub n_options: isize,
    pub options: *const MoonPassOption,
    pub run: MoonRunPass,
    pub user_data: *mut c_void,
}

unsafe extern "C" {
    /// The handle of the moon dialect, for inserting it into registries.
    pub fn mlirGetDialectHandle__moon__() -> MlirDialectHandle;

    /// The function type of the function named by `op`'s `callee`, or null.
    pub fn moonGetCalleeType(op: MlirOperation) -> MlirType;

    /// Replaces a named linalg operation by its `linalg.generic` (returned),
    /// or returns a null operation when it cannot.
    pub fn moonGeneralizeLinalgOp(op: MlirOperation) -> MlirOperation;

    /// Replaces a linalg operation on memrefs by its `scf.for` loop nest;
    /// false when it cannot.
    pub fn moonLowerLinalgOpToLoops(op: MlirOperation) -> bool;

    /// Removes unused results and duplicate operands of the generics in
    /// an operation; false when the rewriting did not converge.
    pub fn moonRemoveDeadLinalgResults(op: MlirOperation) -> bool;

    /// Creates an instance of the pass `definition` describes, with options.
    pub fn moonCreatePass(definition: *const MoonPassDefinition) -> MlirPass;

    /// Registers a pass made by `factory` in MLIR's global pass registry.
    pub fn moonRegisterPass(factory: MoonPassFactory, user_data: *mut c_void);

    /// Runs MLIR's `mlir-opt` driver and returns the exit code.
    pub fn moonOptMain(
        argc: c_int,
        argv: *mut *mut c_char,
        title: MlirStringRef,
        registry: MlirDialectRegistry,
    ) -> c_int;

    /// Parses a module, naming the buffer for locations; null on failure.
    pub fn moonParseModule(
        context: MlirContext,
        source: MlirStringRef,
        buffer_name: MlirStringRef,
    ) -> MlirModule;

    /// `--moon-ndual-max-width`: the largest fused N-wide dual width.
    pub fn moonNdualMaxWidth() -> std::ffi::c_uint;

    /// Sets `--moon-ndual-max-width`.
    pub fn moonSetNdualMaxWidth(width: std::ffi::c_uint);

    /// `--moon-parallel-min-trips`: the least trip count run on all cores.
    pub fn moonParallelMinTrips() -> u64;

    /// Sets `--moon-parallel-min-trips`.
    pub fn moonSetParallelMinTrips(trips: u64);

    /// `--moon-keep-subnormals`: whether reverse sweeps keep subnormals.
    pub fn moonKeepSubnormals() -> bool;

    /// Sets `--moon-keep-subnormals`.
    pub fn moonSetKeepSubnormals(keep: bool);

    /// `--moon-tape-budget`: the bytes one loop's tape may take.
    pub fn moonTapeBudget() -> u64;

    /// Sets `--moon-tape-budget`.
    pub fn moonSetTapeBudget(bytes: u64);

    /// `--moon-checkpoint-levels`: the levels of checkpoints one loop may use.
    pub fn moonCheckpointLevels() -> std::ffi::c_uint;

    /// Sets `--moon-checkpoint-levels`.
    pub fn moonSetCheckpointLevels(levels: std::ffi::c_uint);

    /// Emits a remark at a location when `--moon-remarks` is on.
    pub fn moonEmitRemark(location: MlirLocation, message: MlirStringRef);

    /// `--moon-blas-min-flops`: the least multiply-adds of a linalg product
    /// that `moon-cpu-pipeline` hands to BLAS.
    pub fn moonBlasMinFlops() -> u64;

    /// Sets `--moon-blas-min-flops`.
    pub fn moonSetBlasMinFlops(flops: u64);

    /// Registers moonc's named pipelines in MLIR's global pass registry.
    pub fn moonRegisterPipelines();

    /// Appends `moon-cpu-pipeline` to a pass manager anchored on a module.
    pub fn moonAddCpuPipeline(pm: MlirOpPassManager) -> MlirLogicalResult;

    /// Registers every dialect's translation to LLVM IR in a registry.
    pub fn moonRegisterLLVMTranslations(registry: MlirDialectRegistry);

    /// Appends `moon-gpu-pipeline` for `chip`, linking `libdevice` (a path,
    /// or empty), to a pass manager anchored on a module.
    pub fn moonAddGpuPipeline(
        pm: MlirOpPassManager,
        chip: MlirStringRef,
        libdevice: MlirStringRef,
    ) -> MlirLogicalResult;
}
