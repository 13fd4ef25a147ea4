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

// The remaining BLAS 1/2 rules, in one function: z = x (copy), z *= a
// (scal), z = T z (trmv, lower), then nrm2(z) + asum(x). Reverse: asum's
// adjoint is a sign generic, nrm2's an axpy; trmv's a ger masked to the
// triangle and a transposed trmv; scal's a scaling generic and a dot for
// a; copy's an axpy and a fill of the shadow.
func.func private @moonrt_dcopy(!v, !v)
func.func private @moonrt_dscal(f64, !v)
func.func private @moonrt_dtrmv(i32, i32, i32, !m, !v)
func.func private @moonrt_dnrm2(!v) -> f64
func.func private @moonrt_dasum(!v) -> f64
func.func @g(%t: !m, %x: !v, %z: !v, %a: f64) -> f64 {
  %n = arith.constant 0 : i32
  %l = arith.constant 1 : i32
  func.call @moonrt_dcopy(%x, %z) : (!v, !v) -> ()
  func.call @moonrt_dscal(%a, %z) : (f64, !v) -> ()
  func.call @moonrt_dtrmv(%l, %n, %n, %t, %z) : (i32, i32, i32, !m, !v) -> ()
  %r1 = func.call @moonrt_dnrm2(%z) : (!v) -> f64
  %r2 = func.call @moonrt_dasum(%x) : (!v) -> f64
  %r = arith.addf %r1, %r2 : f64
  return %r : f64
}
func.func @grad_g(%t: !m, %x: !v, %z: !v, %a: f64, %dt: !m, %dx: !v, %dz: !v) -> (f64, f64) {
  %r:2 = moon.value_and_grad @g(%t, %x, %z, %a, %dt, %dx, %dz) : (!m, !v, !v, f64, !m, !v, !v) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
// CHECK-LABEL: func.func private @g_vjp
// CHECK: call @moonrt_dasum
// CHECK-NOT: scf.for
// CHECK: linalg.generic
// CHECK: call @moonrt_daxpy
// CHECK: call @moonrt_dger
// CHECK: linalg.index
// CHECK: call @moonrt_dtrmv(%{{.*}}, %c1_i32
// CHECK: call @moonrt_ddot
// CHECK: linalg.generic
// CHECK: call @moonrt_daxpy
// CHECK: linalg.fill
// CHECK-NOT: scf.for
// CHECK: return
