// Derivatives of the LU and symmetric-indefinite LAPACK routines (getrf,
// getrs, getri, sytrf, sytrs; compiler/moonc-autodiff/src/rules/blas/)
// by `moonc check`: forward mode against finite differences, reverse
// against forward. The matrices make getrf pivot and sytrf take a 2x2
// pivot block; sytrf's matrix is stored unsymmetric (only the triangle
// read may get a derivative). Flags are set by rewriting the constants
// marked LOWER and TRANS; the f32 variants by rewriting the element type.
//
// RUN: moonc check %s --entry getrf --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]]]' | FileCheck %s
// RUN: moonc check %s --entry getrs --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// RUN: sed -E 's#0 : i32 // TRANS$#1 : i32#' %s > %t.mlir
// RUN: moonc check %t.mlir --entry getrs --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// RUN: moonc check %s --entry getri --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]]]' | FileCheck %s
// RUN: moonc check %s --entry sytrs --args '[[[0.1, 0.5, -1], [7, 0.2, 3], [9, 8, 1]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// RUN: sed -E 's#0 : i32 // LOWER$#1 : i32#' %s > %t.mlir
// RUN: moonc check %t.mlir --entry sytrs --args '[[[0.1, 7, 9], [0.5, 0.2, 8], [-1, 3, 1]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// RUN: sed -E 's#f64#f32#g; s#moonrt_d#moonrt_s#g; s#0 : i32 // (TRANS|LOWER)$#1 : i32#' %s > %t.f32.mlir
// RUN: moonc check %t.f32.mlir --entry getrf --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry getrs --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry getri --args '[[[1, 2, 3], [4, 5, 6], [7, 8, 10]]]' | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry sytrs --args '[[[0.1, 7, 9], [0.5, 0.2, 8], [-1, 3, 1]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]' | FileCheck %s
// CHECK: check: PASS

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dgetrf(!m, !p) -> i32
func.func private @moonrt_dgetrs(i32, !m, !p, !m) -> i32
func.func private @moonrt_dgetri(!m, !p) -> i32
func.func private @moonrt_dsytrf(i32, !m, !p) -> i32
func.func private @moonrt_dsytrs(i32, !m, !p, !m) -> i32

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

// The packed factors of A = P L U, then the loss sum_ij (i + 2j + 1)
// x_ij^2 of them, which tells elements apart (as below).
func.func @getrf(%a: memref<3x3xf64>) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %info = func.call @moonrt_dgetrf(%am, %pv) : (!m, !p) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%am : !m) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.addi %j, %j : index
    %k = arith.addi %i, %jj : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %w = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %w : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}

// X = op(A)^-1 B through the factors.
func.func @getrs(%a: memref<3x3xf64>, %b: memref<3x2xf64>) -> f64 {
  %trans = arith.constant 0 : i32 // TRANS
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x2xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%am, %pv) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetrs(%trans, %am, %pv, %bm) : (i32, !m, !p, !m) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%bm : !m) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.addi %j, %j : index
    %k = arith.addi %i, %jj : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %w = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %w : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}

// A^-1 through the factors.
func.func @getri(%a: memref<3x3xf64>) -> f64 {
  %am = memref.cast %a : memref<3x3xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%am, %pv) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetri(%am, %pv) : (!m, !p) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%am : !m) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.addi %j, %j : index
    %k = arith.addi %i, %jj : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %w = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %w : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}

// X = A^-1 B, A symmetric indefinite, factored by sytrf in a local copy
// (the rule wants the factor read only by sytrs).
func.func @sytrs(%a: memref<3x3xf64>, %b: memref<3x2xf64>) -> f64 {
  %lower = arith.constant 0 : i32 // LOWER
  %f = memref.alloc() : memref<3x3xf64>
  memref.copy %a, %f : memref<3x3xf64> to memref<3x3xf64>
  %fm = memref.cast %f : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x2xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %i1 = func.call @moonrt_dsytrf(%lower, %fm, %pv) : (i32, !m, !p) -> i32
  %i2 = func.call @moonrt_dsytrs(%lower, %fm, %pv, %bm) : (i32, !m, !p, !m) -> i32
  memref.dealloc %f : memref<3x3xf64>
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%bm : !m) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.addi %j, %j : index
    %k = arith.addi %i, %jj : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %one = arith.constant 1.0 : f64
    %w = arith.addf %kf, %one : f64
    %p = arith.mulf %v, %w : f64
    %sq = arith.mulf %p, %v : f64
    %s = arith.addf %o, %sq : f64
    linalg.yield %s : f64
  }
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}
