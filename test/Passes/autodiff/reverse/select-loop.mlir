// RUN: moonc-opt %s --moon-grad-to-vjp --moon-autodiff --moon-tape-budget=0 | FileCheck %s
// RUN: moonc grad %s --entry argmax_first --args '[[1, 3, 3, 2]]' | FileCheck %s --check-prefix=FIRST
// RUN: moonc grad %s --entry argmax_first --args '[[5, 1, 2]]' | FileCheck %s --check-prefix=INIT
// RUN: moonc grad %s --entry argmax_last --args '[[1, 3, 3, 2]]' | FileCheck %s --check-prefix=TIES-LAST
// RUN: moonc grad %s --entry argmin_kept_if_true --args '[[2, 1, 1, 5]]' | FileCheck %s --check-prefix=MIN
// RUN: moonc grad %s --entry row_maxes --args '[[[1, -4, 2], [3, 0, -3]]]' | FileCheck %s --check-prefix=ROWS
// RUN: moonc check %s --entry argmax_first --args '[[0.5, -1.5, 2.0, 0.7, 1.9]]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc check %s --entry argmax_last --args '[[0.5, -1.5, 2.0, 0.7, 1.9]]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc check %s --entry argmin_kept_if_true --args '[[0.5, -1.5, 2.0, 0.7, 1.9]]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc check %s --entry row_maxes --args '[[[1, -4, 2], [3, 0.5, -2.5], [0.1, 0.2, 0.3]]]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc grad %s --entry in_if --args '[[1, 3, 2], 1]' | FileCheck %s --check-prefix=IF
// RUN: moonc grad %s --entry in_while --args '[[[1, 3, 2], [5, -1, 4]]]' | FileCheck %s --check-prefix=WHILE
// RUN: moonc check %s --entry in_if --args '[[0.5, 1.5, -2.0, 0.7], 1]' | FileCheck %s --check-prefix=CHECKED
// RUN: moonc check %s --entry in_while --args '[[[0.5, 1.5, -2.0], [0.7, 0.1, 0.9]]]' | FileCheck %s --check-prefix=CHECKED
// CHECKED: check: PASS

// A loop that keeps a max or min with arith.select (GradBench's
// arr_max; rules/select_loop.rs): the forward loop records in a cell the
// induction variable of the last iteration whose select kept the element
// (the upper bound when none did), and the reverse adds the adjoint to that
// element's shadow, or to the initial value's when no element was kept.
// Nothing is taped at the top level.
// CHECK-LABEL: func.func private @argmax_first_vjp_d_n(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64>, %[[DX:[^:]*]]: memref<?xf64>, %[[SEED:[^:]*]]: f64
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<index>
// CHECK-NEXT: memref.store %[[N]], %[[CELL]][] : memref<index>
// CHECK-NEXT: scf.for %[[I:[^ ]*]] =
// CHECK-NEXT: %[[XI:.*]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT: %[[LT:.*]] = arith.cmpf olt, %{{.*}}, %[[XI]] : f64
// CHECK-NEXT: arith.select %[[LT]], %[[XI]]
// CHECK-NEXT: %[[BEST:.*]] = memref.load %[[CELL]][] : memref<index>
// CHECK-NEXT: %[[KEPT:.*]] = arith.select %[[LT]], %[[I]], %[[BEST]] : index
// CHECK-NEXT: memref.store %[[KEPT]], %[[CELL]][] : memref<index>
// CHECK: %[[LAST:.*]] = memref.load %[[CELL]][] : memref<index>
// CHECK-NOT: memref.alloc(
// CHECK: %[[FOUND:.*]] = arith.cmpi ne, %[[LAST]], %[[N]] : index
// CHECK-NEXT: scf.if %[[FOUND]] {
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[DX]][%[[LAST]]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]]
// CHECK-NEXT: memref.store %[[NEW]], %[[DX]][%[[LAST]]]
// CHECK: arith.select %[[FOUND]], %{{.*}}, %{{.*}} : f64
// CHECK: return

// In a loop, over a buffer the next row overwrites: the kept index is
// taped once a row (memref<?xindex>), not the two compared values of every
// iteration.
// CHECK-LABEL: func.func private @row_maxes_vjp_d_n(
// CHECK: %[[ROWCELL:.*]] = memref.alloca() : memref<index>
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK-NOT: memref.alloc(%{{.*}}) : memref<?x?xf64>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[K:.*]] = memref.load %[[ROWCELL]][] : memref<index>
// CHECK: memref.store %[[K]], %[[TAPE]][
// CHECK: memref.load %[[TAPE]][
// CHECK: scf.if

