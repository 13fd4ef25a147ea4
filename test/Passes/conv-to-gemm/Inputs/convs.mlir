// Convolutions as torch-mlir emits them (padding by tensor.pad), of the
// three forms moon-conv-to-gemm rewrites: 3x3 with padding 1, 3x3 of
// stride 2 and dilation 2, and 1x1; the loss sums the last one's output
// times itself.
func.func @loss(%x: tensor<2x3x12x12xf32>, %w1: tensor<8x3x3x3xf32>,
                %w2: tensor<8x8x3x3xf32>, %w3: tensor<16x8x1x1xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x3x12x12xf32> to tensor<2x3x14x14xf32>
  %e1 = tensor.empty() : tensor<2x8x12x12xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x12x12xf32>) -> tensor<2x8x12x12xf32>
  %y1 = linalg.conv_2d_nchw_fchw ins(%padded, %w1 : tensor<2x3x14x14xf32>, tensor<8x3x3x3xf32>)
      outs(%z1 : tensor<2x8x12x12xf32>) -> tensor<2x8x12x12xf32>
  %e2 = tensor.empty() : tensor<2x8x4x4xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %y2 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%y1, %w2 : tensor<2x8x12x12xf32>, tensor<8x8x3x3xf32>)
      outs(%z2 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
  %e3 = tensor.empty() : tensor<2x16x4x4xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %y3 = linalg.conv_2d_nchw_fchw ins(%y2, %w3 : tensor<2x8x4x4xf32>, tensor<16x8x1x1xf32>)
      outs(%z3 : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> ()>],
                       iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%y3 : tensor<2x16x4x4xf32>) outs(%z : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %sum = arith.addf %acc, %sq : f32
    linalg.yield %sum : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
