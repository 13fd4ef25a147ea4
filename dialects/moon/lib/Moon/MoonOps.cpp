//===- MoonOps.cpp - moon dialect operations ------------------------------===//
//
// Custom syntax, verifiers and signature rules of the moon operations.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::moon;

#include "Moon/MoonOpsEnums.cpp.inc"

/// The inherent attribute `name` of `op` if it has one of type `AttrT`.
/// Discardable attributes of the same name are not the op's and are ignored.
template <typename AttrT>
static AttrT getInherent(Operation *op, StringRef name) {
  std::optional<Attribute> attr = op->getInherentAttr(name);
  return attr ? dyn_cast_or_null<AttrT>(*attr) : AttrT();
}

#define GET_OP_CLASSES
#include "Moon/MoonOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Types and activities
//===----------------------------------------------------------------------===//

bool mlir::moon::isActiveType(Type type) {
  if (isa<FloatType>(type))
    return true;
  if (auto vector = dyn_cast<VectorType>(type))
    return isa<FloatType>(vector.getElementType());
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return isa<FloatType>(tensor.getElementType());
  return false;
}

bool mlir::moon::isDupType(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && isa<FloatType>(memref.getElementType());
}

Activity mlir::moon::getDefaultArgActivity(Type type) {
  if (isActiveType(type))
    return Activity::Active;
  if (isDupType(type))
    return Activity::Dup;
  return Activity::Const;
}

Activity mlir::moon::getDefaultResultActivity(Type type) {
  return isActiveType(type) ? Activity::Active : Activity::Const;
}

/// `shape` with `size` inserted at `axis`.
static SmallVector<int64_t> insertDim(ArrayRef<int64_t> shape, size_t axis,
                                      int64_t size) {
  SmallVector<int64_t> result(shape);
  result.insert(result.begin() + axis, size);
  return result;
}

Type mlir::moon::getTangentType(Type type, int64_t width) {
  if (width == 1)
    return type;
  if (isa<FloatType>(type))
    return VectorType::get({width}, type);
  if (auto vector = dyn_cast<VectorType>(type)) {
    SmallVector<bool> scalable{false};
    llvm::append_range(scalable, vector.getScalableDims());
    return VectorType::get(insertDim(vector.getShape(), 0, width),
                           vector.getElementType(), scalable);
  }
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(insertDim(tensor.getShape(), 0, width),
                                 tensor.getElementType());
  if (auto memref = dyn_cast<MemRefType>(type))
    return MemRefType::get(insertDim(memref.getShape(), 0, width),
                           memref.getElementType(), MemRefLayoutAttrInterface(),
                           memref.getMemorySpace());
  return type;
}

static bool isNoNeed(Activity activity) {
  return activity == Activity::ActiveNoNeed || activity == Activity::DupNoNeed;
}

static bool isDup(Activity activity) {
  return activity == Activity::Dup || activity == Activity::DupNoNeed;
}

/// Checks that each activity fits the type it is attached to.
static LogicalResult
verifyActivities(TransformKind kind, FunctionType function,
                 ArrayRef<Activity> argActivities,
                 ArrayRef<Activity> resultActivities,
                 function_ref<InFlightDiagnostic()> emitError) {
  for (auto [index, activity] : llvm::enumerate(argActivities)) {
    Type type = function.getInput(index);
    StringRef name = stringifyActivity(activity);
    if (activity == Activity::ActiveNoNeed)
      return emitError() << "argument #" << index << " is '" << name
                         << "', which applies to results only";
    if (activity == Activity::Active && !isActiveType(type))
      return emitError() << "argument #" << index << " of type " << type
                         << " cannot be 'active': only floats and vectors or "
                            "ranked tensors of floats can (use 'dup' for "
                            "memrefs of floats, 'const' otherwise)";
    if (isDup(activity) && !isDupType(type))
      return emitError() << "argument #" << index << " of type " << type
                         << " cannot be '" << name
                         << "': only memrefs of floats can";
  }
  for (auto [index, activity] : llvm::enumerate(resultActivities)) {
    Type type = function.getResult(index);
    StringRef name = stringifyActivity(activity);
    if ((activity == Activity::Active || activity == Activity::ActiveNoNeed) &&
        !isActiveType(type))
      return emitError() << "result #" << index << " of type " << type
                         << " cannot be '" << name
                         << "': only floats and vectors or ranked tensors of "
                            "floats can";
    if (isDup(activity) && kind != TransformKind::Jvp)
      return emitError() << "result #" << index << " is '" << name
                         << "', which only moon.jvp supports";
    if (isDup(activity) && !isDupType(type))
      return emitError() << "result #" << index << " of type " << type
                         << " cannot be '" << name
                         << "': only memrefs of floats can";
  }
  return success();
}

