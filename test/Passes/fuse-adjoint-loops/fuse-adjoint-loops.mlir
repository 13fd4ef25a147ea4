// RUN: moonc-opt %s --moon-fuse-adjoint-loops --split-input-file | FileCheck %s
// RUN: moonc-opt %s --moon-fuse-adjoint-loops=max-growth=0 --split-input-file | FileCheck %s --check-prefix=OFF

// Two reverse loops as reverse mode makes them from `k[i] = 2 u[i]` and
// `k[i] = x[i] * y[i - 1]` (each iteration r is element lo + n - 1 - r):
// the first adds 2 u[i] to k̄[i] over [0, n), the second reads and zeroes
// k̄[i] and adds k̄[i] x[i] to ȳ[i - 1] over [1, n). Fused, ȳ[e] takes
// (k̄[e + 1] + 2 u[e + 1]) x[e + 1] directly: three ascending loops over
// [0, n), the middle one without tests, the outer two testing each
// contribution and load. The reverse loops are gone.
// CHECK-LABEL: func.func private @two(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[U:[^:]*]]: memref<?xf64>, %[[K:[^:]*]]: memref<?xf64>, %[[X:[^:]*]]: memref<?xf64>, %[[YB:[^:]*]]: memref<?xf64>)
// CHECK-NOT: moon.reverse
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[P1:[^ ]*]] step
// CHECK: scf.if
// CHECK: scf.for %[[E:[^ ]*]] = %[[P1]] to %[[I1:[^ ]*]] step
// CHECK-NOT: scf.if
// CHECK: memref.load %[[YB]][%[[E]]]
// CHECK: %[[E1:.*]] = arith.addi %[[E]], %{{.*}} : index
// CHECK-DAG: memref.load %[[U]][%[[E1]]]
// CHECK-DAG: memref.load %[[K]][%[[E1]]]
// CHECK-DAG: memref.load %[[X]][%[[E1]]]
// CHECK: memref.store %{{.*}}, %[[K]][%[[E]]]
// CHECK-NEXT: memref.store %{{.*}}, %[[YB]][%[[E]]]
// CHECK-NEXT: }
// CHECK: scf.for %{{.*}} = %[[I1]] to %[[N]] step
// CHECK: scf.if
// CHECK-NOT: moon.reverse
// CHECK: return
// OFF-LABEL: func.func private @two(
// OFF-COUNT-2: } {moon.reverse}
func.func private @two(%n: index, %u: memref<?xf64>, %k: memref<?xf64>, %x: memref<?xf64>, %yb: memref<?xf64>) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  %t0 = arith.maxsi %n, %c0 : index
  scf.for %r = %c0 to %t0 step %c1 {
    %last = arith.subi %t0, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %u[%i] : memref<?xf64>
    %b = arith.mulf %a, %two : f64
    %c = memref.load %k[%i] : memref<?xf64>
    %d = arith.addf %c, %b : f64
    memref.store %d, %k[%i] : memref<?xf64>
  } {moon.reverse}
  %m = arith.subi %n, %c1 : index
  %t1 = arith.maxsi %m, %c0 : index
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %kv = memref.load %k[%i] : memref<?xf64>
    memref.store %zero, %k[%i] : memref<?xf64>
    %xv = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %kv, %xv : f64
    %y = memref.load %yb[%j] : memref<?xf64>
    %s = arith.addf %y, %p : f64
    memref.store %s, %yb[%j] : memref<?xf64>
  } {moon.reverse}
  return
}

// -----

