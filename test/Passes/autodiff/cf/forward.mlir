// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// Blocks get a tangent argument per active argument; branches pass the
// tangents (zero for a constant) after the values. The inactive counter
// %k gets none.
// CHECK-LABEL: func.func private @power_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: cf.br ^bb1(%[[X]], %{{.*}}, %[[DX]] : f64, f64, f64)
// CHECK: ^bb1(%[[V:.*]]: f64, %[[K:.*]]: f64, %[[DV:.*]]: f64):
// CHECK: cf.cond_br %{{.*}}, ^bb2, ^bb3(%[[V]], %[[DV]] : f64, f64)
// CHECK: ^bb2:
// CHECK: %[[A:.*]] = arith.mulf %[[DV]], %[[X]]
// CHECK: %[[B:.*]] = arith.mulf %[[V]], %[[DX]]
// CHECK: %[[D:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: cf.br ^bb1(%{{.*}}, %{{.*}}, %[[D]] : f64, f64, f64)
// CHECK: ^bb3(%[[R:.*]]: f64, %[[DR:.*]]: f64):
// CHECK: return %[[R]], %[[DR]]
func.func @power(%x: f64) -> f64 {
  %c0 = arith.constant 0.0 : f64
  cf.br ^bb1(%x, %c0 : f64, f64)
^bb1(%v: f64, %k: f64):
  %lim = arith.constant 3.0 : f64
  %c = arith.cmpf olt, %k, %lim : f64
  cf.cond_br %c, ^bb2, ^bb3(%v : f64)
^bb2:
  %v2 = arith.mulf %v, %x : f64
  %one = arith.constant 1.0 : f64
  %k2 = arith.addf %k, %one : f64
  cf.br ^bb1(%v2, %k2 : f64, f64)
^bb3(%r: f64):
  return %r : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @power(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// cf.switch: every successor gets its tangents; constants pass zero.
// CHECK-LABEL: func.func private @pick_jvp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[I:[^:]*]]: i32, %[[DX:[^:]*]]: f64)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: cf.switch %[[I]] : i32, [
// CHECK-NEXT: default: ^bb1(%[[X]], %[[DX]] : f64, f64),
// CHECK-NEXT: 0: ^bb1(%{{.*}}, %[[ZERO]] : f64, f64),
// CHECK-NEXT: 1: ^bb2
// CHECK: ^bb1(%[[R:.*]]: f64, %[[DR:.*]]: f64):
// CHECK: return %[[R]], %[[DR]]
func.func @pick(%x: f64, %i: i32) -> f64 {
  %two = arith.constant 2.0 : f64
  cf.switch %i : i32, [
    default: ^bb1(%x : f64),
    0: ^bb1(%two : f64),
    1: ^bb2
  ]
^bb1(%r: f64):
  return %r : f64
^bb2:
  %s = math.sin %x : f64
  cf.br ^bb1(%s : f64)
}
func.func @caller(%x: f64, %i: i32, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @pick(%x, %i, %dx) : (f64, i32, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