/// A float, or a rank-0 tensor of floats (what frontends return as a loss).
static bool isScalarLoss(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return isa<FloatType>(type) || (tensor && tensor.getRank() == 0 &&
                                  isa<FloatType>(tensor.getElementType()));
}

FailureOr<Signature> mlir::moon::getTransformSignature(
    TransformKind kind, FunctionType function, ArrayRef<Activity> argActivities,
    ArrayRef<Activity> resultActivities, int64_t width,
    function_ref<InFlightDiagnostic()> emitError) {
  assert(argActivities.size() == function.getNumInputs() &&
         resultActivities.size() == function.getNumResults() &&
         "one activity per argument and result");
  if (failed(verifyActivities(kind, function, argActivities, resultActivities,
                              emitError)))
    return failure();

  bool scalarLoss = kind == TransformKind::Grad ||
                    kind == TransformKind::ValueAndGrad ||
                    kind == TransformKind::Hvp;
  if (scalarLoss &&
      (function.getNumResults() != 1 || !isScalarLoss(function.getResult(0)))) {
    std::string results;
    llvm::raw_string_ostream os(results);
    llvm::interleaveComma(function.getResults(), os);
    return emitError() << "needs a function that returns exactly one "
                          "floating-point scalar (or rank-0 tensor of floats), "
                          "but the function returns ("
                       << results << ")";
  }

  auto argument = [](size_t i) { return "argument #" + std::to_string(i); };
  auto result = [](size_t i) { return "result #" + std::to_string(i); };
  Signature signature;
  auto addOperand = [&](Type type, std::string role) {
    signature.operands.push_back({type, std::move(role)});
  };
  auto addResult = [&](Type type, std::string role) {
    signature.results.push_back({type, std::move(role)});
  };
  auto tangent = [&](Type type) { return getTangentType(type, width); };

  for (auto [i, type] : llvm::enumerate(function.getInputs()))
    addOperand(type, argument(i));

  switch (kind) {
  case TransformKind::Jvp:
    for (auto [i, activity] : llvm::enumerate(argActivities)) {
      if (activity == Activity::Active)
        addOperand(tangent(function.getInput(i)), "tangent of " + argument(i));
      else if (isDup(activity))
        addOperand(tangent(function.getInput(i)), "shadow of " + argument(i));
    }
    for (auto [j, activity] : llvm::enumerate(resultActivities))
      if (!isNoNeed(activity))
        addResult(function.getResult(j), result(j));
    for (auto [j, activity] : llvm::enumerate(resultActivities))
      if (activity != Activity::Const)
        addResult(tangent(function.getResult(j)), "tangent of " + result(j));
    break;

  case TransformKind::Vjp:
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (isDup(activity))
        addOperand(tangent(function.getInput(i)), "shadow of " + argument(i));
    for (auto [j, activity] : llvm::enumerate(resultActivities))
      if (activity != Activity::Const)
        addOperand(tangent(function.getResult(j)), "cotangent of " + result(j));
    for (auto [j, activity] : llvm::enumerate(resultActivities))
      if (!isNoNeed(activity))
        addResult(function.getResult(j), result(j));
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (activity == Activity::Active)
        addResult(tangent(function.getInput(i)), "cotangent of " + argument(i));
    break;

  case TransformKind::Grad:
  case TransformKind::ValueAndGrad:
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (isDup(activity))
        addOperand(function.getInput(i), "shadow of " + argument(i));
    if (kind == TransformKind::ValueAndGrad)
      addResult(function.getResult(0), "value");
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (activity == Activity::Active)
        addResult(function.getInput(i), "gradient of " + argument(i));
    break;

  case TransformKind::Hvp:
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (activity != Activity::Const)
        addOperand(tangent(function.getInput(i)),
                   "direction for " + argument(i));
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (isDup(activity))
        addOperand(tangent(function.getInput(i)), "output for " + argument(i));
    for (auto [i, activity] : llvm::enumerate(argActivities))
      if (activity == Activity::Active)
        addResult(tangent(function.getInput(i)),
                  "Hessian-vector product for " + argument(i));
    break;
  }
  return signature;
}

