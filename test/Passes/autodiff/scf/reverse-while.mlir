// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// A counted while loop. The forward sweep counts the turns of the `after`
// region in a counter allocated at the function's entry (reset before the
// loop, incremented at the top of `after`, read after the loop). The
// `before` region only tests and passes its arguments on, so the reverse
// is a scf.for over the count turns of `after` alone, reversing turn
// k = count - 1 - r, seeded with the result's adjoint (negated after the
// loop, so only known after it: the reverse cannot run inside the
// loop). The index %i
// grows by a constant defined outside the loop, so it is recomputed as
// init + k * step, never taped.
// CHECK-LABEL: func.func private @counted_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK-NEXT: %[[CNT:.*]] = memref.alloca() : memref<index>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.store %[[Z]], %[[CNT]][] : memref<index>
// CHECK-NEXT: scf.while
// CHECK-NOT: moonrt_tape
// CHECK: } do {
// CHECK-NEXT: ^bb0(
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK-NEXT: %[[INC:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[NEW:.*]] = arith.addi %[[OLD]], %[[INC]] : index
// CHECK-NEXT: memref.store %[[NEW]], %[[CNT]][] : memref<index>
// CHECK-NOT: moonrt_tape
// CHECK: %[[COUNT:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK-NOT: scf.if
// CHECK: %[[NS:.*]] = arith.negf %[[S]] : f64
// CHECK: %[[L:.*]] = scf.for %[[R:[^ ]*]] = %{{.*}} to %[[COUNT]] step %{{.*}} iter_args(%[[DACC:[^ ]*]] = %[[NS]]) -> (f64) {
// CHECK: %[[LAST:.*]] = arith.subi %[[COUNT]], %{{.*}} : index
// CHECK-NEXT: %[[K:.*]] = arith.subi %[[LAST]], %[[R]] : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[K]], %[[C1]] : index
// CHECK-NEXT: %[[IV:.*]] = arith.addi %[[C0]], %[[OFF]] : index
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT: %[[FI:.*]] = arith.sitofp %[[II]] : i64 to f64
// CHECK-NEXT: %[[DX:.*]] = arith.mulf %[[FI]], %[[DACC]] : f64
// CHECK-NOT: moonrt_tape
// CHECK: scf.yield %[[DACC]] : f64
// CHECK: %[[DXS:.*]] = memref.load
// CHECK: %[[SUM:.*]] = arith.addf %[[L]], %[[DXS]] : f64
// CHECK-NEXT: return %[[SUM]] : f64
func.func @counted(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %acc = %x) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%i: index, %acc: f64):
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %m = arith.mulf %fi, %x : f64
    %a = arith.addf %acc, %m : f64
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %a : index, f64
  }
  %q = arith.negf %r#1 : f64
  return %q : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @counted(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// When the `before` region computes with active values it runs count + 1
// times: the reverse is a scf.for over count + 1 turns, whose first turn
// (an scf.if on r == 0) passes the results' cotangents to the reverse of
// the final test and whose other turns take the adjoints from the `after`
// region. The index, used in `before`, is recomputed there from
// k = count - r (no tape push for it).
// CHECK-LABEL: func.func private @test_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: index, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[CNT:.*]] = memref.alloca() : memref<index>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT: moonrt_tape_push_i64
// CHECK: } do {
// CHECK: memref.store %{{.*}}, %[[CNT]][] : memref<index>
// CHECK-NOT: moonrt_tape_push_i64
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[COUNT:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK: %[[TURNS:.*]] = arith.addi %[[COUNT]], %{{.*}} : index
// CHECK: scf.for %[[R:[^ ]*]] = %{{.*}} to %[[TURNS]] step %{{.*}} iter_args(%[[DACC:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT: %[[K:.*]] = arith.subi %[[COUNT]], %[[R]] : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : index
// CHECK-NEXT: %[[SEL:.*]] = scf.if %[[FIRST]] -> (f64) {
// CHECK-NEXT: scf.yield %[[S]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[DACC]] : f64
// CHECK-NEXT: }
// CHECK-NOT: moonrt_tape_pop_i64
// CHECK: %[[OFF:.*]] = arith.muli %[[K]], %[[C1]] : index
// CHECK-NEXT: %[[IV:.*]] = arith.addi %[[C0]], %[[OFF]] : index
// CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[IV]] : index to i64
// CHECK-NEXT: %[[FI:.*]] = arith.sitofp %[[II]] : i64 to f64
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[SEL]], %[[FI]] : f64
// CHECK-NEXT: scf.yield %[[D]] : f64
func.func @test(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%i = %c0, %acc = %x) : (index, f64) -> (index, f64) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %m = arith.mulf %acc, %fi : f64
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %m : index, f64
  } do {
  ^bb0(%i: index, %acc: f64):
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %acc : index, f64
  }
  return %r#1 : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @test(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}

