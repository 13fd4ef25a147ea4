//===- GpuAlloc.cpp - moon-gpu-alloc: host buffers kernels touch, shared --===//
//
// Rewrites the memref.alloc and memref.alloca ops of host code whose buffer
// reaches a gpu.launch_func (or a call, whose callee may launch kernels) as
// gpu.alloc: device memory when only kernels touch the contents, else
// host_shared, so that kernels and host code can both touch them.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONGPUALLOC
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// The allocation `value` is a view of (through view-like ops), or null.
Operation *allocationOf(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return def;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return nullptr;
    value = view.getViewSource();
  }
  return nullptr;
}

/// Whether `value` or a view of it is a terminator's operand (it leaves
/// its block, so freeing it at the block's end would be wrong).
bool escapesBlock(Value value) {
  for (Operation *user : value.getUsers()) {
    if (user->hasTrait<OpTrait::IsTerminator>())
      return true;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user))
      if (view.getViewSource() == value &&
          llvm::any_of(user->getResults(), escapesBlock))
        return true;
  }
  return false;
}

/// Whether only kernels touch the contents of `value` (or of its views):
/// its other uses are deallocations and dimension queries, which read the
/// descriptor only.
bool onlyKernelsTouch(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<gpu::LaunchFuncOp, memref::DeallocOp, memref::DimOp>(user))
      continue;
    auto view = dyn_cast<ViewLikeOpInterface>(user);
    if (view && view.getViewSource() == value &&
        llvm::all_of(user->getResults(), onlyKernelsTouch))
      continue;
    return false;
  }
  return true;
}

/// Frees the buffer `memref` before `before`, on a stream of its
/// own that is waited for (gpu-to-llvm lowers only an asynchronous
/// gpu.dealloc).
void free(OpBuilder &b, Location loc, Value memref, Operation *before) {
  b.setInsertionPoint(before);
  Type token = b.getType<gpu::AsyncTokenType>();
  Value start =
      gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
  Value done = gpu::DeallocOp::create(b, loc, token, ValueRange{start}, memref)
                   .getAsyncToken();
  gpu::WaitOp::create(b, loc, Type{}, ValueRange{done});
}

/// Replaces the allocation `op` with a gpu.alloc: device memory when only
/// kernels touch it, else host-shared (managed) memory.
void rewrite(Operation *op) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(op->getResult(0).getType());
  ValueRange sizes, symbols;
  if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
    sizes = alloc.getDynamicSizes();
    symbols = alloc.getSymbolOperands();
  } else {
    auto alloca = cast<memref::AllocaOp>(op);
    sizes = alloca.getDynamicSizes();
    symbols = alloca.getSymbolOperands();
  }
  Value memref;
  if (onlyKernelsTouch(op->getResult(0))) {
    // gpu-to-llvm lowers a device allocation only in its asynchronous
    // form: on a stream of its own, waited for.
    Type token = b.getType<gpu::AsyncTokenType>();
    Value start =
        gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
    auto device = gpu::AllocOp::create(b, loc, type, token, ValueRange{start},
                                       sizes, symbols, /*hostShared=*/false);
    gpu::WaitOp::create(b, loc, Type{}, ValueRange{device.getAsyncToken()});
    memref = device.getMemref();
  } else {
    memref = gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type{},
                                  ValueRange{}, sizes, symbols,
                                  /*hostShared=*/true)
                 .getMemref();
  }
  op->getResult(0).replaceAllUsesWith(memref);
  for (Operation *user : llvm::make_early_inc_range(memref.getUsers())) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      free(b, dealloc.getLoc(), memref, dealloc);
      dealloc.erase();
    }
  }
  if (isa<memref::AllocaOp>(op) && !escapesBlock(memref))
    free(b, loc, memref, op->getBlock()->getTerminator());
  op->erase();
}

struct GpuAllocPass : public moon::impl::MoonGpuAllocBase<GpuAllocPass> {
  void runOnOperation() override {
    llvm::SetVector<Operation *> allocations;
    auto collect = [&](ValueRange operands) {
      for (Value operand : operands)
        if (isa<MemRefType>(operand.getType()))
          if (Operation *alloc = allocationOf(operand))
            allocations.insert(alloc);
    };
    getOperation().walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
        collect(launch.getKernelOperands());
      else if (auto call = dyn_cast<func::CallOp>(op))
        collect(call.getOperands());
    });
    for (Operation *op : allocations)
      rewrite(op);
  }
};

} // namespace
