//===- MoonPipelines.cpp - Named pass pipelines of moonc ------------------===//
//
// Defines `moon-cpu-pipeline` and `moon-gpu-pipeline`. The LLVM side
// (translation to LLVM IR, O3 for the host CPU, vector math, machine code) is
// done by moonc-codegen in Rust.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPipelines.h"
#include "Moon-c/Dialects.h"
#include "Moon/MoonPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace mlir::moon {

// Order matters:
// - functions on tensors become functions on memrefs first (moon-bufferize,
//   a Rust pass; nothing changes in a module without tensors at function
//   boundaries);
// - buffers that hold one value everywhere (the broadcast adjoint of a sum)
//   become that value (moon-uniform-buffers, a Rust pass), while they are
//   still linalg ops;
// - linalg matrix products (matmul, matvec, vecmat, dot, batch_matmul, and
//   the linalg.generics that are these products, as reverse mode makes
//   them) with at least --moon-blas-min-flops multiply-adds become calls of
//   moonrt's BLAS (moon-linalg-to-blas, a Rust pass), after
//   differentiation and batching, which moonc runs before this pipeline,
//   and before linalg becomes loops; the smaller ones stay linalg;
// - linalg (on memrefs) and vector transfers then become scf loops;
// - runs of reverse-sweep loops over one range become one loop of
//   independent iterations (moon-fuse-adjoint-loops, a Rust pass), before
//   the passes below look at loop bodies;
// - loads of local buffers where every element is known to be zero (the
//   adjoint of a scratch buffer, zeroed by each iteration of the reverse
//   sweep) become the constant (moon-zero-loads, a Rust pass), after
//   fill ops have become loops, which it follows;
// - a reverse loop nest over points whose inner loop accumulates into its
//   own rows of buffers is run in blocks of points, the inner loop
//   outermost in each, when those rows are wide (moon-tile-reverse-loops,
//   after moon-zero-loads, whose zero-following it shares);
// - f64 exps in loops that compute no other library math function are
//   computed inline (moon-inline-exp, a Rust pass: the pipeline is built
//   only where moonc's passes are registered), then loops taking the sine
//   and the cosine of one value are versioned to compute both with one
//   inline kernel (moon-share-sincos, which traces arguments through the
//   math.exp ops left in such loops);
// - loops whose bodies already work on blocks of adjacent elements are
//   marked for LLVM's SLP vectorizer only (moon-blocked-loops), while they
//   are still scf.for: convert-scf-to-cf carries the mark to the back edge;
// - the reverse sweep's loops of run-time trip counts are marked not to be
//   unrolled (moon-reverse-loops, after moon-blocked-loops, whose marks it
//   extends), and their multiplies and adds may be fused into fused
//   multiply-adds (moon-contract-adjoints: they compute only derivatives);
//   innermost ones whose iterations are independent run in ascending
//   order (moon-ascending-reverse-loops); on x86-64, the reverse sweep's
//   loop nests run with subnormals flushed to zero (moon-flush-subnormals,
//   left out with --moon-keep-subnormals);
// - innermost loops that update a buffer in place get a scalar copy for
//   runs of few iterations (moon-short-update-loops, after
//   moon-reverse-loops, whose marks the copy keeps): vectorized, a short
//   run waits on the stores of the run before it;
// - a function with very many loop nests (a deep network and its gradient)
//   has each nest moved into a function of its own (moon-outline-loops),
//   still as scf loops: LLVM's analyses grow with the square of the loops
//   in one function;
// - subviews, reshapes and casts are expanded into offset/size/stride
//   arithmetic before memref reaches LLVM;
// - scf becomes cf one function at a time (func.func(convert-scf-to-cf)),
//   so that moonc-opt, whose MLIR threads are on, lowers several at once;
// - math ops that libm implements become libm calls before
//   convert-math-to-llvm sees them: its expm1 (exp(x) - 1) and log1p
//   lowerings lose all precision near 0, while libm's are exact, LLVM still
//   turns floor/ceil/trunc/round calls into intrinsics, and moonc-codegen
//   vectorizes the rest through libmvec. Integer powers become helper
//   functions (convert-math-to-funcs); the math ops convert-math-to-libm
//   would fail on or call a missing function for (rsqrt, clampf, sincos,
//   copysign, the is* tests, the bit counts), and fma, are lowered just
//   before it (moon-math-before-libm, Transforms/MathBeforeLibm.cpp), and
//   the remaining ops (sqrt, abs, ...) become LLVM intrinsics;
// - everything else reaches LLVM in one conversion (moon-convert-to-llvm,
//   Transforms/ConvertToLLVM.cpp), after the passes above, so that the
//   helper functions they create are lowered too. Of arith-expand, it
//   applies only the expansions of ops arith-to-llvm has no pattern for
//   (ceildivsi, ...): arith-expand would turn maximumf/minimumf into
//   compare-and-select chains that LLVM cannot vectorize as reductions,
//   while llvm.maximum/minimum reductions vectorize. memref.alloc becomes
//   aligned_alloc: the default aligns a malloc'd pointer by integer
//   arithmetic (inttoptr), which hides from LLVM that each buffer is a
//   fresh allocation, so loops over several buffers lost their
//   vectorization (a CNN's loss 0.60 -> 0.49 ms).
// buildCpuPipeline runs the passes that lower forall, strided metadata,
// affine, integer powers, math and vector ops only when the module has such
// operations, and linalg/vector to loops also when it is nested less than
// kDeep levels (RunWhenNeededPass).
// With --moon-parallel-min-trips, canonicalize and cse first simplify the
// index arithmetic moon-parallelize reads, moon-parallelize turns loops
// into scf.parallel over chunks, and those become OpenMP (libomp) loops.
const char *const kCpuPipeline =
    "moon-bufferize,moon-uniform-buffers,"
    "func.func(convert-linalg-to-loops,convert-vector-to-scf),"
    "moon-fuse-adjoint-loops,moon-zero-loads,moon-tile-reverse-loops,"
    "moon-inline-exp,moon-share-sincos,"
    "scf-forall-to-for,moon-blocked-loops,moon-reverse-loops,"
    "moon-contract-adjoints,moon-ascending-reverse-loops,moon-flush-subnormals,"
    "moon-short-update-loops,"
    "moon-outline-loops,moon-inline-tape,"
    "expand-strided-metadata,lower-affine,"
    "func.func(convert-scf-to-cf),convert-math-to-funcs,moon-math-before-libm,"
    "convert-math-to-libm,"
    "convert-vector-to-llvm,moon-convert-to-llvm";

