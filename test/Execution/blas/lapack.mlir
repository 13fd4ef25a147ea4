// moonrt's other BLAS 2/3 routines and its LAPACK routines called from MLIR
// (docs/blas.md), on small matrices with exact results.
//
// RUN: moonc run %s --entry symv_lower --args '[[[2, 9], [1, 3]], [1, 1], [0, 0]]' | FileCheck %s --check-prefix=SYMV
// SYMV: [3.0, 4.0]]
// RUN: moonc run %s --entry trmv_upper --args '[[[1, 2], [9, 3]], [1, 1]]' | FileCheck %s --check-prefix=TRMV
// TRMV: [3.0, 3.0]]
// RUN: moonc run %s --entry trsv_lower_t_unit --args '[[[5, 9], [2, 5]], [5, 1]]' | FileCheck %s --check-prefix=TRSV
// TRSV: [3.0, 1.0]]
// RUN: moonc run %s --entry ger --args '[[1, 2], [3, 4], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=GER
// GER: [3.0, 4.0], [6.0, 8.0]]]
// RUN: moonc run %s --entry symm_upper --args '[[[1, 2], [9, 1]], [[1, 0], [0, 1]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=SYMM
// SYMM: [1.0, 2.0], [2.0, 1.0]]]
// RUN: moonc run %s --entry syrk_lower --args '[[[1, 2], [3, 4]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=SYRK
// SYRK: [5.0, 0.0], [11.0, 25.0]]]
// RUN: moonc run %s --entry trmm_right_lower --args '[[[1, 0], [2, 3]], [[1, 1]]]' | FileCheck %s --check-prefix=TRMM
// TRMM: {{\[\[}}3.0, 3.0]]]
// RUN: moonc run %s --entry trsm_left_upper --args '[[[2, 1], [0, 4]], [[4], [8]]]' | FileCheck %s --check-prefix=TRSM
// TRSM: {{\[\[}}1.0], [2.0]]]
// RUN: moonc run %s --entry lu_solve --args '[[[2, 1], [4, 4]], [[5], [16]], [0, 0]]' | FileCheck %s --check-prefix=LU
// LU: "results": [0, 0], {{.*}}{{\[\[}}1.0], [3.0]], [2, 2]]
// RUN: moonc run %s --entry lu_solve_colmajor --args '[[[2, 4], [1, 4]], [[5], [16]], [0, 0]]' | FileCheck %s --check-prefix=LU
// RUN: moonc run %s --entry lu_inverse --args '[[[4, 2], [2, 2]], [0, 0]]' | FileCheck %s --check-prefix=INV
// INV: "results": [0, 0], "args": {{\[\[\[}}0.5, -0.5], [-0.5, 1.0]]
// RUN: moonc run %s --entry cholesky_solve --args '[[[4, 2], [2, 5]], [[6], [7]]]' | FileCheck %s --check-prefix=CHOL
// CHOL: "results": [0, 0], "args": {{\[\[\[}}2.0, 2.0], [1.0, 2.0]], {{\[\[}}1.0], [1.0]]]
// RUN: moonc run %s --entry triangular_solve --args '[[[2, 1], [0, 4]], [[4], [8]]]' | FileCheck %s --check-prefix=TRTRS
// TRTRS: "results": [0], {{.*}}{{\[\[}}1.0], [2.0]]]
// RUN: moonc run %s --entry symmetric_solve --args '[[[4, 2], [2, 3]], [[6], [5]], [0, 0]]' | FileCheck %s --check-prefix=SY
// SY: "results": [0, 0], {{.*}}{{\[\[}}1.0], [1.0]]
// RUN: moonc run %s --entry singular_f32 --args '[[[1, 2], [2, 4]], [0, 0]]' | FileCheck %s --check-prefix=SING
// SING: "results": [2]

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
!ms = memref<?x?xf32, strided<[?, ?], offset: ?>>
func.func private @moonrt_dsymv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_dtrmv(i32, i32, i32, !m, !v)
func.func private @moonrt_dtrsv(i32, i32, i32, !m, !v)
func.func private @moonrt_dger(f64, !v, !v, !m)
func.func private @moonrt_dsymm(i32, i32, f64, !m, !m, f64, !m)
func.func private @moonrt_dsyrk(i32, i32, f64, !m, f64, !m)
func.func private @moonrt_dtrmm(i32, i32, i32, i32, f64, !m, !m)
func.func private @moonrt_dtrsm(i32, i32, i32, i32, f64, !m, !m)
func.func private @moonrt_dgetrf(!m, !p) -> i32
func.func private @moonrt_dgetrs(i32, !m, !p, !m) -> i32
func.func private @moonrt_dgetri(!m, !p) -> i32
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dpotrs(i32, !m, !m) -> i32
func.func private @moonrt_dtrtrs(i32, i32, i32, !m, !m) -> i32
func.func private @moonrt_dsytrf(i32, !m, !p) -> i32
func.func private @moonrt_dsytrs(i32, !m, !p, !m) -> i32
func.func private @moonrt_sgetrf(!ms, !p) -> i32

// y = A x, A symmetric from its lower triangle (the 9 is not read).
func.func @symv_lower(%a: memref<2x2xf64>, %x: memref<2xf64>, %y: memref<2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %yv = memref.cast %y : memref<2xf64> to !v
  %lower = arith.constant 1 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dsymv(%lower, %one, %am, %xv, %zero, %yv) : (i32, f64, !m, !v, f64, !v) -> ()
  return
}