/// The activities stored in `op`'s attribute `name`, or the defaults of
/// `types` when the attribute is absent.
static SmallVector<Activity> getActivities(Operation *op, StringRef name,
                                           TypeRange types,
                                           Activity (*getDefault)(Type)) {
  if (auto written = getInherent<ArrayAttr>(op, name))
    return llvm::map_to_vector(written, [](Attribute attr) {
      return cast<ActivityAttr>(attr).getValue();
    });
  return llvm::map_to_vector(types, getDefault);
}

SmallVector<Activity> mlir::moon::getArgActivities(Operation *op,
                                                   FunctionType function) {
  return getActivities(op, "arg_activity", function.getInputs(),
                       getDefaultArgActivity);
}

SmallVector<Activity> mlir::moon::getResultActivities(Operation *op,
                                                      FunctionType function) {
  return getActivities(op, "res_activity", function.getResults(),
                       getDefaultResultActivity);
}

//===----------------------------------------------------------------------===//
// Verification against the callee
//===----------------------------------------------------------------------===//

/// "1 argument", "2 arguments".
static std::string count(size_t n, StringRef singular, StringRef plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural).str();
}

/// The type of the function `callee` names from `op`; reports at `op` when
/// there is no such function.
static FailureOr<FunctionType> lookupFunction(Operation *op,
                                              FlatSymbolRefAttr callee,
                                              SymbolTableCollection &tables,
                                              StringRef what = "") {
  Operation *symbol = tables.lookupNearestSymbolFrom(op, callee);
  if (!symbol)
    return op->emitOpError() << what << "no function named " << callee;
  auto function = dyn_cast<FunctionOpInterface>(symbol);
  auto type = function ? dyn_cast<FunctionType>(function.getFunctionType())
                       : FunctionType();
  if (!type)
    return op->emitOpError()
           << what << callee << " is a '" << symbol->getName()
           << "', not a function with a builtin function type";
  return type;
}

/// Compares the types of `values` with the expected `slots`.
static LogicalResult verifySlots(Operation *op, StringRef what, TypeRange types,
                                 ArrayRef<Slot> slots, FlatSymbolRefAttr callee,
                                 FunctionType function) {
  if (types.size() != slots.size()) {
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects "
                              << count(slots.size(), what, what.str() + "s")
                              << " for " << callee << " : " << function
                              << ", but has " << types.size();
    if (!slots.empty()) {
      diag << " (expected: ";
      llvm::interleaveComma(slots, diag,
                            [&](const Slot &slot) { diag << slot.role; });
      diag << ")";
    }
    return diag;
  }
  for (auto [index, type, slot] : llvm::enumerate(types, slots))
    if (type != slot.type)
      return op->emitOpError() << what << " #" << index << " (" << slot.role
                               << " of " << callee << ") has type " << type
                               << ", but " << slot.type << " is expected";
  return success();
}

