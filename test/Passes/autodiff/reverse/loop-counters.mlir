// RUN: moonc-opt %s --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry rect --args '[[0.1,0.2,0.3,0.4,0.5,0.6],3]' | FileCheck %s --check-prefix=CHECKED-RECT
// RUN: moonc check %s --entry tri --args '[[0.1,0.2,0.3,0.4,0.5,0.6],[0.3,0.1,0.2,0.4]]' | FileCheck %s --check-prefix=CHECKED

// Loops as GradBench's gmm writes Qtimesx (reverse/prepare.rs): an index
// counter carried through a triangular loop nest (`li++`), and a load of
// t[i] inside the inner loop from a buffer the loop does not write.
// Reverse mode rewrites the counter's uses as closed forms of the
// induction variables: at the start of outer iteration i (n = i - 0
// iterations done, each running d - 1 - t inner ones) it is
// 0 + (n (d - 1 - 0) - n (n - 1) / 2), and inside the inner loop that entry
// plus (j - lb); so no counter value is taped and the load it indexes is
// read again in the reverse sweep (l is never written). t[i] moves before
// the inner loop, under `scf.if lb < ub`, so it is taped once per outer
// iteration, in a buffer, instead of once per inner iteration on moonrt's
// LIFO tape (the inner trip count depends on i).
// CHECK-LABEL: func.func private @tri_vjp_dd_n(
// CHECK-SAME: %[[L:[^:]*]]: memref<?xf64>
// CHECK: scf.for %[[I:[^ ]*]] = {{.*}} iter_args(
// CHECK: %[[N:.*]] = arith.subi %[[I]], %{{.*}} : index
// CHECK: %[[FULL:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK: %[[PAIRS:.*]] = arith.divsi %{{.*}}, %{{.*}} : index
// CHECK: %[[SUM:.*]] = arith.subi %[[FULL]], %[[PAIRS]] : index
// CHECK: %[[ENTRY:.*]] = arith.addi %{{.*}}, %[[SUM]] : index
// CHECK: %[[LB:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %{{.*}} : index
// CHECK: %[[TI:.*]] = scf.if %[[RUNS]] -> (f64) {
// CHECK: memref.load %{{.*}}[%[[I]]] : memref<?xf64>
// CHECK: scf.for %[[J:[^ ]*]] = %[[LB]] to {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %[[ENTRY]])
// CHECK: %[[OFF:.*]] = arith.subi %[[J]], %[[LB]] : index
// CHECK: %[[LI:.*]] = arith.addi %[[ENTRY]], %[[OFF]] : index
// CHECK: memref.load %[[L]][%[[LI]]] : memref<?xf64>
// CHECK-NOT: moonrt_tape_push
// CHECK-NOT: xindex>
// CHECK: return
// CHECKED: check: PASS

func.func @tri(%l: memref<?xf64>, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %d = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%d) : memref<?xf64>
  scf.for %i = %c0 to %d step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<?xf64>
  }
  %r:2 = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %z, %li0 = %c0) -> (f64, index) {
    %i1 = arith.addi %i, %c1 : index
    %in:2 = scf.for %j = %i1 to %d step %c1 iter_args(%a = %acc, %li = %li0) -> (f64, index) {
      %lv = memref.load %l[%li] : memref<?xf64>
      %ti = memref.load %t[%i] : memref<?xf64>
      %p = arith.mulf %lv, %ti : f64
      %q = arith.mulf %p, %p : f64
      %a2 = arith.addf %a, %q : f64
      %li2 = arith.addi %li, %c1 : index
      scf.yield %a2, %li2 : f64, index
    }
    scf.yield %in#0, %in#1 : f64, index
  }
  memref.dealloc %t : memref<?xf64>
  return %r#0 : f64
}
func.func @grad(%l: memref<?xf64>, %dl: memref<?xf64>, %x: memref<?xf64>, %dx: memref<?xf64>) {
  moon.grad @tri(%l, %x, %dl, %dx) : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  return
}

