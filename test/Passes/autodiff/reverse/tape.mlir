// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// FileCheck sees the general path (--moon-ndual-max-width=0); the fused
// N-wide dual path has its own tests in ../ndual/.

// A value the reverse sweep needs that cannot be recomputed (math.exp)
// inside a scf.for whose trip count is known before the loop is saved in a
// tape buffer allocated (and reported to moonrt) before the loop, indexed
// by the iteration number (iv - lb) / step, read back in the reverse loop
// at n - 1 - r, and freed at the end. Nothing is allocated inside loops.
// (The result is negated after the loop, so the loop's seed is only known
// after it and its reverse cannot run inside it.)
// CHECK-LABEL: func.func private @tape_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK: %[[POS:.*]] = arith.maxsi %[[SPAN]], %{{.*}} : index
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi %[[POS]], %[[C1]] : index
// CHECK: %[[TAPE:.*]] = memref.alloc(%[[TRIPS]]) : memref<?xf64>
// CHECK: %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[EIGHT]], %[[TRIPS]] : index
// CHECK: %[[BYTES64:.*]] = arith.index_cast %[[BYTES]] : index to i64
// CHECK: call @moonrt_tape_note_alloc(%[[BYTES64]]) : (i64) -> ()
// CHECK: scf.for %[[I:[^ ]*]] = %[[C0]] to %[[N]] step %[[C1]]
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[OFF:.*]] = arith.subi %[[I]], %[[C0]] : index
// CHECK: %[[K:.*]] = arith.divui %[[OFF]], %[[C1]] : index
// CHECK: %[[E:.*]] = math.exp %[[X]] : f64
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: memref.store %[[E]], %[[TAPE]][%[[K]]] : memref<?xf64>
// CHECK-NEXT: scf.yield
// CHECK: scf.for %[[R:[^ ]*]] = %{{.*}} to %[[RTRIPS:[^ ]*]] step %{{.*}} iter_args(%[[DACC:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[LAST:.*]] = arith.subi %[[RTRIPS]], %{{.*}} : index
// CHECK: %[[RK:.*]] = arith.subi %[[LAST]], %[[R]] : index
// CHECK-NEXT: %[[E2:.*]] = memref.load %[[TAPE]][%[[RK]]] : memref<?xf64>
// CHECK-NOT: math.exp
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[DE1:.*]] = arith.mulf %[[DACC]], %[[E2]] : f64
// CHECK: %[[DE2:.*]] = arith.mulf %[[E2]], %[[DACC]] : f64
// CHECK: %[[DE:.*]] = arith.addf %[[DE1]], %[[DE2]] : f64
// CHECK: %[[DX:.*]] = arith.mulf %[[DE]], %[[E2]] : f64
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: scf.yield %[[DACC]] : f64
// CHECK: memref.dealloc %[[TAPE]] : memref<?xf64>
// CHECK-NEXT: call @moonrt_tape_note_free(%[[BYTES64]]) : (i64) -> ()
// CHECK-NEXT: return
// CHECK-DAG: func.func private @moonrt_tape_note_alloc(i64)
// CHECK-DAG: func.func private @moonrt_tape_note_free(i64)
func.func @tape(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %e = math.exp %x : f64
    %m = arith.mulf %e, %e : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  %q = arith.negf %r : f64
  return %q : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @tape(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// A loop nest whose bounds are all defined at the top: one 2-D buffer,
// sized by both trip counts before the outer loop, indexed by both
// iteration numbers.
// CHECK-LABEL: func.func private @nest_vjp_acc_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[M:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[SPAN1:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK: %[[POS1:.*]] = arith.maxsi %[[SPAN1]], %{{.*}} : index
// CHECK: %[[N1:.*]] = arith.ceildivsi %[[POS1]], %{{.*}} : index
// CHECK: %[[SPAN2:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK: %[[POS2:.*]] = arith.maxsi %[[SPAN2]], %{{.*}} : index
// CHECK: %[[N2:.*]] = arith.ceildivsi %[[POS2]], %{{.*}} : index
// CHECK: %[[TAPE:.*]] = memref.alloc(%[[N1]], %[[N2]]) : memref<?x?xf64>
// CHECK: %[[B1:.*]] = arith.muli %{{.*}}, %[[N1]] : index
// CHECK: %[[B2:.*]] = arith.muli %[[B1]], %[[N2]] : index
// CHECK: %[[B64:.*]] = arith.index_cast %[[B2]] : index to i64
// CHECK: call @moonrt_tape_note_alloc(%[[B64]]) : (i64) -> ()
// CHECK: scf.for
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[K1:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: scf.for
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[K2:.*]] = arith.divui %{{.*}}, %{{.*}} : index
// CHECK: %[[E:.*]] = math.exp %{{.*}} : f64
// CHECK: memref.store %[[E]], %[[TAPE]][%[[K1]], %[[K2]]] : memref<?x?xf64>
// CHECK: scf.for %[[R1:[^ ]*]] =
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[RK1:.*]] = arith.subi %{{.*}}, %[[R1]] : index
// CHECK: scf.for %[[R2:[^ ]*]] =
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: %[[RK2:.*]] = arith.subi %{{.*}}, %[[R2]] : index
// CHECK-NEXT: %{{.*}} = memref.load %[[TAPE]][%[[RK1]], %[[RK2]]] : memref<?x?xf64>
// CHECK-NOT: math.exp
// CHECK: memref.dealloc %[[TAPE]] : memref<?x?xf64>
// CHECK-NEXT: call @moonrt_tape_note_free(%[[B64]]) : (i64) -> ()
func.func @nest(%x: f64, %n: index, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %r2 = scf.for %j = %c0 to %m step %c1 iter_args(%acc2 = %acc) -> f64 {
      %e = math.exp %acc2 : f64
      %m2 = arith.mulf %e, %x : f64
      scf.yield %m2 : f64
    }
    scf.yield %r2 : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index, %m: index) -> f64 {
  %r = moon.grad @nest(%x, %n, %m) args [active, const, const] : (f64, index, index) -> f64
  return %r : f64
}

// -----

// A block that tapes at least 8 values of one element type keeps them in
// one record per iteration, the last dimension of one buffer: here the
// carried value and the first 7 sines (the inputs of the 8 cosines of the
// reverse), in the order the reverse sweep asks for them (the last sine's
// input first), so an iteration writes and its
// reverse reads 64 contiguous bytes from one base address. (Fewer values,
// as in the tests above, get a buffer each, which a vectorized loop reads
// with unit stride.) The record's bytes are counted as 8 x 8 per
// iteration.
// CHECK-LABEL: func.func private @record_vjp_ac_n(
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf64>
// CHECK-NEXT: %[[UNIT:.*]] = arith.constant 64 : index
// CHECK-NEXT: arith.muli %[[UNIT]], %{{.*}} : index
// CHECK-NOT: memref.alloc(
// CHECK: scf.for %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK: %[[K:.*]] = arith.divui
// CHECK-COUNT-6: math.sin
// CHECK-NEXT: %[[S7:.*]] = math.sin
// CHECK-NEXT: math.sin %[[S7]] : f64
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.store %[[S7]], %[[TAPE]][%[[K]], %[[C0]]] : memref<?x8xf64>
// CHECK-COUNT-6: memref.store %{{.*}}, %[[TAPE]][%[[K]], %{{.*}}] : memref<?x8xf64>
// CHECK: %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT: memref.store %[[ACC]], %[[TAPE]][%[[K]], %[[C7]]] : memref<?x8xf64>
// CHECK: scf.yield
// CHECK: scf.for
// CHECK-COUNT-8: memref.load %[[TAPE]][%{{.*}}, %{{.*}}] : memref<?x8xf64>
// CHECK-NOT: math.sin
// CHECK: math.cos
// CHECK: memref.dealloc %[[TAPE]] : memref<?x8xf64>
func.func @record(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s0 = %x) -> f64 {
    %s1 = math.sin %s0 : f64
    %s2 = math.sin %s1 : f64
    %s3 = math.sin %s2 : f64
    %s4 = math.sin %s3 : f64
    %s5 = math.sin %s4 : f64
    %s6 = math.sin %s5 : f64
    %s7 = math.sin %s6 : f64
    %s8 = math.sin %s7 : f64
    scf.yield %s8 : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @record(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// The inner bound depends on the outer induction variable, so no buffer
// can be sized before the nest: the value goes on moonrt's LIFO tape,
// pushed at the end of the inner body and popped at the start of its
// reverse.
// CHECK-LABEL: func.func private @tri_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK-NOT: moonrt_tape_note_alloc
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[I]] step
// CHECK: %[[E:.*]] = math.exp %{{.*}} : f64
// CHECK: %[[M:.*]] = arith.mulf %[[E]], %[[X]] : f64
// CHECK-NEXT: func.call @moonrt_tape_push_f64(%[[E]]) : (f64) -> ()
// CHECK-NEXT: scf.yield %[[M]] : f64
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[S]]) -> (f64) {
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: scf.for %{{.*}} iter_args(%[[D:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT: %[[P:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK-NOT: math.exp
// CHECK: %[[DE:.*]] = arith.mulf %[[D]], %[[X]] : f64
// CHECK: %[[DX:.*]] = arith.mulf %[[P]], %[[D]] : f64
// CHECK: %[[DACC:.*]] = arith.mulf %[[DE]], %[[P]] : f64
// CHECK: scf.yield %[[DACC]] : f64
// CHECK-NOT: moonrt_tape_note_free
// CHECK: return
// CHECK-DAG: func.func private @moonrt_tape_push_f64(f64)
// CHECK-DAG: func.func private @moonrt_tape_pop_f64() -> f64
func.func @tri(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %r2 = scf.for %j = %c0 to %i step %c1 iter_args(%acc2 = %acc) -> f64 {
      %e = math.exp %acc2 : f64
      %m2 = arith.mulf %e, %x : f64
      scf.yield %m2 : f64
    }
    scf.yield %r2 : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @tri(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// A value inside a top-level branch is saved in a 0-d buffer (no loop to
// index by), written only on the branch that computes it.
// CHECK-LABEL: func.func private @diamond_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[C:[^:]*]]: i1, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[TAPE:.*]] = memref.alloc() : memref<f64>
// CHECK: call @moonrt_tape_note_alloc(
// CHECK: scf.if %[[C]] -> (f64) {
// CHECK-NEXT: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK-NEXT: scf.yield %[[SIN]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[E:.*]] = math.exp %[[X]] : f64
// CHECK-NEXT: memref.store %[[E]], %[[TAPE]][] : memref<f64>
// CHECK: scf.if %[[C]] {
// CHECK: math.cos %[[X]] : f64
// CHECK: } else {
// CHECK-NEXT: %[[E2:.*]] = memref.load %[[TAPE]][] : memref<f64>
// CHECK-NEXT: arith.mulf %[[S]], %[[E2]] : f64
// CHECK: memref.dealloc %[[TAPE]] : memref<f64>
// CHECK-NEXT: call @moonrt_tape_note_free(
func.func @diamond(%x: f64, %c: i1) -> f64 {
  %r = scf.if %c -> f64 {
    %s = math.sin %x : f64
    scf.yield %s : f64
  } else {
    %e = math.exp %x : f64
    scf.yield %e : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %c: i1) -> f64 {
  %r = moon.grad @diamond(%x, %c) args [active, const] : (f64, i1) -> f64
  return %r : f64
}

// -----

// An scf.parallel without reductions is reversed as a nest of scf.for (its
// iterations are independent): the reverse sweep runs both loops
// backwards. The overwritten loads are taped in one buffer sized before
// the nest, indexed by both iteration numbers.
// CHECK-LABEL: func.func private @par_vjp_da_(
// CHECK-NOT: scf.parallel
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.sin
// CHECK: memref.store %{{.*}}, %[[TAPE]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.cos
// CHECK: return
func.func @par(%a: memref<3x4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<3x4xf64>
    %p = arith.mulf %v, %x : f64
    %s = math.sin %p : f64
    memref.store %s, %a[%i, %j] : memref<3x4xf64>
    scf.reduce
  }
  return
}
func.func @caller(%a: memref<3x4xf64>, %da: memref<3x4xf64>, %x: f64) -> f64 {
  %r = moon.vjp @par(%a, %x, %da) : (memref<3x4xf64>, f64, memref<3x4xf64>) -> f64
  return %r : f64
}

// -----

// acc * z with acc active and z inactive: the reverse sweep needs z (for
// acc's adjoint) but not acc (z has no adjoint), so only z is taped: one
// buffer, one store per iteration.
// CHECK-LABEL: func.func private @scaled_vjp_ac_n(
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK: %[[Z:.*]] = math.exp
// CHECK: memref.store %[[Z]], %[[T]]
// CHECK-NOT: memref.store
// CHECK: scf.for
func.func @scaled(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 0.01 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %g = arith.mulf %f, %k : f64
    %z = math.exp %g : f64
    %a = arith.mulf %acc, %z : f64
    scf.yield %a : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @scaled(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

