// RUN: moonc-opt --moon-vmap %s | FileCheck %s

// A batched scalar and a shared one: one loop over the batch, f's body
// inlined, the result stored into a buffer allocated before the loop.
// CHECK-LABEL: func.func @scalars(
// CHECK-SAME: %[[XS:.*]]: memref<?xf64>, %[[W:.*]]: f64)
// CHECK: %[[N:.*]] = memref.dim %[[XS]], %{{.*}} : memref<?xf64>
// CHECK: %[[YS:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: scf.for %[[B:.*]] = %{{.*}} to %[[N]] step
// CHECK-NEXT: %[[X:.*]] = memref.load %[[XS]][%[[B]]]
// CHECK-NEXT: %[[S:.*]] = math.sin %[[X]]
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[S]], %[[W]]
// CHECK-NEXT: memref.store %[[Y]], %[[YS]][%[[B]]]
// CHECK-NOT: moon.vmap
// CHECK: return %[[YS]]
func.func @f(%x: f64, %w: f64) -> f64 {
  %s = math.sin %x : f64
  %y = arith.mulf %s, %w : f64
  return %y : f64
}
func.func @scalars(%xs: memref<?xf64>, %w: f64) -> memref<?xf64> {
  %ys = moon.vmap @f(%xs, %w) in_axes [0, none] out_axes [0] : (memref<?xf64>, f64) -> memref<?xf64>
  return %ys : memref<?xf64>
}

// A memref batched along axis 1, used only by loads and stores: the body
// takes the column, a strided view, as it is (from a copy of @scale whose
// argument has the strided type).
// CHECK-LABEL: func.func @columns(
// CHECK-SAME: %[[MS:.*]]: memref<2x?xf64>)
// CHECK-NOT: memref.alloc() : memref<2xf64>
// CHECK: scf.for %[[B:.*]] =
// CHECK: %[[COL:.*]] = memref.subview %[[MS]][%{{.*}}, %[[B]]] [2, 1] [%{{.*}}, %{{.*}}] : memref<2x?xf64> to memref<2xf64, strided<[?], offset: ?>>
// CHECK: memref.load %[[COL]]
// CHECK: memref.store %{{.*}}, %[[COL]]
func.func @scale(%m: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.load %m[%c0] : memref<2xf64>
  %d = arith.addf %a, %a : f64
  memref.store %d, %m[%c0] : memref<2xf64>
  return %d : f64
}
func.func @columns(%ms: memref<2x?xf64>) -> memref<?xf64> {
  %r = moon.vmap @scale(%ms) in_axes [1] out_axes [0] : (memref<2x?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}

// The argument reaches a call inside a loop: the callee gets a copy that
// takes the strided view.
// CHECK-LABEL: func.func private @inner_strided(
// CHECK-SAME: memref<2xf64, strided<[?], offset: ?>>
// CHECK-LABEL: func.func @nested_call(
// CHECK-NOT: memref.alloc() : memref<2xf64>
// CHECK: func.call @inner_strided(
func.func @inner(%m: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %a = memref.load %m[%c0] : memref<2xf64>
  return %a : f64
}
func.func @sum_inner(%m: memref<2xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = func.call @inner(%m) : (memref<2xf64>) -> f64
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %s : f64
}
func.func @nested_call(%ms: memref<?x2xf64>, %n: index) -> memref<?xf64> {
  %r = moon.vmap @sum_inner(%ms, %n) in_axes [0, none] out_axes [0] : (memref<?x2xf64>, index) -> memref<?xf64>
  return %r : memref<?xf64>
}

// The argument goes to a view, whose type depends on the layout: each
// column is copied into a buffer of the argument's type before the body
// and back after it (the body writes it).
// CHECK-LABEL: func.func @copied(
// CHECK-SAME: %[[MS:.*]]: memref<2x?xf64>)
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<2xf64>
// CHECK: scf.for %[[B:.*]] =
// CHECK: %[[COL:.*]] = memref.subview %[[MS]][%{{.*}}, %[[B]]]
// CHECK: scf.for %[[I:.*]] =
// CHECK-NEXT: %[[E:.*]] = memref.load %[[COL]][%[[I]]]
// CHECK-NEXT: memref.store %[[E]], %[[BUF]][%[[I]]]
// CHECK: memref.subview %[[BUF]]
// CHECK: scf.for %[[J:.*]] =
// CHECK-NEXT: %[[F:.*]] = memref.load %[[BUF]][%[[J]]]
// CHECK-NEXT: memref.store %[[F]], %[[COL]][%[[J]]]
// CHECK: memref.dealloc %[[BUF]]
func.func @scale_first(%m: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %first = memref.subview %m[0] [1] [1] : memref<2xf64> to memref<1xf64, strided<[1]>>
  %a = memref.load %first[%c0] : memref<1xf64, strided<[1]>>
  %d = arith.addf %a, %a : f64
  memref.store %d, %first[%c0] : memref<1xf64, strided<[1]>>
  return %d : f64
}
func.func @copied(%ms: memref<2x?xf64>) -> memref<?xf64> {
  %r = moon.vmap @scale_first(%ms) in_axes [1] out_axes [0] : (memref<2x?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}

// Several blocks: the body goes into an scf.execute_region.
// CHECK-LABEL: func.func @blocks(
// CHECK: scf.for
// CHECK: %[[R:.*]] = scf.execute_region -> f64 {
// CHECK: cf.cond_br
// CHECK: scf.yield
// CHECK: memref.store %[[R]]
func.func @absolute(%x: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %neg = arith.cmpf olt, %x, %z : f64
  cf.cond_br %neg, ^bb1, ^bb2(%x : f64)
^bb1:
  %n = arith.negf %x : f64
  cf.br ^bb2(%n : f64)
^bb2(%a: f64):
  return %a : f64
}
func.func @blocks(%xs: memref<?xf64>) -> memref<?xf64> {
  %r = moon.vmap @absolute(%xs) : (memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}
