// Sum pooling in both modes: linalg.pooling_nchw_sum, 3x3 windows with
// stride 2 (the input is read through `d2 * 2 + d4`; the window operand
// only gives the extents and is freed before the reverse sweep runs).
// RUN: moonc check %s --entry sumpool | FileCheck %s
// CHECK: check @sumpool: 50 float inputs, 51 float outputs
// CHECK: jvp vs finite differences, direction 1: ok
// CHECK: vjp primal: ok
// CHECK: dot product (forward vs reverse): ok
// CHECK: check: PASS (8 checks)
// Each input element gets 2 * (its window's sum) for every window it is in.
// RUN: moonc grad %s --entry sumpool --args '[[[[[1,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0],[0,0,0,0,0]],[[0,0,0,0,0],[0,0,0,0,0],[0,0,1,0,0],[0,0,0,0,0],[0,0,0,0,0]]]]]' | FileCheck %s --check-prefix=GRAD
// GRAD: {"value": 5.0, "gradient": {{\[\[\[\[}}[2.0, 2.0, 2.0, 0.0, 0.0], [2.0, 2.0, 2.0, 0.0, 0.0], [2.0, 2.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], {{\[}}[2.0, 2.0, 4.0, 2.0, 2.0], [2.0, 2.0, 4.0, 2.0, 2.0], [4.0, 4.0, 8.0, 4.0, 4.0], [2.0, 2.0, 4.0, 2.0, 2.0], [2.0, 2.0, 4.0, 2.0, 2.0]]]]]}

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#all4 = affine_map<(d0, d1, d2, d3) -> ()>
func.func @sumpool(%x: memref<1x2x5x5xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %win = memref.alloc() : memref<3x3xf64>
  %o = memref.alloc() : memref<1x2x2x2xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<1x2x2x2xf64>)
  linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %win : memref<1x2x5x5xf64>, memref<3x3xf64>) outs(%o : memref<1x2x2x2xf64>)
  memref.dealloc %win : memref<3x3xf64>
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<1x2x2x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x2x2x2xf64>
  return %r : f64
}