/// Checks the activity attribute `name` has one entry per `count`.
static LogicalResult verifyActivityCount(Operation *op, StringRef name,
                                         size_t expected, StringRef what,
                                         FlatSymbolRefAttr callee) {
  auto written = getInherent<ArrayAttr>(op, name);
  if (written && written.size() != expected)
    return op->emitOpError() << "has "
                             << count(written.size(), what.str() + " activity",
                                      what.str() + " activities")
                             << ", but " << callee << " has "
                             << count(expected, what, what.str() + "s");
  return success();
}

/// Verifies a derivative-requesting op against the function it names.
static LogicalResult verifyTransform(Operation *op, TransformKind kind,
                                     SymbolTableCollection &tables) {
  auto callee = getInherent<FlatSymbolRefAttr>(op, "callee");
  FailureOr<FunctionType> found = lookupFunction(op, callee, tables);
  if (failed(found))
    return failure();
  FunctionType function = *found;
  if (failed(verifyActivityCount(op, "arg_activity", function.getNumInputs(),
                                 "argument", callee)) ||
      failed(verifyActivityCount(op, "res_activity", function.getNumResults(),
                                 "result", callee)))
    return failure();

  int64_t width = 1;
  if (auto attr = getInherent<IntegerAttr>(op, "width"))
    width = attr.getInt();
  SmallVector<Activity> argActivities = getArgActivities(op, function);
  if (kind == TransformKind::Grad || kind == TransformKind::ValueAndGrad ||
      kind == TransformKind::Hvp) {
    if (llvm::none_of(argActivities,
                      [](Activity a) { return a != Activity::Const; }))
      return op->emitOpError()
             << "has nothing to differentiate: every argument of " << callee
             << " is 'const'";
  }
  FailureOr<Signature> signature = getTransformSignature(
      kind, function, argActivities, getResultActivities(op, function), width,
      [&] { return op->emitOpError(); });
  if (failed(signature))
    return failure();
  if (failed(verifySlots(op, "operand", op->getOperandTypes(),
                         signature->operands, callee, function)))
    return failure();
  return verifySlots(op, "result", op->getResultTypes(), signature->results,
                     callee, function);
}

LogicalResult JvpOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyTransform(*this, TransformKind::Jvp, tables);
}

LogicalResult VjpOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyTransform(*this, TransformKind::Vjp, tables);
}

LogicalResult GradOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyTransform(*this, TransformKind::Grad, tables);
}

LogicalResult ValueAndGradOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyTransform(*this, TransformKind::ValueAndGrad, tables);
}

LogicalResult HvpOp::verifySymbolUses(SymbolTableCollection &tables) {
  return verifyTransform(*this, TransformKind::Hvp, tables);
}

//===----------------------------------------------------------------------===//
// moon.vmap
//===----------------------------------------------------------------------===//

LogicalResult VmapOp::verify() {
  for (auto [name, axes] : {std::pair{"in_axes", getInAxes()},
                            std::pair{"out_axes", getOutAxes()}}) {
    if (!axes)
      continue;
    for (auto [index, axis] : llvm::enumerate(*axes))
      if (axis < kNoAxis)
        return emitOpError() << name << " entry #" << index << " is " << axis
                             << "; expected an axis (0 or more) or none";
  }
  return success();
}

