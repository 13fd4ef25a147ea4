// Vector mode: `moon.jvp ... width N` propagates N directions at once
// (`moonc check` only uses width 1). `moonc run` differentiates the
// wrappers below; the functions use exact arithmetic, so every lane is
// compared with its hand-derived value exactly.

// f(x, y): v <- v*y + x three times from v = x, so v = x(1 + y + y^2 + y^3),
// then f = x < 2 ? v*y : v. At (1, 2): v = 15, f = 30,
// df/dx = (1 + y + y^2 + y^3) y = 30, df/dy = x(1 + 2y + 3y^2) y + v = 49.
// Lanes: e_x, e_y, (1, -1); lane 3 repeats the direction of lane 1 in a
// width-1 call.
// RUN: moonc run %s --entry scalar_lanes --args '[1.0, 2.0]' | FileCheck %s --check-prefix=SCALAR
// SCALAR: {"results": [30.0, 30.0, 49.0, -19.0, 49.0], "args": [null, null]}
func.func private @poly_loop(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f64
  %v = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> f64 {
    %m = arith.mulf %acc, %y : f64
    %n = arith.addf %m, %x : f64
    scf.yield %n : f64
  }
  %lt = arith.cmpf olt, %x, %two : f64
  %r = scf.if %lt -> f64 {
    %p = arith.mulf %v, %y : f64
    scf.yield %p : f64
  } else {
    scf.yield %v : f64
  }
  return %r : f64
}

func.func @scalar_lanes(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %minus = arith.constant -1.0 : f64
  %dx = vector.from_elements %one, %zero, %one : vector<3xf64>
  %dy = vector.from_elements %zero, %one, %minus : vector<3xf64>
  %r, %dr = moon.jvp @poly_loop(%x, %y, %dx, %dy) width 3
      : (f64, f64, vector<3xf64>, vector<3xf64>) -> (f64, vector<3xf64>)
  %l0 = vector.extract %dr[0] : f64 from vector<3xf64>
  %l1 = vector.extract %dr[1] : f64 from vector<3xf64>
  %l2 = vector.extract %dr[2] : f64 from vector<3xf64>
  %r1, %d1 = moon.jvp @poly_loop(%x, %y, %zero, %one) : (f64, f64, f64, f64) -> (f64, f64)
  return %r, %l0, %l1, %l2, %d1 : f64, f64, f64, f64, f64
}

// g(a, s): through a subview of a[1..3), t = a * s in a scratch buffer,
// then a <- t * a; returns sum(a). At a = [1, 2, 3], s = 2: a becomes
// [1, 8, 18] and the sum is 27. The shadow memref<2x3xf64> holds one
// direction per row: lane 0 da = [1, 1, 1], ds = 0 gives
// da' = [1, 2*2*2, 2*3*2] = [1, 8, 12] and dsum = 21; lane 1 da = 0,
// ds = 1 gives da' = [0, 2^2, 3^2] = [0, 4, 9] and dsum = 13.
// RUN: moonc run %s --entry memref_lanes --args '[[1.0, 2.0, 3.0], 2.0, [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]' | FileCheck %s --check-prefix=MEMREF
// MEMREF: {"results": [27.0, 21.0, 13.0], "args": {{\[}}[1.0, 8.0, 18.0], null, {{\[}}[1.0, 8.0, 12.0], [0.0, 4.0, 9.0]]]}
func.func private @square_tail(%a: memref<3xf64>, %s: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %tail = memref.subview %a[1] [2] [1] : memref<3xf64> to memref<2xf64, strided<[1], offset: 1>>
  %t = memref.alloc() : memref<2xf64>
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %tail[%i] : memref<2xf64, strided<[1], offset: 1>>
    %p = arith.mulf %v, %s : f64
    memref.store %p, %t[%i] : memref<2xf64>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %u = memref.load %t[%i] : memref<2xf64>
    %v = memref.load %tail[%i] : memref<2xf64, strided<[1], offset: 1>>
    %p = arith.mulf %u, %v : f64
    memref.store %p, %tail[%i] : memref<2xf64, strided<[1], offset: 1>>
  }
  memref.dealloc %t : memref<2xf64>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %a[%i] : memref<3xf64>
    %n = arith.addf %acc, %v : f64
    scf.yield %n : f64
  }
  return %r : f64
}

func.func @memref_lanes(%a: memref<3xf64>, %s: f64, %da: memref<2x3xf64>) -> (f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %ds = vector.from_elements %zero, %one : vector<2xf64>
  %r, %dr = moon.jvp @square_tail(%a, %s, %da, %ds) width 2
      : (memref<3xf64>, f64, memref<2x3xf64>, vector<2xf64>) -> (f64, vector<2xf64>)
  %l0 = vector.extract %dr[0] : f64 from vector<2xf64>
  %l1 = vector.extract %dr[1] : f64 from vector<2xf64>
  return %r, %l0, %l1 : f64, f64, f64
}
