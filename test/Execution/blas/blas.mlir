// moonrt's BLAS entry points called from MLIR (docs/blas.md): transposes,
// column-major views, negative strides, aliased arguments, f32 and f64.
//
// RUN: moonc run %s --entry gemm_nt --args '[[[1, 2, 3], [4, 5, 6]], [[1, 0, 1], [0, 1, 0]], [[9, 9], [9, 9]]]' | FileCheck %s --check-prefix=NT
// NT: [4.0, 2.0], [10.0, 5.0]
// RUN: moonc run %s --entry gemm_colmajor --args '[[[1, 4], [2, 5], [3, 6]], [[1, 2], [3, 4], [5, 6]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=COL
// COL: [22.0, 28.0], [49.0, 64.0]
// RUN: moonc run %s --entry gemm_same --args '[[[1, 2, 3], [4, 5, 6]], [[1, 1], [1, 1]]]' | FileCheck %s --check-prefix=SAME
// SAME: [29.0, 65.0], [65.0, 155.0]
// RUN: moonc run %s --entry gemm_in_place --args '[[[1, 2], [3, 4]], [[0, 1], [1, 0]]]' | FileCheck %s --check-prefix=INPLACE
// INPLACE: "args": {{\[\[\[}}2.0, 1.0], [4.0, 3.0]]
// RUN: moonc run %s --entry gemm_strided_out --args '[[[1, 2], [3, 4]], [[1, 0], [0, 1]], [[0, 7, 0, 7], [0, 7, 0, 7]]]' | FileCheck %s --check-prefix=STRIDED
// STRIDED: [1.0, 7.0, 2.0, 7.0], [3.0, 7.0, 4.0, 7.0]]]
// RUN: moonc run %s --entry gemv_t --args '[[[1, 2], [3, 4], [5, 6]], [[1, 0, 1], [7, 0, 2], [0, 0, 0]], [1, 1]]' | FileCheck %s --check-prefix=GEMV
// GEMV: [23.0, 31.0]]
// RUN: moonc run %s --entry level1 --args '[[1, 2, 3, 4], [10, 20, 30, 40]]' | FileCheck %s --check-prefix=L1
// L1: "results": [300.0], "args": {{\[\[}}1.0, 2.0, 3.0, 4.0], [15.0, 25.0, 35.0, 45.0]]
// RUN: moonc run %s --entry norms_f32 --args '[[3, -4, 0]]' | FileCheck %s --check-prefix=F32
// F32: "results": [5.0, 7.0, 25.0]
// RUN: not moonc run %s --entry mismatch --args '[[[1, 2], [3, 4]], [[1, 2, 3]], [[0, 0], [0, 0]]]' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: moonc: error: @mismatch reported an error: moonrt_dgemm: op(A) is 2x2 and op(B) 1x3, but C is 2x2

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
!vs = memref<?xf32, strided<[?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
func.func private @moonrt_dgemv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_ddot(!v, !v) -> f64
func.func private @moonrt_daxpy(f64, !v, !v)
func.func private @moonrt_dscal(f64, !v)
func.func private @moonrt_dcopy(!v, !v)
func.func private @moonrt_snrm2(!vs) -> f32
func.func private @moonrt_sasum(!vs) -> f32
func.func private @moonrt_sdot(!vs, !vs) -> f32

// C = A B^T, C's old contents ignored (beta = 0).
func.func @gemm_nt(%a: memref<2x3xf64>, %b: memref<2x3xf64>, %c: memref<2x2xf64>) {
  %ac = memref.cast %a : memref<2x3xf64> to !m
  %bc = memref.cast %b : memref<2x3xf64> to !m
  %cc = memref.cast %c : memref<2x2xf64> to !m
  %n = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dgemm(%n, %t, %one, %ac, %bc, %zero, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// A given as the transpose of a 3x2 buffer (column-major, strides [1, 2]).
func.func @gemm_colmajor(%at: memref<3x2xf64>, %b: memref<3x2xf64>, %c: memref<2x2xf64>) {
  %a = memref.transpose %at (i, j) -> (j, i) : memref<3x2xf64> to memref<2x3xf64, strided<[1, 2]>>
  %ac = memref.cast %a : memref<2x3xf64, strided<[1, 2]>> to !m
  %bc = memref.cast %b : memref<3x2xf64> to !m
  %cc = memref.cast %c : memref<2x2xf64> to !m
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dgemm(%n, %n, %one, %ac, %bc, %zero, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// C = 2 A A^T + C, A passed twice.
func.func @gemm_same(%a: memref<2x3xf64>, %c: memref<2x2xf64>) {
  %ac = memref.cast %a : memref<2x3xf64> to !m
  %cc = memref.cast %c : memref<2x2xf64> to !m
  %n = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %two = arith.constant 2.0 : f64
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dgemm(%n, %t, %two, %ac, %ac, %one, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// A = A P: the output is also an input (copied first).
func.func @gemm_in_place(%a: memref<2x2xf64>, %p: memref<2x2xf64>) {
  %ac = memref.cast %a : memref<2x2xf64> to !m
  %pc = memref.cast %p : memref<2x2xf64> to !m
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dgemm(%n, %n, %one, %ac, %pc, %zero, %ac) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// C is every other column of a 2x4 buffer (strides [4, 2]), contiguous
// along neither dimension: computed in a copy, copied back.
func.func @gemm_strided_out(%a: memref<2x2xf64>, %b: memref<2x2xf64>, %c4: memref<2x4xf64>) {
  %ac = memref.cast %a : memref<2x2xf64> to !m
  %bc = memref.cast %b : memref<2x2xf64> to !m
  %c = memref.subview %c4[0, 0] [2, 2] [1, 2] : memref<2x4xf64> to memref<2x2xf64, strided<[4, 2]>>
  %cc = memref.cast %c : memref<2x2xf64, strided<[4, 2]>> to !m
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dgemm(%n, %n, %one, %ac, %bc, %zero, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// y = A^T x + y, x a column of another matrix (stride 3).
func.func @gemv_t(%a: memref<3x2xf64>, %xs: memref<3x3xf64>, %y: memref<2xf64>) {
  %ac = memref.cast %a : memref<3x2xf64> to !m
  %col = memref.subview %xs[0, 0] [3, 1] [1, 1] : memref<3x3xf64> to memref<3xf64, strided<[3]>>
  %x = memref.cast %col : memref<3xf64, strided<[3]>> to !v
  %yc = memref.cast %y : memref<2xf64> to !v
  %t = arith.constant 1 : i32
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dgemv(%t, %one, %ac, %x, %one, %yc) : (i32, f64, !m, !v, f64, !v) -> ()
  return
}

// dot(x, y), then in place: y += x reversed (stride -1), y += x,
// y *= 1/2, y += y (aliased), x copied onto itself.
func.func @level1(%x: memref<4xf64>, %y: memref<4xf64>) -> f64 {
  %xv = memref.cast %x : memref<4xf64> to !v
  %yv = memref.cast %y : memref<4xf64> to !v
  %one = arith.constant 1.0 : f64
  %d = func.call @moonrt_ddot(%xv, %yv) : (!v, !v) -> f64
  %rev = memref.reinterpret_cast %x to offset: [3], sizes: [4], strides: [-1] : memref<4xf64> to memref<4xf64, strided<[-1], offset: 3>>
  %rv = memref.cast %rev : memref<4xf64, strided<[-1], offset: 3>> to !v
  func.call @moonrt_daxpy(%one, %rv, %yv) : (f64, !v, !v) -> ()
  func.call @moonrt_daxpy(%one, %xv, %yv) : (f64, !v, !v) -> ()
  %half = arith.constant 0.5 : f64
  func.call @moonrt_dscal(%half, %yv) : (f64, !v) -> ()
  func.call @moonrt_daxpy(%one, %yv, %yv) : (f64, !v, !v) -> ()
  func.call @moonrt_dcopy(%xv, %xv) : (!v, !v) -> ()
  return %d : f64
}

// ||x||_2, ||x||_1 and x . x in f32.
func.func @norms_f32(%x: memref<3xf32>) -> (f32, f32, f32) {
  %xv = memref.cast %x : memref<3xf32> to !vs
  %n = func.call @moonrt_snrm2(%xv) : (!vs) -> f32
  %s = func.call @moonrt_sasum(%xv) : (!vs) -> f32
  %d = func.call @moonrt_sdot(%xv, %xv) : (!vs, !vs) -> f32
  return %n, %s, %d : f32, f32, f32
}

// op(B) has the wrong shape: reported, nothing computed.
func.func @mismatch(%a: memref<2x2xf64>, %b: memref<1x3xf64>, %c: memref<2x2xf64>) {
  %ac = memref.cast %a : memref<2x2xf64> to !m
  %bc = memref.cast %b : memref<1x3xf64> to !m
  %cc = memref.cast %c : memref<2x2xf64> to !m
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dgemm(%n, %n, %one, %ac, %bc, %one, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}