/// Checks that `batched` is `type` with a batch dimension at `axis`, and
/// returns the size of that dimension.
static FailureOr<int64_t>
getBatchSize(Type type, Type batched, int64_t axis,
             function_ref<InFlightDiagnostic()> emitError) {
  auto shaped = dyn_cast<ShapedType>(batched);
  auto mismatch = [&] {
    return emitError() << "has type " << batched << ", which is not " << type
                       << " with a batch dimension at axis " << axis;
  };
  if (!shaped || !shaped.hasRank())
    return mismatch();
  if (type.isIntOrIndexOrFloat()) {
    auto vector = dyn_cast<VectorType>(batched);
    auto tensor = dyn_cast<RankedTensorType>(batched);
    if (axis != 0 || shaped.getRank() != 1 || shaped.getElementType() != type ||
        !isa<VectorType, RankedTensorType, MemRefType>(batched) ||
        (vector && vector.isScalable()) || (tensor && tensor.getEncoding()))
      return mismatch();
    return shaped.getDimSize(0);
  }
  auto unbatched = dyn_cast<ShapedType>(type);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!unbatched || !unbatched.hasRank() || (tensor && tensor.getEncoding()))
    return emitError() << "batches a value of type " << type
                       << ", which moon.vmap cannot batch";
  if (batched.getTypeID() != type.getTypeID() || axis > unbatched.getRank() ||
      shaped.getRank() != unbatched.getRank() + 1)
    return mismatch();
  SmallVector<int64_t> shape(shaped.getShape());
  shape.erase(shape.begin() + axis);
  if (shape != unbatched.getShape() ||
      shaped.getElementType() != unbatched.getElementType())
    return mismatch();
  if (auto memref = dyn_cast<MemRefType>(batched);
      memref &&
      memref.getMemorySpace() != cast<MemRefType>(type).getMemorySpace())
    return mismatch();
  if (auto tensor = dyn_cast<RankedTensorType>(batched);
      tensor && tensor.getEncoding())
    return mismatch();
  if (auto vector = dyn_cast<VectorType>(batched)) {
    SmallVector<bool> scalable(vector.getScalableDims());
    bool batchScalable = scalable[axis];
    scalable.erase(scalable.begin() + axis);
    if (batchScalable ||
        ArrayRef<bool>(scalable) != cast<VectorType>(type).getScalableDims())
      return mismatch();
  }
  return shaped.getDimSize(axis);
}