// An LLVM command-line option, so that `moonc-opt` parses it and lists it
// in `--help`; the moonc driver sets it through the C API.
static llvm::cl::opt<uint64_t> parallelMinTrips(
    "moon-parallel-min-trips",
    llvm::cl::desc("Run loops whose iterations are independent on all cores "
                   "(OpenMP) when they take at least this many iterations "
                   "(0, the default, turns this off)"),
    llvm::cl::init(0));

static llvm::cl::opt<uint64_t> blasMinFlops(
    "moon-blas-min-flops",
    llvm::cl::desc("Call moonrt's BLAS for linalg matrix products (matmul, "
                   "matvec, vecmat, dot, batch_matmul) of at least this many "
                   "multiply-adds per call in moon-cpu-pipeline (0 turns "
                   "this off)"),
    llvm::cl::init(MOON_BLAS_DEFAULT_MIN_FLOPS));

static llvm::cl::opt<bool> keepSubnormals(
    "moon-keep-subnormals",
    llvm::cl::desc("Leave moon-flush-subnormals out of moon-cpu-pipeline: "
                   "reverse sweeps keep IEEE subnormal numbers (slower on "
                   "Intel cores when they occur)"),
    llvm::cl::init(false));

bool getKeepSubnormals() { return keepSubnormals; }

void setKeepSubnormals(bool keep) { keepSubnormals = keep; }

uint64_t getBlasMinFlops() { return blasMinFlops; }

void setBlasMinFlops(uint64_t flops) { blasMinFlops = flops; }

uint64_t getParallelMinTrips() { return parallelMinTrips; }

void setParallelMinTrips(uint64_t trips) { parallelMinTrips = trips; }

