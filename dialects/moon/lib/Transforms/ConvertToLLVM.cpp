//===- ConvertToLLVM.cpp - moon-convert-to-llvm: one conversion to LLVM ---===//
//
// Lowers arith, math, memref, index, cf, ub, func and OpenMP to the LLVM
// dialect in one dialect conversion, and reconciles the casts left between them: the
// last step of moon-cpu-pipeline.
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
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::moon {
#define GEN_PASS_DEF_MOONCONVERTTOLLVM
#include "Moon/MoonPasses.h.inc"
} // namespace mlir::moon

using namespace mlir;

namespace {

/// `moon-convert-to-llvm` (MoonPasses.td).
struct ConvertToLLVMPass
    : public moon::impl::MoonConvertToLLVMBase<ConvertToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    const auto &dataLayouts = getAnalysis<DataLayoutAnalysis>();
    LowerToLLVMOptions options(context, dataLayouts.getAtOrAbove(module));
    options.allocLowering = LowerToLLVMOptions::AllocLowering::AlignedAlloc;
    LLVMTypeConverter converter(context, options, &dataLayouts);
    // The declarations the patterns add (aligned_alloc, free, abort, ...)
    // and the functions they look up, without a scan of the module each.
    SymbolTableCollection symbolTables;

    RewritePatternSet patterns(context);
    // What convert-arith-to-llvm has no pattern for, as arith-expand
    // expands it; the arith ops made are converted in turn.
    arith::populateCeilFloorDivExpandOpsPatterns(patterns);
    arith::populateExpandScalingExtTruncPatterns(patterns);
    arith::populateArithToLLVMConversionPatterns(converter, patterns);
    populateMathToLLVMConversionPatterns(converter, patterns);
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns,
                                                   &symbolTables);
    index::populateIndexToLLVMConversionPatterns(converter, patterns);
    cf::populateControlFlowToLLVMConversionPatterns(converter, patterns);
    cf::populateAssertToLLVMConversionPattern(
        converter, patterns, /*abortOnFailure=*/true, &symbolTables);
    ub::populateUBToLLVMConversionPatterns(converter, patterns);
    populateFuncToLLVMConversionPatterns(converter, patterns, &symbolTables);
    populateOpenMPToLLVMConversionPatterns(converter, patterns);

    LLVMConversionTarget target(*context);
    target.addLegalOp<omp::BarrierOp, omp::FlushOp, omp::TaskwaitOp,
                      omp::TaskyieldOp, omp::TerminatorOp>();
    configureOpenMPToLLVMConversionLegality(target, converter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    SmallVector<UnrealizedConversionCastOp> casts;
    module.walk([&](UnrealizedConversionCastOp cast) { casts.push_back(cast); });
    reconcileUnrealizedCasts(casts);
  }
};

} // namespace
