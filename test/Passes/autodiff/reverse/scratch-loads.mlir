// RUN: moonc-opt %s --moon-autodiff --moon-ndual-max-width=0 --moon-tape-budget=0 | FileCheck %s
// RUN: moonc check %s --entry filled --args '[[0.5,-1.0,2.0],1.5]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc check %s --entry centered --args '[[0.1,0.2,0.3,0.4],[0.3,0.1,0.2,0.4],[0.5,-0.2,0.7,0.1,0.3,-0.4]]' | FileCheck %s --check-prefix=CHECKED

// A scratch buffer filled by a loop, then read, as GradBench's gmm fills
// xcentered (subtract) and reads it in Qtimesx (reverse/prepare.rs):
// each load of c becomes x - mu, the expression the filling loop stored,
// which reads memory the function never writes, and the filling loop goes
// (c is no longer read). The invariant c[i] in the triangular inner loop
// becomes x[i] - mu[i], computed once before the inner loop in one
// `scf.if lb < ub`, which the reverse sweep recomputes the same way:
// nothing of c is taped (only the counter's entry value is, once per
// outer iteration).
// CHECK-LABEL: func.func private @centered_vjp_cdd_n(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64>, %[[MU:[^:]*]]: memref<?xf64>
// CHECK: %[[C:.*]] = memref.alloc(
// CHECK: %[[Q:.*]] = memref.alloc(
// CHECK-NOT: %[[C]][
// CHECK: scf.for %[[J:[^ ]*]] =
// CHECK-NEXT: %[[XJ:.*]] = memref.load %[[X]][%[[J]]]
// CHECK-NEXT: %[[MJ:.*]] = memref.load %[[MU]][%[[J]]]
// CHECK-NEXT: %[[CJ:.*]] = arith.subf %[[XJ]], %[[MJ]] : f64
// CHECK-NEXT: memref.store %[[CJ]], %[[Q]][%[[J]]]
// CHECK-NOT: %[[C]][
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[RUNS:.*]] = arith.cmpi slt
// CHECK-NEXT: scf.if %[[RUNS]] -> (f64) {
// CHECK-NEXT: %[[XI:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[MI:.*]] = memref.load %[[MU]][%[[I]]]
// CHECK-NEXT: %[[CI:.*]] = arith.subf %[[XI]], %[[MI]] : f64
// CHECK-NEXT: scf.yield %[[CI]] : f64
// CHECK-NOT: %[[C]][
// The reverse sweep recomputes it the same way instead of loading a tape.
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: memref.load %[[X]][
// CHECK-NEXT: memref.load %[[MU]][
// CHECK-NEXT: arith.subf
// CHECK-NOT: %[[C]][
// CHECK-NOT: moonrt_tape_push
// CHECK: return
// CHECKED: check: PASS

func.func @centered(%x: memref<?xf64>, %mu: memref<?xf64>, %l: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %d = memref.dim %x, %c0 : memref<?xf64>
  %c = memref.alloc(%d) : memref<?xf64>
  %q = memref.alloc(%d) : memref<?xf64>
  // subtract(d, x, mu, c)
  scf.for %j = %c0 to %d step %c1 {
    %xv = memref.load %x[%j] : memref<?xf64>
    %mv = memref.load %mu[%j] : memref<?xf64>
    %s = arith.subf %xv, %mv : f64
    memref.store %s, %c[%j] : memref<?xf64>
  }
  // q[j] = c[j], then q[j] += l[li] * c[i] for j > i
  scf.for %j = %c0 to %d step %c1 {
    %cv = memref.load %c[%j] : memref<?xf64>
    memref.store %cv, %q[%j] : memref<?xf64>
  }
  %last = scf.for %i = %c0 to %d step %c1 iter_args(%li0 = %c0) -> index {
    %i1 = arith.addi %i, %c1 : index
    %li1 = scf.for %j = %i1 to %d step %c1 iter_args(%li = %li0) -> index {
      %qv = memref.load %q[%j] : memref<?xf64>
      %lv = memref.load %l[%li] : memref<?xf64>
      %ci = memref.load %c[%i] : memref<?xf64>
      %p = arith.mulf %lv, %ci : f64
      %s = arith.addf %qv, %p : f64
      memref.store %s, %q[%j] : memref<?xf64>
      %next = arith.addi %li, %c1 : index
      scf.yield %next : index
    }
    scf.yield %li1 : index
  }
  %r = scf.for %j = %c0 to %d step %c1 iter_args(%acc = %z) -> f64 {
    %qv = memref.load %q[%j] : memref<?xf64>
    %sq = arith.mulf %qv, %qv : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  memref.dealloc %q : memref<?xf64>
  memref.dealloc %c : memref<?xf64>
  return %r : f64
}
func.func @grad(%x: memref<?xf64>, %mu: memref<?xf64>, %dmu: memref<?xf64>,
                %l: memref<?xf64>, %dl: memref<?xf64>) {
  moon.grad @centered(%x, %mu, %l, %dmu, %dl) args [const, dup, dup]
      : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  return
}

// A buffer filled with a value from outside the loop (an argument, or
// computed before the loop): its loads become that value, and the
// filling loops go.
// CHECK-LABEL: func.func private @filled_vjp_dc_n(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64>, %[[C:[^:]*]]: f64
// CHECK: %[[C2:.*]] = arith.mulf %[[C]], %[[C]] : f64
// CHECK-NOT: memref.store
// CHECK: scf.for
// CHECK: %[[XJ:.*]] = memref.load %[[X]][
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[C]], %[[XJ]] : f64
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[C2]], %[[XJ]] : f64
// CHECK: return
func.func @filled(%x: memref<?xf64>, %c: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %c2 = arith.mulf %c, %c : f64
  %b = memref.alloc(%n) : memref<?xf64>
  %b2 = memref.alloc(%n) : memref<?xf64>
  scf.for %j = %c0 to %n step %c1 {
    memref.store %c, %b[%j] : memref<?xf64>
  }
  scf.for %j = %c0 to %n step %c1 {
    memref.store %c2, %b2[%j] : memref<?xf64>
  }
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %bv = memref.load %b[%j] : memref<?xf64>
    %b2v = memref.load %b2[%j] : memref<?xf64>
    %xv = memref.load %x[%j] : memref<?xf64>
    %p = arith.mulf %bv, %xv : f64
    %q = arith.mulf %b2v, %xv : f64
    %pq = arith.addf %p, %q : f64
    %a = arith.addf %acc, %pq : f64
    scf.yield %a : f64
  }
  memref.dealloc %b2 : memref<?xf64>
  memref.dealloc %b : memref<?xf64>
  return %r : f64
}
func.func @filled_grad(%x: memref<?xf64>, %dx: memref<?xf64>, %c: f64) {
  moon.grad @filled(%x, %c, %dx) args [dup, const] : (memref<?xf64>, f64, memref<?xf64>) -> ()
  return
}
