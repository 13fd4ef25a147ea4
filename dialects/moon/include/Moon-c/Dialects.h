/*===- Dialects.h - C API of the moon dialect ---------------------*- C -*-===*\
|*                                                                            *|
|* The C entry points through which Rust reaches the moon dialect and the     *|
|* parts of MLIR that have no C API of their own.                             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef MOON_C_DIALECTS_H
#define MOON_C_DIALECTS_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Moon, moon);

/// The function type of the function that `op`'s `callee` attribute names
/// (looked up from the nearest symbol table), or a null type when there is
/// no such function.
MLIR_CAPI_EXPORTED MlirType moonGetCalleeType(MlirOperation op);

/// Replaces the named linalg operation `op` by the equivalent
/// `linalg.generic` and returns it, or returns a null operation (leaving
/// `op` alone) when `op` is not a named linalg operation that can be
/// generalized.
MLIR_CAPI_EXPORTED MlirOperation moonGeneralizeLinalgOp(MlirOperation op);

/// Replaces the linalg operation `op` on memrefs by the equivalent `scf.for`
/// loop nest (erasing `op`); returns false, leaving `op` alone, when it
/// cannot.
MLIR_CAPI_EXPORTED bool moonLowerLinalgOpToLoops(MlirOperation op);

/// Removes the unused results and duplicate operands of the
/// `linalg.generic`s nested in `op` (MLIR's
/// `populateEraseUnusedOperandsAndResultsPatterns`); false when the
/// rewriting did not converge.
MLIR_CAPI_EXPORTED bool moonRemoveDeadLinalgResults(MlirOperation op);

/// Creates a new instance of a pass; called by MLIR each time a pipeline
/// needs one. Ownership of the returned pass goes to MLIR.
typedef MlirPass (*MoonPassFactory)(void *userData);

/// An unsigned integer option of a moonc pass: `name=value` in a textual
/// pipeline (`moon-foo{name=value}`) or on `moonc-opt`'s command line
/// (`--moon-foo=name=value`).
typedef struct {
  MlirStringRef name;
  MlirStringRef description;
  uint64_t defaultValue;
} MoonPassOption;

/// What a run of a moonc pass did.
typedef enum {
  /// The pass failed, after reporting diagnostics.
  MoonPassFailed = 0,
  /// The pass succeeded; it may have changed the IR.
  MoonPassSucceeded = 1,
  /// The pass succeeded and left the IR as it was: MLIR keeps its analyses
  /// and does not verify the IR again.
  MoonPassUnchanged = 2,
} MoonPassResult;

/// Runs a moonc pass on `op`. `optionValues` holds the value of each option
/// the pass declares, in order.
typedef MoonPassResult (*MoonRunPass)(MlirOperation op,
                                      const uint64_t *optionValues,
                                      void *userData);

/// What `moonCreatePass` needs to know about a pass implemented outside
/// C++. The strings must outlive every instance of the pass (moonc's are
/// static); the arrays are copied.
typedef struct {
  /// Identifies the pass (one per pass, not per instance).
  MlirTypeID typeID;
  /// The flag naming the pass, without dashes: `moon-grad-to-vjp`.
  MlirStringRef argument;
  /// One line for `--help`.
  MlirStringRef summary;
  /// The operation the pass runs on (`builtin.module`, `func.func`).
  MlirStringRef opName;
  /// The dialects whose operations the pass creates.
  intptr_t nDependentDialects;
  const MlirDialectHandle *dependentDialects;
  /// The pass's options, in the order `run` receives their values.
  intptr_t nOptions;
  const MoonPassOption *options;
  /// Runs the pass, given `userData`.
  MoonRunPass run;
  void *userData;
} MoonPassDefinition;

/// Creates an instance of the pass `definition` describes. Unlike MLIR's
/// external passes (`mlirCreateExternalPass`), it has options, which MLIR
/// parses and prints like those of its own passes. Ownership of the pass
/// goes to the caller (usually a pass manager or a `MoonPassFactory`).
MLIR_CAPI_EXPORTED MlirPass
moonCreatePass(const MoonPassDefinition *definition);

/// Registers a pass created by `factory` in MLIR's global pass registry, so
/// that it can be named in textual pipelines and as a `--flag` of
/// `moonOptMain`. The pass's argument and description are read from one
/// instance made at registration.
MLIR_CAPI_EXPORTED void moonRegisterPass(MoonPassFactory factory,
                                         void *userData);

/// Runs MLIR's `mlir-opt` driver (MlirOptMain) with the given command line
/// and dialects, and returns the process exit code.
MLIR_CAPI_EXPORTED int moonOptMain(int argc, char **argv, MlirStringRef title,
                                   MlirDialectRegistry registry);

/// Parses `source` as a module (an implicit top-level module is created
/// when the text has none), naming the buffer `bufferName` so that
/// diagnostics and locations read `bufferName:line:col`. Returns a null
/// module, with the errors reported to the context's diagnostic handlers,
/// when parsing fails.
MLIR_CAPI_EXPORTED MlirModule moonParseModule(MlirContext context,
                                              MlirStringRef source,
                                              MlirStringRef bufferName);

/// The default of `--moon-ndual-max-width`, chosen by the sweep in
/// `bench/ndual/` (see its README).
#define MOON_NDUAL_DEFAULT_MAX_WIDTH 24

/// The largest width of the fused N-wide dual path of reverse mode
/// (`--moon-ndual-max-width`); 0 when the path is turned off.
MLIR_CAPI_EXPORTED unsigned moonNdualMaxWidth(void);

/// Sets `--moon-ndual-max-width` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetNdualMaxWidth(unsigned width);

/// Emits `message` as a remark at `location` when `--moon-remarks` is on.
MLIR_CAPI_EXPORTED void moonEmitRemark(MlirLocation location,
                                       MlirStringRef message);

/// The least trip count of a loop that `moon-parallelize` runs on all
/// cores (`--moon-parallel-min-trips`); 0 when that is off.
MLIR_CAPI_EXPORTED uint64_t moonParallelMinTrips(void);

/// Sets `--moon-parallel-min-trips` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetParallelMinTrips(uint64_t trips);

/// Whether reverse sweeps keep IEEE subnormals (`--moon-keep-subnormals`).
MLIR_CAPI_EXPORTED bool moonKeepSubnormals(void);

/// Sets `--moon-keep-subnormals` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetKeepSubnormals(bool keep);

/// The default of `--moon-blas-min-flops`, chosen by the benchmark in
/// `bench/blas/threshold.sh` (see docs/linalg-to-blas.md); the same as
/// `moon-linalg-to-blas`'s `min-flops` (`DEFAULT_MIN_FLOPS` in Rust).
#define MOON_BLAS_DEFAULT_MIN_FLOPS 1500

/// The least number of multiply-adds of one linalg matrix product that
/// `moon-cpu-pipeline` hands to moonrt's BLAS (`--moon-blas-min-flops`, the
/// `min-flops` option it gives `moon-linalg-to-blas`); 0 when that is off.
MLIR_CAPI_EXPORTED uint64_t moonBlasMinFlops(void);

/// Sets `--moon-blas-min-flops` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetBlasMinFlops(uint64_t flops);

/// The default of `--moon-tape-budget`: 16 MiB, about what a core's share
/// of a server's last-level cache holds (see docs/autodiff.md,
/// "Checkpointing").
#define MOON_TAPE_DEFAULT_BUDGET (16u << 20)

/// The bytes reverse mode lets one loop's tape take before it checkpoints
/// the loop (`--moon-tape-budget`); 0 turns checkpointing off.
MLIR_CAPI_EXPORTED uint64_t moonTapeBudget(void);

/// Sets `--moon-tape-budget` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetTapeBudget(uint64_t bytes);

/// The levels of checkpoints a checkpointed loop may use when one level
/// cannot fit the tape budget (`--moon-checkpoint-levels`, default 1).
MLIR_CAPI_EXPORTED unsigned moonCheckpointLevels(void);

/// Sets `--moon-checkpoint-levels` (for drivers that parse their own flags).
MLIR_CAPI_EXPORTED void moonSetCheckpointLevels(unsigned levels);

/// Registers moonc's named pipelines (`moon-cpu-pipeline`,
/// `moon-gpu-pipeline`) and C++ passes (`moon-math-approx`,
/// `moon-gpu-reduce`) in MLIR's global pass registry.
MLIR_CAPI_EXPORTED void moonRegisterPipelines(void);

/// Appends `moon-cpu-pipeline` to `pm`, which must be anchored on
/// `builtin.module`.
MLIR_CAPI_EXPORTED MlirLogicalResult moonAddCpuPipeline(MlirOpPassManager pm);

/// Registers the translations of every dialect to LLVM IR (the LLVM, NVVM
/// and GPU dialects' among them) in `registry`, which gpu-module-to-binary
/// needs to serialize GPU modules; MLIR's C API only registers them in a
/// context.
MLIR_CAPI_EXPORTED void
moonRegisterLLVMTranslations(MlirDialectRegistry registry);

/// Appends `moon-gpu-pipeline` for the GPU `chip` (`sm_80` or `sm_90`) to
/// `pm`, which must be anchored on `builtin.module`. `libdevice` is the path
/// of libdevice's bitcode to link math calls against, or empty for
/// polynomial approximations. Fails, saying so on stderr, on another chip.
MLIR_CAPI_EXPORTED MlirLogicalResult moonAddGpuPipeline(
    MlirOpPassManager pm, MlirStringRef chip, MlirStringRef libdevice);

#ifdef __cplusplus
}
#endif

#endif // MOON_C_DIALECTS_H
