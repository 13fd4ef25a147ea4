// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// The reverse of symm, syrk and trsm (flags constants) calls BLAS, never a
// loop: trsm's adjoint solves with the transpose and takes dA from one gemm
// masked to the triangle; syrk's dA is a gemm by T + T^T; symm's dB a symm
// and dA a gemm folded onto the triangle.
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dsymm(i32, i32, f64, !m, !m, f64, !m)
func.func private @moonrt_dsyrk(i32, i32, f64, !m, f64, !m)
func.func private @moonrt_dtrsm(i32, i32, i32, i32, f64, !m, !m)
func.func @f(%a: !m, %b: !m, %c: !m, %alpha: f64) -> f64 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %beta = arith.constant 0.0 : f64
  func.call @moonrt_dsymm(%zero, %one, %alpha, %a, %b, %beta, %c) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  func.call @moonrt_dsyrk(%one, %zero, %alpha, %c, %beta, %b) : (i32, i32, f64, !m, f64, !m) -> ()
  func.call @moonrt_dtrsm(%zero, %one, %zero, %zero, %alpha, %a, %b) : (i32, i32, i32, i32, f64, !m, !m) -> ()
  %c0 = arith.constant 0 : index
  %r = memref.load %b[%c0, %c0] : !m
  return %r : f64
}
func.func @grad(%a: !m, %b: !m, %c: !m, %alpha: f64, %da: !m, %db: !m, %dc: !m) -> (f64, f64) {
  %r, %dalpha = moon.value_and_grad @f(%a, %b, %c, %alpha, %da, %db, %dc) : (!m, !m, !m, f64, !m, !m, !m) -> (f64, f64)
  return %r, %dalpha : f64, f64
}
// CHECK-LABEL: func.func private @f_vjp
// CHECK: call @moonrt_dsymm
// CHECK: call @moonrt_dsyrk
// CHECK: call @moonrt_dtrsm
// CHECK-NOT: scf.for
// trsm: H = T^-T G (the transpose flag flipped), dA -= T(H X^T).
// CHECK: call @moonrt_dtrsm(%{{.*}}, %{{.*}}, %c1_i32
// CHECK: call @moonrt_dgemm
// CHECK: linalg.generic
// syrk: dalpha from syrk, dA from a gemm by T + T^T.
// CHECK: call @moonrt_dsyrk
// CHECK: call @moonrt_dgemm
// symm: dalpha from symm, dA from a folded gemm, dB from symm.
// CHECK: call @moonrt_dsymm
// CHECK: call @moonrt_dgemm
// CHECK: call @moonrt_dsymm
// CHECK-NOT: scf.for
// CHECK: return
