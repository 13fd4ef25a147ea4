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

/// Creates a new instance of a pass; called by MLIR each time a pipeline
/// needs one. Ownership of the returned pass goes to MLIR.
typedef MlirPass (*MoonPassFactory)(void *userData);

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

/// Registers moonc's named pipelines (`moon-cpu-pipeline`) in MLIR's global
/// pass registry.
MLIR_CAPI_EXPORTED void moonRegisterPipelines(void);

/// Appends `moon-cpu-pipeline` to `pm`, which must be anchored on
/// `builtin.module`.
MLIR_CAPI_EXPORTED MlirLogicalResult moonAddCpuPipeline(MlirOpPassManager pm);

#ifdef __cplusplus
}
#endif

#endif // MOON_C_DIALECTS_H
