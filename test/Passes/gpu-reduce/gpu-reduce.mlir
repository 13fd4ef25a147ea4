// moon-gpu-reduce: a sum becomes a gpu.launch with grid-stride
// accumulation (four iterations at a time, loads first), gpu.all_reduce and
// one atomic add per block.
// RUN: moonc-opt --moon-gpu-reduce %s | FileCheck %s

// CHECK-LABEL: func.func @sum_exp(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[S:.*]]: memref<f32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[UP:.*]] = arith.addi %[[N]], %c255
// CHECK: %[[B:.*]] = arith.divui %[[UP]], %c256
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BD:.*]] = %c256
// CHECK: %[[B0:.*]] = arith.muli %[[BX]], %[[BD]]
// CHECK: %[[FIRST:.*]] = arith.addi %[[B0]], %[[TX]]
// CHECK: %[[STRIDE:.*]] = arith.muli %[[GX]], %[[BD]]
// Four iterations at a time, their loads first:
// CHECK: %[[MAIN:.*]]:2 = scf.for %[[I:.*]] = %[[FIRST]] to %{{.*}} step %{{.*}} iter_args(%[[A4:.*]] = %{{.*}}, %{{.*}} = %[[FIRST]]) -> (f32, index)
// CHECK:   memref.load %[[X]][%[[I]]]
// CHECK-COUNT-3: memref.load %[[X]]
// CHECK-NOT: memref.load
// CHECK:   math.exp
// CHECK:   arith.addf %[[A4]]
// CHECK: scf.yield
// Then one at a time:
// CHECK: %[[ACC:.*]] = scf.for %[[J:.*]] = %[[MAIN]]#1 to %[[N]] step %[[STRIDE]] iter_args(%[[A:.*]] = %[[MAIN]]#0) -> (f32)
// CHECK:   %[[V:.*]] = memref.load %[[X]][%[[J]]]
// CHECK:   %[[E:.*]] = math.exp %[[V]]
// CHECK:   %[[NEXT:.*]] = arith.addf %[[A]], %[[E]]
// CHECK:   scf.yield %[[NEXT]]
// CHECK: %[[SUM:.*]] = gpu.all_reduce add %[[ACC]] uniform
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TX]]
// CHECK: scf.if %[[FIRST]]
// CHECK:   memref.atomic_rmw addf %[[SUM]], %[[S]][]
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @sum_exp(%x: memref<?xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r : f32
  }
  return
}

// A rank-0 input is loaded before the launch; an output written per
// element is stored by the thread that computes it.
// CHECK-LABEL: func.func @sum_and_store(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?xf32>, %[[C:[a-z0-9_]+]]: memref<f32>, %[[S:[a-z0-9_]+]]: memref<f32>, %[[D:[a-z0-9_]+]]: memref<?xf32>)
// CHECK: %[[SCALE:.*]] = memref.load %[[C]][]
// CHECK: gpu.launch
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32)
// CHECK:   %[[V:.*]] = memref.load %[[X]][%[[I]]]
// CHECK:   %[[E:.*]] = math.exp %[[V]]
// CHECK:   %[[G:.*]] = arith.mulf %[[SCALE]], %[[E]]
// CHECK:   memref.store %[[G]], %[[D]][%[[I]]]
// CHECK:   arith.addf %[[A]], %[[E]]
// CHECK: gpu.all_reduce add
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[S]][]
// CHECK-NOT: linalg.generic
func.func @sum_and_store(%x: memref<?xf32>, %c: memref<f32>, %s: memref<f32>, %d: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #scalar, #scalar, #id], iterator_types = ["reduction"]}
      ins(%x, %c : memref<?xf32>, memref<f32>) outs(%s, %d : memref<f32>, memref<?xf32>) {
  ^bb0(%a: f32, %k: f32, %acc: f32, %unused: f32):
    %e = math.exp %a : f32
    %g = arith.mulf %k, %e : f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r, %g : f32, f32
  }
  return
}

// Two loops: a block per row (grid-stride over the rows), its threads
// along the row; x is read at the column, w and the partials at both.
// CHECK-LABEL: func.func @sum_2d(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?xf32>, %[[W:[a-z0-9_]+]]: memref<?x?xf32>, %[[S:[a-z0-9_]+]]: memref<f32>, %[[P:[a-z0-9_]+]]: memref<?x?xf32>)
// CHECK: %[[M:.*]] = memref.dim %[[W]], %c0
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%[[GX:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[BD:.*]] = %c256
// CHECK: scf.for %[[I:.*]] = %[[BX]] to %[[M]] step %[[GX]]
// CHECK:   scf.for %[[J:.*]] = %[[TX]] to %{{.*}} step %{{.*}} iter_args({{.*}}) -> (f32, index)
// CHECK-NOT:   memref.load %[[S]]
// CHECK:     memref.load %[[X]][%[[J]]]
// CHECK:     memref.load %[[W]][%[[I]], %[[J]]]
// CHECK:     memref.store %{{.*}}, %[[P]][%[[I]], %[[J]]]
// CHECK: gpu.all_reduce add
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[S]][]
#col = affine_map<(i, j) -> (j)>
#id2 = affine_map<(i, j) -> (i, j)>
#all2 = affine_map<(i, j) -> ()>
func.func @sum_2d(%x: memref<?xf32>, %w: memref<?x?xf32>, %s: memref<f32>, %p: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#col, #id2, #all2, #id2], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : memref<?xf32>, memref<?x?xf32>) outs(%s, %p : memref<f32>, memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32, %unused: f32):
    %e = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %e : f32
    linalg.yield %r, %e : f32, f32
  }
  return
}

// Kept (for moon-reductions-to-atomics): an output written once per row
// is not one element per iteration.
// CHECK-LABEL: func.func @per_row(
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
#row = affine_map<(i, j) -> (i)>
func.func @per_row(%w: memref<?x?xf32>, %s: memref<f32>, %r: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id2, #all2, #row], iterator_types = ["reduction", "reduction"]}
      ins(%w : memref<?x?xf32>) outs(%s, %r : memref<f32>, memref<?xf32>) {
  ^bb0(%b: f32, %acc: f32, %unused: f32):
    %t = arith.addf %acc, %b : f32
    linalg.yield %t, %b : f32, f32
  }
  return
}

// Three loops: the rows are the first two, recovered from the row number.
// CHECK-LABEL: func.func @sum_3d(
// CHECK-SAME: %[[W:[a-z0-9_]+]]: memref<?x?x?xf32>
// CHECK: %[[D1:.*]] = memref.dim %[[W]], %c1
// CHECK: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:   %[[J:.*]] = arith.remui %[[R]], %[[D1]]
// CHECK:   %[[I:.*]] = arith.divui %[[R]], %[[D1]]
// CHECK:   scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     memref.load %[[W]][%[[I]], %[[J]], %[[K]]]
#id3 = affine_map<(i, j, k) -> (i, j, k)>
#all3 = affine_map<(i, j, k) -> ()>
func.func @sum_3d(%w: memref<?x?x?xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id3, #all3], iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%w : memref<?x?x?xf32>) outs(%s : memref<f32>) {
  ^bb0(%b: f32, %acc: f32):
    %t = arith.addf %acc, %b : f32
    linalg.yield %t : f32
  }
  return
}