LogicalResult VmapOp::verifySymbolUses(SymbolTableCollection &tables) {
  FailureOr<FunctionType> found =
      lookupFunction(*this, getCalleeAttr(), tables);
  if (failed(found))
    return failure();
  FunctionType function = *found;

  SmallVector<int64_t> inAxes(function.getNumInputs(), 0);
  SmallVector<int64_t> outAxes(function.getNumResults(), 0);
  if (auto axes = getInAxes())
    inAxes.assign(axes->begin(), axes->end());
  if (auto axes = getOutAxes())
    outAxes.assign(axes->begin(), axes->end());
  if (inAxes.size() != function.getNumInputs())
    return emitOpError() << "has " << inAxes.size() << " in_axes, but "
                         << getCalleeAttr() << " has "
                         << count(function.getNumInputs(), "argument",
                                  "arguments");
  if (outAxes.size() != function.getNumResults())
    return emitOpError() << "has " << outAxes.size() << " out_axes, but "
                         << getCalleeAttr() << " has "
                         << count(function.getNumResults(), "result",
                                  "results");
  if (llvm::all_of(inAxes, [](int64_t axis) { return axis == kNoAxis; }))
    return emitOpError() << "batches no argument: at least one in_axes "
                            "entry must be an axis";
  if (getNumOperands() != function.getNumInputs())
    return emitOpError() << "expects "
                         << count(function.getNumInputs(), "operand",
                                  "operands")
                         << " for " << getCalleeAttr() << " : " << function
                         << ", but has " << getNumOperands();
  if (getNumResults() != function.getNumResults())
    return emitOpError() << "expects "
                         << count(function.getNumResults(), "result", "results")
                         << " for " << getCalleeAttr() << " : " << function
                         << ", but has " << getNumResults();

  std::optional<std::pair<int64_t, std::string>> batch;
  auto check = [&](StringRef what, size_t index, Type type, Type actual,
                   int64_t axis) -> LogicalResult {
    auto emitError = [&] {
      return emitOpError() << what << " #" << index << " ";
    };
    if (axis == kNoAxis) {
      if (actual != type)
        return emitError() << "has type " << actual << ", but " << type
                           << " is expected (it is not batched)";
      return success();
    }
    FailureOr<int64_t> size = getBatchSize(type, actual, axis, emitError);
    if (failed(size))
      return failure();
    std::string name = (what + " #" + Twine(index)).str();
    if (ShapedType::isDynamic(*size))
      return success();
    if (batch && batch->first != *size)
      return emitError() << "has batch size " << *size << ", but "
                         << batch->second << " has batch size " << batch->first;
    batch = {*size, name};
    return success();
  };
  for (auto [index, type, actual, axis] :
       llvm::enumerate(function.getInputs(), getOperandTypes(), inAxes))
    if (failed(check("operand", index, type, actual, axis)))
      return failure();
  for (auto [index, type, actual, axis] :
       llvm::enumerate(function.getResults(), getResultTypes(), outAxes))
    if (failed(check("result", index, type, actual, axis)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// moon.custom_rule
//===----------------------------------------------------------------------===//

LogicalResult CustomRuleOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (!parent || !parent->hasTrait<OpTrait::SymbolTable>())
    return emitOpError() << "must be placed directly in a module (or another "
                            "symbol table), beside the functions it names";
  if (!getJvp() && !getVjp())
    return emitOpError() << "gives neither a jvp nor a vjp function";
  return success();
}

LogicalResult CustomRuleOp::verifySymbolUses(SymbolTableCollection &tables) {
  FailureOr<FunctionType> found =
      lookupFunction(*this, getCalleeAttr(), tables);
  if (failed(found))
    return failure();
  FunctionType function = *found;

  for (auto [rule, kind] : {std::pair{getJvpAttr(), TransformKind::Jvp},
                            std::pair{getVjpAttr(), TransformKind::Vjp}}) {
    if (!rule)
      continue;
    StringRef name = kind == TransformKind::Jvp ? "jvp" : "vjp";
    FailureOr<FunctionType> ruleType =
        lookupFunction(*this, rule, tables, (name + " rule: ").str());
    if (failed(ruleType))
      return failure();
    FailureOr<Signature> signature = getTransformSignature(
        kind, function,
        llvm::map_to_vector(function.getInputs(), getDefaultArgActivity),
        llvm::map_to_vector(function.getResults(), getDefaultResultActivity),
        /*width=*/1, [&] { return emitOpError(); });
    if (failed(signature))
      return failure();
    auto slotTypes = [](ArrayRef<Slot> slots) {
      return llvm::map_to_vector(slots, [](const Slot &s) { return s.type; });
    };
    auto expected =
        FunctionType::get(getContext(), slotTypes(signature->operands),
                          slotTypes(signature->results));
    if (*ruleType != expected)
      return emitOpError() << "the " << name << " rule " << rule << " has type "
                           << *ruleType << ", but the " << name << " of "
                           << getCalleeAttr() << " has type " << expected;
  }

  // A function has at most one custom rule; all rules of a symbol table are
  // in its one block.
  for (Operation &other : (*this)->getBlock()->getOperations()) {
    if (&other == getOperation())
      break;
    auto earlier = dyn_cast<CustomRuleOp>(other);
    if (earlier && earlier.getCalleeAttr() == getCalleeAttr())
      return emitOpError() << "is a second custom rule for " << getCalleeAttr()
                           << "; a function has at most one";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Custom syntax of the transform operations
//===----------------------------------------------------------------------===//

static bool hasAttribute(OperationName name, StringRef attr) {
  return llvm::any_of(name.getAttributeNames(),
                      [&](StringAttr a) { return a.getValue() == attr; });
}

static ParseResult parseActivities(OpAsmParser &parser, StringRef keyword,
                                   StringRef attrName, OperationState &state) {
  if (!hasAttribute(state.name, attrName) ||
      failed(parser.parseOptionalKeyword(keyword)))
    return success();
  SmallVector<Attribute> activities;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    std::optional<Activity> activity = symbolizeActivity(keyword);
    if (!activity)
      return parser.emitError(loc)
             << "unknown activity '" << keyword
             << "'; expected const, active, active_noneed, dup or dup_noneed";
    activities.push_back(ActivityAttr::get(parser.getContext(), *activity));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  state.addAttribute(attrName, parser.getBuilder().getArrayAttr(activities));
  return success();
}

static ParseResult parseAxes(OpAsmParser &parser, StringRef name,
                             OperationState &state) {
  if (!hasAttribute(state.name, name) ||
      failed(parser.parseOptionalKeyword(name)))
    return success();
  SmallVector<int64_t> axes;
  auto parseOne = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("none"))) {
      axes.push_back(kNoAxis);
      return success();
    }
    return parser.parseInteger(axes.emplace_back());
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  state.addAttribute(name, parser.getBuilder().getDenseI64ArrayAttr(axes));
  return success();
}

/// Parses `@callee(%operands) [args [...]] [results [...]] [width N]
/// [in_axes [...]] [out_axes [...]] attr-dict : functional-type`, accepting
/// only the clauses whose attribute the operation has.
static ParseResult parseTransformOp(OpAsmParser &parser,
                                    OperationState &state) {
  FlatSymbolRefAttr callee;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseAttribute(callee, "callee", state.attributes))
    return failure();
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, OpAsmParser::Delimiter::Paren) ||
      parseActivities(parser, "args", "arg_activity", state) ||
      parseActivities(parser, "results", "res_activity", state))
    return failure();
  if (hasAttribute(state.name, "width") &&
      succeeded(parser.parseOptionalKeyword("width"))) {
    int64_t width;
    if (parser.parseInteger(width))
      return failure();
    state.addAttribute("width", parser.getBuilder().getI64IntegerAttr(width));
  }
  FunctionType type;
  if (parseAxes(parser, "in_axes", state) ||
      parseAxes(parser, "out_axes", state) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), operandsLoc,
                             state.operands))
    return failure();
  state.addTypes(type.getResults());
  return success();
}

