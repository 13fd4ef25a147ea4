// Forward mode per thread: the JVP of y = cos(exp(x)) (elementwise) through
// --moon-autodiff then moon-gpu-pipeline is two elementwise kernels, the
// tangent generic's (each thread computes its dy[i]) and the primal's (its
// y[i]), with plain loads and stores: no atomics, no libdevice. (They are
// separate launches: nothing fuses the two generics on memrefs yet.)
//
// RUN: moonc-opt %s --moon-autodiff --moon-gpu-pipeline | FileCheck %s
// CHECK-LABEL: llvm.func @map_jvp
// CHECK-COUNT-2: gpu.launch_func
// CHECK: gpu.binary @map_jvp_dd__kernel
// CHECK-NOT: atom.
// CHECK-SAME: st.global.b32
// CHECK: gpu.binary @map_jvp_dd__kernel_0
// CHECK-NOT: atom.
// CHECK-SAME: st.global.b32
// CHECK-NOT: __nv_
// CHECK-NOT: .extern

#id = affine_map<(i) -> (i)>
func.func @map(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    linalg.yield %c : f32
  }
  return
}
func.func @tangent(%x: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dy: memref<?xf32>) {
  moon.jvp @map(%x, %y, %dx, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
