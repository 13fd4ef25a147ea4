// RUN: moonc-opt %s --moon-autodiff --moon-tape-budget=1000 | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff --moon-tape-budget=0 | FileCheck %s --check-prefix=NEVER
// RUN: moonc-opt %s --moon-autodiff --moon-tape-budget=1000 --moon-checkpoint-levels=2 | FileCheck %s --check-prefix=LEVELS
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// Loop checkpointing (docs/autodiff.md, "Checkpointing"). The time loop
// updates the state %u in place through a temporary %tmp each step. Its
// body moves into a segment function (the loop over [lo, hi) by step,
// marked moon.segment = 0: the levels of checkpoints it may still use); the adjoint function chooses at run time between the
// loop as written (tape: trip count x 16 bytes per element) and segments:
// when n * T, T the bytes of the buffers the loop writes (%u and %tmp),
// exceeds the budget (1000 here), it runs ceil(n / k) segment calls, each
// after copying %u (the only buffer a segment reads before writing it:
// moon.checkpoint lists its operand) into row j of a checkpoint buffer.
// The reverse sweep copies row j back into %u and calls the segment's
// adjoint function, which recomputes the segment, taping it, and reverses
// it (its loops marked moon.reverse).
// CHECK-LABEL: func.func private @step_vjp_dc_n__segment6(
// CHECK-SAME: %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[STEP:[^:]*]]: index, %[[N:[^:]*]]: index, %[[U:[^:]*]]: memref<?xf64>, %[[T:[^:]*]]: memref<?xf64>) attributes {moon.distinct_args}
// CHECK: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %[[STEP]] {
// CHECK: math.sin
// CHECK: } {moon.overwritten_args = array<i64: 5>, moon.segment = 0 : i64}
// CHECK-NEXT: return
// %tmp (argument 5) is overwritten before it is read in every step, so its
// shadow (argument 7 of the adjoint) is zero when each step's reverse
// starts (moon.zero_shadows, read by --moon-fuse-adjoint-loops).
// CHECK-LABEL: func.func private @step_vjp_dc_n__segment6_vjp_ccccdd_(
// CHECK: math.sin
// CHECK: math.cos
// CHECK: } {moon.reverse}
// CHECK-NEXT: } {moon.reverse, moon.zero_shadows = array<i64: 7>}
// CHECK-LABEL: func.func private @step_vjp_dc_n(
// CHECK: %[[UB:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[TB:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[BUDGET:.*]] = arith.constant 1000 : index
// CHECK: %[[BIG:.*]] = arith.cmpi sgt, %{{.*}}, %[[BUDGET]] : index
// CHECK: math.sqrt
// CHECK: %[[SEGMENTS:.*]] = arith.ceildivsi
// CHECK: %[[ROWS:.*]] = arith.select %[[BIG]], %[[SEGMENTS]], %{{.*}} : index
// CHECK: %[[CK:.*]] = memref.alloc(%[[ROWS]], %{{.*}}) : memref<?x?xf64>
// CHECK: call @moonrt_tape_note_alloc
// CHECK: scf.if %[[BIG]] {
// CHECK: scf.for %[[J:[^ ]*]] = %{{.*}} to %[[SEGMENTS]] step
// CHECK: scf.for %[[E:[^ ]*]] =
// CHECK-NEXT: %[[V:.*]] = memref.load %[[UB]][%[[E]]] : memref<?xf64>
// CHECK-NEXT: memref.store %[[V]], %[[CK]][%[[J]], %[[E]]] : memref<?x?xf64>
// CHECK: func.call @step_vjp_dc_n__segment6(%{{.*}}, %[[UB]], %[[TB]]) {moon.checkpoint = array<i64: 4>, moon.writes = array<i64: 4, 5>}
// CHECK: } else {
// CHECK: math.sin
// CHECK: scf.if %[[BIG]] {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: scf.for %[[E2:[^ ]*]] =
// CHECK-NEXT: %[[W:.*]] = memref.load %[[CK]][%{{.*}}, %[[E2]]] : memref<?x?xf64>
// CHECK-NEXT: memref.store %[[W]], %[[UB]][%[[E2]]] : memref<?xf64>
// CHECK: func.call @step_vjp_dc_n__segment6_vjp_ccccdd_(%{{.*}}, %[[UB]], %[[TB]], %{{.*}}, %{{.*}})
// CHECK: } else {
// CHECK: math.cos
// CHECK: memref.dealloc %[[UB]] :
// CHECK: memref.dealloc %[[CK]] :
// CHECK-NEXT: call @moonrt_tape_note_free