static void printActivities(OpAsmPrinter &p, Operation *op, StringRef keyword,
                            StringRef attrName) {
  auto activities = getInherent<ArrayAttr>(op, attrName);
  if (!activities)
    return;
  p << ' ' << keyword << " [";
  llvm::interleaveComma(activities, p, [&](Attribute attr) {
    p << stringifyActivity(cast<ActivityAttr>(attr).getValue());
  });
  p << ']';
}

static void printAxes(OpAsmPrinter &p, Operation *op, StringRef name) {
  auto axes = getInherent<DenseI64ArrayAttr>(op, name);
  if (!axes)
    return;
  p << ' ' << name << " [";
  llvm::interleaveComma(axes.asArrayRef(), p, [&](int64_t axis) {
    if (axis == kNoAxis)
      p << "none";
    else
      p << axis;
  });
  p << ']';
}

static void printTransformOp(OpAsmPrinter &p, Operation *op) {
  p << ' ';
  p.printAttributeWithoutType(getInherent<FlatSymbolRefAttr>(op, "callee"));
  p << '(' << op->getOperands() << ')';
  printActivities(p, op, "args", "arg_activity");
  printActivities(p, op, "results", "res_activity");
  if (auto width = getInherent<IntegerAttr>(op, "width"))
    p << " width " << width.getInt();
  printAxes(p, op, "in_axes");
  printAxes(p, op, "out_axes");
  p.printOptionalAttrDict(op->getDiscardableAttrDictionary().getValue());
  p << " : ";
  p.printFunctionalType(op);
}

#define MOON_TRANSFORM_SYNTAX(OP)                                              \
  ParseResult OP::parse(OpAsmParser &parser, OperationState &state) {          \
    return parseTransformOp(parser, state);                                    \
  }                                                                            \
  void OP::print(OpAsmPrinter &p) { printTransformOp(p, *this); }

MOON_TRANSFORM_SYNTAX(JvpOp)
MOON_TRANSFORM_SYNTAX(VjpOp)
MOON_TRANSFORM_SYNTAX(GradOp)
MOON_TRANSFORM_SYNTAX(ValueAndGradOp)
MOON_TRANSFORM_SYNTAX(HvpOp)
MOON_TRANSFORM_SYNTAX(VmapOp)
