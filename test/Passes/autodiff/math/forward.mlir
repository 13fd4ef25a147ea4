// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s

// Chain rule through math: sin, exp (reusing its result), log, sqrt.
// CHECK-LABEL: func.func private @chain_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: %[[S:.*]] = math.sin %[[X]]
// CHECK: %[[C:.*]] = math.cos %[[X]]
// CHECK: %[[DS:.*]] = arith.mulf %[[DX]], %[[C]]
// CHECK: %[[E:.*]] = math.exp %[[S]]
// CHECK: %[[DE:.*]] = arith.mulf %[[DS]], %[[E]]
// CHECK: %[[L:.*]] = math.log %[[E]]
// CHECK: %[[DL:.*]] = arith.divf %[[DE]], %[[E]]
// CHECK: %[[R:.*]] = math.sqrt %[[L]]
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[K:.*]] = arith.divf %[[HALF]], %[[R]]
// CHECK: %[[DR:.*]] = arith.mulf %[[DL]], %[[K]]
// CHECK: return %[[R]], %[[DR]]
func.func @chain(%x: f64) -> f64 {
  %s = math.sin %x : f64
  %e = math.exp %s : f64
  %l = math.log %e : f64
  %r = math.sqrt %l : f64
  return %r : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @chain(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Rounding has a zero derivative: the sum's tangent is the other term's.
// CHECK-LABEL: func.func private @rounding_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[DX:[^:]*]]: f32)
// CHECK: %[[F:.*]] = math.floor %[[X]]
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[X]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[T2:.*]] = arith.mulf %[[T]], %[[T]]
// CHECK-NEXT: %[[K:.*]] = arith.subf %[[ONE]], %[[T2]]
// CHECK-NEXT: %[[DT:.*]] = arith.mulf %[[DX]], %[[K]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[F]], %[[T]]
// CHECK-NEXT: return %[[S]], %[[DT]]
func.func @rounding(%x: f32) -> f32 {
  %f = math.floor %x : f32
  %t = math.tanh %x : f32
  %s = arith.addf %f, %t : f32
  return %s : f32
}
func.func @caller(%x: f32, %dx: f32) -> (f32, f32) {
  %r:2 = moon.jvp @rounding(%x, %dx) : (f32, f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}

// -----

// Two-argument functions: powf with both operands active, atan2.
// CHECK-LABEL: func.func private @binary_jvp_aa_a(
// CHECK: %[[P:.*]] = math.powf %[[A:[^,]*]], %[[B:[^ ]*]] : f64
// CHECK: math.powf %[[A]], %{{.*}} : f64
// CHECK: math.log %[[A]]
// CHECK: math.atan2
// CHECK: return
func.func @binary(%a: f64, %b: f64) -> f64 {
  %p = math.powf %a, %b : f64
  %t = math.atan2 %p, %b : f64
  return %t : f64
}
func.func @caller(%a: f64, %b: f64, %da: f64, %db: f64) -> (f64, f64) {
  %r:2 = moon.jvp @binary(%a, %b, %da, %db) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Vector mode: width 4 tangents are vector<4xf64>; primal factors are
// broadcast once per use.
// CHECK-LABEL: func.func private @chain_jvp_a_n_w4(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: vector<4xf64>) -> vector<4xf64>
// CHECK-NOT: math.sin
// CHECK: %[[C:.*]] = math.cos %[[X]] : f64
// CHECK: %[[CB:.*]] = vector.broadcast %[[C]] : f64 to vector<4xf64>
// CHECK: %[[D:.*]] = arith.mulf %[[DX]], %[[CB]] : vector<4xf64>
// CHECK: return %[[D]] : vector<4xf64>
func.func @chain(%x: f64) -> f64 {
  %s = math.sin %x : f64
  return %s : f64
}
func.func @caller(%x: f64, %dx: vector<4xf64>) -> vector<4xf64> {
  %r = moon.jvp @chain(%x, %dx) results [active_noneed] width 4 : (f64, vector<4xf64>) -> vector<4xf64>
  return %r : vector<4xf64>
}
