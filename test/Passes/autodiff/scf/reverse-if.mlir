// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// A top-level scf.if is reversed by a scf.if (without results) on the same
// condition, each branch reversing its region with the result's cotangent
// as the seed of what it yields. Adjoints of values from outside the
// branches accumulate in slots.
// CHECK-LABEL: func.func private @branch_vjp_aa_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[DXS:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[DYS:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[X]], %[[Y]] : f64
// CHECK: %{{.*}} = scf.if %[[C]] -> (f64) {
// CHECK: scf.if %[[C]] {
// CHECK-NEXT: %[[A:.*]] = arith.mulf %[[S]], %[[Y]] : f64
// CHECK-NEXT: %[[OA:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK-NEXT: %[[NA:.*]] = arith.addf %[[OA]], %[[A]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NA]], %[[DXS]][] : memref<f64>
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[X]], %[[S]] : f64
// CHECK-NEXT: %[[OB:.*]] = memref.load %[[DYS]][] : memref<f64>
// CHECK-NEXT: %[[NB:.*]] = arith.addf %[[OB]], %[[B]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NB]], %[[DYS]][] : memref<f64>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[X]] : f64
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[S]], %[[COS]] : f64
// CHECK-NEXT: %[[OD:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK-NEXT: %[[ND:.*]] = arith.addf %[[OD]], %[[D]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[ND]], %[[DXS]][] : memref<f64>
// CHECK-NEXT: }
// CHECK-NEXT: %[[DX:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK: %[[DY:.*]] = memref.load %[[DYS]][] : memref<f64>
// CHECK: return %[[DX]], %[[DY]] : f64, f64
func.func @branch(%x: f64, %y: f64) -> f64 {
  %c = arith.cmpf ogt, %x, %y : f64
  %z = scf.if %c -> f64 {
    %a = arith.mulf %x, %y : f64
    scf.yield %a : f64
  } else {
    %s = math.sin %x : f64
    scf.yield %s : f64
  }
  return %z : f64
}
func.func @caller(%x: f64, %y: f64) -> (f64, f64) {
  %r:2 = moon.grad @branch(%x, %y) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Inside a loop the condition is recomputed in the reverse loop: the
// cmpf is cloned on the iteration value read back from the tape.
// CHECK-LABEL: func.func private @inloop_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %[[X]]) -> (f64) {
// CHECK: %[[K:.*]] = arith.divui
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[ACC]], %{{.*}} : f64
// CHECK: scf.if %[[C]] -> (f64) {
// CHECK: memref.store %[[ACC]], %[[TAPE]][%[[K]]] : memref<?xf64>
// CHECK: scf.for %[[R:[^ ]*]] = {{.*}} iter_args(%[[DZ:[^ ]*]] = %[[S]]) -> (f64) {
// CHECK: %[[RK:.*]] = arith.subi %{{.*}}, %[[R]] : index
// CHECK-NEXT: %[[ACC2:.*]] = memref.load %[[TAPE]][%[[RK]]] : memref<?xf64>
// CHECK-NEXT: %[[LIM:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[C2:.*]] = arith.cmpf ogt, %[[ACC2]], %[[LIM]] : f64
// CHECK-NEXT: scf.if %[[C2]] {
// CHECK: arith.mulf %[[DZ]], %{{.*}} : f64
// CHECK: } else {
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[ACC2]] : f64
// CHECK-NEXT: arith.mulf %[[DZ]], %[[COS]] : f64
// CHECK: memref.dealloc %[[TAPE]] : memref<?xf64>
func.func @inloop(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %lim = arith.constant 1.0 : f64
    %c = arith.cmpf ogt, %acc, %lim : f64
    %z = scf.if %c -> f64 {
      %h = arith.constant 0.5 : f64
      %a = arith.mulf %acc, %h : f64
      scf.yield %a : f64
    } else {
      %s = math.sin %acc : f64
      scf.yield %s : f64
    }
    scf.yield %z : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @inloop(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// scf.index_switch is reversed by an index_switch on the same selector
// with the same cases.
// CHECK-LABEL: func.func private @switch_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[K:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: scf.index_switch %[[K]] -> f64
// CHECK: scf.index_switch %[[K]]{{ *$}}
// CHECK-NEXT: case 1 {
// CHECK-NEXT: arith.mulf %[[S]], %[[X]] : f64
// CHECK: case 2 {
// CHECK-NEXT: %[[E:.*]] = memref.load
// CHECK-NEXT: arith.mulf %[[S]], %[[E]] : f64
// CHECK: default {
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.addf %{{.*}}, %[[S]] fastmath<reassoc> : f64
func.func @switch(%x: f64, %k: index) -> f64 {
  %r = scf.index_switch %k -> f64
  case 1 {
    %d = arith.mulf %x, %x : f64
    scf.yield %d : f64
  }
  case 2 {
    %e = math.exp %x : f64
    scf.yield %e : f64
  }
  default {
    scf.yield %x : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %k: index) -> f64 {
  %r = moon.grad @switch(%x, %k) args [active, const] : (f64, index) -> f64
  return %r : f64
}
