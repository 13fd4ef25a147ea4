//===- GpuReduce.cpp - moon-gpu-reduce: 1-D sums as GPU kernels -----------===//
//
// Rewrites a linalg.generic summing f(x_i) over rank-1 memrefs into a rank-0
// memref as a gpu.launch: grid-stride accumulation per thread, a block
// reduction (gpu.all_reduce) and one atomic add per block.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONGPUREDUCE
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// Threads per block of the reduction kernels.
constexpr int64_t kThreads = 256;
/// The most blocks launched: beyond, each thread takes more elements.
constexpr int64_t kMaxBlocks = 1024;

/// The value the body of `op` adds to its output (`f` in `out + f(in...)`),
/// or null when `op` is not a 1-D sum the pass rewrites (moon-gpu-pipeline
/// leaves the others to moon-reductions-to-atomics).
Value summand(linalg::GenericOp op) {
  if (op.getNumLoops() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() == 0) {
    // Needs one loop, at least one input and one output.
    return {};
  }
  auto out = dyn_cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  if (!out || out.getRank() != 0 ||
      !isa<Float32Type, Float64Type>(out.getElementType())) {
    // Needs a rank-0 f32 or f64 memref as the output.
    return {};
  }
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || type.getRank() != 1 ||
        !op.getMatchingIndexingMap(input).isIdentity()) {
      // Needs rank-1 memref inputs read with the identity map.
      return {};
    }
  }
  Block &body = op.getRegion().front();
  BlockArgument acc = body.getArguments().back();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add || !acc.hasOneUse() || acc.getUses().begin()->getOwner() != add) {
    // Needs a body that adds one value to the output (arith.addf).
    return {};
  }
  return add.getLhs() == acc ? add.getRhs() : add.getLhs();
}

/// Replaces the sum `op` (whose summand is `f`) with a gpu.launch.
void rewrite(linalg::GenericOp op, Value f) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value out = op.getDpsInitOperand(0)->get();
  Type element = cast<MemRefType>(out.getType()).getElementType();
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Value c0 = index(0), c1 = index(1), threads = index(kThreads);
  Value n = memref::DimOp::create(b, loc, op.getDpsInputOperand(0)->get(), 0);
  // blocks = clamp(ceil(n / threads), 1, kMaxBlocks), the ceiling as
  // (n + threads - 1) / threads: convert-arith-to-llvm has no pattern for
  // arith.ceildivui, which would be left in the host code.
  Value blocks = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, n, index(kThreads - 1)), threads);
  blocks = arith::MinUIOp::create(b, loc, blocks, index(kMaxBlocks));
  blocks = arith::MaxUIOp::create(b, loc, blocks, c1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, c1, c1, threads, c1, c1);

  b.setInsertionPointToStart(&launch.getBody().front());
  Value tx = launch.getThreadIds().x;
  Value first = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            launch.getBlockSize().x),
      tx);
  Value stride = arith::MulIOp::create(b, loc, launch.getGridSize().x,
                                       launch.getBlockSize().x);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto loop = scf::ForOp::create(
      b, loc, first, n, stride, ValueRange{zero},
      [&](OpBuilder &lb, Location l, Value i, ValueRange iterArgs) {
        Block &body = op.getRegion().front();
        IRMapping map;
        for (auto [arg, input] :
             llvm::zip(body.getArguments(), op.getDpsInputs()))
          map.map(arg, memref::LoadOp::create(lb, l, input, i).getResult());
        Operation *add = body.getTerminator()->getOperand(0).getDefiningOp();
        for (Operation &inner : body.without_terminator())
          if (&inner != add)
            lb.clone(inner, map);
        Value sum =
            arith::AddFOp::create(lb, l, iterArgs[0], map.lookupOrDefault(f));
        scf::YieldOp::create(lb, l, sum);
      });
  Value blockSum = gpu::AllReduceOp::create(
      b, loc, loop.getResult(0),
      gpu::AllReduceOperationAttr::get(b.getContext(),
                                       gpu::AllReduceOperation::ADD),
      /*uniform=*/true);
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tx, c0);
  auto ifFirst = scf::IfOp::create(b, loc, isFirst, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addf, blockSum, out,
                              ValueRange{});
  b.setInsertionPointAfter(ifFirst);
  gpu::TerminatorOp::create(b, loc);
  op.erase();
}

struct GpuReducePass : public moon::impl::MoonGpuReduceBase<GpuReducePass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> sums;
    getOperation().walk([&](linalg::GenericOp op) {
      // Reductions inside a kernel the user wrote are the kernel's own.
      if (op.getNumReductionLoops() != 0 && summand(op) &&
          !op->getParentOfType<gpu::LaunchOp>() &&
          !op->getParentOfType<gpu::GPUFuncOp>())
        sums.push_back(op);
    });
    for (linalg::GenericOp op : sums)
      rewrite(op, summand(op));
  }
};

} // namespace
