//===- FuseElementwise.cpp - moon-fuse-elementwise ------------------------===//
//
// Upstream linalg-fuse-elementwise-ops with a control function that only
// fuses a producer into a consumer reading each of its elements once (see
// MoonPasses.td). C++ because the fusion patterns and their control
// function have no C API.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONFUSEELEMENTWISE
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// Whether the fusion through `fused` computes no producer element twice:
/// the producer has no other use, and the consumer reads it through a
/// permutation of all the consumer's loops.
bool readsEachElementOnce(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return consumer && consumer.getMatchingIndexingMap(fused).isPermutation();
}

/// Whether a reshape may be folded by expansion: upstream's own condition.
bool singleUseProducer(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

struct FuseElementwisePass
    : public moon::impl::MoonFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 readsEachElementOnce);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns,
                                                      singleUseProducer);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, singleUseProducer);
    GreedyRewriteConfig config;
    config.setUseTopDownTraversal(true);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};

} // namespace
