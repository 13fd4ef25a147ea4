//===- MathBeforeLibm.cpp - moon-math-before-libm: math ops libm lacks ----===//
//
// Lowers the math ops that convert-math-to-libm fails on or turns into a
// call of a function libm lacks (rsqrt, clampf, sincos, copysign, the is*
// tests, the integer ops), and fma, which LLVM has as an intrinsic, just
// before it in moon-cpu-pipeline.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Conversion/ArithCommon/AttrToLLVMConverter.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONMATHBEFORELIBM
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// `math.isinf` as `|x| == +inf` (ordered, so false on NaN): no conversion
/// to LLVM lowers it.
struct ExpandIsInf : public OpRewritePattern<math::IsInfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsInfOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getOperand().getType();
    auto semantics = cast<FloatType>(getElementTypeOrSelf(type));
    Value abs = math::AbsFOp::create(rewriter, loc, op.getOperand());
    Value inf = createScalarOrSplatConstant(
        rewriter, loc, type, APFloat::getInf(semantics.getFloatSemantics()));
    rewriter.replaceOpWithNewOp<arith::CmpFOp>(op, arith::CmpFPredicate::OEQ,
                                               abs, inf);
    return success();
  }
};

/// `math.isnormal` as `smallest normal <= |x| < +inf` (ordered, so false on
/// NaN, zeros and subnormals): no conversion to LLVM lowers it.
struct ExpandIsNormal : public OpRewritePattern<math::IsNormalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::IsNormalOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type type = op.getOperand().getType();
    const llvm::fltSemantics &semantics =
        cast<FloatType>(getElementTypeOrSelf(type)).getFloatSemantics();
    Value abs = math::AbsFOp::create(rewriter, loc, op.getOperand());
    Value smallest = createScalarOrSplatConstant(
        rewriter, loc, type, APFloat::getSmallestNormalized(semantics));
    Value inf = createScalarOrSplatConstant(rewriter, loc, type,
                                            APFloat::getInf(semantics));
    Value atLeast = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGE, abs, smallest);
    Value finite = arith::CmpFOp::create(rewriter, loc,
                                         arith::CmpFPredicate::OLT, abs, inf);
    rewriter.replaceOpWithNewOp<arith::AndIOp>(op, atLeast, finite);
    return success();
  }
};

/// `math.sincos` as a `math.sin` and a `math.cos`, which become libm calls
/// (vectorized through libmvec) like any other; LLVM merges the two calls
/// again where that pays. Preferred to convert-math-to-llvm's
/// `llvm.intr.sincos` (benefit 2).
struct SplitSincos : public OpRewritePattern<math::SincosOp> {
  SplitSincos(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(math::SincosOp op,
                                PatternRewriter &rewriter) const override {
    Value sin = math::SinOp::create(rewriter, op.getLoc(), op.getOperand(),
                                    op.getFastmath());
    Value cos = math::CosOp::create(rewriter, op.getLoc(), op.getOperand(),
                                    op.getFastmath());
    rewriter.replaceOp(op, {sin, cos});
    return success();
  }
};

/// Whether `op` is one of the math ops `moon-math-before-libm` hands to
/// convert-math-to-llvm's patterns.
bool isLoweredToLlvm(Operation *op) {
  return isa<math::RsqrtOp, math::CopySignOp, math::FmaOp, math::AbsIOp,
             math::CountLeadingZerosOp, math::CountTrailingZerosOp,
             math::CtPopOp, math::IsNaNOp, math::IsFiniteOp>(op);
}

/// Whether `type` is a vector of rank 2 or more.
bool isMultiDimVector(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  return vector && vector.getRank() > 1;
}

/// One of those ops on n-D vectors (n > 1) as the same op on the 1-D
/// vectors `vector.shape_cast` flattens them to: convert-math-to-llvm's
/// patterns for `absi`, `ctlz`, `cttz` and the `is*` tests take only 1-D
/// vectors, and the ops are elementwise. Preferred to those patterns
/// (benefit 2).
struct FlattenVectorMath : public RewritePattern {
  FlattenVectorMath(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isLoweredToLlvm(op) ||
        !llvm::any_of(op->getResultTypes(), isMultiDimVector))
      return failure();
    auto flat = [](Type type) -> Type {
      auto vector = cast<VectorType>(type);
      return VectorType::get({vector.getNumElements()},
                             vector.getElementType());
    };
    Location loc = op->getLoc();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands())
      operands.push_back(vector::ShapeCastOp::create(
          rewriter, loc, flat(operand.getType()), operand));
    // A clone keeps the op's properties (fastmath flags).
    Operation *flatOp = rewriter.clone(*op);
    flatOp->setOperands(operands);
    for (OpResult result : flatOp->getResults())
      result.setType(flat(result.getType()));
    SmallVector<Value> results;
    for (auto [result, flatResult] :
         llvm::zip(op->getResults(), flatOp->getResults()))
      results.push_back(vector::ShapeCastOp::create(
          rewriter, loc, result.getType(), flatResult));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// `moon-math-before-libm` (MoonPasses.td): the rewrites above, MLIR's
/// expansion of `clampf`, and convert-math-to-llvm's patterns for the ops
/// `isLoweredToLlvm` names, applied as a partial conversion.
struct MathBeforeLibmPass
    : public moon::impl::MoonMathBeforeLibmBase<MathBeforeLibmPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    LLVMTypeConverter converter(context);
    RewritePatternSet patterns(context);
    populateMathToLLVMConversionPatterns(converter, patterns);
    math::populateExpansionPatterns(patterns, {"clampf"});
    patterns.add<ExpandIsInf, ExpandIsNormal, SplitSincos, FlattenVectorMath>(
        context);

    ConversionTarget target(*context);
    target.addIllegalOp<math::ClampFOp, math::SincosOp, math::IsInfOp,
                        math::IsNormalOp>();
    target.markUnknownOpDynamicallyLegal(
        [](Operation *op) { return !isLoweredToLlvm(op); });
    // fma on the LLVM dialect's own types becomes llvm.intr.fma directly,
    // not through the conversion, which takes microseconds an op (a module
    // of thousands of functions with an exp inlined in each has a dozen
    // fmas per function); the conversion visits only the other ops it
    // lowers. With neither, the IR stays as it is and is not verified again.
    bool changed = false;
    SmallVector<Operation *> lowered;
    IRRewriter rewriter(context);
    getOperation()->walk([&](Operation *op) {
      auto fma = dyn_cast<math::FmaOp>(op);
      if (fma && LLVM::isCompatibleType(fma.getType())) {
        rewriter.setInsertionPoint(fma);
        rewriter.replaceOpWithNewOp<LLVM::FMAOp>(
            fma, fma.getA(), fma.getB(), fma.getC(),
            arith::convertArithFastMathAttrToLLVM(fma.getFastmathAttr()));
        changed = true;
      } else if (target.isIllegal(op)) {
        lowered.push_back(op);
      }
    });
    if (lowered.empty()) {
      if (!changed)
        markAllAnalysesPreserved();
      return;
    }
    if (failed(applyPartialConversion(lowered, target, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
