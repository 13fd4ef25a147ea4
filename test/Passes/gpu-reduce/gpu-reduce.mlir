// moon-gpu-reduce: a 1-D sum becomes a gpu.launch with grid-stride
// accumulation, gpu.all_reduce and one atomic add per block.
// RUN: moonc-opt --moon-gpu-reduce %s | FileCheck %s

// CHECK-LABEL: func.func @sum_exp(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[S:.*]]: memref<f32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]]
// CHECK: %[[UP:.*]] = arith.addi %[[N]], %c255
// CHECK: %[[B:.*]] = arith.divui %[[UP]], %c256
// CHECK: gpu.launch blocks({{.*}}) in ({{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK: %[[ACC:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[A:.*]] = %{{.*}}) -> (f32)
// CHECK:   %[[V:.*]] = memref.load %[[X]][%[[I]]]
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
