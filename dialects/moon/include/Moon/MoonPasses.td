//===- MoonPasses.td - moonc's C++ passes ------------------*- tablegen -*-===//
//
// The passes that must be C++ because they apply MLIR pattern sets with no C
// API (the math approximations, convert-math-to-llvm's patterns) or build GPU
// kernels with MLIR's builders.
// moonc's other passes are Rust (compiler/moonc-passes).
//
//===----------------------------------------------------------------------===//

#ifndef MOON_PASSES
#define MOON_PASSES

include "mlir/Pass/PassBase.td"

def MoonMathApprox : Pass<"moon-math-approx"> {
  let summary = "Lower f32 transcendental math ops to polynomial "
                "approximations, so that GPU code needs no libdevice";
  let description = [{
    Expands `math` ops into simpler ones (`tan`, `sinh`, `cosh`, `asinh`,
    `acosh`, `atanh`, `powf`, `exp2`, `fpowi`, `rsqrt`) and replaces the
    f32 transcendental ones (`exp`, `expm1`, `log`, `log2`, `log1p`, `sin`,
    `cos`, `tanh`, `erf`, `atan`, `atan2`, `asin`, `acos`, `cbrt`) with
    MLIR's polynomial approximations
    (`populateMathPolynomialApproximationPatterns`), made of `arith` ops and
    `math` ops that NVPTX has instructions for. Of those, `floor`, `ceil`,
    `absf` and `sqrt` (f32, f64) become calls of the NVVM intrinsics
    (`llvm.nvvm.floor.f`, `llvm.nvvm.sqrt.rn.d`, ...) and `fma`,
    `copysign`, `round` and `roundeven` calls of LLVM's (`llvm.fma.f32`,
    ...), since convert-gpu-to-nvvm would make them libdevice calls;
    `absi` becomes `max(x, 0 - x)`; `trunc` and the bit counts (`ctlz`,
    `cttz`, `ctpop`) are left to it (LLVM intrinsics).
    The pass is meant for GPU kernels (`gpu.module`), ahead of
    convert-gpu-to-nvvm.

    A transcendental op left over (on f64, or one with no approximation) is
    an error at the op: NVPTX has no instruction for it, and lowering it
    would leave a call of a libdevice function unresolved in the PTX.

    ```mlir
    %e = math.exp %x : f32
    ```

    becomes a range reduction, a polynomial and a bit-cast scaling by a
    power of two (about 20 `arith` ops and a `math.floor`).
  }];
  let dependentDialects = ["arith::ArithDialect", "LLVM::LLVMDialect",
                           "math::MathDialect", "vector::VectorDialect"];
}

def MoonGpuReduce : Pass<"moon-gpu-reduce", "func::FuncOp"> {
  let summary = "Turn sums over a whole iteration space (linalg.generic) "
                "into GPU kernels with a block reduction and one atomic add "
                "per block";
  let description = [{
    A `linalg.generic` on memrefs with a rank-0 f32 or f64 output whose
    body adds one value computed from the inputs to it (`out + f(in...)`)
    becomes a `gpu.launch` of up to 1024 blocks of 256 threads. With one
    loop, each thread accumulates `f` over a grid-stride chunk of the
    elements in registers; with more, each block takes rows of the last
    dimension (grid-stride over the rows, their indices recovered from the
    row number) and its threads stride along the row, so that loads of
    contiguous rows stay coalesced. The block then sums the threads' values
    with `gpu.all_reduce add` (shuffles and shared memory once lowered to
    NVVM), and thread 0 of each block adds the block's sum to the output
    with one `memref.atomic_rmw addf`. The output keeps its initial value,
    as linalg's semantics say.

    Inputs are read through projected permutations (`x[j]` broadcast over
    the rows, `w[i, j]`); a rank-0 input is loaded on the host before the
    launch and the kernel takes its value. Other outputs must be written
    through permutations of all loops (one element per iteration): each
    thread stores their values for its iterations. Reverse mode's generic
    that computes a primal sum and its partials, or, after
    `moon-fuse-partials`, the shadow itself, is then one kernel that reads
    each element once.

    ```mlir
    linalg.generic {indexing_maps = [(d0) -> (d0), (d0) -> ()],
                    iterator_types = ["reduction"]}
        ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
    ^bb0(%a: f32, %acc: f32):
      %e = math.exp %a : f32
      %r = arith.addf %e, %acc : f32
      linalg.yield %r : f32
    }
    ```

    becomes `gpu.launch blocks(...) threads(...) { scf.for (grid stride)
    ... gpu.all_reduce add ... memref.atomic_rmw addf ... }`.

    Other reductions (a row sum, an output written once per row, a map
    that is not a projected permutation) are left alone: `moon-gpu-pipeline` then runs
    `moon-reductions-to-atomics{gpu=1}`, which turns sums into parallel
    loops with atomic adds and rejects the rest at the op (they would
    otherwise stay host loops over device memory).
  }];
  let dependentDialects = ["arith::ArithDialect", "gpu::GPUDialect",
                           "memref::MemRefDialect", "scf::SCFDialect"];
}

