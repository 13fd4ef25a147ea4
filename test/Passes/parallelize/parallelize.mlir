// RUN: moonc-opt --moon-parallel-min-trips=1000 --moon-parallelize %s | FileCheck %s
// RUN: moonc-opt --moon-parallelize %s | FileCheck %s --check-prefix=OFF

// Off by default: --moon-parallel-min-trips=0 leaves every loop alone.
// OFF-NOT: scf.parallel

// A reassociable sum: versioned on the trip count; 64 chunks from -0.0,
// then the parts added to the initial value in chunk order.
// CHECK-LABEL: func.func @sum(
// CHECK: %[[TRIPS:.*]] = arith.ceildivsi
// CHECK: %[[MIN:.*]] = arith.constant 1000 : index
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %[[TRIPS]], %[[MIN]] : index
// CHECK: scf.if %[[BIG]] -> (f64) {
// CHECK: %[[PARTS:.*]] = memref.alloca() : memref<64xf64>
// CHECK: scf.parallel (%[[C:.*]]) =
// CHECK: %[[ID:.*]] = arith.constant -0.000000e+00 : f64
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ID]]) -> (f64) {
// CHECK: arith.addf {{.*}} fastmath<reassoc> : f64
// CHECK: memref.store %[[R]], %[[PARTS]][%[[C]]]
// CHECK: scf.reduce
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[INIT:.*]]) -> (f64) {
// CHECK: memref.load %[[PARTS]]
// CHECK: arith.addf {{.*}} fastmath<reassoc> : f64
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @sum(%x: memref<?xf64>, %init: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v fastmath<reassoc> : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// A max and an integer count in one loop: -inf and 0 start the chunks.
// CHECK-LABEL: func.func @max_and_count(
// CHECK: scf.parallel
// CHECK-DAG: arith.constant 0xFFF0000000000000 : f64
// CHECK-DAG: arith.constant 0 : i64
// CHECK: scf.for {{.*}} -> (f64, i64) {
// CHECK: arith.maximumf
// CHECK: arith.addi
func.func @max_and_count(%x: memref<?xf64>) -> (f64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i64
  %z = arith.constant 0 : i64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m, %k = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf, %cnt = %z) -> (f64, i64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    %c = arith.addi %cnt, %one : i64
    scf.yield %a, %c : f64, i64
  }
  return %m, %k : f64, i64
}

// Elementwise y[n-1-i] = exp(x[i]) between two arguments: the loop runs in
// parallel only when y's bytes do not overlap x's, checked at run time.
// CHECK-LABEL: func.func @reverse_map(
// CHECK-SAME: %[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>)
// CHECK: arith.cmpi sge
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: arith.andi
// CHECK: scf.if
// CHECK: scf.parallel
// CHECK: math.exp
// CHECK: memref.store {{.*}}, %[[Y]]
func.func @reverse_map(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %last = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %j = arith.subi %last, %i : index
    memref.store %e, %y[%j] : memref<?xf64>
  }
  return
}

// A sum kept in a memory cell (as reverse mode accumulates adjoints): the
// chunks carry it in a value; the cell gets the initial value plus the
// parts. The buffer allocated here needs no overlap check.
// CHECK-LABEL: func.func @cell(
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<f64>
// CHECK-NOT: extract_aligned_pointer
// CHECK: scf.parallel
// CHECK: scf.for {{.*}} -> (f64) {
// CHECK-NOT: memref.load %[[CELL]]
// CHECK: scf.yield
// CHECK: scf.reduce
// CHECK: memref.load %[[CELL]][]
// CHECK: scf.for
// CHECK: memref.store {{.*}}, %[[CELL]][]
func.func @cell(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %cell = memref.alloca() : memref<f64>
  memref.store %z, %cell[] : memref<f64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %old = memref.load %cell[] : memref<f64>
    %new = arith.addf %old, %v fastmath<fast> : f64
    memref.store %new, %cell[] : memref<f64>
  }
  %r = memref.load %cell[] : memref<f64>
  return %r : f64
}

// The outermost independent loop of a nest is the one made parallel.
// CHECK-LABEL: func.func @rows(
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @rows(%a: memref<?x?xf64>, %r: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      scf.yield %t : f64
    }
    memref.store %s, %r[%i] : memref<?xf64>
  }
  return
}

// Loops left alone: an ordered sum (no reassoc), a recurrence through
// memory, a store at an index that is not one-to-one in the induction
// variable, a call.
// CHECK-LABEL: func.func @ordered_sum(
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func @recurrence(
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func @halves(
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func @with_call(
// CHECK-NOT: scf.parallel
// CHECK-LABEL: func.func private @f(
func.func @ordered_sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %s : f64
}
func.func @recurrence(%x: memref<?xf64>) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c1 : memref<?xf64>
  scf.for %i = %c1 to %n step %c1 {
    %p = arith.subi %i, %c1 : index
    %v = memref.load %x[%p] : memref<?xf64>
    %w = math.sin %v : f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}
func.func @halves(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %h = arith.divui %i, %c2 : index
    memref.store %v, %y[%h] : memref<?xf64>
  }
  return
}
func.func @with_call(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = func.call @f(%v) : (f64) -> f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}
func.func private @f(f64) -> f64
