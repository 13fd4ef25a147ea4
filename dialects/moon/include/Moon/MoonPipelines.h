//===- MoonPipelines.h - Named pass pipelines of moonc ----------*- C++ -*-===//
//
// The named pipelines that moonc registers with MLIR (usable as
// `moonc-opt --moon-cpu-pipeline`, `--moon-gpu-pipeline`) and runs itself.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_MOONPIPELINES_H
#define MOON_MOONPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <string>

namespace mlir::moon {

/// The passes of `moon-cpu-pipeline`, as a textual pass list: lowers
/// func/arith/math/scf/cf/memref/linalg (on memrefs)/vector/index/ub to the
/// LLVM dialect, ready for translation to LLVM IR.
extern const char *const kCpuPipeline;

/// `--moon-parallel-min-trips`: the least trip count of a loop that
/// `moon-parallelize` runs on all cores; 0 when that is off.
uint64_t getParallelMinTrips();

/// Sets `--moon-parallel-min-trips` (for drivers that parse their own flags).
void setParallelMinTrips(uint64_t trips);

/// `--moon-keep-subnormals`: whether `moon-cpu-pipeline` leaves out
/// `moon-flush-subnormals` (reverse sweeps keep IEEE subnormals).
bool getKeepSubnormals();

/// Sets `--moon-keep-subnormals` (for drivers that parse their own flags).
void setKeepSubnormals(bool keep);

/// `--moon-blas-min-flops`: the least number of multiply-adds of a linalg
/// matrix product that `moon-linalg-to-blas` hands to BLAS in
/// `moon-cpu-pipeline`; 0 when that is off.
uint64_t getBlasMinFlops();

/// Sets `--moon-blas-min-flops` (for drivers that parse their own flags).
void setBlasMinFlops(uint64_t flops);

/// The passes of `moon-cpu-pipeline` under the current options: those of
/// `kCpuPipeline`, `moon-linalg-to-blas` given `--moon-blas-min-flops` (left
/// out when it is 0), and moon-parallelize and the OpenMP conversions when
/// `--moon-parallel-min-trips` is on.
std::string cpuPipeline();

/// Appends `moon-cpu-pipeline` to `pm`, which must be anchored on
/// `builtin.module`.
LogicalResult buildCpuPipeline(OpPassManager &pm);

/// The passes of `moon-gpu-pipeline` for `chip` (`sm_80`, `sm_90`), linking
/// `libdevice` (a path, or empty for polynomial math), as a textual list.
std::string gpuPipeline(llvm::StringRef chip, llvm::StringRef libdevice);

/// Appends `moon-gpu-pipeline` to `pm`, which must be anchored on
/// `builtin.module`; fails on a chip other than sm_80 and sm_90.
LogicalResult buildGpuPipeline(OpPassManager &pm, llvm::StringRef chip,
                               llvm::StringRef libdevice);

/// Registers moonc's named pipelines in MLIR's global pass registry.
void registerMoonPipelines();

} // namespace mlir::moon

#endif // MOON_MOONPIPELINES_H
