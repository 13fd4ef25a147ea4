// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// A cf loop is lifted to scf.while (lift-cf-to-scf) in the adjoint
// function, then reversed as a while loop: turns counted, the loop's block
// arguments pushed at the end of each `before` region (where the lifted
// body lives) and popped, latest first, at the start of its reverse. The
// counter k is not useful (only compared), so the reverse carries the
// adjoint of v alone.
// CHECK-LABEL: func.func private @power_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK-NOT: cf.br
// CHECK-NOT: cf.cond_br
// CHECK: %[[CNT:.*]] = memref.alloca() : memref<index>
// CHECK: scf.while (%[[V:.*]] = %[[X]], %[[K:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) : (f64, f64, f64) -> (f64, f64, f64) {
// CHECK: %[[M:.*]] = arith.mulf %[[V]], %[[X]] : f64
// CHECK: func.call @moonrt_tape_push_f64(%[[V]]) : (f64) -> ()
// CHECK-NEXT: func.call @moonrt_tape_push_f64(%[[K]]) : (f64) -> ()
// CHECK-NEXT: scf.condition
// CHECK: } do {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[ONE]] : index
// CHECK-NEXT: memref.store %[[NEW]], %[[CNT]][] : memref<index>
// CHECK: %[[COUNT:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK: %[[TURNS:.*]] = arith.addi %[[COUNT]], %{{.*}} : index
// CHECK: %[[L:.*]] = scf.for %{{.*}} = %{{.*}} to %[[TURNS]] step
// CHECK: %[[SEL:.*]]:2 = scf.if
// CHECK: %[[PK:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK-NEXT: %[[PV:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[PK]], %{{.*}} : f64
// CHECK-NEXT: scf.if %[[C]] {
// CHECK-NEXT: %[[A:.*]] = arith.mulf %[[SEL]]#0, %[[X]] : f64
// CHECK-NEXT: %[[OA:.*]] = memref.load %[[VS:.*]][] : memref<f64>
// CHECK-NEXT: %[[NA:.*]] = arith.addf %[[OA]], %[[A]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NA]], %[[VS]][] : memref<f64>
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[PV]], %[[SEL]]#0 : f64
// CHECK-NEXT: %[[OB:.*]] = memref.load %[[XS:.*]][] : memref<f64>
// CHECK-NEXT: %[[NB:.*]] = arith.addf %[[OB]], %[[B]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NB]], %[[XS]][] : memref<f64>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[OC:.*]] = memref.load %[[VS]][] : memref<f64>
// CHECK-NEXT: %[[NC:.*]] = arith.addf %[[OC]], %[[SEL]]#1 fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NC]], %[[VS]][] : memref<f64>
// CHECK-NEXT: }
// CHECK-NEXT: %[[DV:.*]] = memref.load %[[VS]][] : memref<f64>
// CHECK: scf.yield %[[DV]] : f64
// CHECK: %[[DXS:.*]] = memref.load %[[XS]][] : memref<f64>
// CHECK: %[[DX:.*]] = arith.addf %[[L]], %[[DXS]] : f64
// CHECK-NEXT: return %[[DX]] : f64
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
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @power(%x) : (f64) -> f64
  return %r : f64
}

// -----

// A cf diamond becomes a scf.if, reversed on the same condition.
// CHECK-LABEL: func.func private @diamond_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[C:[^:]*]]: i1, %[[S:[^:]*]]: f64) -> f64
// CHECK-NOT: cf.br
// CHECK-NOT: cf.cond_br
// CHECK: scf.if %[[C]] -> (f64) {
// CHECK: math.sin %[[X]]
// CHECK: } else {
// CHECK: math.exp %[[X]]
// CHECK: scf.if %[[C]] {
// CHECK: math.cos %[[X]]
// CHECK: } else {
// CHECK-NOT: cf.br
// CHECK-NOT: cf.cond_br
// CHECK: return
func.func @diamond(%x: f64, %c: i1) -> f64 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %s = math.sin %x : f64
  cf.br ^bb3(%s : f64)
^bb2:
  %e = math.exp %x : f64
  cf.br ^bb3(%e : f64)
^bb3(%r: f64):
  return %r : f64
}
func.func @caller(%x: f64, %c: i1) -> f64 {
  %r = moon.grad @diamond(%x, %c) args [active, const] : (f64, i1) -> f64
  return %r : f64
}
