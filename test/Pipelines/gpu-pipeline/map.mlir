// moon-gpu-pipeline maps an elementwise linalg.generic (y = cos(exp(x)) on
// f32) to a kernel of 256-thread blocks over the grid, lowers it to NVVM with
// polynomial math (no libdevice call) and serializes it to PTX; the host
// side launches it (gpu.launch_func, which translation to LLVM IR turns into
// mgpu* calls).
// RUN: moonc-opt --moon-gpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --moon-gpu-pipeline %s --mlir-print-ir-before=gpu-module-to-binary 2>&1 >/dev/null | FileCheck %s --check-prefix=NVVM
// RUN: moonc-opt --moon-gpu-pipeline='chip=sm_90' %s | FileCheck %s --check-prefix=SM90
// RUN: moonc-opt --moon-gpu-pipeline %s | mlir-translate-22 --mlir-to-llvmir | FileCheck %s --check-prefix=HOST
// RUN: moonc compile %s --emit ptx -o %t.ptx && FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: moonc compile %s --emit ptx --gpu-chip sm_90 -o - | FileCheck %s --check-prefix=PTX90
// RUN: moonc compile %s --gpu --emit obj -o %t.o && llvm-nm-22 %t.o | FileCheck %s --check-prefix=OBJ
// RUN: moonc compile %s --emit obj -o %t.cpu.o && llvm-nm-22 %t.cpu.o | FileCheck %s --check-prefix=CPU
// RUN: not moonc compile %s --emit ptx --gpu-chip sm_70 -o - 2>&1 | FileCheck %s --check-prefix=CHIP

// PTX: .version 7.0
// PTX: .target sm_80
// PTX: .visible .entry cos_exp_kernel(
// PTX: .maxntid 256, 1, 1
// PTX: mov.u32 {{.*}}%tid.x;
// PTX: cvt.rmi.f32.f32
// PTX: st.global.b32
// PTX-NOT: .extern
// PTX-NOT: __nv_

// PTX90: .version 7.8
// PTX90: .target sm_90

// OBJ: r cos_exp_kernel_binary
// OBJ: U mgpuLaunchKernel
// OBJ: U mgpuModuleLoadJIT

// Without gpu operations and --gpu, --emit obj compiles for the CPU.
// CPU-NOT: mgpu
// CPU: T cos_exp

// CHIP: moonc: error: unsupported GPU chip `sm_70` (expected one of sm_80, sm_90)

// NVVM: gpu.module @cos_exp_kernel [#nvvm.target<chip = "sm_80">]
// NVVM-NOT: __nv_
// NVVM: llvm.func @cos_exp_kernel(
// NVVM: nvvm.read.ptx.sreg.ctaid.x
// NVVM: nvvm.read.ptx.sreg.tid.x
// NVVM: llvm.call_intrinsic{{.*}}"llvm.nvvm.floor.f"
// NVVM: llvm.store
// NVVM-NOT: __nv_

// CHECK-LABEL: llvm.func @cos_exp(
// CHECK: gpu.launch_func <%{{.*}} : !llvm.ptr> @cos_exp_kernel::@cos_exp_kernel blocks in ({{.*}}) threads in ({{.*}})
// CHECK: gpu.binary @cos_exp_kernel [#gpu.object<#nvvm.target<chip = "sm_80">, {{.*}}assembly = "
// CHECK-SAME: .target sm_80
// CHECK-SAME: .visible .entry cos_exp_kernel(
// CHECK-SAME: .maxntid 256, 1, 1
// CHECK-SAME: mov.u32 {{.*}}%tid.x;
// CHECK-NOT: .extern
// CHECK-NOT: __nv_

// SM90: .version 7.8
// SM90-SAME: .target sm_90

// MLIR 22 loads the kernel's module once, in a global constructor, and
// unloads it in a global destructor (MLIR 19 did both around every launch).
// HOST: @cos_exp_kernel_binary = internal constant {{.*}}\00"
// HOST: @llvm.global_ctors = appending global {{.*}} ptr @cos_exp_kernel_load,
// HOST: @llvm.global_dtors = appending global {{.*}} ptr @cos_exp_kernel_unload,
// The launch is asynchronous (gpu-async-region) on a stream created first,
// then waited for.
// HOST-LABEL: define void @cos_exp(
// HOST: call ptr @mgpuStreamCreate()
// HOST: %[[MODULE:.*]] = load ptr, ptr @cos_exp_kernel_module
// HOST: call ptr @mgpuModuleGetFunction(ptr %[[MODULE]],
// HOST: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 256, i64 1, i64 1,
// HOST: call void @mgpuStreamSynchronize(
// HOST: call void @mgpuStreamDestroy(
// HOST-LABEL: define internal void @cos_exp_kernel_load()
// HOST: call ptr @mgpuModuleLoadJIT(ptr @cos_exp_kernel_binary, i32 2)
// HOST-LABEL: define internal void @cos_exp_kernel_unload()
// HOST: call void @mgpuModuleUnload(
#map = affine_map<(d0) -> (d0)>
func.func @cos_exp(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    linalg.yield %c : f32
  }
  return
}
