//===- MathApprox.cpp - moon-math-approx: math ops without libdevice ------===//
//
// Expands math ops into simpler ones and replaces f32 transcendental ops
// with MLIR's polynomial approximations, so that GPU kernels lower to PTX
// that calls no libdevice function; a transcendental op left over is an
// error at the op.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONMATHAPPROX
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// Whether `op` is a math op that convert-gpu-to-nvvm lowers to an LLVM
/// intrinsic NVPTX implements natively (an instruction or a short sequence
/// LLVM expands), so that it needs no library function.
bool isNativeOnGpu(Operation *op) {
  return isa<math::CountLeadingZerosOp, math::CountTrailingZerosOp,
             math::CtPopOp, math::TruncOp>(op);
}

/// The intrinsic that computes `op` exactly on its scalar f32 or f64 type,
/// for the math ops that convert-gpu-to-nvvm would make libdevice calls
/// although NVPTX has instructions for them (MLIR 22 also sends fma,
/// copysign, round and roundeven to libdevice); empty for other ops.
std::string gpuIntrinsic(Operation *op) {
  if (op->getNumResults() != 1)
    return "";
  Type type = op->getResult(0).getType();
  if (!isa<Float32Type, Float64Type>(type))
    return "";
  // NVVM's own take an f/d suffix, except fabs, which LLVM 22 overloads
  // (llvm.nvvm.fabs.f32); LLVM's generic ones are overloaded.
  bool f32 = type.isF32();
  std::string nvvm = f32 ? ".f" : ".d", generic = f32 ? ".f32" : ".f64";
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case([&](math::FloorOp) { return "llvm.nvvm.floor" + nvvm; })
      .Case([&](math::CeilOp) { return "llvm.nvvm.ceil" + nvvm; })
      .Case([&](math::AbsFOp) { return "llvm.nvvm.fabs" + generic; })
      .Case([&](math::SqrtOp) { return "llvm.nvvm.sqrt.rn" + nvvm; })
      .Case([&](math::FmaOp) { return "llvm.fma" + generic; })
      .Case([&](math::CopySignOp) { return "llvm.copysign" + generic; })
      .Case([&](math::RoundOp) { return "llvm.round" + generic; })
      .Case([&](math::RoundEvenOp) { return "llvm.roundeven" + generic; })
      .Default([](Operation *) { return ""; });
}

/// |x| for integers as arith ops (max(x, 0 - x), so |INT_MIN| = INT_MIN as
/// in math.absi): MLIR 22's convert-gpu-to-nvvm calls libdevice's __nv_abs.
void expandAbsI(math::AbsIOp op) {
  OpBuilder b(op);
  Value x = op.getOperand();
  Value zero =
      arith::ConstantOp::create(b, op.getLoc(), b.getZeroAttr(x.getType()));
  Value negated = arith::SubIOp::create(b, op.getLoc(), zero, x);
  op.replaceAllUsesWith(
      arith::MaxSIOp::create(b, op.getLoc(), x, negated).getResult());
  op.erase();
}

struct MathApproxPass : public moon::impl::MoonMathApproxBase<MathApproxPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // First into ops the approximations know (tan into sin/cos, powf into
    // exp/log, ...), then the approximations themselves.
    RewritePatternSet expand(context);
    math::populateExpansionPatterns(expand, {"tan", "sinh", "cosh", "asinh",
                                             "acosh", "atanh", "powf", "exp2",
                                             "fpowi", "rsqrt"});
    if (failed(applyPatternsGreedily(getOperation(), std::move(expand))))
      return signalPassFailure();

    RewritePatternSet approximate(context);
    populateMathPolynomialApproximationPatterns(approximate);
    if (failed(applyPatternsGreedily(getOperation(), std::move(approximate))))
      return signalPassFailure();

    // floor, ceil, fabs, sqrt, fma, ... (also those the approximations
    // made): convert-gpu-to-nvvm would call libdevice's __nv_floorf and the
    // like.
    getOperation()->walk(expandAbsI);
    getOperation()->walk([](Operation *op) {
      std::string intrinsic = gpuIntrinsic(op);
      if (intrinsic.empty())
        return;
      OpBuilder b(op);
      auto call = LLVM::CallIntrinsicOp::create(
          b, op->getLoc(), op->getResult(0).getType(),
          b.getStringAttr(intrinsic), op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
    });

    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<math::MathDialect>(op->getDialect()) || isNativeOnGpu(op))
        return WalkResult::advance();
      std::string type;
      llvm::raw_string_ostream typeStream(type);
      if (op->getNumResults())
        typeStream << getElementTypeOrSelf(op->getResult(0));
      op->emitError() << op->getName() << " on " << type
                      << " in a GPU kernel needs libdevice: pass "
                         "libdevice=PATH (moonc: --libdevice PATH)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
