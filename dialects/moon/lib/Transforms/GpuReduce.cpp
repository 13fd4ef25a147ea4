//===- GpuReduce.cpp - moon-gpu-reduce: sums as GPU kernels ---------------===//
//
// Rewrites a linalg.generic summing f(...) over its whole iteration space
// into a rank-0 memref (and storing any other values per iteration) as a
// gpu.launch: grid-stride accumulation per thread, a block reduction
// (gpu.all_reduce) and one atomic add per block.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

#include <optional>

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
/// Iterations a thread loads before computing any: its loads in flight.
constexpr int64_t kUnroll = 4;

/// A sum the pass rewrites: which output accumulates, and the value the
/// body adds to it (`f` in `out + f(in...)`).
struct Sum {
  unsigned output;
  Value summand;
};

/// `op` as a sum over its whole iteration space, or nothing when it is not
/// one the pass rewrites (moon-gpu-pipeline leaves the others to
/// moon-reductions-to-atomics): memref operands; inputs read through
/// projected permutations (a rank-0 input is one value for every
/// iteration, loaded before the launch); one rank-0 f32 or f64 output
/// whose body adds one value to it; any other outputs written through
/// permutations of all loops (an element per iteration, as reverse mode's
/// fused primal and partials, or the shadow moon-fuse-partials lets the
/// same generic write).
std::optional<Sum> asSum(linalg::GenericOp op) {
  if (op.getNumLoops() == 0 || op.getNumDpsInputs() == 0)
    return std::nullopt;
  for (OpOperand &operand : op->getOpOperands())
    if (!isa<MemRefType>(operand.get().getType()))
      return std::nullopt;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!op.getMatchingIndexingMap(input).isProjectedPermutation())
      return std::nullopt;
  Block &body = op.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  std::optional<Sum> sum;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned k = init.getOperandNumber() - op.getNumDpsInputs();
    auto type = cast<MemRefType>(init.get().getType());
    if (type.getRank() == 0 && !sum &&
        isa<Float32Type, Float64Type>(type.getElementType())) {
      BlockArgument acc = op.getMatchingBlockArgument(&init);
      auto add = yield.getValues()[k].getDefiningOp<arith::AddFOp>();
      if (!add || !acc.hasOneUse() ||
          acc.getUses().begin()->getOwner() != add || !add->hasOneUse())
        return std::nullopt;
      sum = Sum{k, add.getLhs() == acc ? add.getRhs() : add.getLhs()};
      continue;
    }
    if (!op.getMatchingIndexingMap(&init).isPermutation())
      return std::nullopt;
  }
  return sum;
}

