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
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dsytrf(i32, !m, !p) -> i32
// sytrf's factor carries the derivative of the matrix it factors, which
// only sytrs may read: a load of a factor element cannot be differentiated.
func.func @factor_read(%a: memref<3x3xf64>) -> f64 {
  %lower = arith.constant 1 : i32
  %f = memref.alloc() : memref<3x3xf64>
  memref.copy %a, %f : memref<3x3xf64> to memref<3x3xf64>
  %fm = memref.cast %f : memref<3x3xf64> to !m
  %ipiv = memref.alloca() : memref<3xi32>
  %pv = memref.cast %ipiv : memref<3xi32> to !p
  %info = func.call @moonrt_dsytrf(%lower, %fm, %pv) : (i32, !m, !p) -> i32
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{moonc differentiates sytrf's factor only where nothing but sytrs reads it after the factorization, not this memref.load}}
  %d = memref.load %f[%c0, %c0] : memref<3x3xf64>
  memref.dealloc %f : memref<3x3xf64>
  return %d : f64
}
func.func @vjp(%a: memref<3x3xf64>, %da: memref<3x3xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @factor_read(%a, %da, %one) : (memref<3x3xf64>, memref<3x3xf64>, f64) -> f64
  return %r : f64
}

// -----

!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dsytrf(i32, !m, !p) -> i32
// The factor must be the function's own buffer: a caller could read it.
func.func @argument(%a: !m, %pv: !p) {
  %lower = arith.constant 1 : i32
  // expected-error @+1 {{moonc differentiates sytrf only on a buffer allocated in the same function}}
  %info = func.call @moonrt_dsytrf(%lower, %a, %pv) : (i32, !m, !p) -> i32
  return
}
func.func @jvp(%a: !m, %pv: !p, %da: !m) {
  moon.jvp @argument(%a, %pv, %da) : (!m, !p, !m) -> ()
  return
}
