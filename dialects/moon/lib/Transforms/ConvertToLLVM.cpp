//===- ConvertToLLVM.cpp - moon-convert-to-llvm: one conversion to LLVM ---===//
//
// Lowers arith, math, memref, index, cf, ub, func and OpenMP to the LLVM
// dialect in one dialect conversion, and reconciles the casts left between
// them: the last step of moon-cpu-pipeline.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPasses.h"

#include "mlir/Analysis/DataLayoutAnalysis.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONCONVERTTOLLVM
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// The conversion's patterns, with the type converter and the data layouts
/// they read, and its targets. Each thread that converts function bodies
/// has its own: the data layouts and the targets' legality callbacks keep
/// caches that are not shared between threads.
struct Lowering {
  /// `symbolTables` speeds up the patterns that look up or declare
  /// functions (null where those patterns do not run).
  Lowering(ModuleOp module, SymbolTableCollection *symbolTables)
      : layouts(module),
        converter(module.getContext(), options(module), &layouts),
        patterns(populate(converter, symbolTables)),
        target(*module.getContext()), bodyTarget(*module.getContext()) {
    for (LLVMConversionTarget *t : {&target, &bodyTarget}) {
      t->addLegalOp<omp::BarrierOp, omp::FlushOp, omp::TaskwaitOp,
                    omp::TaskyieldOp, omp::TerminatorOp>();
      configureOpenMPToLLVMConversionLegality(*t, converter);
    }
    // What the conversion of the module does: functions (their signatures,
    // calls and returns), the ops whose lowering declares a function or a
    // global in the module, and the OpenMP ops, whose regions' arguments
    // change type.
    bodyTarget.addLegalDialect<func::FuncDialect, omp::OpenMPDialect>();
    bodyTarget.addLegalOp<memref::AllocOp, memref::DeallocOp, memref::CopyOp,
                          cf::AssertOp>();
  }

  LowerToLLVMOptions options(ModuleOp module) const {
    LowerToLLVMOptions options(module.getContext(),
                               layouts.getAtOrAbove(module));
    options.allocLowering = LowerToLLVMOptions::AllocLowering::AlignedAlloc;
    return options;
  }

  static RewritePatternSet populate(LLVMTypeConverter &converter,
                                    SymbolTableCollection *symbolTables) {
    RewritePatternSet patterns(&converter.getContext());
    // What convert-arith-to-llvm has no pattern for, as arith-expand
    // expands it; the arith ops made are converted in turn.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandScalingExtTruncPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                   symbolTables);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(
        converter, patterns, /*abortOnFailure=*/true, symbolTables);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns, symbolTables);
    populateOpenMPToLLVMConversionPatterns(converter, patterns);
    return patterns;
  }

  DataLayoutAnalysis layouts;
  LLVMTypeConverter converter;
  FrozenRewritePatternSet patterns;
  /// Everything lowered.
  LLVMConversionTarget target;
  /// Function bodies lowered, but for what `target` leaves to the
  /// conversion of the module.
  LLVMConversionTarget bodyTarget;
};

/// `moon-convert-to-llvm` (MoonPasses.td).
struct ConvertToLLVMPass
    : public moon::impl::MoonConvertToLLVMBase<ConvertToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    // The declarations the patterns add (aligned_alloc, free, abort, ...)
    // and the functions they look up, without a scan of the module each.
    SymbolTableCollection symbolTables;
    Lowering lowering(module, &symbolTables);

    // The bodies first, one function at a time, on every thread MLIR has
    // (one conversion of a whole module would also keep a record of every
    // change until it ends: 510 MB at the peak instead of 360 MB on 8,000
    // functions). The conversion of the module then does the rest.
    SmallVector<Operation *> functions;
    for (Operation &op : module.getBody()->getOperations())
      if (isa<func::FuncOp>(op))
        functions.push_back(&op);
    size_t threads = context->isMultithreadingEnabled()
                         ? std::min<size_t>(context->getNumThreads(),
                                            functions.size() / 64 + 1)
                         : 1;
    auto convertBodies = [&](size_t thread) -> LogicalResult {
      std::optional<Lowering> own;
      if (thread != 0)
        own.emplace(module, nullptr);
      Lowering &l = thread == 0 ? lowering : *own;
      size_t n = functions.size();
      for (size_t i = thread * n / threads; i < (thread + 1) * n / threads; ++i)
        if (failed(
                applyPartialConversion(functions[i], l.bodyTarget, l.patterns)))
          return failure();
      return success();
    };
    if (failed(failableParallelForEachN(context, 0, threads, convertBodies)) ||
        failed(
            applyPartialConversion(module, lowering.target, lowering.patterns)))
      return signalPassFailure();

    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk(
        [&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    reconcileUnrealizedCasts(casts);
  }
};

} // namespace
