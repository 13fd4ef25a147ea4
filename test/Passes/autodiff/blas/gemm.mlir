// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// C = A B^T into a buffer of the function's own, beta = 0 (a constant, not
// active), and C[0, 0] returned.
// Reverse: the gemm runs, then two gemm calls, dA += G B and dB += G^T A,
// then G scaled by beta for C's old contents: no loop, and no copy of C
// (only an active beta needs it), of A or B (nothing writes them), or of G
// (no input shares C's memory).
// Forward: alpha (dA B^T + A dB^T) built in a scratch buffer, then the
// shadow updated and the primal gemm run.
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
func.func @f(%a: memref<2x3xf64>, %b: memref<2x3xf64>) -> f64 {
  %n = arith.constant 0 : i32
  %t = arith.constant 1 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %c = memref.alloc() : memref<2x2xf64>
  %ac = memref.cast %a : memref<2x3xf64> to !m
  %bc = memref.cast %b : memref<2x3xf64> to !m
  %cc = memref.cast %c : memref<2x2xf64> to !m
  func.call @moonrt_dgemm(%n, %t, %one, %ac, %bc, %zero, %cc) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %i = arith.constant 0 : index
  %r = memref.load %c[%i, %i] : memref<2x2xf64>
  memref.dealloc %c : memref<2x2xf64>
  return %r : f64
}
func.func @grad(%a: memref<2x3xf64>, %b: memref<2x3xf64>, %da: memref<2x3xf64>, %db: memref<2x3xf64>) -> f64 {
  %r = moon.value_and_grad @f(%a, %b, %da, %db) : (memref<2x3xf64>, memref<2x3xf64>, memref<2x3xf64>, memref<2x3xf64>) -> f64
  return %r : f64
}
func.func @tangent(%a: memref<2x3xf64>, %b: memref<2x3xf64>, %da: memref<2x3xf64>, %db: memref<2x3xf64>) -> (f64, f64) {
  %r:2 = moon.jvp @f(%a, %b, %da, %db) : (memref<2x3xf64>, memref<2x3xf64>, memref<2x3xf64>, memref<2x3xf64>) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
// CHECK-LABEL: func.func private @f_jvp
// CHECK: %[[P:.*]] = memref.alloc(%
// CHECK: memref.cast %[[P]]
// CHECK-NEXT: call @moonrt_dgemm
// CHECK: memref.cast %[[P]]
// CHECK-NEXT: call @moonrt_dgemm
// CHECK: linalg.generic {{.*}} ins({{.*}}%[[P]]
// CHECK: memref.dealloc %[[P]]
// CHECK-NEXT: call @moonrt_dgemm
// CHECK-LABEL: func.func private @f_vjp
// CHECK-NOT: memref.copy
// CHECK-NOT: scf.for
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dgemm
// CHECK: linalg.generic
// CHECK-NOT: memref.copy
// CHECK-NOT: scf.for
// CHECK: return
