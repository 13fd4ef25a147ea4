//===- Dialects.cpp - C API of the moon dialect ---------------------------===//
//
// Implements the C entry points declared in Moon-c/Dialects.h.
//
//===----------------------------------------------------------------------===//

#include "Moon-c/Dialects.h"
#include "Moon/MoonDialect.h"
#include "Moon/MoonOps.h"
#include "Moon/MoonPipelines.h"

#include "mlir/CAPI/Diagnostics.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Moon, moon, mlir::moon::MoonDialect)

MlirOperation moonGeneralizeLinalgOp(MlirOperation op) {
  auto named = llvm::dyn_cast<mlir::linalg::LinalgOp>(unwrap(op));
  if (!named || llvm::isa<mlir::linalg::GenericOp>(named.getOperation()))
    return {nullptr};
  mlir::IRRewriter rewriter(named->getContext());
  rewriter.setInsertionPoint(named);
  mlir::FailureOr<mlir::linalg::GenericOp> generic =
      mlir::linalg::generalizeNamedOp(rewriter, named);
  if (mlir::failed(generic))
    return {nullptr};
  return wrap(generic->getOperation());
}

bool moonLowerLinalgOpToLoops(MlirOperation op) {
  auto structured = llvm::dyn_cast<mlir::linalg::LinalgOp>(unwrap(op));
  if (!structured || !structured.hasPureBufferSemantics())
    return false;
  mlir::IRRewriter rewriter(structured->getContext());
  rewriter.setInsertionPoint(structured);
  if (mlir::failed(mlir::linalg::linalgOpToLoops(rewriter, structured)))
    return false;
  rewriter.eraseOp(structured);
  return true;
}

bool moonRemoveDeadLinalgResults(MlirOperation op) {
  mlir::RewritePatternSet patterns(unwrap(op)->getContext());
  mlir::linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
  return mlir::succeeded(
      mlir::applyPatternsGreedily(unwrap(op), std::move(patterns)));
}

MlirType moonGetCalleeType(MlirOperation op) {
  mlir::Operation *operation = unwrap(op);
  std::optional<mlir::Attribute> attr = operation->getInherentAttr("callee");
  auto callee = attr ? llvm::dyn_cast_or_null<mlir::FlatSymbolRefAttr>(*attr)
                     : mlir::FlatSymbolRefAttr();
  if (!callee)
    return {nullptr};
  auto function =
      mlir::SymbolTable::lookupNearestSymbolFrom<mlir::FunctionOpInterface>(
          operation, callee);
  if (!function)
    return {nullptr};
  return wrap(llvm::dyn_cast<mlir::FunctionType>(function.getFunctionType()));
}

namespace {
/// A pass implemented outside C++ (one of moonc's Rust passes), run through
/// a callback. It differs from MLIR's external passes in its options:
/// unsigned integers, declared by the definition, which MLIR parses from
/// pipelines and command lines and prints back.
class MoonPass : public mlir::Pass {
public:
  explicit MoonPass(const MoonPassDefinition &definition)
      : Pass(unwrap(definition.typeID), unwrap(definition.opName)),
        definition(definition),
        dialects(definition.dependentDialects,
                 definition.dependentDialects + definition.nDependentDialects),
        declared(definition.options, definition.options + definition.nOptions) {
    // The copies are what clones are made from.
    this->definition.dependentDialects = dialects.data();
    this->definition.options = declared.data();
    for (const MoonPassOption &option : declared)
      options.push_back(std::make_unique<Option<uint64_t>>(
          *this, unwrap(option.name),
          llvm::cl::desc(unwrap(option.description)),
          llvm::cl::init(option.defaultValue)));
  }

  llvm::StringRef getName() const override {
    return unwrap(definition.argument);
  }
  llvm::StringRef getArgument() const override {
    return unwrap(definition.argument);
  }
  llvm::StringRef getDescription() const override {
    return unwrap(definition.summary);
  }

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    for (MlirDialectHandle handle : dialects)
      mlirDialectHandleInsertDialect(handle, wrap(&registry));
  }

  bool canScheduleOn(mlir::RegisteredOperationName name) const override {
    return name.getStringRef() == getOpName();
  }

  void runOnOperation() override {
    std::vector<uint64_t> values;
    for (const auto &option : options)
      values.push_back(*option);
    switch (definition.run(wrap(getOperation()), values.data(),
                           definition.userData)) {
    case MoonPassFailed:
      return signalPassFailure();
    case MoonPassUnchanged:
      return markAllAnalysesPreserved();
    case MoonPassSucceeded:
      return;
    }
  }