// The same loops in each iteration of a loop that lists %k (argument 2)
// in moon.zero_shadows: k̄ holds zeros when each iteration starts, so the
// fused loops never load it, and the middle loop, where every element of
// k̄ ends zero, does not store it either. k̄[0] keeps its contribution
// (the second loop does not reach element 0): the outer loops store it.
// CHECK-LABEL: func.func private @zero(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[U:[^:]*]]: memref<?xf64>, %[[K:[^:]*]]: memref<?xf64>, %[[X:[^:]*]]: memref<?xf64>, %[[YB:[^:]*]]: memref<?xf64>,
// CHECK-NOT: memref.load %[[K]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[S:[^ ]*]] step
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[P1:[^ ]*]] step
// CHECK: memref.store %{{.*}}, %[[K]]
// CHECK: scf.for %[[E:[^ ]*]] = %[[P1]] to %[[I1:[^ ]*]] step
// CHECK-NOT: memref.store %{{.*}}, %[[K]]
// CHECK: memref.store %{{.*}}, %[[YB]][%[[E]]]
// CHECK-NEXT: }
// CHECK: scf.for %{{.*}} = %[[I1]] to %[[N]] step
// CHECK-NOT: memref.load %[[K]]
// CHECK: } {moon.reverse, moon.zero_shadows = array<i64: 2>}
func.func private @zero(%n: index, %u: memref<?xf64>, %k: memref<?xf64>, %x: memref<?xf64>, %yb: memref<?xf64>, %s: index) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  scf.for %step = %c0 to %s step %c1 {
    %t0 = arith.maxsi %n, %c0 : index
    scf.for %r = %c0 to %t0 step %c1 {
      %last = arith.subi %t0, %c1 : index
      %i = arith.subi %last, %r : index
      %a = memref.load %u[%i] : memref<?xf64>
      %b = arith.mulf %a, %two : f64
      %c = memref.load %k[%i] : memref<?xf64>
      %d = arith.addf %c, %b : f64
      memref.store %d, %k[%i] : memref<?xf64>
    } {moon.reverse}
    %m = arith.subi %n, %c1 : index
    %t1 = arith.maxsi %m, %c0 : index
    scf.for %r = %c0 to %t1 step %c1 {
      %last = arith.subi %t1, %c1 : index
      %j = arith.subi %last, %r : index
      %i = arith.addi %j, %c1 : index
      %kv = memref.load %k[%i] : memref<?xf64>
      memref.store %zero, %k[%i] : memref<?xf64>
      %xv = memref.load %x[%i] : memref<?xf64>
      %p = arith.mulf %kv, %xv : f64
      %y = memref.load %yb[%j] : memref<?xf64>
      %q = arith.addf %y, %p : f64
      memref.store %q, %yb[%j] : memref<?xf64>
    } {moon.reverse}
  } {moon.reverse, moon.zero_shadows = array<i64: 2>}
  return
}

// -----

// Left alone: the arguments of a function not marked moon.distinct_args
// may alias; a loop that writes ȳ[i] and reads ȳ[i - 1] depends on its
// own order.
// CHECK-LABEL: func.func private @aliased(
// CHECK-COUNT-2: } {moon.reverse}
func.func private @aliased(%n: index, %u: memref<?xf64>, %k: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = arith.maxsi %n, %c0 : index
  scf.for %r = %c0 to %t0 step %c1 {
    %last = arith.subi %t0, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %u[%i] : memref<?xf64>
    memref.store %a, %k[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %r = %c0 to %t0 step %c1 {
    %last = arith.subi %t0, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %k[%i] : memref<?xf64>
    memref.store %a, %u[%i] : memref<?xf64>
  } {moon.reverse}
  return
}

// CHECK-LABEL: func.func private @ordered(
// CHECK-COUNT-2: } {moon.reverse}
func.func private @ordered(%n: index, %u: memref<?xf64>, %yb: memref<?xf64>) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  %t1 = arith.maxsi %m, %c0 : index
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %a = memref.load %u[%i] : memref<?xf64>
    memref.store %a, %yb[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %a = memref.load %yb[%j] : memref<?xf64>
    %b = memref.load %yb[%i] : memref<?xf64>
    %c = arith.addf %a, %b : f64
    memref.store %c, %yb[%i] : memref<?xf64>
  } {moon.reverse}
  return
}

// A loop writing ȳ[i + 1] after one reading ȳ[i]: the fused loop would
// read elements behind the one it computes, already overwritten, so it
// reads copies of the two buffers made before it, freed after.
// CHECK-LABEL: func.func private @descending(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[U:[^:]*]]: memref<?xf64>, %[[YB:[^:]*]]: memref<?xf64>)
// CHECK-NOT: moon.reverse
// CHECK: %[[C1:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NEXT: memref.copy %{{.*}}, %[[C1]]
// CHECK: %[[C2:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NEXT: memref.copy %{{.*}}, %[[C2]]
// CHECK: scf.for
// CHECK-NOT: moon.reverse
// CHECK: memref.dealloc %[[C1]]
// CHECK-NEXT: memref.dealloc %[[C2]]
// CHECK-NEXT: return
func.func private @descending(%n: index, %u: memref<?xf64>, %yb: memref<?xf64>) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  %t1 = arith.maxsi %m, %c0 : index
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %a = memref.load %yb[%j] : memref<?xf64>
    memref.store %a, %u[%j] : memref<?xf64>
  } {moon.reverse}
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %a = memref.load %u[%j] : memref<?xf64>
    memref.store %a, %yb[%i] : memref<?xf64>
  } {moon.reverse}
  return
}

