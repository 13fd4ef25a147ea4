//===- MoonPasses.h - moonc's C++ passes ------------------------*- C++ -*-===//
//
// Declares the passes of MoonPasses.td and their registration.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_MOONPASSES_H
#define MOON_MOONPASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::moon {

#define GEN_PASS_DECL
#include "Moon/MoonPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "Moon/MoonPasses.h.inc"

} // namespace mlir::moon

#endif // MOON_MOONPASSES_H
