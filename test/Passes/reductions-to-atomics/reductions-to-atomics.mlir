// RUN: moonc-opt %s --moon-reductions-to-atomics | FileCheck %s
// RUN: moonc-opt %s --moon-reductions-to-atomics | moonc-opt > /dev/null

#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
#id2 = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#first = affine_map<(i) -> (0)>

// A full sum: one atomic add per element into the rank-0 output.
// CHECK-LABEL: func.func @sum
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step
// CHECK:   %[[X:.*]] = memref.load %arg0[%[[I]]]
// CHECK:   %[[C:.*]] = math.cos %[[X]]
// CHECK:   memref.atomic_rmw addf %[[C]], %arg1[] : (f32, memref<f32>) -> f32
// CHECK:   scf.reduce
// CHECK-NOT: linalg.generic
func.func @sum(%x: memref<?xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %c = math.cos %a : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  return
}

// The adjoint of a broadcast input (reverse mode's form): a sum over i
// into each x[j], so the iterations (i, j) add atomically to dx[j]; and an
// output indexed by both loops, which each iteration owns, stored plainly.
// CHECK-LABEL: func.func @broadcast_adjoint
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK:   %[[G:.*]] = memref.load %arg0[%[[I]], %[[J]]]
// CHECK:   %[[T:.*]] = arith.mulf %[[G]], %[[G]]
// CHECK:   memref.atomic_rmw addf %{{.*}}, %arg1[%[[J]]]
// CHECK:   memref.store %[[T]], %arg2[%[[I]], %[[J]]]
func.func @broadcast_adjoint(%g: memref<?x?xf32>, %dx: memref<?xf32>, %sq: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["reduction", "parallel"]}
      ins(%g : memref<?x?xf32>) outs(%dx, %sq : memref<?xf32>, memref<?x?xf32>) {
  ^bb0(%a: f32, %o: f32, %q: f32):
    %t = arith.mulf %a, %a : f32
    %s = arith.addf %a, %o : f32
    linalg.yield %s, %t : f32, f32
  }
  return
}

// Left alone: no reduction loop; a maximum, not a sum; the output read
// again; an integer sum; a map that is not a projected permutation.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: scf.parallel
// CHECK-COUNT-5: linalg.generic
func.func @untouched(%x: memref<?xf32>, %y: memref<?xf32>, %acc: memref<f32>, %xi: memref<?xi32>, %acci: memref<i32>, %m: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = math.cos %a : f32
    linalg.yield %c : f32
  }
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.maximumf %o, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.mulf %o, %a : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%xi : memref<?xi32>) outs(%acci : memref<i32>) {
  ^bb0(%a: i32, %o: i32):
    %s = arith.addi %o, %a : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [#id, #first, #all], iterator_types = ["reduction"]}
      ins(%x, %x : memref<?xf32>, memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}
