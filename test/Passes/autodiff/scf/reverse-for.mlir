// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s --check-prefix=NOTAPE
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// FileCheck sees the general path (--moon-ndual-max-width=0); the fused
// N-wide dual path has its own tests in ../ndual/.

// Nothing here needs a tape: induction variables and the cheap arith on
// them are recomputed in the reverse loop.
// NOTAPE-NOT: moonrt_tape
// NOTAPE-NOT: {{memref.alloc[ (]}}

// The reverse of scf.for is a scf.for from 0 to the trip count
// ceildiv(max(ub - lb, 0), step), carrying the adjoint of the iteration
// value (seeded with the result's cotangent); iteration r reverses
// iteration k = n - 1 - r, whose induction variable lb + k * step is
// recomputed. x, used inside the loop, accumulates its adjoint in a slot
// (made at the start of the function). The result is negated after the
// loop, so the loop's seed is computed after it (see @fused for a seed
// known before the loop).
// CHECK-LABEL: func.func private @loop_vjp_acc_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[LB:[^:]*]]: index, %[[UB:[^:]*]]: index, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<f64>
// CHECK: memref.store %{{.*}}, %[[SLOT]][] : memref<f64>
// CHECK: %[[STEP:.*]] = arith.constant 3 : index
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[STEP]] iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK: %[[Q:.*]] = arith.negf %[[R]] : f64
// CHECK: %[[NS:.*]] = arith.negf %[[S]] : f64
// CHECK: %[[SPAN:.*]] = arith.subi %[[UB]], %[[LB]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.ceildivsi %[[POS]], %[[STEP]] : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[RI:[^ ]*]] = %[[ZERO]] to %[[N]] step %[[ONE]] iter_args(%[[DACC:[^ ]*]] = %[[NS]]) -> (f64) {
// CHECK: %[[LAST:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.subi %[[LAST]], %[[RI]] : index
// CHECK: %[[OFF:.*]] = arith.muli %[[K]], %[[STEP]] : index
// CHECK: %[[IV:.*]] = arith.addi %[[LB]], %[[OFF]] : index
// CHECK: %[[II:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK: %[[FI:.*]] = arith.sitofp %[[II]] : i64 to f64
// CHECK: %[[DX:.*]] = arith.mulf %[[FI]], %[[DACC]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[SLOT]][] : memref<f64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DX]] fastmath<reassoc> : f64
// CHECK: memref.store %[[NEW]], %[[SLOT]][] : memref<f64>
// CHECK: scf.yield %[[DACC]] : f64
// CHECK: %[[ADJ:.*]] = memref.load %[[SLOT]][] : memref<f64>
// CHECK: return %[[Q]], %[[ADJ]] : f64, f64
func.func @loop(%x: f64, %lb: index, %ub: index) -> f64 {
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %lb to %ub step %c3 iter_args(%acc = %z) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %m = arith.mulf %fi, %x : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  %q = arith.negf %r : f64
  return %q : f64
}
func.func @caller(%x: f64, %lb: index, %ub: index, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @loop(%x, %lb, %ub, %s) : (f64, index, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Only active iteration values are carried backwards (not the i32
// counter), and a swap in the yield swaps the adjoints; the reverse loop's
// results are the adjoints of the initial values.
// CHECK-LABEL: func.func private @swap_vjp_aac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[R:.*]]:3 = scf.for %{{.*}} iter_args(%{{.*}} = %[[X]], %{{.*}} = %[[Y]], %{{.*}} = %{{.*}}) -> (f64, f64, i32) {
// CHECK: %[[D0:.*]] = arith.mulf %[[S]], %[[R]]#1 : f64
// CHECK: %[[D1:.*]] = arith.mulf %[[R]]#0, %[[S]] : f64
// CHECK: %[[B:.*]]:2 = scf.for %{{.*}} iter_args(%[[DA:[^ ]*]] = %[[D0]], %[[DB:.*]] = %[[D1]]) -> (f64, f64) {
// CHECK-NEXT: scf.yield %[[DB]], %[[DA]] : f64, f64
// CHECK-NEXT: }
// CHECK-NEXT: return %[[B]]#0, %[[B]]#1 : f64, f64
func.func @swap(%x: f64, %y: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k0 = arith.constant 0 : i32
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %b = %y, %k = %k0) -> (f64, f64, i32) {
    %one = arith.constant 1 : i32
    %k2 = arith.addi %k, %one : i32
    scf.yield %b, %a, %k2 : f64, f64, i32
  }
  %p = arith.mulf %r#0, %r#1 : f64
  return %p : f64
}
func.func @caller(%x: f64, %y: f64, %n: index) -> (f64, f64) {
  %r:2 = moon.grad @swap(%x, %y, %n) args [active, active, const] : (f64, f64, index) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// An i32 loop: the trip count is computed on index casts of the bounds and
// the induction variable is recomputed as an i32.
// CHECK-LABEL: func.func private @iloop_vjp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[LB:.*]] = arith.constant 2 : i32
// CHECK: %[[STEP:.*]] = arith.constant 3 : i32
// CHECK: scf.for %{{.*}} = %[[LB]] to %[[N]] step %[[STEP]] iter_args(%{{.*}} = %{{.*}}) -> (f64) : i32 {
// CHECK: %[[LBI:.*]] = arith.index_cast %[[LB]] : i32 to index
// CHECK: %[[UBI:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[STEPI:.*]] = arith.index_cast %[[STEP]] : i32 to index
// CHECK: %[[SPAN:.*]] = arith.subi %[[UBI]], %[[LBI]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi %[[POS]], %[[STEPI]] : index
// CHECK: scf.for %[[RI:[^ ]*]] = %{{.*}} to %[[TRIPS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (f64) {
// CHECK: %[[K:.*]] = arith.subi %{{.*}}, %[[RI]] : index
// CHECK: %[[KI:.*]] = arith.index_cast %[[K]] : index to i32
// CHECK: %[[OFF:.*]] = arith.muli %[[KI]], %[[STEP]] : i32
// CHECK: %[[IV:.*]] = arith.addi %[[LB]], %[[OFF]] : i32
// CHECK: arith.sitofp %[[IV]] : i32 to f64
func.func @iloop(%x: f64, %n: i32) -> f64 {
  %lb = arith.constant 2 : i32
  %step = arith.constant 3 : i32
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %lb to %n step %step iter_args(%acc = %z) -> f64 : i32 {
    %fi = arith.sitofp %i : i32 to f64
    %m = arith.mulf %fi, %x : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  %q = arith.negf %r : f64
  return %q : f64
}
func.func @caller(%x: f64, %n: i32, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @iloop(%x, %n, %s) : (f64, i32, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// x is used after the loop (SSA adjoint, in x's own block) and inside it
// (a slot): the loop only accumulates into the slot, and the two parts are
// added when x's adjoint is taken.
// CHECK-LABEL: func.func private @twice_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[R:.*]] = scf.for
// CHECK: %[[DR:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK: %[[DX1:.*]] = arith.mulf %[[R]], %[[S]] : f64
// CHECK: scf.for %{{.*}} iter_args(%[[D:[^ ]*]] = %[[DR]]) -> (f64) {
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[SLOT]][] : memref<f64>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[D]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[SLOT]][] : memref<f64>
// CHECK-NEXT: scf.yield %[[D]] : f64
// CHECK: %[[DX2:.*]] = memref.load %[[SLOT]][] : memref<f64>
// CHECK: %[[DX:.*]] = arith.addf %[[DX1]], %[[DX2]] : f64
// CHECK-NEXT: return %[[DX]] : f64
func.func @twice(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = arith.addf %acc, %x : f64
    scf.yield %a : f64
  }
  %y = arith.mulf %r, %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @twice(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// A top-level loop that only accumulates (its adjoint is the same on every
// iteration), whose seed is known before it (the cotangent argument), in a
// function that writes no memory: the reverse of each iteration runs at
// the end of the iteration itself, on its values (no tape, no second
// loop). x's adjoint accumulates in a slot made at the start.
// CHECK-LABEL: func.func private @fused_vjp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[R:.*]] = scf.for %[[I:[^ ]*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK: %[[E:.*]] = math.exp %[[X]] : f64
// CHECK: %[[A:.*]] = arith.addf %[[ACC]], %[[E]] : f64
// CHECK: %[[D:.*]] = arith.mulf %[[S]], %[[E]] : f64
// CHECK: memref.load %[[SLOT]][]
// CHECK: arith.addf
// CHECK: memref.store %{{.*}}, %[[SLOT]][]
// CHECK-NEXT: scf.yield %[[A]] : f64
// CHECK-NOT: scf.for
// CHECK: %[[DX:.*]] = memref.load %[[SLOT]][]
// CHECK: return %[[R]], %[[DX]] : f64, f64
func.func @fused(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %e = math.exp %x : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @fused(%x, %n, %s) args [active, const] : (f64, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