def MoonGpuAlloc : Pass<"moon-gpu-alloc", "func::FuncOp"> {
  let summary = "Allocate the host buffers that kernels touch as memory "
                "shared between host and device (gpu.alloc host_shared)";
  let description = [{
    After `gpu-kernel-outlining`, host code may pass a buffer it allocated
    itself (`memref.alloc`, or a rank-0 `memref.alloca` accumulator that a
    reduction kernel adds into atomically) to a `gpu.launch_func`, directly
    or through a view. Host memory is not device memory: the kernel would
    fault. Each such allocation, traced back from the operands of
    `gpu.launch_func` and of `func.call` (the callee may launch kernels)
    through view-like ops, becomes `gpu.alloc host_shared`
    (`mgpuMemAlloc(..., hostShared=true)`, `cuMemAllocManaged`), which host
    code and kernels both read and write (every launch synchronizes). Its
    `memref.dealloc` becomes a `gpu.dealloc` on a stream of its own, waited
    for; an alloca is freed that way at the end of its block (unless a
    terminator yields it, which leaves it allocated). A buffer whose
    contents only kernels touch (its other uses are `memref.dealloc`,
    `memref.dim` and views used the same way), such as the partials reverse
    mode passes from one kernel to the next, becomes plain device memory
    (`gpu.alloc` without `host_shared`, `cuMemAlloc`) instead: managed
    memory would be migrated to the device page by page, on first touch.

    ```mlir
    %a = memref.alloca() : memref<f32>
    gpu.launch_func @k::@k blocks in (...) threads in (...) args(%a : memref<f32>)
    ```

    becomes

    ```mlir
    %a = gpu.alloc host_shared () : memref<f32>
    gpu.launch_func @k::@k blocks in (...) threads in (...) args(%a : memref<f32>)
    %t = gpu.wait async
    %d = gpu.dealloc async [%t] %a : memref<f32>
    gpu.wait [%d]
    ```
  }];
  let dependentDialects = ["gpu::GPUDialect", "memref::MemRefDialect"];
}

def MoonFuseElementwise : Pass<"moon-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg.generic ops on tensors into their "
                "consumers where no element is computed twice";
  let description = [{
    Upstream `linalg-fuse-elementwise-ops`, with one more condition on each
    fusion: the consumer reads the producer's result through a permutation
    of all its loops, so that every element the producer computed is still
    computed once. Upstream fuses any single-use elementwise producer, also
    into a contraction, which then recomputes it for every element of the
    dimension the operand does not index: a transformer's layer norm fused
    into the matrix product after it is computed 1024 times per element,
    and the product can no longer go to BLAS. Here the layer norm stays a
    loop of its own and the product a product, while chains of elementwise
    ops and elementwise ops feeding a reduction of all their elements (the
    `exp` of a softmax into its sum) still become one loop. The reshapes
    upstream folds by expansion and its canonicalizations are the same.
    `moon-bufferize` runs it first, on tensors.

    ```mlir
    %ln = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<128x256xf32>) outs(%e : tensor<128x256xf32>) { ... }
    %y = linalg.generic {indexing_maps = [#ik, #kj, #ij],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%ln, %w : tensor<128x256xf32>, tensor<256x1024xf32>) outs(%z : tensor<128x1024xf32>) { ... }
    ```

    stays as it is (`#ik` is not a permutation of the product's three
    loops), while upstream would recompute the layer norm inside the
    product.
  }];
  let dependentDialects = ["affine::AffineDialect", "linalg::LinalgDialect",
                           "tensor::TensorDialect"];
}