// x = U x, U the upper triangle of A.
func.func @trmv_upper(%a: memref<2x2xf64>, %x: memref<2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %no = arith.constant 0 : i32
  func.call @moonrt_dtrmv(%no, %no, %no, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  return
}

// x = L^-T x, L unit lower triangular (the 5s on the diagonal not read).
func.func @trsv_lower_t_unit(%a: memref<2x2xf64>, %x: memref<2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %xv = memref.cast %x : memref<2xf64> to !v
  %yes = arith.constant 1 : i32
  func.call @moonrt_dtrsv(%yes, %yes, %yes, %am, %xv) : (i32, i32, i32, !m, !v) -> ()
  return
}

// A = x y^T + A.
func.func @ger(%x: memref<2xf64>, %y: memref<2xf64>, %a: memref<2x2xf64>) {
  %xv = memref.cast %x : memref<2xf64> to !v
  %yv = memref.cast %y : memref<2xf64> to !v
  %am = memref.cast %a : memref<2x2xf64> to !m
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dger(%one, %xv, %yv, %am) : (f64, !v, !v, !m) -> ()
  return
}

// C = A B, A symmetric from its upper triangle.
func.func @symm_upper(%a: memref<2x2xf64>, %b: memref<2x2xf64>, %c: memref<2x2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x2xf64> to !m
  %cm = memref.cast %c : memref<2x2xf64> to !m
  %no = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dsymm(%no, %no, %one, %am, %bm, %zero, %cm) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}

// C = A A^T, only its lower triangle written.
func.func @syrk_lower(%a: memref<2x2xf64>, %c: memref<2x2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %cm = memref.cast %c : memref<2x2xf64> to !m
  %lower = arith.constant 1 : i32
  %no = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dsyrk(%lower, %no, %one, %am, %zero, %cm) : (i32, i32, f64, !m, f64, !m) -> ()
  return
}

// B = B L.
func.func @trmm_right_lower(%a: memref<2x2xf64>, %b: memref<1x2xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<1x2xf64> to !m
  %yes = arith.constant 1 : i32
  %no = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dtrmm(%yes, %yes, %no, %no, %one, %am, %bm) : (i32, i32, i32, i32, f64, !m, !m) -> ()
  return
}

// B = U^-1 B.
func.func @trsm_left_upper(%a: memref<2x2xf64>, %b: memref<2x1xf64>) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %no = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  func.call @moonrt_dtrsm(%no, %no, %no, %no, %one, %am, %bm) : (i32, i32, i32, i32, f64, !m, !m) -> ()
  return
}

// A X = B through the LU factors (getrf, then getrs); returns both infos.
func.func @lu_solve(%a: memref<2x2xf64>, %b: memref<2x1xf64>, %ipiv: memref<2xi32>) -> (i32, i32) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %no = arith.constant 0 : i32
  %i1 = func.call @moonrt_dgetrf(%am, %p) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetrs(%no, %am, %p, %bm) : (i32, !m, !p, !m) -> i32
  return %i1, %i2 : i32, i32
}

// The same with A given as the transpose of a buffer (column-major).
func.func @lu_solve_colmajor(%at: memref<2x2xf64>, %b: memref<2x1xf64>, %ipiv: memref<2xi32>) -> (i32, i32) {
  %a = memref.transpose %at (i, j) -> (j, i) : memref<2x2xf64> to memref<2x2xf64, strided<[1, 2]>>
  %am = memref.cast %a : memref<2x2xf64, strided<[1, 2]>> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %no = arith.constant 0 : i32
  %i1 = func.call @moonrt_dgetrf(%am, %p) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetrs(%no, %am, %p, %bm) : (i32, !m, !p, !m) -> i32
  return %i1, %i2 : i32, i32
}

// A^-1 in place by getrf and getri.
func.func @lu_inverse(%a: memref<2x2xf64>, %ipiv: memref<2xi32>) -> (i32, i32) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%am, %p) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetri(%am, %p) : (!m, !p) -> i32
  return %i1, %i2 : i32, i32
}

// A = L L^T in A's lower triangle (the upper keeps its 2), then A X = B.
func.func @cholesky_solve(%a: memref<2x2xf64>, %b: memref<2x1xf64>) -> (i32, i32) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %lower = arith.constant 1 : i32
  %i1 = func.call @moonrt_dpotrf(%lower, %am) : (i32, !m) -> i32
  %i2 = func.call @moonrt_dpotrs(%lower, %am, %bm) : (i32, !m, !m) -> i32
  return %i1, %i2 : i32, i32
}

// U X = B.
func.func @triangular_solve(%a: memref<2x2xf64>, %b: memref<2x1xf64>) -> i32 {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %no = arith.constant 0 : i32
  %i = func.call @moonrt_dtrtrs(%no, %no, %no, %am, %bm) : (i32, i32, i32, !m, !m) -> i32
  return %i : i32
}

// A X = B by Bunch-Kaufman (lower triangle): sytrf, then sytrs.
func.func @symmetric_solve(%a: memref<2x2xf64>, %b: memref<2x1xf64>, %ipiv: memref<2xi32>) -> (i32, i32) {
  %am = memref.cast %a : memref<2x2xf64> to !m
  %bm = memref.cast %b : memref<2x1xf64> to !m
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %lower = arith.constant 1 : i32
  %i1 = func.call @moonrt_dsytrf(%lower, %am, %p) : (i32, !m, !p) -> i32
  %i2 = func.call @moonrt_dsytrs(%lower, %am, %p, %bm) : (i32, !m, !p, !m) -> i32
  return %i1, %i2 : i32, i32
}

// A singular f32 matrix: getrf's info says which pivot is zero.
func.func @singular_f32(%a: memref<2x2xf32>, %ipiv: memref<2xi32>) -> i32 {
  %am = memref.cast %a : memref<2x2xf32> to !ms
  %p = memref.cast %ipiv : memref<2xi32> to !p
  %i = func.call @moonrt_sgetrf(%am, %p) : (!ms, !p) -> i32
  return %i : i32
}
