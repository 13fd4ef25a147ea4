// Convolutions in both modes: linalg.conv_1d_ncw_fcw with stride 2 and
// dilation 2 (its input is read through `d2 * 2 + d4 * 2`, not a projected
// permutation), checked by finite differences and the dot-product test.
// RUN: moonc check %s --entry conv | FileCheck %s
// CHECK: check @conv: 36 float inputs, 37 float outputs
// CHECK: jvp vs finite differences, direction 1: ok
// CHECK: vjp primal: ok
// CHECK: dot product (forward vs reverse): ok
// CHECK: check: PASS (8 checks)
// RUN: moonc check %s --entry conv --mode reverse | FileCheck %s --check-prefix=REV
// REV: vjp vs finite differences, direction 1: ok
// REV: vjp vs finite differences, direction 2: ok
// REV: vjp vs finite differences, direction 3: ok
// REV: check: PASS (6 checks)

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#all3 = affine_map<(d0, d1, d2) -> ()>
func.func @conv(%x: memref<1x2x9xf64>, %w: memref<3x2x3xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %o = memref.alloc() : memref<1x3x3xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<1x3x3xf64>)
  linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : memref<1x2x9xf64>, memref<3x2x3xf64>) outs(%o : memref<1x3x3xf64>)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id3, #all3], iterator_types = ["reduction", "reduction", "reduction"]} ins(%o : memref<1x3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x3x3xf64>
  return %r : f64
}