std::string cpuPipeline() {
  std::string pipeline = kCpuPipeline;
  auto insertAfter = [&](llvm::StringRef anchor, llvm::StringRef passes) {
    size_t at = pipeline.find(anchor.str());
    assert(at != std::string::npos && "anchor pass in the pipeline");
    pipeline.insert(at + anchor.size(), passes.str());
  };
  if (keepSubnormals) {
    llvm::StringRef flush = "moon-flush-subnormals,";
    size_t at = pipeline.find(flush.str());
    assert(at != std::string::npos && "moon-flush-subnormals in the pipeline");
    pipeline.erase(at, flush.size());
  }
  if (blasMinFlops != 0)
    insertAfter(
        "moon-uniform-buffers,",
        "moon-linalg-to-blas{min-flops=" + std::to_string(blasMinFlops) + "},");
  if (parallelMinTrips == 0)
    return pipeline;
  insertAfter("moon-share-sincos,",
              "canonicalize,cse,loop-invariant-code-motion,moon-parallelize,"
              "convert-scf-to-openmp,"
              "moon-inline-alloca-scopes,");
  return pipeline;
}

namespace {
/// Runs a pipeline on the module unless `needed` holds for none of its
/// operations. Upstream passes built on the greedy pattern driver take
/// time even with nothing to do: the driver folds and simplifies the whole
/// module, walking up to the root from every operation it queues, so that
/// three such passes took a second each on 2000 nested `scf.if`, and
/// convert-vector-to-llvm 10% of the pipeline's time on 4000 functions
/// without vectors. With `onlyWhenDeep`, the pipeline is skipped only in
/// a module nested more than `kDeep` levels: elsewhere the folding and
/// dead-code removal on the way shape what moonc's passes after it see.
/// Either way the pass preserves every analysis: skipped, it changed
/// nothing; run, its passes have dropped the analyses they invalidate, and
/// the module was verified after each of them. So the pass manager does not
/// verify the module once more.
struct RunWhenNeededPass
    : public PassWrapper<RunWhenNeededPass, OperationPass<ModuleOp>> {
  /// Also moonc's `DEEP` (moonc-codegen's lower.rs), from which it
  /// verifies the module once instead of after each pass.
  static constexpr unsigned kDeep = 64;

  RunWhenNeededPass(OpPassManager pipeline,
                    std::function<bool(Operation *)> needed, bool onlyWhenDeep)
      : pipeline(std::move(pipeline)), needed(std::move(needed)),
        onlyWhenDeep(onlyWhenDeep) {}
  RunWhenNeededPass(const RunWhenNeededPass &other)
      : PassWrapper(other), pipeline(other.pipeline), needed(other.needed),
        onlyWhenDeep(other.onlyWhenDeep) {}

  StringRef getArgument() const override { return "moon-run-when-needed"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    pipeline.getDependentDialects(registry);
  }
  void runOnOperation() override {
    bool skip = (!onlyWhenDeep || isDeep(getOperation())) &&
                !getOperation()
                     ->walk([&](Operation *op) {
                       return needed(op) ? WalkResult::interrupt()
                                         : WalkResult::advance();
                     })
                     .wasInterrupted();
    if (!skip && failed(runPipeline(pipeline, getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  /// Whether operations nest more than `kDeep` levels in `root`.
  static bool isDeep(Operation *root) {
    return root
        ->walk([&](Operation *op) {
          unsigned depth = 0;
          for (Operation *p = op; p && p != root; p = p->getParentOp())
            if (++depth > kDeep)
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

  OpPassManager pipeline;
  std::function<bool(Operation *)> needed;
  bool onlyWhenDeep;
};

/// Whether expand-strided-metadata may rewrite `op`: a memref operation
/// other than those finalize-memref-to-llvm lowers as they are.
bool hasStridedMetadata(Operation *op) {
  static const llvm::StringRef plain[] = {"memref.alloc",
                                          "memref.alloca",
                                          "memref.dealloc",
                                          "memref.load",
                                          "memref.store",
                                          "memref.dim",
                                          "memref.copy",
                                          "memref.global",
                                          "memref.get_global",
                                          "memref.alloca_scope",
                                          "memref.alloca_scope.return",
                                          "memref.assume_alignment"};
  return op->getName().getDialectNamespace() == "memref" &&
         !llvm::is_contained(plain, op->getName().getStringRef());
}
} // namespace

LogicalResult buildCpuPipeline(OpPassManager &pm) {
  // The textual pipeline names passes, so they must be registered.
  static const bool registered = [] {
    registerAllPasses();
    registerMoonPasses();
    return true;
  }();
  (void)registered;
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  auto fail = [&] {
    llvm::errs() << "moon-cpu-pipeline is malformed: " << error << "\n";
    return failure();
  };
  // The passes that may have nothing to do run only when they have (see
  // RunWhenNeededPass), in order of the pipeline.
  struct Guarded {
    llvm::StringRef passes;
    std::function<bool(Operation *)> needed;
    bool onlyWhenDeep;
  };
  auto of = [](std::initializer_list<llvm::StringRef> dialects) {
    return [dialects = std::vector<llvm::StringRef>(dialects)](Operation *op) {
      return llvm::is_contained(dialects, op->getName().getDialectNamespace());
    };
  };
  auto named = [](std::initializer_list<llvm::StringRef> ops) {
    return [ops = std::vector<llvm::StringRef>(ops)](Operation *op) {
      return llvm::is_contained(ops, op->getName().getStringRef());
    };
  };
  const Guarded guarded[] = {
      {"func.func(convert-linalg-to-loops,convert-vector-to-scf),",
       of({"linalg", "vector"}), true},
      {"scf-forall-to-for,", named({"scf.forall"}), false},
      {"expand-strided-metadata,", hasStridedMetadata, false},
      {"lower-affine,", of({"affine"}), false},
      // What convert-math-to-funcs lowers with its default options.
      {"convert-math-to-funcs,", named({"math.ipowi", "math.fpowi"}), false},
      {"moon-math-before-libm,", of({"math"}), false},
      // Checked again: moon-math-before-libm may have lowered every math op.
      {"convert-math-to-libm,", of({"math"}), false},
      {"convert-vector-to-llvm,", of({"vector"}), false},
  };
  std::string text = cpuPipeline();
  llvm::StringRef rest = text;
  for (const Guarded &g : guarded) {
    size_t at = rest.find(g.passes);
    assert(at != llvm::StringRef::npos && "a guarded pass in the pipeline");
    llvm::StringRef before = rest.take_front(at).rtrim(',');
    if (!before.empty() && failed(parsePassPipeline(before, pm, errorStream)))
      return fail();
    OpPassManager inner(ModuleOp::getOperationName());
    if (failed(parsePassPipeline(g.passes.rtrim(','), inner, errorStream)))
      return fail();
    pm.addPass(std::make_unique<RunWhenNeededPass>(std::move(inner), g.needed,
                                                   g.onlyWhenDeep));
    rest = rest.drop_front(at + g.passes.size());
  }
  if (failed(parsePassPipeline(rest, pm, errorStream)))
    return fail();
  return success();
}

// moon-gpu-pipeline, in order:
// - reverse mode's partials are applied where they are computed
//   (moon-fuse-partials, a Rust pass), so that they never go through
//   memory;
// - 1-D sums become kernels of their own first (moon-gpu-reduce), while they
//   are still linalg: convert-linalg-to-parallel-loops would make their
//   reduction loop a sequential scf.for on the host;
// - the other reductions (a partial sum such as the adjoint reverse mode
//   makes of a broadcast input, or a sum that also writes a value per
//   iteration) become scf.parallel loops over every iteration that add
//   with atomics (moon-reductions-to-atomics, a Rust pass); outputs indexed
//   by every loop need none;
// - the remaining linalg ops become scf.parallel loops, which (with the
//   user's) are tiled by 256 so that the inner loop maps to the threads of
//   a block and the outer to the grid (without tiling gpu-map-parallel-loops
//   gives every iteration a block of one thread); no-min-max-bounds keeps
//   the block size constant and guards the last, partial tile with an
//   scf.if instead;
// - gpu-map-parallel-loops and convert-parallel-loops-to-gpu make them
//   gpu.launch ops, which gpu-kernel-outlining (with the user's launches)
//   turns into gpu.func kernels in gpu.modules and gpu.launch_func calls;
// - gpu-async-region makes the launches asynchronous: consecutive launches
//   go on one stream, and the host waits for them only before an op with
//   side effects (a load of a sum's result, a call, the return);
// - in each gpu.module: scf to cf (convert-gpu-to-nvvm does not lower scf),
//   transcendental math to polynomials and floor/ceil/fabs/sqrt to NVVM
//   intrinsics (moon-math-approx), unless libdevice is given:
//   then convert-gpu-to-nvvm makes them libdevice calls (__nv_expf, ...)
//   that gpu-module-to-binary links; convert-gpu-to-nvvm also lowers
//   gpu.all_reduce to shuffles and shared memory;
// - the host side down to LLVM, gpu.launch_func kept for gpu-to-llvm, which
//   lowers its operands; translation to LLVM IR then emits the mgpu* calls
//   (mgpuModuleLoadJIT, mgpuLaunchKernel, ...) that moonrt implements;
// - gpu-module-to-binary last, with format=isa: the gpu.binary holds PTX
//   text, which needs no ptxas (the driver JIT-compiles it).
std::string gpuPipeline(llvm::StringRef chip, llvm::StringRef libdevice) {
  std::string target = "nvvm-attach-target{chip=" + chip.str();
  if (!libdevice.empty())
    target += " l=" + libdevice.str();
  target += "}";
  std::string kernelMath = libdevice.empty() ? "moon-math-approx," : "";
  return "moon-fuse-partials,func.func(moon-gpu-reduce),"
         "moon-reductions-to-atomics{gpu=1},"
         "func.func(convert-linalg-to-parallel-loops,"
         "scf-parallel-loop-tiling{parallel-loop-tile-sizes=256 "
         "no-min-max-bounds=true},"
         "gpu-map-parallel-loops,convert-parallel-loops-to-gpu),"
         "lower-affine,canonicalize,gpu-kernel-outlining,"
         "func.func(gpu-async-region,moon-gpu-alloc)," +
         target + ",gpu.module(convert-scf-to-cf," + kernelMath +
         "convert-gpu-to-nvvm{index-bitwidth=64},canonicalize,cse,"
         "reconcile-unrealized-casts),"
         "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
         "convert-math-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,"
         "finalize-memref-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,"
         "gpu-to-llvm,reconcile-unrealized-casts,"
         "gpu-module-to-binary{format=isa}";
}

LogicalResult buildGpuPipeline(OpPassManager &pm, llvm::StringRef chip,
                               llvm::StringRef libdevice) {
  static const bool registered = [] {
    registerAllPasses();
    registerMoonPasses();
    return true;
  }();
  (void)registered;
  if (chip != "sm_80" && chip != "sm_90") {
    llvm::errs() << "moon-gpu-pipeline: unsupported chip '" << chip
                 << "' (expected sm_80 or sm_90)\n";
    return failure();
  }
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(
          parsePassPipeline(gpuPipeline(chip, libdevice), pm, errorStream))) {
    llvm::errs() << "moon-gpu-pipeline is malformed: " << error << "\n";
    return failure();
  }
  return success();
}

namespace {
/// The options of `moon-gpu-pipeline`.
struct GpuPipelineOptions : public PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("The NVIDIA GPU: sm_80 or sm_90"),
                           llvm::cl::init("sm_80")};
  Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("Path of libdevice.10.bc: math ops become libdevice "
                     "calls, linked into the PTX (default: polynomial "
                     "approximations, f32 only)"),
      llvm::cl::init("")};
};
} // namespace

void registerMoonPipelines() {
  registerMoonPasses();
  PassPipelineRegistration<GpuPipelineOptions>(
      "moon-gpu-pipeline",
      "Map linalg/scf.parallel loops and 1-D sums to GPU kernels, lower "
      "them to NVVM and PTX (gpu.binary) and the host side to the LLVM "
      "dialect",
      [](OpPassManager &pm, const GpuPipelineOptions &options) {
        (void)buildGpuPipeline(pm, options.chip, options.libdevice);
      });
  PassPipelineRegistration<>(
      "moon-cpu-pipeline",
      "Lower func/arith/math/scf/cf/memref/linalg/vector/index to the LLVM "
      "dialect for the CPU",
      [](OpPassManager &pm) { (void)buildCpuPipeline(pm); });
}

} // namespace mlir::moon
