// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// r = y . y with y = U^-1 (A x): gemv, then trsv in place, then dot.
// Reverse (ops in reverse order): dot's adjoint by axpy (twice, y with
// itself); trsv's: H = U^-T G by trsv, dU by ger into a scratch matrix
// masked to the upper triangle; gemv's: dA by ger, dx by gemv with the
// transpose flipped. No loops.
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!v = memref<?xf64, strided<[?], offset: ?>>
func.func private @moonrt_dgemv(i32, f64, !m, !v, f64, !v)
func.func private @moonrt_dtrsv(i32, i32, i32, !m, !v)
func.func private @moonrt_ddot(!v, !v) -> f64
func.func @f(%a: !m, %u: !m, %x: !v, %y: !v) -> f64 {
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  func.call @moonrt_dgemv(%n, %one, %a, %x, %zero, %y) : (i32, f64, !m, !v, f64, !v) -> ()
  func.call @moonrt_dtrsv(%n, %n, %n, %u, %y) : (i32, i32, i32, !m, !v) -> ()
  %r = func.call @moonrt_ddot(%y, %y) : (!v, !v) -> f64
  return %r : f64
}
func.func @grad(%a: !m, %u: !m, %x: !v, %y: !v, %da: !m, %du: !m, %dx: !v, %dy: !v) -> f64 {
  %r = moon.value_and_grad @f(%a, %u, %x, %y, %da, %du, %dx, %dy) : (!m, !m, !v, !v, !m, !m, !v, !v) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @f_vjp
// CHECK: call @moonrt_dgemv
// CHECK: call @moonrt_dtrsv
// CHECK: call @moonrt_ddot
// CHECK-NOT: scf.for
// CHECK: call @moonrt_daxpy
// CHECK: call @moonrt_daxpy
// CHECK: call @moonrt_dtrsv
// CHECK: call @moonrt_dger
// CHECK: linalg.index
// CHECK: call @moonrt_dger
// CHECK: call @moonrt_dgemv
// CHECK-NOT: scf.for
// CHECK: return
