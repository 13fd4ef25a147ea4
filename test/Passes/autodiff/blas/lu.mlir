// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// The inverse through getrf and getri, and a solve through sytrf and sytrs.
// Reverse: getri's adjoint (two gemm calls for -A^-T G A^-T, then the
// packed factors' adjoint: laswp, two trmm); getrf's (two trmm, two trsm,
// laswp back); sytrs's (sytrs on the shadow, a gemm folded onto the
// triangle) and nothing for sytrf. No loops.
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dgetrf(!m, !p) -> i32
func.func private @moonrt_dgetri(!m, !p) -> i32
func.func private @moonrt_dsytrf(i32, !m, !p) -> i32
func.func private @moonrt_dsytrs(i32, !m, !p, !m) -> i32
func.func @f(%a: memref<3x3xf64>, %s: memref<3x3xf64>, %b: memref<3x1xf64>) -> f64 {
  %lower = arith.constant 1 : i32
  %am = memref.cast %a : memref<3x3xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%am, %pv) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetri(%am, %pv) : (!m, !p) -> i32
  %f = memref.alloc() : memref<3x3xf64>
  memref.copy %s, %f : memref<3x3xf64> to memref<3x3xf64>
  %fm = memref.cast %f : memref<3x3xf64> to !m
  %bm = memref.cast %b : memref<3x1xf64> to !m
  %jpiv = memref.alloca() : memref<3xi32>
  %jv = memref.cast %jpiv : memref<3xi32> to !p
  %i3 = func.call @moonrt_dsytrf(%lower, %fm, %jv) : (i32, !m, !p) -> i32
  %i4 = func.call @moonrt_dsytrs(%lower, %fm, %jv, %bm) : (i32, !m, !p, !m) -> i32
  memref.dealloc %f : memref<3x3xf64>
  %c0 = arith.constant 0 : index
  %x = memref.load %b[%c0, %c0] : memref<3x1xf64>
  %y = memref.load %a[%c0, %c0] : memref<3x3xf64>
  %r = arith.mulf %x, %y : f64
  return %r : f64
}
func.func @grad(%a: memref<3x3xf64>, %s: memref<3x3xf64>, %b: memref<3x1xf64>, %da: memref<3x3xf64>, %ds: memref<3x3xf64>, %db: memref<3x1xf64>) -> f64 {
  %r = moon.value_and_grad @f(%a, %s, %b, %da, %ds, %db) : (memref<3x3xf64>, memref<3x3xf64>, memref<3x1xf64>, memref<3x3xf64>, memref<3x3xf64>, memref<3x1xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @f_vjp
// CHECK: call @moonrt_dgetrf
// CHECK: call @moonrt_dgetri
// CHECK: call @moonrt_dsytrf
// CHECK: call @moonrt_dsytrs
// CHECK-NOT: scf.for
// CHECK: call @moonrt_dsytrs
// CHECK: call @moonrt_dgemm
// CHECK: linalg.generic
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dlaswp
// CHECK: call @moonrt_dtrmm
// CHECK: call @moonrt_dtrmm
// CHECK: linalg.generic
// CHECK: call @moonrt_dtrmm
// CHECK: call @moonrt_dtrmm
// CHECK: call @moonrt_dtrsm
// CHECK: call @moonrt_dtrsm
// CHECK: call @moonrt_dlaswp
// CHECK-NOT: scf.for
// CHECK: return
