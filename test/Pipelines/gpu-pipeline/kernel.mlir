// moon-gpu-pipeline passes kernels the user wrote through: a gpu.module with
// a gpu.func (tanh, sqrt and floor in it; f32 math needs no libdevice), and
// a gpu.launch, outlined.
// RUN: moonc-opt --moon-gpu-pipeline %s | FileCheck %s

// CHECK: gpu.binary @user
// CHECK-SAME: .visible .entry saxpy(
// CHECK-SAME: sqrt.rn.f32
// CHECK-SAME: cvt.rmi.f32.f32
// CHECK-NOT: .extern
// CHECK: llvm.func @host(
// The two launches go on one stream (gpu-async-region), waited for once:
// CHECK: gpu.launch_func <%[[STREAM:.*]] : !llvm.ptr> @user::@saxpy blocks in
// CHECK-NOT: mgpuStreamSynchronize
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @host_kernel::@host_kernel blocks in
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: gpu.binary @host_kernel
// CHECK-SAME: .visible .entry host_kernel(
// CHECK-NOT: .extern
module attributes {gpu.container_module} {
  gpu.module @user {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %xi = memref.load %x[%i] : memref<?xf32>
      %yi = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xi : f32
      %s = arith.addf %ax, %yi : f32
      %th = math.tanh %s : f32
      %sq = math.sqrt %th : f32
      %fl = math.floor %sq : f32
      memref.store %fl, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @user::@saxpy blocks in (%c128, %c1, %c1) threads in (%c128, %c1, %c1) args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<?xf32>
      %w = math.exp %v : f32
      memref.store %w, %y[%tx] : memref<?xf32>
      gpu.terminator
    }
    return
  }
}
