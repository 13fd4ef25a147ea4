// Derivatives of moonrt's BLAS routines (compiler/moonc-autodiff/src/rules/
// blas.rs) checked by `moonc check`: forward mode against finite
// differences, reverse against forward (the dot-product test), with every
// argument active: the matrices, alpha and beta.
//
// RUN: moonc check %s --entry gemm_nn --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemm_nt --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemm_tn --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemm_tt --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemm_same_input --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemm_in_place --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry dots --args '[[1, 2, 3], [0.5, -1, 2]]' | FileCheck %s
// RUN: moonc check %s --entry level1 --args '[[1, 2, 3], [0.5, -1, 2], [2, -1, 0.5], 0.8, 1.3]' | FileCheck %s
// RUN: moonc check %s --entry gemv_n --args '[[[1, 2, 3], [4, 5, 6]], [0.5, -1, 2], [1, -2], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry gemv_t --args '[[[1, 2, 3], [4, 5, 6]], [0.5, -1], [1, -2, 0.25], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %s --entry trmv_unn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_unu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_utn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_utu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_lnn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_lnu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_ltn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trmv_ltu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_unn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_unu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_utn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_utu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_lnn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_lnu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_ltn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry trsv_ltu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %s --entry potrf_lower --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], 0]' | FileCheck %s
// RUN: moonc check %s --entry potrs_lower --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], [[1, 2], [-1, 0.5], [0.3, -2]], 0]' | FileCheck %s
// RUN: moonc check %s --entry potrf_upper --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], 0]' | FileCheck %s
// RUN: moonc check %s --entry potrs_upper --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], [[1, 2], [-1, 0.5], [0.3, -2]], 0]' | FileCheck %s
// f32, the same functions with the element type rewritten:
// RUN: sed -e 's/f64/f32/g; s/moonrt_d/moonrt_s/g' %s > %t.f32.mlir
// RUN: moonc check %t.f32.mlir --entry gemm_tn --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry gemm_in_place --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[0.5, -1, 2], [1.5, 0.25, -0.5], [1, 0, 2]], [[1, -1, 0.5], [2, 0.5, -2], [0, 1, 3]], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry dots --args '[[1, 2, 3], [0.5, -1, 2]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry level1 --args '[[1, 2, 3], [0.5, -1, 2], [2, -1, 0.5], 0.8, 1.3]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry gemv_t --args '[[[1, 2, 3], [4, 5, 6]], [0.5, -1], [1, -2, 0.25], 0.8, 0.7]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry trmv_ltu --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry trsv_unn --args '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry potrf_lower --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], 0]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry potrs_upper --args '[[[4, 1.5, 0.7], [1.2, 3, 0.4], [0.5, 0.9, 5]], [[1, 2], [-1, 0.5], [0.3, -2]], 0]' | FileCheck %s
// CHECK: check: PASS

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
func.func private @moonrt_ddot(!v, !v) -> f64
func.func private @moonrt_daxpy(f64, !v, !v)
func.func private @moonrt_dscal(f64, !v)
func.func private @moonrt_dcopy(!v, !v)
func.func private @moonrt_dnrm2(!v) -> f64
func.func private @moonrt_dasum(!v) -> f64
func.func private @moonrt_dgemv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_dtrmv(i32, i32, i32, !m, !v)
func.func private @moonrt_dtrsv(i32, i32, i32, !m, !v)
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dpotrs(i32, !m, !m) -> i32

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
// C = alpha op(A) op(B) + beta C, then sum(C .* C) (as all below).
func.func @gemm_nn(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %ta = arith.constant 0 : i32
  %tb = arith.constant 0 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %bc = memref.cast %b : memref<3x3xf64> to !m
  %cc = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%ta, %tb, %alpha, %ac, %bc, %beta, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// C = alpha op(A) op(B) + beta C, then sum(C .* C) (as all below).
func.func @gemm_nt(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %ta = arith.constant 0 : i32
  %tb = arith.constant 1 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %bc = memref.cast %b : memref<3x3xf64> to !m
  %cc = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%ta, %tb, %alpha, %ac, %bc, %beta, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// C = alpha op(A) op(B) + beta C, then sum(C .* C) (as all below).
func.func @gemm_tn(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %ta = arith.constant 1 : i32
  %tb = arith.constant 0 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %bc = memref.cast %b : memref<3x3xf64> to !m
  %cc = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%ta, %tb, %alpha, %ac, %bc, %beta, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// C = alpha op(A) op(B) + beta C, then sum(C .* C) (as all below).
func.func @gemm_tt(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %ta = arith.constant 1 : i32
  %tb = arith.constant 1 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %bc = memref.cast %b : memref<3x3xf64> to !m
  %cc = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%ta, %tb, %alpha, %ac, %bc, %beta, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// C = alpha A A^T + beta C: one buffer passed as both inputs.
func.func @gemm_same_input(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %n = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %cc = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%n, %t, %alpha, %ac, %ac, %beta, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// A = alpha A B^T + beta A: the output is also an input.
func.func @gemm_in_place(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %n = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %ac = memref.cast %a : memref<3x3xf64> to !m
  %bc = memref.cast %b : memref<3x3xf64> to !m
  func.call @moonrt_dgemm(%n, %t, %alpha, %ac, %bc, %beta, %ac) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// The f32 routine: C = alpha A^T B + beta C, returning C[0, 1].

// dot(x, y) * dot(x, x), x reversed in the second (stride -1).
func.func @dots(%x: memref<3xf64>, %y: memref<3xf64>) -> f64 {
  %xv = memref.cast %x : memref<3xf64> to !v
  %yv = memref.cast %y : memref<3xf64> to !v
  %rev = memref.reinterpret_cast %x to offset: [2], sizes: [3], strides: [-1] : memref<3xf64> to memref<3xf64, strided<[-1], offset: 2>>
  %rv = memref.cast %rev : memref<3xf64, strided<[-1], offset: 2>> to !v
  %d1 = func.call @moonrt_ddot(%xv, %yv) : (!v, !v) -> f64
  %d2 = func.call @moonrt_ddot(%xv, %rv) : (!v, !v) -> f64
  %r = arith.mulf %d1, %d2 : f64
  return %r : f64
}

// y += alpha x; z = x (copy); z *= beta; y += z (aliasing none);
// x += x (axpy of a buffer onto itself); then nrm2(y) * asum(z) + y[0].
func.func @level1(%x: memref<3xf64>, %y: memref<3xf64>, %z: memref<3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %xv = memref.cast %x : memref<3xf64> to !v
  %yv = memref.cast %y : memref<3xf64> to !v
  %zv = memref.cast %z : memref<3xf64> to !v
  %one = arith.constant 1.0 : f64
  func.call @moonrt_daxpy(%alpha, %xv, %yv) : (f64, !v, !v) -> ()
  func.call @moonrt_dcopy(%xv, %zv) : (!v, !v) -> ()
  func.call @moonrt_dscal(%beta, %zv) : (f64, !v) -> ()
  func.call @moonrt_daxpy(%one, %zv, %yv) : (f64, !v, !v) -> ()
  func.call @moonrt_daxpy(%alpha, %xv, %xv) : (f64, !v, !v) -> ()
  %n = func.call @moonrt_dnrm2(%yv) : (!v) -> f64
  %s = func.call @moonrt_dasum(%zv) : (!v) -> f64
  %c0 = arith.constant 0 : index
  %y0 = memref.load %y[%c0] : memref<3xf64>
  %p = arith.mulf %n, %s : f64
  %r = arith.addf %p, %y0 : f64
  return %r : f64
}

// y = alpha A x + beta y, then sum(y .* y) by dot.
func.func @gemv_n(%a: memref<2x3xf64>, %x: memref<3xf64>, %y: memref<2xf64>, %alpha: f64, %beta: f64) -> f64 {
  %am = memref.cast %a : memref<2x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  %yv = memref.cast %y : memref<2xf64> to !v
  %n = arith.constant 0 : i32
  func.call @moonrt_dgemv(%n, %alpha, %am, %xv, %beta, %yv) : (i32, f64, !m, !v, f64, !v) -> ()
  %r = func.call @moonrt_ddot(%yv, %yv) : (!v, !v) -> f64
  return %r : f64
}

// y = alpha A^T x + beta y, then sum(y .* y) by dot.
func.func @gemv_t(%a: memref<2x3xf64>, %x: memref<2xf64>, %y: memref<3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %am = memref.cast %a : memref<2x3xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %yv = memref.cast %y : memref<3xf64> to !v
  %t = arith.constant 1 : i32
  func.call @moonrt_dgemv(%t, %alpha, %am, %xv, %beta, %yv) : (i32, f64, !m, !v, f64, !v) -> ()
  %r = func.call @moonrt_ddot(%yv, %yv) : (!v, !v) -> f64
  return %r : f64
}

// x = op(T) x and x = op(T)^-1 x for every triangle, transpose and
// diagonal, then x . x (trmv_lnu: lower, not transposed, unit diagonal).
func.func @trmv_unn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_unu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_utn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_utu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_lnn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_lnu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_ltn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trmv_ltu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrmv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_unn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_unu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_utn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_utu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_lnn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_lnu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 0 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_ltn(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 0 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

func.func @trsv_ltu(%a: memref<3x3xf64>, %x: memref<3xf64>) -> f64 {
  %l = arith.constant 1 : i32
  %t = arith.constant 1 : i32
  %u = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  func.call @moonrt_dtrsv(%l, %t, %u, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%xv, %xv) : (!v, !v) -> f64
  return %r : f64
}

// Cholesky in place (the stored matrix is not symmetric: only the triangle
// read counts), then a weighted sum of squares of the result; and a solve
// through the factor. Lower and upper factors.
func.func @potrf_lower(%a: memref<3x3xf64>, %unused: i32) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %l = arith.constant 1 : i32
  %info = func.call @moonrt_dpotrf(%l, %am) : (i32, !m) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %wgt = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %wgt : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}
func.func @potrs_lower(%a: memref<3x3xf64>, %b: memref<3x2xf64>, %unused: i32) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x2xf64> to !m
  %l = arith.constant 1 : i32
  %i1 = func.call @moonrt_dpotrf(%l, %am) : (i32, !m) -> i32
  %i2 = func.call @moonrt_dpotrs(%l, %am, %bm) : (i32, !m, !m) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%b : memref<3x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

func.func @potrf_upper(%a: memref<3x3xf64>, %unused: i32) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %l = arith.constant 0 : i32
  %info = func.call @moonrt_dpotrf(%l, %am) : (i32, !m) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %wgt = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %wgt : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}
func.func @potrs_upper(%a: memref<3x3xf64>, %b: memref<3x2xf64>, %unused: i32) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x2xf64> to !m
  %l = arith.constant 0 : i32
  %i1 = func.call @moonrt_dpotrf(%l, %am) : (i32, !m) -> i32
  %i2 = func.call @moonrt_dpotrs(%l, %am, %bm) : (i32, !m, !m) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%b : memref<3x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}
