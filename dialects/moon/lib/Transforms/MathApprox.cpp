//===- MathApprox.cpp - moon-math-approx: math ops without libdevice ------===//
//
// Expands math ops into simpler ones and replaces f32 transcendental ops
// with MLIR's polynomial approximations, so that GPU kernels lower to PTX
// that calls no libdevice function; a transcendental op left over is an
// error at the op.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

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
  return isa<math::AbsIOp, math::CopySignOp, math::CountLeadingZerosOp,
             math::CountTrailingZerosOp, math::CtPopOp, math::FmaOp,
             math::RoundEvenOp, math::RoundOp, math::TruncOp>(op);
}

/// The NVVM intrinsic that computes `op` exactly on its scalar f32 or f64
/// type, for the math ops that convert-gpu-to-nvvm would make libdevice
/// calls although NVPTX has instructions for them; empty for other ops.
std::string nvvmIntrinsic(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumOperands() != 1)
    return "";
  Type type = op->getResult(0).getType();
  if (!isa<Float32Type, Float64Type>(type))
    return "";
  const char *base = llvm::TypeSwitch<Operation *, const char *>(op)
                         .Case([](math::FloorOp) { return "llvm.nvvm.floor"; })
                         .Case([](math::CeilOp) { return "llvm.nvvm.ceil"; })
                         .Case([](math::AbsFOp) { return "llvm.nvvm.fabs"; })
                         .Case([](math::SqrtOp) { return "llvm.nvvm.sqrt.rn"; })
                         .Default([](Operation *) { return nullptr; });
  if (!base)
    return "";
  return std::string(base) + (type.isF32() ? ".f" : ".d");
}

struct MathApproxPass : public moon::impl::MoonMathApproxBase<MathApproxPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // First into ops the approximations know (tan into sin/cos, powf into
    // exp/log, ...), then the approximations themselves.
    RewritePatternSet expand(context);
    populateExpandTanPattern(expand);
    populateExpandSinhPattern(expand);
    populateExpandCoshPattern(expand);
    populateExpandAsinhPattern(expand);
    populateExpandAcoshPattern(expand);
    populateExpandAtanhPattern(expand);
    populateExpandPowFPattern(expand);
    populateExpandExp2FPattern(expand);
    populateExpandFPowIPattern(expand);
    populateExpandRsqrtPattern(expand);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(expand))))
      return signalPassFailure();

    RewritePatternSet approximate(context);
    populateMathPolynomialApproximationPatterns(approximate);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(approximate))))
      return signalPassFailure();

    // floor, ceil, fabs and sqrt (also those the approximations made):
    // convert-gpu-to-nvvm would call libdevice's __nv_floorf and the like.
    getOperation()->walk([](Operation *op) {
      std::string intrinsic = nvvmIntrinsic(op);
      if (intrinsic.empty())
        return;
      OpBuilder b(op);
      auto call = b.create<LLVM::CallIntrinsicOp>(op->getLoc(),
                                                  op->getResult(0).getType(),
                                                  intrinsic, op->getOperands());
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
