// The reverse of an scf.parallel (y[i] = x[i] * w[i mod 2] * w[0]) with and
// without --moon-autodiff's parallel-reverse, run on the CPU: the parallel
// reverse adds into dw atomically and into dx plainly, the default runs a
// sequential scf.for nest. The inputs are small dyadic numbers, so every sum
// is exact in any order and the results must be the same, bit for bit.
//
// DEFINE: %{args} = '[[0.5, -1, 0.25, 2], [1.5, -0.5], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0], [1, 1, 2, 0.25]]'
// RUN: moonc-opt %s --moon-autodiff -o %t.plain.mlir
// RUN: moonc-opt %s --moon-autodiff=parallel-reverse=1 -o %t.parallel.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.parallel.mlir
// RUN: moonc run %t.plain.mlir --entry g --args %{args} > %t.plain.json
// RUN: moonc run %t.parallel.mlir --entry g --args %{args} > %t.parallel.json
// RUN: diff %t.plain.json %t.parallel.json
// RUN: FileCheck %s < %t.parallel.json
// IR-LABEL: func.func private @scale_vjp
// IR: scf.parallel
// IR: memref.atomic_rmw addf
// y = x * w[i mod 2] * 1.5 = [1.125, 0.75, 0.5625, -1.5];
// dx_i = dy_i w[i mod 2] 1.5 = [2.25, -0.75, 4.5, -0.1875];
// dw_1 = sum_{i odd} dy_i x_i 1.5 = -1.5 + 0.75 = -0.75;
// dw_0 = sum_{i even} dy_i x_i 1.5 + sum_i dy_i x_i w[i mod 2]
//      = (0.75 + 0.75) + (0.75 + 0.5 + 0.75 - 0.25) = 3.25.
// CHECK: {"results": [], "args": [{{.*}}, {{.*}}, [1.125, 0.75, 0.5625, -1.5], [2.25, -0.75, 4.5, -0.1875], [3.25, -0.75], [0.0, 0.0, 0.0, 0.0]]}
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
func.func @g(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dw: memref<?xf32>, %dy: memref<?xf32>) {
  moon.vjp @scale(%x, %w, %y, %dx, %dw, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}