/// Replaces the sum `op` with a gpu.launch.
void rewrite(linalg::GenericOp op, Sum sum) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value out = op.getDpsInitOperand(sum.output)->get();
  Type element = cast<MemRefType>(out.getType()).getElementType();
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Value c0 = index(0), c1 = index(1), threads = index(kThreads);
  SmallVector<Value> sizes;
  for (Range range :
       cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc))
    sizes.push_back(getValueOrCreateConstantIndexOp(b, loc, range.size));
  unsigned rank = sizes.size();
  // Rank-0 inputs are loaded on the host, before the launch: the kernel
  // takes their values as parameters.
  Block &body = op.getRegion().front();
  IRMapping hostValues;
  for (OpOperand *input : op.getDpsInputOperands())
    if (cast<MemRefType>(input->get().getType()).getRank() == 0)
      hostValues.map(op.getMatchingBlockArgument(input),
                     memref::LoadOp::create(b, loc, input->get()).getResult());
  // One dimension: grid-stride over the elements, min(ceil(n / threads),
  // kMaxBlocks) blocks, the ceiling as (n + threads - 1) / threads
  // (convert-arith-to-llvm has no pattern for arith.ceildivui). More: a
  // block per row of the last dimension (grid-stride over the rows), its
  // threads striding along the row, so that loads stay coalesced.
  Value rows = rank == 1 ? c1 : sizes[0];
  for (unsigned d = 1; d + 1 < rank; ++d)
    rows = arith::MulIOp::create(b, loc, rows, sizes[d]);
  Value blocks =
      rank == 1
          ? arith::DivUIOp::create(
                b, loc,
                arith::AddIOp::create(b, loc, sizes[0], index(kThreads - 1)),
                threads)
          : rows;
  blocks = arith::MinUIOp::create(b, loc, blocks, index(kMaxBlocks));
  blocks = arith::MaxUIOp::create(b, loc, blocks, c1);
  auto launch = gpu::LaunchOp::create(b, loc, blocks, c1, c1, threads, c1, c1);

  b.setInsertionPointToStart(&launch.getBody().front());
  Value tx = launch.getThreadIds().x;
  Value bx = launch.getBlockIds().x;
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  Operation *add = yield.getValues()[sum.output].getDefiningOp();
  auto at = [&](OpOperand &operand, ArrayRef<Value> ivs) {
    SmallVector<Value> indices;
    for (AffineExpr e : op.getMatchingIndexingMap(&operand).getResults())
      indices.push_back(ivs[cast<AffineDimExpr>(e).getPosition()]);
    return indices;
  };
  // The loads of the iteration `ivs`: the body's arguments it uses.
  auto loads = [&](OpBuilder &lb, Location l, ArrayRef<Value> ivs) {
    IRMapping inner = hostValues;
    for (OpOperand &operand : op->getOpOperands()) {
      BlockArgument arg = op.getMatchingBlockArgument(&operand);
      // The sum's output is only added to (atomically, per block).
      if (&operand == op.getDpsInitOperand(sum.output))
        continue;
      if (!arg.use_empty() && !inner.contains(arg))
        inner.map(arg,
                  memref::LoadOp::create(lb, l, operand.get(), at(operand, ivs))
                      .getResult());
    }
    return inner;
  };
  // The rest of the iteration `ivs` (its loads in `inner`): the body, the
  // stores of the other outputs, and its summand added to `acc`.
  auto compute = [&](OpBuilder &lb, Location l, ArrayRef<Value> ivs,
                     IRMapping &inner, Value acc) {
    for (Operation &o : body.without_terminator())
      if (&o != add)
        lb.clone(o, inner);
    for (OpOperand &init : op.getDpsInitsMutable()) {
      unsigned k = init.getOperandNumber() - op.getNumDpsInputs();
      if (k != sum.output)
        memref::StoreOp::create(lb, l,
                                inner.lookupOrDefault(yield.getValues()[k]),
                                init.get(), at(init, ivs));
    }
    return arith::AddFOp::create(lb, l, acc, inner.lookupOrDefault(sum.summand))
        .getResult();
  };
  // The iterations `from`, `from + step`, ... below `to` (their indices
  // from `ivsOf`), adding to `acc`: kUnroll at a time, the loads of all
  // first, so that each thread has that many loads in flight, then one at
  // a time for the rest.
  auto strided = [&](OpBuilder &sb, Location l, Value from, Value to,
                     Value step, Value acc,
                     llvm::function_ref<SmallVector<Value>(Value)> ivsOf) {
    Value span = arith::MulIOp::create(
        sb, l, step, arith::ConstantIndexOp::create(sb, l, kUnroll - 1));
    // Signed: below `from` (no unrolled iteration) when `to` is small.
    Value last = arith::SubIOp::create(sb, l, to, span);
    Value wide = arith::AddIOp::create(sb, l, span, step);
    auto unrolled = scf::ForOp::create(
        sb, l, from, last, wide, ValueRange{acc, from},
        [&](OpBuilder &lb, Location l2, Value i, ValueRange args) {
          SmallVector<SmallVector<Value>> ivs;
          SmallVector<IRMapping> loaded;
          Value at = i;
          for (int64_t u = 0; u < kUnroll; ++u) {
            ivs.push_back(ivsOf(at));
            loaded.push_back(loads(lb, l2, ivs.back()));
            at = arith::AddIOp::create(lb, l2, at, step);
          }
          Value total = args[0];
          for (int64_t u = 0; u < kUnroll; ++u)
            total = compute(lb, l2, ivs[u], loaded[u], total);
          scf::YieldOp::create(lb, l2, ValueRange{total, at});
        });
    return scf::ForOp::create(
               sb, l, unrolled.getResult(1), to, step,
               ValueRange{unrolled.getResult(0)},
               [&](OpBuilder &lb, Location l2, Value i, ValueRange args) {
                 SmallVector<Value> ivs = ivsOf(i);
                 IRMapping inner = loads(lb, l2, ivs);
                 scf::YieldOp::create(lb, l2,
                                      compute(lb, l2, ivs, inner, args[0]));
               })
        .getResult(0);
  };
  Value bdim = launch.getBlockSize().x;
  Value total;
  if (rank == 1) {
    Value first = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, bx, bdim), tx);
    Value stride = arith::MulIOp::create(b, loc, launch.getGridSize().x, bdim);
    total = strided(b, loc, first, sizes[0], stride, zero,
                    [](Value i) { return SmallVector<Value>{i}; });
  } else {
    total = scf::ForOp::create(
                b, loc, bx, rows, launch.getGridSize().x, ValueRange{zero},
                [&](OpBuilder &rb, Location l, Value row, ValueRange rowAcc) {
                  // The row's indices, the last outer dimension fastest.
                  SmallVector<Value> outer(rank - 1);
                  Value rest = row;
                  for (int d = rank - 2; d >= 0; --d) {
                    outer[d] =
                        d == 0 ? rest
                               : arith::RemUIOp::create(rb, l, rest, sizes[d])
                                     .getResult();
                    if (d > 0)
                      rest = arith::DivUIOp::create(rb, l, rest, sizes[d]);
                  }
                  Value columns = strided(rb, l, tx, sizes[rank - 1], bdim,
                                          rowAcc[0], [&](Value j) {
                                            SmallVector<Value> ivs = outer;
                                            ivs.push_back(j);
                                            return ivs;
                                          });
                  scf::YieldOp::create(rb, l, columns);
                })
                .getResult(0);
  }
  Value blockSum = gpu::AllReduceOp::create(
      b, loc, total,
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
      if (op.getNumReductionLoops() != 0 && asSum(op) &&
          !op->getParentOfType<gpu::LaunchOp>() &&
          !op->getParentOfType<gpu::GPUFuncOp>())
        sums.push_back(op);
    });
    for (linalg::GenericOp op : sums)
      rewrite(op, *asSum(op));
  }
};

} // namespace
