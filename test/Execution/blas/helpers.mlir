// moonrt's helpers for derivative rules called from MLIR (docs/blas.md,
// "Helpers for derivative rules"): laswp and potrf_adjoint, on small
// matrices with exact results.
//
// Rows 0 and 2 swapped, then rows 1 and 2 (forward); the reverse order
// undoes a forward pass.
// RUN: moonc run %s --entry laswp --args '[1, [[1, 2], [3, 4], [5, 6]], [3, 3]]' | FileCheck %s --check-prefix=FWD
// FWD: "args": [null, {{\[\[}}5.0, 6.0], [1.0, 2.0], [3.0, 4.0]], [3, 3]]
// RUN: moonc run %s --entry laswp --args '[0, [[1, 2], [3, 4], [5, 6]], [3, 3]]' | FileCheck %s --check-prefix=BWD
// BWD: "args": [null, {{\[\[}}3.0, 4.0], [5.0, 6.0], [1.0, 2.0]], [3, 3]]
// RUN: moonc run %s --entry laswp_transposed --args '[[[1, 3, 5], [2, 4, 6]], [3, 3]]' | FileCheck %s --check-prefix=COL
// COL: "args": {{\[\[\[}}5.0, 1.0, 3.0], [6.0, 2.0, 4.0]], [3, 3]]
// RUN: moonc run %s --entry laswp_f32 --args '[[[1], [2]], [2]]' | FileCheck %s --check-prefix=F32
// F32: "args": {{\[\[\[}}2.0], [1.0]], [2]]
// RUN: moonc run %s --entry lu_pivots --args '[[[2, 1], [4, 4]], [[5], [16]], [0, 0]]' | FileCheck %s --check-prefix=LU
// LU: "results": [0], "args": [{{.*}}, {{\[\[}}16.0], [5.0]], [2, 2]]
// RUN: not moonc run %s --entry laswp_f32 --args '[[[1], [2]], [3]]' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: moonc: error: @laswp_f32 reported an error: moonrt_slaswp: ipiv[0] is 3, not a row of A (1 to 2)
//
// A = [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]]; with the
// factor's adjoint G = I, W = L^-T Phi(L^T) L^-1 = A^-1 = [[5, -2], [-2,
// 4]] / 16: the diagonal gets 0.3125 and 0.25, below it -0.25 = 2 W_10.
// The other triangle (the 9) is not touched.
// RUN: moonc run %s --entry cholesky_adjoint --args '[1, [[4, 2], [2, 5]], [[1, 9], [0, 1]]]' | FileCheck %s --check-prefix=CHOL
// CHOL: "args": [null, {{\[\[}}2.0, 2.0], [1.0, 2.0]], {{\[\[}}0.3125, 9.0], [-0.25, 0.25]]]
// RUN: moonc run %s --entry cholesky_adjoint --args '[0, [[4, 2], [2, 5]], [[1, 0], [9, 1]]]' | FileCheck %s --check-prefix=UPPER
// UPPER: "args": [null, {{\[\[}}2.0, 1.0], [2.0, 2.0]], {{\[\[}}0.3125, -0.25], [9.0, 0.25]]]
// RUN: moonc run %s --entry potrf_adjoint_f32 --args '[[[2, 7], [1, 2]], [[1, 9], [0, 1]]]' | FileCheck %s --check-prefix=CHOL32
// CHOL32: "args": [{{\[\[}}2.0, 7.0], [1.0, 2.0]], {{\[\[}}0.3125, 9.0], [-0.25, 0.25]]]
// RUN: not moonc run %s --entry potrf_adjoint_f32 --args '[[[2, 7], [1, 2]], [[1, 9]]]' 2>&1 | FileCheck %s --check-prefix=SIZES
// SIZES: moonc: error: @potrf_adjoint_f32 reported an error: moonrt_spotrf_adjoint: L is 2x2 but G is 1x2

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!ms = memref<?x?xf32, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dlaswp(i32, !m, !p)
func.func private @moonrt_slaswp(i32, !ms, !p)
func.func private @moonrt_dgetrf(!m, !p) -> i32
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dpotrf_adjoint(i32, !m, !m)
func.func private @moonrt_spotrf_adjoint(i32, !ms, !ms)

// A's rows interchanged, forward or backward.
func.func @laswp(%forward: i32, %a: memref<3x2xf64>, %ipiv: memref<2xi32>) {
  %am = memref.cast %a : memref<3x2xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  func.call @moonrt_dlaswp(%forward, %am, %p) : (i32, !m, !p) -> ()
  return
}

// The rows of the transpose of a 2x3 buffer (column-major), forward.
func.func @laswp_transposed(%at: memref<2x3xf64>, %ipiv: memref<2xi32>) {
  %a = memref.transpose %at (i, j) -> (j, i) : memref<2x3xf64> to memref<3x2xf64, strided<[1, 3]>>
  %am = memref.cast %a : memref<3x2xf64, strided<[1, 3]>> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %forward = arith.constant 1 : i32
  func.call @moonrt_dlaswp(%forward, %am, %p) : (i32, !m, !p) -> ()
  return
}

func.func @laswp_f32(%a: memref<2x1xf32>, %ipiv: memref<1xi32>) {
  %am = memref.cast %a : memref<2x1xf32> to !ms
  %p = memref.cast %ipiv : memref<1xi32> to !p
  %forward = arith.constant 1 : i32
  func.call @moonrt_slaswp(%forward, %am, %p) : (i32, !ms, !p) -> ()
  return
}

// getrf's pivots applied to b: P^T b (A = P L U pivots its rows 0 and 1).
func.func @lu_pivots(%a: memref<2x2xf64>, %b: memref<2x1xf64>, %ipiv: memref<2xi32>) -> i32 {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %forward = arith.constant 1 : i32
  %info = func.call @moonrt_dgetrf(%am, %p) : (!m, !p) -> i32
  func.call @moonrt_dlaswp(%forward, %bm, %p) : (i32, !m, !p) -> ()
  return %info : i32
}

// potrf of A in its lower (or upper) triangle, then the adjoint of the
// factor's G in place.
func.func @cholesky_adjoint(%lower: i32, %a: memref<2x2xf64>, %g: memref<2x2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %gm = memref.cast %g : memref<2x2xf64> to !m
  %info = func.call @moonrt_dpotrf(%lower, %am) : (i32, !m) -> i32
  func.call @moonrt_dpotrf_adjoint(%lower, %am, %gm) : (i32, !m, !m) -> ()
  return
}

// The factor given directly (the 7 above the diagonal is not read), in f32.
func.func @potrf_adjoint_f32(%l: memref<?x?xf32>, %g: memref<?x?xf32>) {
  %lm = memref.cast %l : memref<?x?xf32> to !ms
  %gm = memref.cast %g : memref<?x?xf32> to !ms
  %lower = arith.constant 1 : i32
  func.call @moonrt_spotrf_adjoint(%lower, %lm, %gm) : (i32, !ms, !ms) -> ()
  return
}