// With --moon-checkpoint-levels=2 there is a second level: the segment
// function's loop (moon.segment = 1, the levels it may still use) is
// itself segmented in the segment's adjoint, by the same run-time test on
// its own trip count, into a second segment function (moon.segment = 0)
// whose buffers are the first one's arguments. When one level cannot fit
// the budget (B / 2T < sqrt(n C / T)), the top level picks segments of
// ceil((n^2 C / T)^(1/3)) iterations, the second ceil(sqrt(k C / T)).
// LEVELS-LABEL: func.func private @step_vjp_dc_n__segment6(
// LEVELS-SAME: %[[LO:[^:]*]]: index, %[[HI:[^:]*]]: index, %[[STEP:[^:]*]]: index, %[[N:[^:]*]]: index, %[[U:[^:]*]]: memref<?xf64>, %[[T:[^:]*]]: memref<?xf64>) attributes {moon.distinct_args}
// LEVELS: scf.for %{{.*}} = %[[LO]] to %[[HI]] step %[[STEP]] {
// LEVELS: math.sin
// LEVELS: } {moon.overwritten_args = array<i64: 5>, moon.segment = 1 : i64}
// LEVELS-NEXT: return
// LEVELS-LABEL: func.func private @step_vjp_dc_n__segment6_vjp_ccccdd___segment2(
// LEVELS: math.sin
// LEVELS: } {moon.overwritten_args = array<i64: 5>, moon.segment = 0 : i64}
// LEVELS-NEXT: return
// LEVELS-LABEL: func.func private @step_vjp_dc_n__segment6_vjp_ccccdd___segment2_vjp_ccccdd_(
// LEVELS: math.sin
// LEVELS: math.cos
// LEVELS: } {moon.reverse}
// LEVELS-NEXT: } {moon.reverse, moon.zero_shadows = array<i64: 7>}
// LEVELS-LABEL: func.func private @step_vjp_dc_n__segment6_vjp_ccccdd_(
// LEVELS-SAME: %[[U1:[^:]*]]: memref<?xf64>, %[[T1:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: memref<?xf64>) attributes {moon.distinct_args}
// LEVELS: %[[BIG1:.*]] = arith.cmpi sgt, %{{.*}}, %c1000 : index
// LEVELS: math.sqrt
// LEVELS-NOT: math.powf
// LEVELS: scf.if %[[BIG1]] {
// LEVELS: func.call @step_vjp_dc_n__segment6_vjp_ccccdd___segment2(%{{.*}}, %[[U1]], %[[T1]]) {moon.checkpoint = array<i64: 4>, moon.writes = array<i64: 4, 5>}
// LEVELS: } else {
// LEVELS: } {moon.overwritten_args = array<i64: 5>, moon.segment = 1 : i64}
// LEVELS: scf.if %[[BIG1]] {
// LEVELS: func.call @step_vjp_dc_n__segment6_vjp_ccccdd___segment2_vjp_ccccdd_(
// LEVELS: } else {
// LEVELS: } {moon.reverse, moon.zero_shadows = array<i64: 7>}
// LEVELS-LABEL: func.func private @step_vjp_dc_n(
// LEVELS: %[[UB:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// LEVELS: %[[TB:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// LEVELS: %[[BUDGET:.*]] = arith.constant 1000 : index
// LEVELS: %[[BIG:.*]] = arith.cmpi sgt, %{{.*}}, %[[BUDGET]] : index
// LEVELS: %[[ONE:.*]] = math.sqrt
// LEVELS: %[[FITS:.*]] = arith.cmpf oge, %{{.*}}, %[[ONE]] : f64
// LEVELS: %[[THIRD:.*]] = arith.constant 0.33333333333333331 : f64
// LEVELS: math.powf %{{.*}}, %[[THIRD]] : f64
// LEVELS: arith.select %[[FITS]]

// With a budget of 0 nothing is checkpointed.
// NEVER-NOT: segment
// NEVER-NOT: scf.if
func.func @step(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %u = memref.alloc(%n) : memref<?xf64>
  %tmp = memref.alloc(%n) : memref<?xf64>
  memref.copy %x, %u : memref<?xf64> to memref<?xf64>
  scf.for %t = %c0 to %s step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %u[%i] : memref<?xf64>
      %b = math.sin %a : f64
      memref.store %b, %tmp[%i] : memref<?xf64>
    }
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %u[%i] : memref<?xf64>
      %b = memref.load %tmp[%i] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      memref.store %p, %u[%i] : memref<?xf64>
    }
  }
  %r = memref.load %u[%c0] : memref<?xf64>
  memref.dealloc %u : memref<?xf64>
  memref.dealloc %tmp : memref<?xf64>
  return %r : f64
}
func.func @grad(%x: memref<?xf64>, %dx: memref<?xf64>, %s: index) {
  moon.grad @step(%x, %s, %dx) args [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> ()
  return
}
