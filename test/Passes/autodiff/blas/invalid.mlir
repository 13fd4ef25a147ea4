// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-autodiff
// What the BLAS rules cannot differentiate yet: a located error at the call.

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
// A transpose flag that is not a constant: reverse mode must know it.
func.func @flags(%t: i32, %a: !m, %b: !m, %c: !m) {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{the derivative of this call needs transa to be an arith.constant}}
  func.call @moonrt_dgemm(%t, %t, %one, %a, %b, %one, %c) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}
func.func @vjp(%t: i32, %a: !m, %b: !m, %c: !m, %da: !m, %db: !m, %dc: !m) {
  moon.vjp @flags(%t, %a, %b, %c, %da, %db, %dc) : (i32, !m, !m, !m, !m, !m, !m) -> ()
  return
}

// -----

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
// Vector forward mode (width 2) has no BLAS rule yet.
func.func @wide(%a: !m, %b: !m, %c: !m) {
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{@moonrt_dgemm's derivative rule serves width 1 only}}
  func.call @moonrt_dgemm(%n, %n, %one, %a, %b, %one, %c) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  return
}
func.func @jvp(%a: !m, %b: !m, %c: !m, %da: memref<2x?x?xf64>, %db: memref<2x?x?xf64>, %dc: memref<2x?x?xf64>) {
  moon.jvp @wide(%a, %b, %c, %da, %db, %dc) width 2 : (!m, !m, !m, memref<2x?x?xf64>, memref<2x?x?xf64>, memref<2x?x?xf64>) -> ()
  return
}
