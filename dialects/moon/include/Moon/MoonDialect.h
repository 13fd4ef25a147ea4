//===- MoonDialect.h - the moon dialect -------------------------*- C++ -*-===//
//
// Declares the moon dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_MOONDIALECT_H
#define MOON_MOONDIALECT_H

#include "mlir/IR/Dialect.h"

#include "Moon/MoonOpsDialect.h.inc"

#endif // MOON_MOONDIALECT_H