// FIRST: {"value": 6.0, "gradient": {{\[}}[0.0, 2.0, 0.0, 0.0]]}
// INIT: {"value": 10.0, "gradient": {{\[}}[2.0, 0.0, 0.0]]}
// TIES-LAST: {"value": 6.0, "gradient": {{\[}}[0.0, 0.0, 2.0, 0.0]]}
// MIN: {"value": 2.0, "gradient": {{\[}}[0.0, 2.0, 0.0, 0.0]]}
// Inside a branch, and inside an scf.while (whose trip count is not known
// before it runs), the kept index is taped as any value there is.
// IF: {"value": 9.0, "gradient": {{\[}}[0.0, 6.0, 0.0], null]}
// WHILE: {"value": 34.0, "gradient": {{\[}}{{\[}}[0.0, 6.0, 0.0], [10.0, 0.0, 0.0]]]}
// ROWS: {"value": 25.0, "gradient": {{\[}}{{\[}}[0.0, -8.0, 0.0], [6.0, 0.0, 0.0]]]}

func.func @argmax_first(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %lt = arith.cmpf olt, %acc, %xi : f64
    %next = arith.select %lt, %xi, %acc : f64
    scf.yield %next : f64
  }
  %r = arith.mulf %m, %two : f64
  return %r : f64
}

func.func @argmax_last(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %ge = arith.cmpf oge, %xi, %acc : f64
    %next = arith.select %ge, %xi, %acc : f64
    scf.yield %next : f64
  }
  %r = arith.mulf %m, %two : f64
  return %r : f64
}

func.func @argmin_kept_if_true(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %le = arith.cmpf ole, %acc, %xi : f64
    %next = arith.select %le, %acc, %xi : f64
    scf.yield %next : f64
  }
  %r = arith.mulf %m, %two : f64
  return %r : f64
}

func.func @row_maxes(%x: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?x?xf64>
  %d = memref.dim %x, %c1 : memref<?x?xf64>
  %t = memref.alloc(%d) : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    scf.for %j = %c0 to %d step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf64>
      %sq = arith.mulf %v, %v : f64
      memref.store %sq, %t[%j] : memref<?xf64>
    }
    %t0 = memref.load %t[%c0] : memref<?xf64>
    %m = scf.for %j = %c1 to %d step %c1 iter_args(%a = %t0) -> f64 {
      %tj = memref.load %t[%j] : memref<?xf64>
      %lt = arith.cmpf olt, %a, %tj : f64
      %next = arith.select %lt, %tj, %a : f64
      scf.yield %next : f64
    }
    %s2 = arith.addf %acc, %m : f64
    scf.yield %s2 : f64
  }
  memref.dealloc %t : memref<?xf64>
  return %s : f64
}
func.func @g1(%x: memref<?x?xf64>, %dx: memref<?x?xf64>) {
  moon.grad @row_maxes(%x, %dx) args [dup] : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  return
}
func.func @g2(%x: memref<?xf64>, %dx: memref<?xf64>) {
  moon.grad @argmax_first(%x, %dx) args [dup] : (memref<?xf64>, memref<?xf64>) -> ()
  return
}

func.func @in_if(%x: memref<?xf64>, %flag: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.if %flag -> f64 {
    %x0 = memref.load %x[%c0] : memref<?xf64>
    %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
      %xi = memref.load %x[%i] : memref<?xf64>
      %lt = arith.cmpf olt, %acc, %xi : f64
      %next = arith.select %lt, %xi, %acc : f64
      scf.yield %next : f64
    }
    %s = arith.mulf %m, %m : f64
    scf.yield %s : f64
  } else {
    %x1 = memref.load %x[%c1] : memref<?xf64>
    scf.yield %x1 : f64
  }
  return %r : f64
}

func.func @in_while(%x: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?x?xf64>
  %d = memref.dim %x, %c1 : memref<?x?xf64>
  %res:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i, %acc : index, f64
  } do {
  ^bb0(%i: index, %acc: f64):
    %x0 = memref.load %x[%i, %c0] : memref<?x?xf64>
    %m = scf.for %j = %c1 to %d step %c1 iter_args(%a = %x0) -> f64 {
      %xj = memref.load %x[%i, %j] : memref<?x?xf64>
      %gt = arith.cmpf ogt, %xj, %a : f64
      %next = arith.select %gt, %xj, %a : f64
      scf.yield %next : f64
    }
    %sq = arith.mulf %m, %m : f64
    %acc2 = arith.addf %acc, %sq : f64
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %acc2 : index, f64
  }
  return %res#1 : f64
}