// -----

// The reverse of a two-point stencil `t[i] = (u[i - 1] - u[i]) * w` adds
// to ū at two offsets in one loop: fused with the loop before it, ū[e]
// takes its own addition and that of element e + 1, in the loop's order
// (element e + 1's iteration runs first).
// CHECK-LABEL: func.func private @stencil(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[TB:[^:]*]]: memref<?xf64>, %[[UB:[^:]*]]: memref<?xf64>, %[[W:[^:]*]]: f64)
// CHECK-NOT: moon.reverse
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[P1:[^ ]*]] step
// CHECK: scf.for %[[E:[^ ]*]] = %[[P1]] to %{{.*}} step
// CHECK-NOT: scf.if
// CHECK: %[[E1:.*]] = arith.addi %[[E]], %{{.*}} : index
// CHECK-DAG: memref.load %[[TB]][%[[E1]]]
// CHECK-DAG: memref.load %[[UB]][%[[E]]]
// CHECK: memref.store %{{.*}}, %[[UB]][%[[E]]]
// CHECK-NEXT: }
// CHECK-NOT: moon.reverse
// CHECK: return
func.func private @stencil(%n: index, %tb: memref<?xf64>, %ub: memref<?xf64>, %w: f64) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %t0 = arith.maxsi %n, %c0 : index
  scf.for %r = %c0 to %t0 step %c1 {
    %last = arith.subi %t0, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %tb[%i] : memref<?xf64>
    %b = arith.mulf %a, %w : f64
    memref.store %b, %tb[%i] : memref<?xf64>
  } {moon.reverse}
  %m = arith.subi %n, %c1 : index
  %t1 = arith.maxsi %m, %c0 : index
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %j = arith.subi %last, %r : index
    %i = arith.addi %j, %c1 : index
    %g = memref.load %tb[%i] : memref<?xf64>
    memref.store %zero, %tb[%i] : memref<?xf64>
    %ng = arith.negf %g : f64
    %y = memref.load %ub[%j] : memref<?xf64>
    %s = arith.addf %y, %g : f64
    memref.store %s, %ub[%j] : memref<?xf64>
    %v = memref.load %ub[%i] : memref<?xf64>
    %q = arith.addf %v, %ng : f64
    memref.store %q, %ub[%i] : memref<?xf64>
  } {moon.reverse}
  return
}

// -----

// Bounds as reverse mode writes them before any folding, ending in a
// constant (`maxsi(subi(%c3, %c0), 0)`): the pass crashed reading a second
// operand of `arith.constant` while looking for `hi - k`. The loops are
// fused as the others (one bound, 3).
// CHECK-LABEL: func.func private @unfolded(
// CHECK-NOT: moon.reverse
// CHECK: return
func.func private @unfolded(%u: memref<3xf64>, %k: memref<3xf64>) attributes {moon.distinct_args} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f64
  %d0 = arith.subi %c3, %c0 : index
  %t0 = arith.maxsi %d0, %c0 : index
  scf.for %r = %c0 to %t0 step %c1 {
    %last = arith.subi %t0, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %u[%i] : memref<3xf64>
    %b = arith.mulf %a, %two : f64
    %c = memref.load %k[%i] : memref<3xf64>
    %d = arith.addf %c, %b : f64
    memref.store %d, %k[%i] : memref<3xf64>
  } {moon.reverse}
  %d1 = arith.subi %c3, %c0 : index
  %t1 = arith.maxsi %d1, %c0 : index
  scf.for %r = %c0 to %t1 step %c1 {
    %last = arith.subi %t1, %c1 : index
    %i = arith.subi %last, %r : index
    %a = memref.load %u[%i] : memref<3xf64>
    %c = memref.load %k[%i] : memref<3xf64>
    %d = arith.addf %c, %a : f64
    memref.store %d, %k[%i] : memref<3xf64>
  } {moon.reverse}
  return
}
