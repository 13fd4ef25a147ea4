//===- MoonOps.h - moon dialect operations ----------------------*- C++ -*-===//
//
// Declares the moon operations and attributes, and the signature rules that
// relate a transform operation to the function it names.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_MOONOPS_H
#define MOON_MOONOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"

#include "Moon/MoonDialect.h"
#include "Moon/MoonOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Moon/MoonOpsAttrDefs.h.inc"

#define GET_OP_CLASSES
#include "Moon/MoonOps.h.inc"

namespace mlir::moon {

/// The derivative a transform operation requests; it fixes the layout of
/// the operation's operands and results.
enum class TransformKind { Jvp, Vjp, Grad, ValueAndGrad, Hvp };

/// One operand or result of a transform operation: its type, and what it is
/// ("argument #0", "tangent of result #1", ...) for diagnostics.
struct Slot {
  Type type;
  std::string role;
};

/// The operands and results a transform operation must have.
struct Signature {
  SmallVector<Slot> operands;
  SmallVector<Slot> results;
};

/// Whether values of `type` can be `active`: floats, and vectors or ranked
/// tensors of floats.
bool isActiveType(Type type);

/// Whether values of `type` can be `dup`: memrefs of floats.
bool isDupType(Type type);

/// The activity an argument of `type` gets when none is written.
Activity getDefaultArgActivity(Type type);

/// The activity a result of `type` gets when none is written.
Activity getDefaultResultActivity(Type type);

/// The type of `width` derivatives of a value of `type`: `type` itself for
/// width 1, otherwise `type` with a leading dimension `width` (a scalar
/// becomes a vector; a memref gets the identity layout; a tensor loses its
/// encoding).
Type getTangentType(Type type, int64_t width);

/// Computes the operands and results that `kind` applied to a function of
/// type `function` with the given activities and width must have. Reports
/// an activity that does not fit its type through `emitError`.
FailureOr<Signature>
getTransformSignature(TransformKind kind, FunctionType function,
                      ArrayRef<Activity> argActivities,
                      ArrayRef<Activity> resultActivities, int64_t width,
                      function_ref<InFlightDiagnostic()> emitError);

/// The activities of the arguments of `function` as `op` (a transform
/// operation) requests them: written, or the defaults.
SmallVector<Activity> getArgActivities(Operation *op, FunctionType function);

/// The activities of the results of `function` as `op` requests them.
SmallVector<Activity> getResultActivities(Operation *op, FunctionType function);

/// The batch axis that stands for "not batched" in `moon.vmap`'s
/// `in_axes`/`out_axes` attributes.
constexpr int64_t kNoAxis = -1;

} // namespace mlir::moon

#endif // MOON_MOONOPS_H
