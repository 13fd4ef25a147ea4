// moon-math-before-libm's failure mode: an op it hands to
// convert-math-to-llvm's patterns on a type the LLVM dialect has no
// equivalent of (a tensor, before bufferization) is an error at the op.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-math-before-libm

func.func @rsqrt_tensor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'math.rsqrt'}}
  %r = math.rsqrt %x : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @ctpop_tensor(%n: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{failed to legalize operation 'math.ctpop'}}
  %p = math.ctpop %n : tensor<2x3xi32>
  return %p : tensor<2x3xi32>
}
