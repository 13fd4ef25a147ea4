// Convolutions in both modes, checked by finite differences and the
// dot-product test: conv_2d_nchw_fchw with stride 2 on an input the
// caller pads (a zero buffer with the input copied into its interior),
// grouped (conv_2d_ngchw_gfchw, dilation 2) and depthwise
// (depthwise_conv_2d_nchw_chw, stride 2, then tanh).
// RUN: moonc check %s --entry conv2d | FileCheck %s --check-prefix=CONV
// CONV: check @conv2d: 104 float inputs, 105 float outputs
// CONV: dot product (forward vs reverse): ok
// CONV: check: PASS (8 checks)
// RUN: moonc check %s --entry grouped | FileCheck %s --check-prefix=GROUPED
// GROUPED: check @grouped: 176 float inputs, 177 float outputs
// GROUPED: dot product (forward vs reverse): ok
// GROUPED: check: PASS (8 checks)
// RUN: moonc check %s --entry depthwise | FileCheck %s --check-prefix=DEPTHWISE
// DEPTHWISE: check @depthwise: 162 float inputs, 163 float outputs
// DEPTHWISE: dot product (forward vs reverse): ok
// DEPTHWISE: check: PASS (8 checks)

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#all4 = affine_map<(d0, d1, d2, d3) -> ()>
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#all5 = affine_map<(d0, d1, d2, d3, d4) -> ()>

// conv_2d_nchw_fchw, stride 2, on an input the caller pads by 1 (a zero
// buffer with the input copied into its interior).
func.func @conv2d(%x: memref<1x2x5x5xf64>, %w: memref<3x2x3x3xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %padded = memref.alloc() : memref<1x2x7x7xf64>
  linalg.fill ins(%zero : f64) outs(%padded : memref<1x2x7x7xf64>)
  %inner = memref.subview %padded[0, 0, 1, 1] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x7xf64> to memref<1x2x5x5xf64, strided<[98, 49, 7, 1], offset: 8>>
  memref.copy %x, %inner : memref<1x2x5x5xf64> to memref<1x2x5x5xf64, strided<[98, 49, 7, 1], offset: 8>>
  %o = memref.alloc() : memref<1x3x3x3xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<1x3x3x3xf64>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%padded, %w : memref<1x2x7x7xf64>, memref<3x2x3x3xf64>) outs(%o : memref<1x3x3x3xf64>)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<1x3x3x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x3x3x3xf64>
  memref.dealloc %padded : memref<1x2x7x7xf64>
  return %r : f64
}

// Grouped: conv_2d_ngchw_gfchw, 2 groups of 2 input and 2 output
// channels, stride 1, dilation 2.
func.func @grouped(%x: memref<1x2x2x6x6xf64>, %w: memref<2x2x2x2x2xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %o = memref.alloc() : memref<1x2x2x4x4xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<1x2x2x4x4xf64>)
  linalg.conv_2d_ngchw_gfchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : memref<1x2x2x6x6xf64>, memref<2x2x2x2x2xf64>) outs(%o : memref<1x2x2x4x4xf64>)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id5, #all5], iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<1x2x2x4x4xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x2x2x4x4xf64>
  return %r : f64
}

// Depthwise: depthwise_conv_2d_nchw_chw, 3 channels, stride 2; the output
// goes through tanh before the sum of squares.
func.func @depthwise(%x: memref<2x3x5x5xf64>, %w: memref<3x2x2xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %o = memref.alloc() : memref<2x3x2x2xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<2x3x2x2xf64>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<2x3x5x5xf64>, memref<3x2x2xf64>) outs(%o : memref<2x3x2x2xf64>)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<2x3x2x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %th = math.tanh %a : f64
    %sq = arith.mulf %th, %th : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<2x3x2x2xf64>
  return %r : f64
}