// -----

// A while loop whose carried float is needed backwards (v * v): it is
// pushed on moonrt's tape at the end of each `after` region and popped at
// the start of that region's reverse.
// CHECK-LABEL: func.func private @grow_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[CNT:.*]] = memref.alloca() : memref<index>
// CHECK: scf.while
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[V:.*]]: f64):
// CHECK: %[[V2:.*]] = arith.mulf %[[V]], %[[V]] : f64
// CHECK: %[[T:.*]] = arith.addf %[[V2]], %[[X]] : f64
// CHECK-NEXT: func.call @moonrt_tape_push_f64(%[[V]]) : (f64) -> ()
// CHECK-NEXT: scf.yield %[[T]] : f64
// CHECK: %[[COUNT:.*]] = memref.load %[[CNT]][] : memref<index>
// CHECK: %[[TURNS:.*]] = arith.addi %[[COUNT]], %{{.*}} : index
// CHECK: scf.for %[[R:[^ ]*]] = %{{.*}} to %[[TURNS]] step %{{.*}} iter_args(%[[DV:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: scf.yield %[[S]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK: %[[A:.*]] = arith.mulf %[[DV]], %[[P]] : f64
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[P]], %[[DV]] : f64
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK-NEXT: scf.yield %[[D]] : f64
// CHECK-DAG: func.func private @moonrt_tape_push_f64(f64)
// CHECK-DAG: func.func private @moonrt_tape_pop_f64() -> f64
func.func @grow(%x: f64) -> f64 {
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %lim = arith.constant 10.0 : f64
    %c = arith.cmpf olt, %v, %lim : f64
    scf.condition(%c) %v : f64
  } do {
  ^bb0(%v: f64):
    %v2 = arith.mulf %v, %v : f64
    %t = arith.addf %v2, %x : f64
    scf.yield %t : f64
  }
  return %r : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @grow(%x) : (f64) -> f64
  return %r : f64
}

// -----

// A while-loop sum of a dup argument whose seed is the cotangent argument,
// in a function that writes no memory: the reverse of each turn of
// `after` (dx[j] += s) runs at the end of the turn itself; there is no
// reverse loop.
// CHECK-LABEL: func.func private @while_sum_vjp_d_a(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64>, %[[DX:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: f64) -> f64
// CHECK: scf.while
// CHECK: } do {
// CHECK-NEXT: ^bb0(%[[J:[^:]*]]: index, %[[A:[^:]*]]: f64):
// CHECK: %[[V:.*]] = memref.load %[[X]][%[[J]]] : memref<?xf64>
// CHECK-NEXT: %[[A2:.*]] = arith.addf %[[A]], %[[V]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[DX]][%[[J]]] : memref<?xf64>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[S]] : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[DX]][%[[J]]] : memref<?xf64>
// CHECK-NEXT: scf.yield %{{.*}}, %[[A2]] : index, f64
// CHECK-NOT: scf.for
// CHECK: return
func.func @while_sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %a2 = arith.addf %a, %v : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}
func.func @caller(%x: memref<?xf64>, %dx: memref<?xf64>, %s: f64) -> f64 {
  %r = moon.vjp @while_sum(%x, %dx, %s) : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

