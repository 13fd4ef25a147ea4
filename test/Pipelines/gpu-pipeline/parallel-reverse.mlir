// Reverse mode of a user's scf.parallel, y[i] = x[i] * w[i mod k] * w[0],
// with --moon-autodiff's parallel-reverse (which moonc --gpu turns on): the
// forward sweep and the reverse sweep are parallel loops, so each becomes a
// kernel. The forward kernel stores y and its tapes plainly; in the reverse
// kernel, threads add to shared elements of dw atomically and to the dx[i]
// they own plainly.
//
// RUN: moonc-opt %s --moon-autodiff=parallel-reverse=1 --moon-gpu-pipeline | FileCheck %s
// Without the option the reverse is a sequential loop on the host: only the
// primal function has a kernel.
// RUN: moonc-opt %s --moon-autodiff --moon-gpu-pipeline | FileCheck %s --check-prefix=SEQ
// moonc compiles for the GPU with the option on:
// RUN: moonc compile %s --emit ptx -o - | FileCheck %s --check-prefix=PTX
// PTX: moonc: gpu.module @scale_vjp_ddd__kernel_0
// PTX: atom.global.add.f32
// PTX: atom.global.add.f32
// CHECK-LABEL: llvm.func @scale_vjp
// CHECK-COUNT-2: gpu.launch_func
// CHECK: gpu.binary @scale_vjp_ddd__kernel
// CHECK-SAME: .visible .entry scale_vjp_ddd__kernel(
// CHECK-NOT: atom.
// CHECK-SAME: st.global.b32
// CHECK: gpu.binary @scale_vjp_ddd__kernel_0
// CHECK-NOT: .extern
// CHECK-SAME: atom.global.add.f32
// CHECK-SAME: atom.global.add.f32
// CHECK-SAME: st.global.b32
// SEQ-LABEL: llvm.func @scale_vjp
// SEQ-NOT: gpu.launch_func
// SEQ-NOT: gpu.binary @scale_vjp
// SEQ-NOT: atom.global
// SEQ: llvm.func @g
func.func @scale(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %k = memref.dim %w, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %j = arith.remui %i, %k : index
    %v = memref.load %x[%i] : memref<?xf32>
    %u = memref.load %w[%j] : memref<?xf32>
    %b = memref.load %w[%c0] : memref<?xf32>
    %p = arith.mulf %v, %u : f32
    %q = arith.mulf %p, %b : f32
    memref.store %q, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func @g(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dw: memref<?xf32>, %dy: memref<?xf32>) attributes {llvm.emit_c_interface} {
  moon.vjp @scale(%x, %w, %y, %dx, %dw, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
