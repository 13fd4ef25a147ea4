//===- MoonPipelines.h - Named pass pipelines of moonc ----------*- C++ -*-===//
//
// The named pipelines that moonc registers with MLIR (usable as
// `moonc-opt --moon-cpu-pipeline`) and runs itself.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_MOONPIPELINES_H
#define MOON_MOONPIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir::moon {

/// The passes of `moon-cpu-pipeline`, as a textual pass list: lowers
/// func/arith/math/scf/cf/memref/linalg (on memrefs)/vector/index/ub to the
/// LLVM dialect, ready for translation to LLVM IR.
extern const char *const kCpuPipeline;

/// Appends `moon-cpu-pipeline` to `pm`, which must be anchored on
/// `builtin.module`.
LogicalResult buildCpuPipeline(OpPassManager &pm);

/// Registers moonc's named pipelines in MLIR's global pass registry.
void registerMoonPipelines();

} // namespace mlir::moon

#endif // MOON_MOONPIPELINES_H
