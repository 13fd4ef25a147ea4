// GradBench `kmeans` (evals/kmeans): the k-means cost of n points in d
// dimensions and k centroids, written as GradBench's reference C++ writes
// it (cpp/gradbench/evals/kmeans.hpp): per point, the minimum over the
// centroids (std::min) of a helper's squared distance, summed in order.
// `dir` is the Newton direction J / H of the cost in the centroids: the
// gradient J and the Hessian's diagonal H, both by moonc's AD.
//
// func.func @kmeans_cost(%points: memref<?x?xf64>,
//                        %centroids: memref<?x?xf64>) -> f64
//   %points: GradBench's `points` (n lists of d numbers), as is;
//   %centroids: its `centroids` (k lists of d numbers), as is. Returns the
//   cost (GradBench's `cost`).
// func.func @kmeans_dir(%points: memref<?x?xf64>,
//                       %centroids: memref<?x?xf64>, %dir: memref<?x?xf64>)
//   Writes GradBench's `dir` (k lists of d numbers) into %dir (k x d).
//   The Hessian of the cost in the centroids is diagonal (each distance
//   involves one centroid, and the minimum only selects), so its diagonal
//   is its product with a vector of ones: one forward-mode derivative of
//   the gradient (forward over reverse) in the direction 1 gives J and H
//   together.

!row = memref<?xf64, strided<[1], offset: ?>>

// The squared distance between a and b (GradBench's euclid_dist_2).
func.func private @euclid_dist_2(%a: !row, %b: !row) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %d = memref.dim %a, %c0 : !row
  %dist = scf.for %i = %c0 to %d step %c1 iter_args(%acc = %zero) -> f64 {
    %x = memref.load %a[%i] : !row
    %y = memref.load %b[%i] : !row
    %e = arith.subf %x, %y : f64
    %sq = arith.mulf %e, %e : f64
    %s = arith.addf %acc, %sq : f64
    scf.yield %s : f64
  }
  return %dist : f64
}

func.func @kmeans_cost(%points: memref<?x?xf64>, %centroids: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %inf = arith.constant 0x7FF0000000000000 : f64
  %n = memref.dim %points, %c0 : memref<?x?xf64>
  %d = memref.dim %points, %c1 : memref<?x?xf64>
  %k = memref.dim %centroids, %c0 : memref<?x?xf64>
  %cost = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %a = memref.subview %points[%i, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
    %closest = scf.for %j = %c0 to %k step %c1 iter_args(%best = %inf) -> f64 {
      %b = memref.subview %centroids[%j, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
      %dist = func.call @euclid_dist_2(%a, %b) : (!row, !row) -> f64
      // std::min(best, dist): dist when it is smaller, else best.
      %less = arith.cmpf olt, %dist, %best : f64
      %m = arith.select %less, %dist, %best : f64
      scf.yield %m : f64
    }
    %s = arith.addf %acc, %closest : f64
    scf.yield %s : f64
  }
  return %cost : f64
}

// The cost's gradient in the centroids, set into %J (k x d).
func.func private @kmeans_gradient(%points: memref<?x?xf64>, %centroids: memref<?x?xf64>,
                                   %J: memref<?x?xf64>) {
  %one = arith.constant 1.0 : f64
  %cost = moon.vjp @kmeans_cost(%points, %centroids, %J, %one) args [const, dup]
      {moon.overwrite_shadows}
      : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64) -> f64
  return
}

func.func @kmeans_dir(%points: memref<?x?xf64>, %centroids: memref<?x?xf64>,
                      %dir: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %k = memref.dim %centroids, %c0 : memref<?x?xf64>
  %d = memref.dim %centroids, %c1 : memref<?x?xf64>
  // J, and H = the derivative of J in the direction of all ones.
  %J = memref.alloc(%k, %d) : memref<?x?xf64>
  %H = memref.alloc(%k, %d) : memref<?x?xf64>
  %ones = memref.alloc(%k, %d) : memref<?x?xf64>
  linalg.fill ins(%one : f64) outs(%ones : memref<?x?xf64>)
  linalg.fill ins(%zero : f64) outs(%H : memref<?x?xf64>)
  moon.jvp @kmeans_gradient(%points, %centroids, %J, %ones, %H) args [const, dup, dup]
      : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
         memref<?x?xf64>) -> ()
  scf.for %j = %c0 to %k step %c1 {
    scf.for %l = %c0 to %d step %c1 {
      %g = memref.load %J[%j, %l] : memref<?x?xf64>
      %h = memref.load %H[%j, %l] : memref<?x?xf64>
      %q = arith.divf %g, %h : f64
      memref.store %q, %dir[%j, %l] : memref<?x?xf64>
    }
  }
  memref.dealloc %J : memref<?x?xf64>
  memref.dealloc %H : memref<?x?xf64>
  memref.dealloc %ones : memref<?x?xf64>
  return
}