// The same counter through a rectangular nest (inner trip count m, the
// same in every outer iteration): entry + (i - 0) * max(ceil((m - 0) / 1), 0).
// CHECK-LABEL: func.func private @rect_vjp_dc_n(
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[T:.*]] = arith.ceildivsi
// CHECK: %[[TRIPS:.*]] = arith.maxsi %[[T]], %{{.*}} : index
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %[[TRIPS]] : index
// CHECK: %[[ENTRY:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: scf.for {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %{{[^ ]*}} = %[[ENTRY]])
// CHECK-NOT: xindex>
// CHECK: return
// CHECKED-RECT: check: PASS
func.func @rect(%l: memref<?xf64>, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %l, %c0 : memref<?xf64>
  %rows = arith.divui %n, %m : index
  %r:2 = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %z, %k0 = %c0) -> (f64, index) {
    %in:2 = scf.for %j = %c0 to %m step %c1 iter_args(%a = %acc, %k = %k0) -> (f64, index) {
      %v = memref.load %l[%k] : memref<?xf64>
      %s = math.sin %v : f64
      %a2 = arith.addf %a, %s : f64
      %k2 = arith.addi %k, %c1 : index
      scf.yield %a2, %k2 : f64, index
    }
    %sq = arith.mulf %in#0, %in#0 : f64
    scf.yield %sq, %in#1 : f64, index
  }
  return %r#0 : f64
}
func.func @rect_grad(%l: memref<?xf64>, %dl: memref<?xf64>, %m: index) {
  moon.grad @rect(%l, %m, %dl) args [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> ()
  return
}

// A load from an argument stays in a loop that writes an argument (the two
// may alias), though it looks invariant.
// CHECK-LABEL: func.func private @alias_vjp_dd_(
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK: return
func.func @alias(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%c0] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    memref.store %w, %y[%i] : memref<?xf64>
  }
  return
}
func.func @alias_grad(%x: memref<?xf64>, %dx: memref<?xf64>, %y: memref<?xf64>, %dy: memref<?xf64>) {
  moon.vjp @alias(%x, %y, %dx, %dy) : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  return
}

// An alternating flag (`plus' = plus xor true`: the sign of a term in
// GradBench's det, expansion by minors) is rewritten as its initial value
// xor the iteration number's low bit, so the reverse sweep recomputes it:
// nothing is taped for it (no buffer here; in det's recursive split pair,
// one value less per iteration on moonrt's tape).
// CHECK-LABEL: func.func private @alternating_vjp_d_n(
// CHECK: scf.for %[[K:[^ ]*]] =
// CHECK: %[[N:.*]] = arith.subi %[[K]], %{{.*}} : index
// CHECK: %[[ODD:.*]] = arith.index_cast %[[N]] : index to i1
// CHECK: %[[PLUS:.*]] = arith.xori %{{.*}}, %[[ODD]] : i1
// CHECK: scf.if %[[PLUS]]
// CHECK-NOT: alloc(
// CHECK-NOT: moonrt_tape_push
// CHECK: return
// RUN: moonc check %s --entry alternating --args '[[0.1,0.2,0.3,0.4,0.5]]' | FileCheck %s --check-prefix=CHECKED
func.func @alternating(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %true = arith.constant true
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%s = %z, %plus = %true) -> (f64, i1) {
    %v = memref.load %x[%k] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %new = scf.if %plus -> f64 {
      %a = arith.addf %s, %sq : f64
      scf.yield %a : f64
    } else {
      %a = arith.subf %s, %sq : f64
      scf.yield %a : f64
    }
    %minus = arith.xori %plus, %true : i1
    scf.yield %new, %minus : f64, i1
  }
  return %r#0 : f64
}
func.func @alternating_grad(%x: memref<?xf64>, %dx: memref<?xf64>) {
  moon.grad @alternating(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> ()
  return
}