def MoonMathBeforeLibm : Pass<"moon-math-before-libm", "ModuleOp"> {
  let summary = "Lower the math ops convert-math-to-libm cannot take (rsqrt, "
                "clampf, sincos, copysign, the is* tests, the integer ops)";
  let description = [{
    MLIR 22's `convert-math-to-libm` marks the whole math dialect illegal,
    so it fails on every math op libm has no function for, and it turns
    `math.rsqrt` into a call of `rsqrt`, which libm lacks. This pass, which
    `moon-cpu-pipeline` runs just before it, lowers those ops:

    - `rsqrt` becomes `1 / sqrt(x)` (LLVM ops);
    - `clampf` becomes MLIR's expansion, `maximumf(minimumf(x, lo), hi)`
      (the op's documented semantics);
    - `isinf` becomes `|x| == +inf` and `isnormal` `smallest normal <= |x|
      < +inf` (ordered compares, so false on NaN);
    - `sincos` becomes a `math.sin` and a `math.cos`, which become libm
      calls like any other (vectorized through libmvec; LLVM merges the two
      calls again where that pays);
    - `copysign`, `absi`, `ctlz`, `cttz`, `ctpop`, `isnan` and `isfinite`
      become LLVM intrinsics (convert-math-to-llvm's patterns, applied to
      these ops only, after flattening n-D vectors to 1-D ones, which those
      patterns need);
    - `fma` becomes `llvm.intr.fma` (scalars and 1-D vectors directly,
      n-D vectors flattened first): libm has it, but a call of it would
      not vectorize, and leaving it to libm would make
      `convert-math-to-libm` walk a module whose only math ops are the
      `fma`s of `moon-inline-exp`'s kernel.

    With none of these ops in the module, the pass changes nothing and
    keeps every analysis.

    The other math ops stay for libm, whose `expm1` and `log1p` are exact
    near 0 (convert-math-to-llvm's are not); `fpowi` and `ipowi` are left to
    `convert-math-to-funcs`, which runs before.

    One of the ops lowered to LLVM on a type the LLVM dialect has no
    equivalent of (a tensor, as before bufferization) fails to legalize: an
    error at the op, and the pass fails.

    ```mlir
    %r = math.rsqrt %x : f64
    %e = math.erfc %r : f64
    %c = math.copysign %a, %b : f32
    %i = math.isinf %x : f64
    ```

    becomes

    ```mlir
    %one = llvm.mlir.constant(1.000000e+00 : f64) : f64
    %s = llvm.intr.sqrt(%x) : (f64) -> f64
    %r = llvm.fdiv %one, %s : f64
    %e = math.erfc %r : f64
    %c = llvm.intr.copysign(%a, %b) : (f32, f32) -> f32
    %abs = math.absf %x : f64
    %inf = arith.constant 0x7FF0000000000000 : f64
    %i = arith.cmpf oeq, %abs, %inf : f64
    ```
  }];
  let dependentDialects = ["arith::ArithDialect", "LLVM::LLVMDialect",
                           "math::MathDialect", "vector::VectorDialect"];
}

def MoonConvertToLLVM : Pass<"moon-convert-to-llvm", "ModuleOp"> {
  let summary = "Lower arith, math, memref, index, cf, ub, func and OpenMP "
                "to the LLVM dialect in one conversion";
  let description = [{
    The last conversion of `moon-cpu-pipeline`: one dialect conversion with
    the patterns of `convert-arith-to-llvm` (after `arith-expand`'s
    expansions of `ceildivsi`, `ceildivui`, `floordivsi` and the scaling
    casts, which have none), `convert-math-to-llvm`,
    `finalize-memref-to-llvm{use-aligned-alloc=1}`,
    `convert-index-to-llvm`, `convert-cf-to-llvm`, `convert-ub-to-llvm`,
    `convert-func-to-llvm` and `convert-openmp-to-llvm`, then
    `reconcile-unrealized-casts`. The result is what those passes give
    run one after the other, for about a quarter of their time: on a
    module of 8,000 small functions (`big_module.py 8000`), the ten
    passes it replaced in `moon-cpu-pipeline` (`convert-arith-to-llvm`
    twice) took 8.1 s, and it takes 2.3 s on one thread and 1.7 s on two.

    - Function bodies are converted first, a function at a time and
      shared among MLIR's threads (when the context has them, and the
      module 64 functions or more); each thread has its own type converter
      and data layouts. One conversion of a whole module would also keep
      a record of every change until it ends (on 8,000 functions, 510 MB
      at the peak instead of 360 MB).
    - The module is converted next: the functions themselves (signatures,
      calls, returns), the ops whose lowering declares a function or a
      global in the module (`memref.alloc`, `memref.dealloc`,
      `memref.copy`, `cf.assert`), and the OpenMP ops.
    - The declarations the patterns add (`aligned_alloc`, `free`, `abort`,
      ...) are found through a symbol table, not a scan of the module.

    An op none of the patterns lowers is left as it is, with casts around
    it (a `vector` op, which `convert-vector-to-llvm` lowers before this
    pass, or a `scf` op): translation to LLVM IR then reports it.

    ```mlir
    func.func @f(%x: memref<?xf64>, %i: index) -> f64 {
      %v = memref.load %x[%i] : memref<?xf64>
      %w = arith.addf %v, %v : f64
      return %w : f64
    }
    ```

    becomes

    ```mlir
    llvm.func @f(%base: !llvm.ptr, %aligned: !llvm.ptr, %offset: i64,
                 %size: i64, %stride: i64, %i: i64) -> f64 {
      %p = llvm.getelementptr inbounds|nuw %aligned[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f64
      %v = llvm.load %p : !llvm.ptr -> f64
      %w = llvm.fadd %v, %v : f64
      llvm.return %w : f64
    }
    ```
  }];
  let dependentDialects = ["LLVM::LLVMDialect"];
}

#endif // MOON_PASSES
