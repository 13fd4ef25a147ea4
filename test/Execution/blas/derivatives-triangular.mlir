// Derivatives of the triangular BLAS 3 routines and LAPACK's trtrs
// (compiler/moonc-autodiff/src/rules/blas/) by `moonc check`: forward
// mode against finite differences, reverse against forward, every argument
// active. Each function is written once with all flags 0; the RUN lines set
// flags by rewriting the constants marked RIGHT, LOWER, TRANS and UNIT, and
// make the f32 variants by rewriting the element type.
//
// trmm, every side, triangle, transpose and diagonal:
// DEFINE: %{tri} = '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [[1, -2, 0.3], [0.5, 1.5, -0.7], [-1, 0.25, 2]], 0.8]'
// DEFINE: %{trtrs} = '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [[1, -2], [0.5, 1.5], [-1, 0.25]]]'
// trmm and trsm, every side, triangle, transpose and diagonal; trtrs every
// triangle, transpose and diagonal:
// RUN: moonc check %s --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %s --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %s --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT)$#1 : i32#' %s > %t.1.mlir
// RUN: moonc check %t.1.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.1.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER)$#1 : i32#' %s > %t.2.mlir
// RUN: moonc check %t.2.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.2.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.2.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (TRANS)$#1 : i32#' %s > %t.3.mlir
// RUN: moonc check %t.3.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.3.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.3.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (UNIT)$#1 : i32#' %s > %t.4.mlir
// RUN: moonc check %t.4.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.4.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.4.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|LOWER)$#1 : i32#' %s > %t.5.mlir
// RUN: moonc check %t.5.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.5.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|TRANS)$#1 : i32#' %s > %t.6.mlir
// RUN: moonc check %t.6.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.6.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|UNIT)$#1 : i32#' %s > %t.7.mlir
// RUN: moonc check %t.7.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.7.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER|TRANS)$#1 : i32#' %s > %t.8.mlir
// RUN: moonc check %t.8.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.8.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.8.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER|UNIT)$#1 : i32#' %s > %t.9.mlir
// RUN: moonc check %t.9.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.9.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.9.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (TRANS|UNIT)$#1 : i32#' %s > %t.10.mlir
// RUN: moonc check %t.10.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.10.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.10.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|LOWER|TRANS)$#1 : i32#' %s > %t.11.mlir
// RUN: moonc check %t.11.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.11.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|LOWER|UNIT)$#1 : i32#' %s > %t.12.mlir
// RUN: moonc check %t.12.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.12.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|TRANS|UNIT)$#1 : i32#' %s > %t.13.mlir
// RUN: moonc check %t.13.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.13.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER|TRANS|UNIT)$#1 : i32#' %s > %t.14.mlir
// RUN: moonc check %t.14.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.14.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.14.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|LOWER|TRANS|UNIT)$#1 : i32#' %s > %t.15.mlir
// RUN: moonc check %t.15.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.15.mlir --entry trsm --args %{tri} | FileCheck %s
// f32:
// RUN: sed -E 's#f64#f32#g; s#moonrt_d#moonrt_s#g; s#0 : i32 // (RIGHT|TRANS)$#1 : i32#' %s > %t.f32.mlir
// RUN: moonc check %t.f32.mlir --entry trmm --args %{tri} | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry trsm --args %{tri} | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry trtrs --args %{trtrs} | FileCheck %s
// CHECK: check: PASS

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dtrmm(i32, i32, i32, i32, f64, !m, !m)
func.func private @moonrt_dtrsm(i32, i32, i32, i32, f64, !m, !m)
func.func private @moonrt_dtrtrs(i32, i32, i32, !m, !m) -> i32

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

// B = alpha op(T) B (from the right: alpha B op(T)), then the loss
// sum_ij (i + 2j + 1) b_ij^2, which tells elements apart (as below).
func.func @trmm(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %alpha: f64) -> f64 {
  %right = arith.constant 0 : i32 // RIGHT
  %lower = arith.constant 0 : i32 // LOWER
  %trans = arith.constant 0 : i32 // TRANS
  %unit = arith.constant 0 : i32 // UNIT
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x3xf64> to !m
  func.call @moonrt_dtrmm(%right, %lower, %trans, %unit, %alpha, %am, %bm) : (i32, i32, i32, i32, f64, !m, !m) -> ()
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

// The same with op(T)^-1.
func.func @trsm(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %alpha: f64) -> f64 {
  %right = arith.constant 0 : i32 // RIGHT
  %lower = arith.constant 0 : i32 // LOWER
  %trans = arith.constant 0 : i32 // TRANS
  %unit = arith.constant 0 : i32 // UNIT
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x3xf64> to !m
  func.call @moonrt_dtrsm(%right, %lower, %trans, %unit, %alpha, %am, %bm) : (i32, i32, i32, i32, f64, !m, !m) -> ()
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

// B = op(T)^-1 B by LAPACK.
func.func @trtrs(%a: memref<3x3xf64>, %b: memref<3x2xf64>) -> f64 {
  %lower = arith.constant 0 : i32 // LOWER
  %trans = arith.constant 0 : i32 // TRANS
  %unit = arith.constant 0 : i32 // UNIT
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x2xf64> to !m
  %info = func.call @moonrt_dtrtrs(%lower, %trans, %unit, %am, %bm) : (i32, i32, i32, !m, !m) -> i32
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
