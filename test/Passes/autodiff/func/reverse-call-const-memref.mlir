// RUN: moonc-opt %s --moon-autodiff=inline-max-ops=0 | FileCheck %s
// A `const` memref passed to a call together with an active value: the
// callee's key makes the buffer `dup` (it stores an active value into
// it), and the caller, having no shadow for it, passes a zeroed scratch
// buffer whose derivatives are dropped, as forward mode does (the call is
// not inlined: `inline-max-ops=0`).

// CHECK-LABEL: func.func private @user_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[M:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: f64) -> f64
// CHECK: call @sq_fwd_{{.*}}(%[[X]], %[[M]])
// CHECK: %[[Z:.*]] = memref.alloc({{.*}}) : memref<?xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[Z]] : memref<?xf64>)
// CHECK: call @sq_rev_{{.*}}(%[[X]], %[[M]], %[[Z]], %[[S]])
// CHECK: memref.dealloc %[[Z]]
func.func private @sq(%x: f64, %m: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = memref.load %m[%c0] : memref<?xf64>
  %y = arith.mulf %x, %v : f64
  memref.store %y, %m[%c1] : memref<?xf64>
  return %y : f64
}
func.func @user(%x: f64, %m: memref<?xf64>) -> f64 {
  %y = func.call @sq(%x, %m) : (f64, memref<?xf64>) -> f64
  return %y : f64
}
func.func @caller(%x: f64, %m: memref<?xf64>) -> f64 {
  %r = moon.grad @user(%x, %m) args [active, const] : (f64, memref<?xf64>) -> f64
  return %r : f64
}