  std::unique_ptr<mlir::Pass> clonePass() const override {
    return std::make_unique<MoonPass>(definition);
  }

private:
  MoonPassDefinition definition;
  std::vector<MlirDialectHandle> dialects;
  std::vector<MoonPassOption> declared;
  std::vector<std::unique_ptr<Option<uint64_t>>> options;
};
} // namespace

MlirPass moonCreatePass(const MoonPassDefinition *definition) {
  return wrap(static_cast<mlir::Pass *>(new MoonPass(*definition)));
}

void moonRegisterPass(MoonPassFactory factory, void *userData) {
  mlir::registerPass([factory, userData]() -> std::unique_ptr<mlir::Pass> {
    return std::unique_ptr<mlir::Pass>(unwrap(factory(userData)));
  });
}

int moonOptMain(int argc, char **argv, MlirStringRef title,
                MlirDialectRegistry registry) {
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, unwrap(title), *unwrap(registry)));
}

MlirModule moonParseModule(MlirContext context, MlirStringRef source,
                           MlirStringRef bufferName) {
  // MLIR's lexer needs a NUL after the text, which a string reference does
  // not promise: parse a NUL-terminated copy.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(unwrap(source), unwrap(bufferName)),
      llvm::SMLoc());
  mlir::ParserConfig config(unwrap(context));
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  return wrap(module.release());
}

// Options of the fused N-wide dual path of reverse mode. They are LLVM
// command-line options so that `moonc-opt` (MlirOptMain) parses them and
// lists them in `--help`, like MLIR's own global options.
static llvm::cl::opt<unsigned> ndualMaxWidth(
    "moon-ndual-max-width",
    llvm::cl::desc("Largest number of distinct differentiable inputs of an "
                   "element function that reverse mode differentiates with "
                   "fused N-wide duals (0 turns the fused path off)"),
    llvm::cl::init(MOON_NDUAL_DEFAULT_MAX_WIDTH));

static llvm::cl::opt<bool> remarks(
    "moon-remarks",
    llvm::cl::desc("Emit remarks on the choices of moonc's passes (which "
                   "loops reverse mode fuses with N-wide duals, and why the "
                   "others fall back)"),
    llvm::cl::init(false));

static llvm::cl::opt<uint64_t> tapeBudget(
    "moon-tape-budget",
    llvm::cl::desc("Bytes of tape reverse mode lets one loop take before it "
                   "checkpoints the loop, recomputing segments of it in the "
                   "reverse sweep (0 turns checkpointing off)"),
    llvm::cl::init(MOON_TAPE_DEFAULT_BUDGET));

static llvm::cl::opt<unsigned> checkpointLevels(
    "moon-checkpoint-levels",
    llvm::cl::desc("Levels of checkpoints a loop reverse mode checkpoints "
                   "may use when one level cannot fit the tape budget: each "
                   "level runs the loop once more (1, the default: one)"),
    llvm::cl::init(1));

unsigned moonNdualMaxWidth() { return ndualMaxWidth; }

unsigned moonCheckpointLevels() { return checkpointLevels; }

void moonSetCheckpointLevels(unsigned levels) { checkpointLevels = levels; }

uint64_t moonTapeBudget() { return tapeBudget; }

void moonSetTapeBudget(uint64_t bytes) { tapeBudget = bytes; }

void moonSetNdualMaxWidth(unsigned width) { ndualMaxWidth = width; }

void moonEmitRemark(MlirLocation location, MlirStringRef message) {
  if (remarks)
    mlir::emitRemark(unwrap(location)) << unwrap(message);
}

uint64_t moonParallelMinTrips() { return mlir::moon::getParallelMinTrips(); }

void moonSetParallelMinTrips(uint64_t trips) {
  mlir::moon::setParallelMinTrips(trips);
}

bool moonKeepSubnormals() { return mlir::moon::getKeepSubnormals(); }

void moonSetKeepSubnormals(bool keep) { mlir::moon::setKeepSubnormals(keep); }

uint64_t moonBlasMinFlops() { return mlir::moon::getBlasMinFlops(); }

void moonSetBlasMinFlops(uint64_t flops) { mlir::moon::setBlasMinFlops(flops); }

void moonRegisterPipelines() { mlir::moon::registerMoonPipelines(); }

MlirLogicalResult moonAddCpuPipeline(MlirOpPassManager pm) {
  return wrap(mlir::moon::buildCpuPipeline(*unwrap(pm)));
}

MlirLogicalResult moonAddGpuPipeline(MlirOpPassManager pm, MlirStringRef chip,
                                     MlirStringRef libdevice) {
  return wrap(mlir::moon::buildGpuPipeline(*unwrap(pm), unwrap(chip),
                                           unwrap(libdevice)));
}

void moonRegisterLLVMTranslations(MlirDialectRegistry registry) {
  mlir::registerAllToLLVMIRTranslations(*unwrap(registry));
}
