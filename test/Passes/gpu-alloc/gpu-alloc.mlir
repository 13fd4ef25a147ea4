// moon-gpu-alloc: host allocations whose buffer reaches a kernel (directly,
// through a view, or through a call) become gpu.allocs, host-shared unless
// only kernels touch the contents (then device memory); their
// deallocs, and the end of an alloca's block, free them on a stream of their
// own. Allocations no kernel sees stay host memory.
// RUN: moonc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(moon-gpu-alloc))' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%a: memref<f32>, %b: memref<?xf32>) kernel {
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @launch
  // CHECK: %[[A:.*]] = gpu.alloc host_shared () : memref<f32>
  // Only the kernel touches %b's contents: device memory, allocated on a
  // stream that is waited for.
  // CHECK: %[[S:.*]] = gpu.wait async
  // CHECK: %[[B:.*]], %[[BT:.*]] = gpu.alloc async [%[[S]]] (%{{.*}}) : memref<?xf32>
  // CHECK: gpu.wait [%[[BT]]]
  // CHECK: %[[HOST:.*]] = memref.alloc() : memref<4xf32>
  // CHECK: gpu.launch_func @k::@k {{.*}} args(%[[A]] : memref<f32>, %{{.*}} : memref<?xf32>)
  // CHECK: %[[T:.*]] = gpu.wait async
  // CHECK: %[[D:.*]] = gpu.dealloc async [%[[T]]] %[[B]]
  // CHECK: gpu.wait [%[[D]]]
  // CHECK: memref.dealloc %[[HOST]]
  // CHECK: %[[T2:.*]] = gpu.wait async
  // CHECK: gpu.dealloc async [%[[T2]]] %[[A]]
  // CHECK: return
  func.func @launch(%n: index) -> f32 {
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : memref<f32>
    %b = memref.alloc(%n) : memref<?xf32>
    %host = memref.alloc() : memref<4xf32>
    %view = memref.subview %b[0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
    %cast = memref.cast %view : memref<?xf32, strided<[1]>> to memref<?xf32>
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<f32>, %cast : memref<?xf32>)
    memref.dealloc %b : memref<?xf32>
    memref.dealloc %host : memref<4xf32>
    %r = memref.load %a[] : memref<f32>
    return %r : f32
  }
}

// -----

// CHECK-LABEL: func.func @caller
// CHECK: %[[A:.*]] = gpu.alloc host_shared () : memref<f32>
// CHECK: call @callee(%[[A]])
func.func private @callee(memref<f32>)
func.func @caller() {
  %a = memref.alloca() : memref<f32>
  call @callee(%a) : (memref<f32>) -> ()
  return
}
