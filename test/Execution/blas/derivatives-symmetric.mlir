// Derivatives of ger and of the routines on symmetric matrices (symv,
// symm, syrk; compiler/moonc-autodiff/src/rules/blas/) by `moonc check`:
// forward mode against finite differences, reverse against forward, every
// argument active. The symmetric matrices are stored unsymmetric: only the
// triangle read may get a derivative. Flags are set as in
// derivatives-triangular.mlir, by rewriting the constants marked RIGHT,
// LOWER and TRANS; the f32 variants by rewriting the element type.
//
// DEFINE: %{ger} = '[[[1, 2, 3], [4, 5, 6]], [0.5, -1], [1, -2, 0.25], 0.8]'
// DEFINE: %{symv} = '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [1, -2, 0.5], [0.5, 1, -1], 0.8, 0.7]'
// DEFINE: %{symm} = '[[[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], [[1, -2, 0.3], [0.5, 1.5, -0.7], [-1, 0.25, 2]], [[0.5, 1, -1], [2, -0.5, 1], [1, 1, 0.5]], 0.8, 0.7]'
// DEFINE: %{syrk} = '[[[1, -2, 0.3], [0.5, 1.5, -0.7], [-1, 0.25, 2]], [[2, 0.5, -1], [0.3, 3, 0.7], [-0.4, 0.6, 4]], 0.8, 0.7]'
// RUN: moonc check %s --entry ger --args %{ger} | FileCheck %s
// RUN: moonc check %s --entry symv --args %{symv} | FileCheck %s
// RUN: moonc check %s --entry symm --args %{symm} | FileCheck %s
// RUN: moonc check %s --entry syrk --args %{syrk} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT)$#1 : i32#' %s > %t.1.mlir
// RUN: moonc check %t.1.mlir --entry symm --args %{symm} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER)$#1 : i32#' %s > %t.2.mlir
// RUN: moonc check %t.2.mlir --entry symv --args %{symv} | FileCheck %s
// RUN: moonc check %t.2.mlir --entry symm --args %{symm} | FileCheck %s
// RUN: moonc check %t.2.mlir --entry syrk --args %{syrk} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (TRANS)$#1 : i32#' %s > %t.3.mlir
// RUN: moonc check %t.3.mlir --entry syrk --args %{syrk} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (RIGHT|LOWER)$#1 : i32#' %s > %t.4.mlir
// RUN: moonc check %t.4.mlir --entry symm --args %{symm} | FileCheck %s
// RUN: sed -E 's#0 : i32 // (LOWER|TRANS)$#1 : i32#' %s > %t.6.mlir
// RUN: moonc check %t.6.mlir --entry syrk --args %{syrk} | FileCheck %s
// f32:
// RUN: sed -E 's#f64#f32#g; s#moonrt_d#moonrt_s#g; s#0 : i32 // (RIGHT|TRANS)$#1 : i32#' %s > %t.f32.mlir
// RUN: moonc check %t.f32.mlir --entry ger --args %{ger} | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry symv --args %{symv} | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry symm --args %{symm} | FileCheck %s
// RUN: moonc check %t.f32.mlir --entry syrk --args %{syrk} | FileCheck %s
// CHECK: check: PASS

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
func.func private @moonrt_dger(f64, !v, !v, !m)
func.func private @moonrt_dsymv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_dsymm(i32, i32, f64, !m, !m, f64, !m)
func.func private @moonrt_dsyrk(i32, i32, f64, !m, f64, !m)

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
#id1 = affine_map<(i) -> (i)>
#all1 = affine_map<(i) -> ()>

// A = alpha x y^T + A, then the loss sum_ij (i + 2j + 1) a_ij^2, which
// tells elements apart (as below).
func.func @ger(%a: memref<2x3xf64>, %x: memref<2xf64>, %y: memref<3xf64>, %alpha: f64) -> f64 {
  %am = memref.cast %a : memref<2x3xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %yv = memref.cast %y : memref<3xf64> to !v
  func.call @moonrt_dger(%alpha, %xv, %yv, %am) : (f64, !v, !v, !m) -> ()
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

// y = alpha S x + beta y, then sum_i (i + 1) y_i^2.
func.func @symv(%a: memref<3x3xf64>, %x: memref<3xf64>, %y: memref<3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %lower = arith.constant 0 : i32 // LOWER
  %am = memref.cast %a : memref<3x3xf64> to !m
  %xv = memref.cast %x : memref<3xf64> to !v
  %yv = memref.cast %y : memref<3xf64> to !v
  func.call @moonrt_dsymv(%lower, %alpha, %am, %xv, %beta, %yv) : (i32, f64, !m, !v, f64, !v) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id1, #all1], iterator_types = ["reduction"]}
      ins(%yv : !v) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %ki = arith.index_cast %i : index to i64
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

// C = alpha S B + beta C (from the right: alpha B S + beta C).
func.func @symm(%a: memref<3x3xf64>, %b: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %right = arith.constant 0 : i32 // RIGHT
  %lower = arith.constant 0 : i32 // LOWER
  %am = memref.cast %a : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x3xf64> to !m
  %cm = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dsymm(%right, %lower, %alpha, %am, %bm, %beta, %cm) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%cm : !m) outs(%acc : memref<f64>) {
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

// C = alpha op(A) op(A)^T + beta C on one triangle; the loss reads all of
// C, so the other triangle's derivative passes through.
func.func @syrk(%a: memref<3x3xf64>, %c: memref<3x3xf64>, %alpha: f64, %beta: f64) -> f64 {
  %lower = arith.constant 0 : i32 // LOWER
  %trans = arith.constant 0 : i32 // TRANS
  %am = memref.cast %a : memref<3x3xf64> to !m
  %cm = memref.cast %c : memref<3x3xf64> to !m
  func.call @moonrt_dsyrk(%lower, %trans, %alpha, %am, %beta, %cm) : (i32, i32, f64, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%cm : !m) outs(%acc : memref<f64>) {
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
