// Differentiated kernels: the gradient of sum_ij cos(exp(x_j) w_ij) (x
// broadcast over the rows) through --moon-autodiff, then moon-gpu-pipeline.
// Reverse mode makes three generics (the primal fused with its partials, dx
// as a sum over the rows, dw elementwise); each becomes a kernel:
// - the primal and partials (moon-gpu-reduce): each partial stored by the
//   thread that owns it, the sum by a block reduction (shuffles) and one
//   atomic add per block;
// - dx: threads of different rows add to the same dx[j], so atomically;
// - dw: each thread owns its dw[i, j], so plain loads and stores.
// The PTX is self-contained: the exp and cos are polynomials, no __nv_ call.
//
// RUN: moonc-opt %s --moon-autodiff --moon-gpu-pipeline | FileCheck %s
// The host's own buffers that kernels touch (the rank-0 accumulators, the
// partials) are host-shared allocations (moon-gpu-alloc), freed after use:
// RUN: moonc compile %s --gpu --emit llvm -o - | FileCheck %s --check-prefix=HOST
// HOST: call ptr @mgpuMemAlloc(i64 4, ptr null, i8 1)
// HOST: call void @mgpuLaunchKernel(
// HOST: call void @mgpuMemFree(
// CHECK-LABEL: llvm.func @f_vjp
// CHECK-COUNT-3: gpu.launch_func
// CHECK: gpu.binary @f_vjp_dd_a_kernel
// CHECK-SAME: .visible .entry f_vjp_dd_a_kernel(
// CHECK-NOT: .extern
// CHECK-SAME: st.global.b32
// CHECK-SAME: st.global.b32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: atom.global.add.f32
// CHECK: gpu.binary @f_vjp_dd_a_kernel_0
// CHECK-SAME: atom.global.add.f32
// CHECK: gpu.binary @f_vjp_dd_a_kernel_1
// CHECK-NOT: atom.
// CHECK-SAME: st.global.b32
// CHECK-NOT: __nv_

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all = affine_map<(i, j) -> ()>
func.func @f(%x: memref<?xf32>, %w: memref<?x?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#col, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : memref<?xf32>, memref<?x?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %e = math.exp %a : f32
    %p = arith.mulf %e, %b : f32
    %c = math.cos %p : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}
func.func @g(%x: memref<?xf32>, %w: memref<?x?xf32>, %dx: memref<?xf32>, %dw: memref<?x?xf32>) -> f32 {
  %r = moon.value_and_grad @f(%x, %w, %dx, %dw) : (memref<?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>) -> f32
  return %r : f32
}
