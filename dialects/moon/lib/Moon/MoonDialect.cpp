//===- MoonDialect.cpp - the moon dialect ---------------------------------===//
//
// Registers the moon operations and attributes with MLIR.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonDialect.h"
#include "Moon/MoonOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::moon;

#include "Moon/MoonOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Moon/MoonOpsAttrDefs.cpp.inc"

void MoonDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Moon/MoonOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Moon/MoonOpsAttrDefs.cpp.inc"
      >();
}
