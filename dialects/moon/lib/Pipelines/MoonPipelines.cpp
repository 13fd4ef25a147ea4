//===- MoonPipelines.cpp - Named pass pipelines of moonc ------------------===//
//
// Defines `moon-cpu-pipeline`. The LLVM side (translation to LLVM IR, O3 for
// the host CPU, vector math, machine code) is done by moonc-codegen in Rust.
//
//===----------------------------------------------------------------------===//

#include "Moon/MoonPipelines.h"
#include "Moon-c/Dialects.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::moon {

// Order matters:
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
// - f64 exps in loops that compute no other library math function are
//   computed inline (moon-inline-exp, a Rust pass: the pipeline is built
//   only where moonc's passes are registered), then loops taking the sine
//   and the cosine of one value are versioned to compute both with one
//   inline kernel (moon-share-sincos, which traces arguments through the
//   math.exp ops left in such loops);
// - subviews, reshapes and casts are expanded into offset/size/stride
//   arithmetic before memref reaches LLVM;
// - math ops that libm implements become libm calls before
//   convert-math-to-llvm sees them: its expm1 (exp(x) - 1) and log1p
//   lowerings lose all precision near 0, while libm's are exact, LLVM still
//   turns floor/ceil/trunc/round calls into intrinsics, and moonc-codegen
//   vectorizes the rest through libmvec (and makes `fma` calls the
//   llvm.fma intrinsic). Integer powers become helper functions
//   (convert-math-to-funcs) and the remaining ops (sqrt, abs, ...) LLVM
//   intrinsics;
// - arith reaches LLVM before arith-expand runs (which then only expands
//   what arith-to-llvm leaves, such as ceildivsi): arith-expand would turn
//   maximumf/minimumf into compare-and-select chains that LLVM cannot
//   vectorize as reductions, while llvm.maximum/minimum reductions vectorize;
// - func-to-llvm comes last among the conversions, so that the helper
//   functions created above are lowered too.
// With --moon-parallel-min-trips, canonicalize and cse first simplify the
// index arithmetic moon-parallelize reads, moon-parallelize turns loops
// into scf.parallel over chunks, and those become OpenMP (libomp) loops.
const char *const kCpuPipeline =
    "moon-uniform-buffers,func.func(convert-linalg-to-loops,convert-vector-to-"
    "scf),"
    "moon-inline-exp,moon-share-sincos,scf-forall-to-for,expand-strided-"
    "metadata,lower-affine,"
    "convert-arith-to-llvm,arith-expand,"
    "convert-scf-to-cf,convert-math-to-funcs,convert-math-to-libm,"
    "convert-vector-to-llvm,convert-math-to-llvm,finalize-memref-to-llvm,"
    "convert-index-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"
    "convert-ub-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts";

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
  insertAfter("convert-ub-to-llvm,", "convert-openmp-to-llvm,");
  return pipeline;
}

LogicalResult buildCpuPipeline(OpPassManager &pm) {
  // The textual pipeline names passes, so they must be registered.
  static const bool registered = [] {
    registerAllPasses();
    return true;
  }();
  (void)registered;
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (failed(parsePassPipeline(cpuPipeline(), pm, errorStream))) {
    llvm::errs() << "moon-cpu-pipeline is malformed: " << error << "\n";
    return failure();
  }
  return success();
}

void registerMoonPipelines() {
  PassPipelineRegistration<>(
      "moon-cpu-pipeline",
      "Lower func/arith/math/scf/cf/memref/linalg/vector/index to the LLVM "
      "dialect for the CPU",
      [](OpPassManager &pm) { (void)buildCpuPipeline(pm); });
}

} // namespace mlir::moon
