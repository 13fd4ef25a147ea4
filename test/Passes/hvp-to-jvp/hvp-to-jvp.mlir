// RUN: moonc-opt --moon-hvp-to-jvp %s | FileCheck %s

// Scalars: the gradient function returns both gradients through moon.vjp;
// the product is its JVP. A second request with the same activities
// reuses it.
// CHECK-LABEL: func.func private @f_hvp_grad_aa(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.0
// CHECK-NEXT: %[[G:.*]]:2 = moon.vjp @f(%[[X]], %[[Y]], %[[ONE]]) args [active, active] results [active_noneed]
// CHECK-NEXT: return %[[G]]#0, %[[G]]#1
// CHECK-NOT: @f_hvp_grad_aa(
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[X:.*]]: f64, %[[Y:.*]]: f64, %[[VX:.*]]: f64, %[[VY:.*]]: f64)
// CHECK-NEXT: %[[H:.*]]:2 = moon.jvp @f_hvp_grad_aa(%[[X]], %[[Y]], %[[VX]], %[[VY]]) args [active, active] results [active_noneed, active_noneed]
// CHECK-NEXT: moon.jvp @f_hvp_grad_aa
// CHECK-NEXT: return %[[H]]#0, %[[H]]#1
func.func @f(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %p : f64
  return %s : f64
}
func.func @scalars(%x: f64, %y: f64, %vx: f64, %vy: f64) -> (f64, f64) {
  %hx, %hy = moon.hvp @f(%x, %y, %vx, %vy) : (f64, f64, f64, f64) -> (f64, f64)
  %again:2 = moon.hvp @f(%x, %y, %vy, %vx) : (f64, f64, f64, f64) -> (f64, f64)
  return %hx, %hy : f64, f64
}

// A memref (dup), a const and an active scalar, two directions at once:
// the gradient of the memref goes into a zeroed scratch buffer whose
// tangent is the output.
// CHECK-LABEL: func.func private @g_hvp_grad_dca(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[S:.*]]: f64, %[[T:.*]]: f64, %[[GA:.*]]: memref<?xf64>) -> f64
// CHECK: moon.vjp @g(%[[A]], %[[S]], %[[T]], %[[GA]], %{{.*}}) args [dup, const, active] results [active_noneed] : (memref<?xf64>, f64, f64, memref<?xf64>, f64) -> f64
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME: %[[A:.*]]: memref<?xf64>, %[[S:.*]]: f64, %[[T:.*]]: f64, %[[VA:.*]]: memref<2x?xf64>, %[[VT:.*]]: vector<2xf64>, %[[OUT:.*]]: memref<2x?xf64>)
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[SCRATCH]] : memref<?xf64>)
// CHECK: %[[H:.*]] = moon.jvp @g_hvp_grad_dca(%[[A]], %[[S]], %[[T]], %[[SCRATCH]], %[[VA]], %[[VT]], %[[OUT]]) args [dup, const, active, dup] results [active_noneed] width 2
// CHECK-NEXT: memref.dealloc %[[SCRATCH]]
// CHECK-NEXT: return %[[H]] : vector<2xf64>
func.func @g(%a: memref<?xf64>, %s: f64, %t: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf64>
  %p = arith.mulf %v, %s : f64
  %q = arith.mulf %p, %t : f64
  %r = arith.mulf %q, %v : f64
  return %r : f64
}
func.func @buffers(%a: memref<?xf64>, %s: f64, %t: f64, %va: memref<2x?xf64>, %vt: vector<2xf64>, %out: memref<2x?xf64>) -> vector<2xf64> {
  %h = moon.hvp @g(%a, %s, %t, %va, %vt, %out) args [dup, const, active] width 2
      : (memref<?xf64>, f64, f64, memref<2x?xf64>, vector<2xf64>, memref<2x?xf64>) -> vector<2xf64>
  return %h : vector<2xf64>
}
