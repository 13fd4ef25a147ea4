// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// A loop that keeps the minimum of values it computes (k-means' nearest
// centroid: a helper's squared distance, inlined) carries the kept
// iteration's index too, from the upper bound ("none"); after it, the kept
// distance is computed once more from that index (the initial value when
// none was kept). The loop's own minimum is then only compared, so it is
// not active: reverse mode tapes nothing per iteration and reverses one
// distance, forward mode carries no tangent through the loop.
// CHECK-LABEL: func.func private @nearest_jvp_cd_a(
// CHECK: scf.for %{{.*}} iter_args(%{{[^ ]*}} = %{{.*}}, %{{[^ ]*}} = %{{.*}}) -> (f64, index) {
// CHECK: scf.for %{{.*}} iter_args(%{{[^ ]*}} = %{{.*}}) -> (f64) {
// CHECK: scf.if %{{.*}} -> (f64, f64) {
// CHECK: scf.for %{{.*}} -> (f64, f64) {
// CHECK-LABEL: func.func private @nearest_vjp_cd_n(
// CHECK-SAME: %{{[^:]*}}: memref<?xf64>, %[[C:[^:]*]]: memref<?x?xf64>, %[[DC:[^:]*]]: memref<?x?xf64>, %{{[^:]*}}: f64)
// CHECK-NOT: moonrt_tape
// CHECK: %[[K:.*]] = memref.dim %[[C]], %{{.*}} : memref<?x?xf64>
// CHECK: %[[L:.*]]:2 = scf.for %[[J:[^ ]*]] = %{{.*}} to %[[K]] step %{{.*}} iter_args(%[[BEST:[^ ]*]] = %{{.*}}, %[[AT:[^ ]*]] = %[[K]]) -> (f64, index) {
// CHECK: %[[LESS:.*]] = arith.cmpf olt, %{{.*}}, %[[BEST]] : f64
// CHECK: %[[KEPT:.*]] = arith.select %[[LESS]], %[[J]], %[[AT]] : index
// CHECK: scf.yield %{{.*}}, %[[KEPT]] : f64, index
// CHECK: %[[FOUND:.*]] = arith.cmpi ne, %[[L]]#1, %[[K]] : index
// CHECK: scf.if %[[FOUND]] -> (f64) {
// CHECK: memref.subview %[[C]][%[[L]]#1, 0]
// CHECK: scf.for
// CHECK: scf.if %[[FOUND]] {
// CHECK: memref.subview %[[DC]][%[[L]]#1, 0]
// CHECK: scf.for
// CHECK: memref.store
// CHECK: } {moon.reverse}
// CHECK-NOT: scf.for
// CHECK: return

!row = memref<?xf64, strided<[1], offset: ?>>
func.func private @dist2(%a: !row, %b: !row) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %d = memref.dim %a, %c0 : !row
  %s = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : !row
    %y = memref.load %b[%i] : !row
    %e = arith.subf %x, %y : f64
    %q = arith.mulf %e, %e : f64
    %t = arith.addf %acc, %q : f64
    scf.yield %t : f64
  }
  return %s : f64
}
func.func @nearest(%p: memref<?xf64>, %c: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %inf = arith.constant 0x7FF0000000000000 : f64
  %d = memref.dim %p, %c0 : memref<?xf64>
  %k = memref.dim %c, %c0 : memref<?x?xf64>
  %a = memref.cast %p : memref<?xf64> to !row
  %m = scf.for %j = %c0 to %k step %c1 iter_args(%best = %inf) -> f64 {
    %b = memref.subview %c[%j, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
    %e = func.call @dist2(%a, %b) : (!row, !row) -> f64
    %less = arith.cmpf olt, %e, %best : f64
    %n = arith.select %less, %e, %best : f64
    scf.yield %n : f64
  }
  return %m : f64
}
func.func @grad(%p: memref<?xf64>, %c: memref<?x?xf64>, %dc: memref<?x?xf64>) {
  moon.grad @nearest(%p, %c, %dc) args [const, dup] : (memref<?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  return
}
func.func @tangent(%p: memref<?xf64>, %c: memref<?x?xf64>, %dc: memref<?x?xf64>) -> f64 {
  %v, %dv = moon.jvp @nearest(%p, %c, %dc) args [const, dup] : (memref<?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> (f64, f64)
  return %dv : f64
}

// -----

// Left alone: a kept element that is a plain load (select_loop.rs records
// its index without recomputing), a loop that writes memory, and a
// computed element that depends on another carried value.
// CHECK-LABEL: func.func private @plain_vjp_d_n(
// CHECK-NOT: -> (f64, index)
// CHECK: return
// CHECK-LABEL: func.func private @writes_vjp_dd_n(
// CHECK-NOT: -> (f64, index)
// CHECK: return
// CHECK-LABEL: func.func private @carried_vjp_d_n(
// CHECK-NOT: -> (f64, f64, index)
// CHECK: return
func.func @plain(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%best = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %more = arith.cmpf ogt, %v, %best : f64
    %s = arith.select %more, %v, %best : f64
    scf.yield %s : f64
  }
  return %m : f64
}
func.func @writes(%x: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%best = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %y[%i] : memref<?xf64>
    %more = arith.cmpf ogt, %e, %best : f64
    %s = arith.select %more, %e, %best : f64
    scf.yield %s : f64
  }
  return %m : f64
}
func.func @carried(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m:2 = scf.for %i = %c1 to %n step %c1 iter_args(%best = %x0, %sum = %x0) -> (f64, f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %t = arith.addf %sum, %v : f64
    %more = arith.cmpf ogt, %t, %best : f64
    %s = arith.select %more, %t, %best : f64
    scf.yield %s, %t : f64, f64
  }
  return %m#0 : f64
}
func.func @grads(%x: memref<?xf64>, %dx: memref<?xf64>, %y: memref<?xf64>, %dy: memref<?xf64>) {
  moon.grad @plain(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> ()
  moon.grad @writes(%x, %dx, %y, %dy) : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  moon.grad @carried(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> ()
  return
}
