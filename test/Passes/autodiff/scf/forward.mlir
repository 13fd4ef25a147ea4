// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// scf.for carries the tangent of an active iteration value as an extra
// iteration value, starting from the tangent of its initial value (zero
// for a constant); scf.if yields tangents as extra results.
// CHECK-LABEL: func.func private @loop_jvp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[DX:[^:]*]]: f64)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[DACC:.*]] = %[[ZERO]]) -> (f64, f64) {
// CHECK: %[[S:.*]] = math.sin %[[ACC]]
// CHECK: %[[C:.*]] = math.cos %[[ACC]]
// CHECK: %[[DS:.*]] = arith.mulf %[[DACC]], %[[C]]
// CHECK: %[[M:.*]] = arith.mulf %[[S]], %[[X]]
// CHECK: %[[A:.*]] = arith.mulf %[[DS]], %[[X]]
// CHECK: %[[B:.*]] = arith.mulf %[[S]], %[[DX]]
// CHECK: %[[DM:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: scf.yield %[[M]], %[[DM]] : f64, f64
// CHECK: %[[Z:.*]]:2 = scf.if %{{.*}} -> (f64, f64) {
// CHECK: scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK: } else {
// CHECK: scf.yield %[[X]], %[[DX]] : f64, f64
// CHECK: return %[[Z]]#0, %[[Z]]#1
func.func @loop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %s = math.sin %acc : f64
    %m = arith.mulf %s, %x : f64
    scf.yield %m : f64
  }
  %c = arith.cmpf ogt, %r, %x : f64
  %z = scf.if %c -> f64 {
    %a = arith.mulf %r, %r : f64
    scf.yield %a : f64
  } else {
    scf.yield %x : f64
  }
  return %z : f64
}
func.func @caller(%x: f64, %n: index, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @loop(%x, %n, %dx) : (f64, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// scf.while: the before and after regions get tangent arguments, and
// scf.condition forwards tangents with the values. An inactive counter
// carried beside the active value gets none.
// CHECK-LABEL: func.func private @grow_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: %[[W:.*]]:3 = scf.while (%[[V:.*]] = %[[X]], %[[K:.*]] = %{{.*}}, %[[DV:.*]] = %[[DX]]) : (f64, i32, f64) -> (f64, i32, f64) {
// CHECK: scf.condition(%{{.*}}) %[[V]], %[[K]], %[[DV]] : f64, i32, f64
// CHECK: } do {
// CHECK: ^bb0(%[[V2:.*]]: f64, %[[K2:.*]]: i32, %[[DV2:.*]]: f64):
// CHECK: scf.yield %{{.*}}, %{{.*}}, %{{.*}} : f64, i32, f64
// CHECK: return %[[W]]#0, %[[W]]#2
func.func @grow(%x: f64) -> f64 {
  %k0 = arith.constant 0 : i32
  %r:2 = scf.while (%v = %x, %k = %k0) : (f64, i32) -> (f64, i32) {
    %lim = arith.constant 10.0 : f64
    %c = arith.cmpf olt, %v, %lim : f64
    scf.condition(%c) %v, %k : f64, i32
  } do {
  ^bb0(%v: f64, %k: i32):
    %v2 = arith.mulf %v, %v : f64
    %t = arith.addf %v2, %x : f64
    %one = arith.constant 1 : i32
    %k2 = arith.addi %k, %one : i32
    scf.yield %t, %k2 : f64, i32
  }
  return %r#0 : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @grow(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// scf.execute_region and scf.index_switch yield tangents too.
// CHECK-LABEL: func.func private @regions_jvp_ac_a(
// CHECK: %[[E:.*]]:2 = scf.execute_region -> (f64, f64) {
// CHECK: scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK: %[[S:.*]]:2 = scf.index_switch %{{.*}} -> f64, f64
// CHECK: case 1 {
// CHECK: scf.yield %{{.*}}, %{{.*}} : f64, f64
// CHECK: default {
// CHECK: scf.yield %[[E]]#0, %[[E]]#1 : f64, f64
// CHECK: return %[[S]]#0, %[[S]]#1
func.func @regions(%x: f64, %i: index) -> f64 {
  %e = scf.execute_region -> f64 {
    %s = math.sin %x : f64
    scf.yield %s : f64
  }
  %r = scf.index_switch %i -> f64
  case 1 {
    %d = arith.mulf %e, %e : f64
    scf.yield %d : f64
  }
  default {
    scf.yield %e : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %i: index, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @regions(%x, %i, %dx) : (f64, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// scf.parallel bodies store tangents into shadows.
// CHECK-LABEL: func.func private @par_jvp_d_(
// CHECK-SAME: %[[A:[^:]*]]: memref<8xf64>, %[[DA:[^:]*]]: memref<8xf64>)
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[I]]]
// CHECK: %[[DV:.*]] = memref.load %[[DA]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[A]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[DA]][%[[I]]]
func.func @par(%a: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %a[%i] : memref<8xf64>
    %e = math.exp %v : f64
    memref.store %e, %a[%i] : memref<8xf64>
    scf.reduce
  }
  return
}
func.func @caller(%a: memref<8xf64>, %da: memref<8xf64>) {
  moon.jvp @par(%a, %da) : (memref<8xf64>, memref<8xf64>) -> ()
  return
}
