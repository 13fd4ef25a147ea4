// RUN: moonc-opt %s --split-input-file --moon-grad-to-vjp | FileCheck %s
// The output parses again.
// RUN: moonc-opt %s --split-input-file --moon-grad-to-vjp | moonc-opt --split-input-file > /dev/null

// moon.grad becomes moon.vjp seeded with 1.0 that drops the primal result.
func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = arith.mulf %x, %y : f64
  return %0 : f64
}
// CHECK-LABEL: func.func @grad(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[G:.*]]:2 = moon.vjp @f(%[[X]], %[[Y]], %[[ONE]]) results [active_noneed] : (f64, f64, f64) -> (f64, f64)
// CHECK: return %[[G]]#1, %[[G]]#0
// CHECK-NOT: moon.grad
func.func @grad(%x: f64, %y: f64) -> (f64, f64) {
  %dx, %dy = moon.grad @f(%x, %y) : (f64, f64) -> (f64, f64)
  return %dy, %dx : f64, f64
}

// -----

// moon.value_and_grad keeps the value, the activities, the shadows and the
// user's attributes; the seed has the callee's result type.
func.func private @loss(f32, memref<?xf32>, i32) -> f32
// CHECK-LABEL: func.func @value_and_grad(
// CHECK-SAME: %[[W:[^:]*]]: f32, %[[D:[^:]*]]: memref<?xf32>, %[[DD:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: i32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]]:2 = moon.vjp @loss(%[[W]], %[[D]], %[[N]], %[[DD]], %[[ONE]]) args [active, dup, const] results [active] {tag = "step"} : (f32, memref<?xf32>, i32, memref<?xf32>, f32) -> (f32, f32)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @value_and_grad(%w: f32, %d: memref<?xf32>, %dd: memref<?xf32>, %n: i32) -> (f32, f32) {
  %v, %dw = moon.value_and_grad @loss(%w, %d, %n, %dd) args [active, dup, const] {tag = "step"}
      : (f32, memref<?xf32>, i32, memref<?xf32>) -> (f32, f32)
  return %v, %dw : f32, f32
}

// -----

// Gradients nested in regions are rewritten too; a grad with only dup
// arguments has no results.
func.func private @sum(memref<4xf64>) -> f64
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK:   %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK:   moon.vjp @sum(%{{.*}}, %{{.*}}, %[[ONE]]) results [active_noneed] : (memref<4xf64>, memref<4xf64>, f64) -> ()
func.func @nested(%m: memref<4xf64>, %dm: memref<4xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    moon.grad @sum(%m, %dm) : (memref<4xf64>, memref<4xf64>) -> ()
  }
  return
}

// -----

// Other moon operations are left alone.
func.func private @g(f64) -> f64
// CHECK-LABEL: func.func @untouched(
// CHECK: moon.jvp @g
// CHECK: moon.hvp @g
func.func @untouched(%x: f64) -> (f64, f64, f64) {
  %y, %dy = moon.jvp @g(%x, %x) : (f64, f64) -> (f64, f64)
  %h = moon.hvp @g(%x, %x) : (f64, f64) -> f64
  return %y, %dy, %h : f64, f64, f64
}

// -----

// A user attribute named like one of moon.vjp's own is dropped rather than
// shadowing it.
func.func private @h(f64) -> f64
// CHECK-LABEL: func.func @shadowing(
// CHECK: moon.vjp @h(%{{.*}}, %{{.*}}) results [active_noneed] {note = 1 : i64} : (f64, f64) -> f64
func.func @shadowing(%x: f64) -> f64 {
  %0 = moon.grad @h(%x) {width = "x", note = 1} : (f64) -> f64
  return %0 : f64
}
