// RUN: moonc-opt --moon-share-sincos %s | FileCheck %s

// sin and cos of exp(x[i]), the sine stored into another argument: the
// loop is versioned on the range of x[0:n] (a min/max sweep over the loop's
// range, exp of both ends) and on y's bytes not overlapping x's; the fast
// copy computes the pair with the inline kernel, the other copy is the
// original loop.
// CHECK-LABEL: func.func @exp_chain(
// CHECK-SAME: %[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>)
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: scf.for {{.*}} to %[[N]] step {{.*}} -> (i64, i64) {
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: math.exp
// CHECK: arith.cmpf ole
// CHECK: math.exp
// CHECK: arith.cmpf ole
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: arith.andi
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load %[[X]]
// CHECK-NEXT: %[[E:.*]] = math.exp
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK: math.fma %[[E]]
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK: memref.store {{.*}}, %[[Y]]
// CHECK: } else {
// CHECK-NEXT: scf.for
// CHECK-NEXT: memref.load %[[X]]
// CHECK-NEXT: %[[E2:.*]] = math.exp
// CHECK-NEXT: math.cos %[[E2]]
// CHECK-NEXT: math.sin %[[E2]]
func.func @exp_chain(%x: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %d = math.sin %e : f64
    memref.store %d, %y[%i] : memref<?xf64>
    %a = arith.addf %acc, %c : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// sin and cos of the loaded values of a 2-D buffer, in a while loop that
// stores into a buffer of its own: the sweep bounds |x| only (one carried
// key per loop of the nest) over the whole buffer, and there is no overlap
// check.
// CHECK-LABEL: func.func @loaded_2d(
// CHECK: memref.dim
// CHECK: memref.dim
// CHECK: scf.for {{.*}} -> (i64) {
// CHECK-NEXT: scf.for {{.*}} -> (i64) {
// CHECK-NOT: extract_aligned_pointer
// CHECK: scf.if
// CHECK-NEXT: scf.while
// CHECK-NOT: math.sin
// CHECK: } else {
// CHECK-NEXT: scf.while
// CHECK: math.sin
// CHECK: math.cos
func.func @loaded_2d(%x: memref<?x?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %buf = memref.alloc(%n) : memref<?xf64>
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j, %c0] : memref<?x?xf64>
    %s = math.sin %v : f64
    %c = math.cos %v : f64
    memref.store %s, %buf[%j] : memref<?xf64>
    %b = arith.addf %a, %c : f64
    %next = arith.addi %j, %c1 : index
    scf.yield %next, %b : index, f64
  }
  memref.dealloc %buf : memref<?xf64>
  return %r#1 : f64
}

// A store through a view made in the loop: the viewed argument is checked
// for overlap with x.
// CHECK-LABEL: func.func @view_in_loop(
// CHECK-SAME: %[[X:.*]]: memref<?xf64>, %[[Y:.*]]: memref<?xf64>)
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]]
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: scf.if
func.func @view_in_loop(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = math.cos %v : f64
    %d = math.sin %v : f64
    %e = arith.mulf %c, %d : f64
    %cell = memref.subview %y[%i] [1] [1] : memref<?xf64> to memref<1xf64, strided<[1], offset: ?>>
    memref.store %e, %cell[%c0] : memref<1xf64, strided<[1], offset: ?>>
  }
  return
}

// sin and cos of a cosine (within [-1, 1]), even in a loop that writes an
// argument in place: the kernel in place, no versioning; the outer cosine
// of a loaded value has no sine beside it and stays.
// CHECK-LABEL: func.func @of_a_cosine(
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK: %[[C:.*]] = math.cos
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK: math.fma %[[C]]
// CHECK-NOT: math.sin
// CHECK-NOT: math.cos
// CHECK: memref.store
// CHECK: return
func.func @of_a_cosine(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = math.cos %v : f64
    %s = math.sin %c : f64
    %k = math.cos %c : f64
    %p = arith.mulf %s, %k : f64
    memref.store %p, %x[%i] : memref<?xf64>
  }
  return
}

// Not monotone (x * x), in-place writes, a call, f32: left alone.
// CHECK-LABEL: func.func @square(
// CHECK-NOT: scf.if
// CHECK: math.cos
// CHECK-NEXT: math.sin
// CHECK-LABEL: func.func @in_place(
// CHECK-NOT: scf.if
// CHECK: math.cos
// CHECK-NEXT: math.sin
// CHECK-LABEL: func.func @calls(
// CHECK-NOT: scf.if
// CHECK: math.cos
// CHECK-NEXT: math.sin
// CHECK-LABEL: func.func @single(
// CHECK-NOT: scf.if
// CHECK: math.cos
// CHECK-NEXT: math.sin
// CHECK: return
func.func @square(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    %c = math.cos %w : f64
    %d = math.sin %w : f64
    %e = arith.addf %c, %d : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  return %s : f64
}
func.func @in_place(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = math.cos %v : f64
    %d = math.sin %v : f64
    %e = arith.addf %c, %d : f64
    %sub = memref.subview %x[0] [1] [1] : memref<?xf64> to memref<1xf64, strided<[1]>>
    memref.store %e, %sub[%c0] : memref<1xf64, strided<[1]>>
  }
  return
}
func.func private @log(f64)
func.func @calls(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = math.cos %v : f64
    %d = math.sin %v : f64
    %e = arith.addf %c, %d : f64
    func.call @log(%e) : (f64) -> ()
  }
  return
}
func.func @single(%x: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    %c = math.cos %v : f32
    %d = math.sin %v : f32
    %e = arith.addf %c, %d : f32
    %a = arith.addf %acc, %e : f32
    scf.yield %a : f32
  }
  return %s : f32
}
