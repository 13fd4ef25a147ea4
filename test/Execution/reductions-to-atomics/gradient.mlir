// The gradient of sum_ij (x_j w_ij)^3 (a broadcast input, so reverse mode
// sums dx over i) computed with and without --moon-reductions-to-atomics,
// which turns the primal-and-partials generic and dx's sum into parallel
// loops with atomic adds. The inputs are small dyadic numbers, so every sum
// is exact in any order and the results must be the same, bit for bit.
//
// DEFINE: %{args} = '[[0.5, -1, 0.25], [[1, 2, 3], [-1, 0.5, 2]], [0, 0, 0], [[0, 0, 0], [0, 0, 0]]]'
// RUN: moonc-opt %s --moon-autodiff -o %t.plain.mlir
// RUN: moonc-opt %s --moon-autodiff --moon-reductions-to-atomics -o %t.atomic.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.atomic.mlir
// RUN: moonc run %t.plain.mlir --entry g --args %{args} > %t.plain.json
// RUN: moonc run %t.atomic.mlir --entry g --args %{args} > %t.atomic.json
// RUN: diff %t.plain.json %t.atomic.json
// RUN: FileCheck %s < %t.atomic.json
// IR-LABEL: func.func private @f_vjp
// IR: memref.atomic_rmw addf
// IR: memref.atomic_rmw addf %{{.*}}, %arg2[
// x = [0.5, -1, 0.25], w = [[1, 2, 3], [-1, 0.5, 2]]: the sum is
// 0.125 - 8 + 0.421875 - 0.125 - 0.125 + 0.125 = -7.578125, and
// dx_j = sum_i 3 x_j^2 w_ij^3.
// CHECK: {"results": [-7.578125], "args": [{{.*}}, {{.*}}, [0.0, 24.375, 6.5625], [{{.*}}]]}

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all = affine_map<(i, j) -> ()>
func.func @f(%x: memref<3xf32>, %w: memref<2x3xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#col, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : memref<3xf32>, memref<2x3xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    %q = arith.mulf %p, %p : f32
    %c = arith.mulf %q, %p : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}
func.func @g(%x: memref<3xf32>, %w: memref<2x3xf32>, %dx: memref<3xf32>, %dw: memref<2x3xf32>) -> f32 {
  %r = moon.value_and_grad @f(%x, %w, %dx, %dw) : (memref<3xf32>, memref<2x3xf32>, memref<3xf32>, memref<2x3xf32>) -> f32
  return %r : f32
}
