// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// The Cholesky factor of a buffer of the function's own, then a solve
// with it. Reverse: potrs's adjoint (potrs on the shadow, L^T X and L^T Y
// by trmm, two gemm calls for -(Y (L^T X)^T + X (L^T Y)^T), a masked add),
// then potrf's (moonrt's potrf_adjoint). No loops.
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dpotrs(i32, !m, !m) -> i32
func.func @f(%a: memref<3x3xf64>, %b: memref<3x1xf64>) -> f64 {
  %lower = arith.constant 1 : i32
  %l = memref.alloc() : memref<3x3xf64>
  memref.copy %a, %l : memref<3x3xf64> to memref<3x3xf64>
  %lm = memref.cast %l : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x1xf64> to !m
  %i1 = func.call @moonrt_dpotrf(%lower, %lm) : (i32, !m) -> i32
  %i2 = func.call @moonrt_dpotrs(%lower, %lm, %bm) : (i32, !m, !m) -> i32
  %c0 = arith.constant 0 : index
  %r = memref.load %b[%c0, %c0] : memref<3x1xf64>
  memref.dealloc %l : memref<3x3xf64>
  return %r : f64
}
func.func @grad(%a: memref<3x3xf64>, %b: memref<3x1xf64>, %da: memref<3x3xf64>, %db: memref<3x1xf64>) -> f64 {
  %r = moon.value_and_grad @f(%a, %b, %da, %db) : (memref<3x3xf64>, memref<3x1xf64>, memref<3x3xf64>, memref<3x1xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @f_vjp
// CHECK: call @moonrt_dpotrf
// CHECK: call @moonrt_dpotrs
// CHECK-NOT: scf.for
// CHECK: call @moonrt_dpotrs
// CHECK: call @moonrt_dtrmm
// CHECK: call @moonrt_dtrmm
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dgemm
// CHECK: linalg.generic
// CHECK: call @moonrt_dpotrf_adjoint
// CHECK-NOT: scf.for
// CHECK: return
