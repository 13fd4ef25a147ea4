// moon-gpu-pipeline makes a 1-D sum (sum(cos(exp(x))) on f32) a kernel:
// each thread accumulates a grid-stride chunk, the block reduces with
// shuffles and shared memory (gpu.all_reduce), and one atomic add per block
// goes to the result.
// RUN: moonc-opt --moon-gpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --moon-gpu-pipeline %s --mlir-print-ir-before=gpu-module-to-binary 2>&1 >/dev/null | FileCheck %s --check-prefix=NVVM
// RUN: moonc compile %s --emit ptx -o - | FileCheck %s --check-prefix=PTX
// The host side translates (no arith.ceildivui left in it):
// RUN: moonc compile %s --gpu --emit llvm -o - | FileCheck %s --check-prefix=HOST
// HOST: call void @mgpuLaunchKernel(

// PTX: .target sm_80
// PTX: .visible .entry sum_cos_exp_kernel(
// PTX: shfl.sync.bfly.b32
// PTX: bar.sync
// PTX: atom.global.add.f32
// PTX-NOT: .extern
// PTX-NOT: __nv_

// NVVM: gpu.module @sum_cos_exp_kernel [#nvvm.target<chip = "sm_80">]
// NVVM-NOT: __nv_
// NVVM: llvm.mlir.global internal @__wg_sum_cos_exp_kernel_0() {addr_space = 3 : i32} : !llvm.array<32 x f32>
// NVVM: llvm.func @sum_cos_exp_kernel(
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM: nvvm.shfl.sync bfly
// NVVM: nvvm.barrier0
// NVVM: llvm.atomicrmw fadd
// NVVM-NOT: __nv_

// CHECK-LABEL: llvm.func @sum_cos_exp(
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @sum_cos_exp_kernel::@sum_cos_exp_kernel blocks in ({{.*}}) threads in ({{.*}})
// CHECK: gpu.binary @sum_cos_exp_kernel
// CHECK-SAME: .visible .entry sum_cos_exp_kernel(
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: bar.sync
// CHECK-SAME: atom.global.add.f32
// CHECK-NOT: .extern
#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @sum_cos_exp(%x: memref<?xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    %r = arith.addf %c, %acc : f32
    linalg.yield %r : f32
  }
  return
}
