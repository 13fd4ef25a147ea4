// Selections recomputed (compiler/moonc-autodiff/src/recompute_selected.rs)
// under moonc check: the k-means cost (per point, the squared distance to
// the nearest centroid, a helper's loop; summed), whose derivatives
// differentiate only the kept distance, and a minimum that keeps its
// initial value (no distance below it: the derivative is 0).
// RUN: moonc check %s --entry cost --args '[[[0.1, 0.2], [0.9, 0.4], [0.5, 0.5], [0.3, 0.8]], [[0.2, 0.3], [0.7, 0.6]]]' | FileCheck %s
// RUN: moonc check %s --entry cost | FileCheck %s
// RUN: moonc check %s --entry capped --args '[[[0.1, 0.2], [0.9, 0.4]], [[0.2, 0.3], [0.7, 0.6]]]' | FileCheck %s
// CHECK: check: PASS
// Point 0 is nearest centroid 0 (distance 0.02), points 1, 2 and 3 centroid
// 1 (0.08, 0.05 and 0.2): the cost is 0.35, and the gradient in centroid c
// is the sum over its points of 2 (c - p): (0.2, 0.2) and (0.8, 0.2).
// RUN: moonc grad %s --entry cost --wrt 1 --args '[[[0.1, 0.2], [0.9, 0.4], [0.5, 0.5], [0.3, 0.8]], [[0.2, 0.3], [0.7, 0.6]]]' | FileCheck %s --check-prefix=GRAD
// GRAD: {"value": 0.35, "gradient": [null, {{\[\[}}{{0\.2|0\.19999999999999[0-9]*}}, {{0\.2|0\.19999999999999[0-9]*}}], [{{0\.8|0\.79999999999999[0-9]*}}, {{0\.2|0\.19999999999999[0-9]*}}]]]}
// The cap 0.01 is below every distance: the minimum is the cap.
// RUN: moonc grad %s --entry capped --wrt 1 --args '[[[0.1, 0.2], [0.9, 0.4]], [[0.2, 0.3], [0.7, 0.6]]]' | FileCheck %s --check-prefix=CAPPED
// CAPPED: {"value": 0.02, "gradient": [null, {{\[\[}}0.0, 0.0], [0.0, 0.0]]]}

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

// Per point, the minimum over the centroids of the distance, from `start`.
func.func private @total(%points: memref<?x?xf64>, %centroids: memref<?x?xf64>, %start: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %points, %c0 : memref<?x?xf64>
  %d = memref.dim %points, %c1 : memref<?x?xf64>
  %k = memref.dim %centroids, %c0 : memref<?x?xf64>
  %cost = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %a = memref.subview %points[%i, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
    %closest = scf.for %j = %c0 to %k step %c1 iter_args(%best = %start) -> f64 {
      %b = memref.subview %centroids[%j, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
      %dist = func.call @dist2(%a, %b) : (!row, !row) -> f64
      %less = arith.cmpf olt, %dist, %best : f64
      %m = arith.select %less, %dist, %best : f64
      scf.yield %m : f64
    }
    %s = arith.addf %acc, %closest : f64
    scf.yield %s : f64
  }
  return %cost : f64
}

func.func @cost(%points: memref<4x2xf64>, %centroids: memref<2x2xf64>) -> f64 {
  %p = memref.cast %points : memref<4x2xf64> to memref<?x?xf64>
  %c = memref.cast %centroids : memref<2x2xf64> to memref<?x?xf64>
  %inf = arith.constant 0x7FF0000000000000 : f64
  %r = func.call @total(%p, %c, %inf) : (memref<?x?xf64>, memref<?x?xf64>, f64) -> f64
  return %r : f64
}

func.func @capped(%points: memref<2x2xf64>, %centroids: memref<2x2xf64>) -> f64 {
  %p = memref.cast %points : memref<2x2xf64> to memref<?x?xf64>
  %c = memref.cast %centroids : memref<2x2xf64> to memref<?x?xf64>
  %cap = arith.constant 0.01 : f64
  %r = func.call @total(%p, %c, %cap) : (memref<?x?xf64>, memref<?x?xf64>, f64) -> f64
  return %r : f64
}
