// A small convolutional classifier on tensors, written the way torch-mlir
// lowers PyTorch to linalg on tensors. For a batch of 2 images of 3x8x8:
//   conv 3->4 channels, 3x3, padding 1 (tensor.pad), + bias, relu  -> 2x4x8x8
//   max pool 2x2, stride 2                                          -> 2x4x4x4
//   conv 4->8 channels, 3x3, no padding, + bias, relu               -> 2x8x2x2
//   global average pool (a 2x2 sum pool, / 4)                       -> 2x8
//   linear 8->3 (weight 3x8 as nn.Linear stores it, transposed)     -> 2x3
// and the loss is the mean negative log-likelihood of log-softmax(logits)
// against one-hot labels given as floats (log-sum-exp with the row max
// subtracted first). @grad returns the gradient with respect to every
// weight and bias (the images and labels are constants).
//
// Run (the inputs sit in test/Examples/Inputs/cnn.json):
//   moonc run examples/tensors/cnn.mlir --entry loss --args @test/Examples/Inputs/cnn.json
//   moonc grad examples/tensors/cnn.mlir --entry loss --wrt 1,2,3,4,5,6 --args @test/Examples/Inputs/cnn.json
//   moonc run examples/tensors/cnn.mlir --entry grad --args @test/Examples/Inputs/cnn.json
//   moonc check examples/tensors/cnn.mlir --entry loss --args @test/Examples/Inputs/cnn.json

#map_nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map_c = affine_map<(d0, d1, d2, d3) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_all = affine_map<(d0, d1) -> ()>

// x: 2x3x8x8 images, w1: 4x3x3x3 and b1: 4, w2: 8x4x3x3 and b2: 8,
// wfc: 3x8 and bfc: 3, y: 2x3 one-hot labels.
func.func @loss(%x: tensor<2x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %b1: tensor<4xf32>,
                %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>,
                %wfc: tensor<3x8xf32>, %bfc: tensor<3xf32>, %y: tensor<2x3xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_ninf = arith.constant -3.40282347E+38 : f32
  %cst_4 = arith.constant 4.000000e+00 : f32
  %cst_mhalf = arith.constant -5.000000e-01 : f32
  // conv1: pad, bias broadcast into the accumulator, convolution, relu.
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %cst : f32
  } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
  %0 = tensor.empty() : tensor<2x4x8x8xf32>
  %1 = linalg.generic {indexing_maps = [#map_c, #map_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b1 : tensor<4xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x4x8x8xf32>
  %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %w1 : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%1 : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %3 = linalg.generic {indexing_maps = [#map_nchw, #map_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%2 : tensor<2x4x8x8xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  } -> tensor<2x4x8x8xf32>
  // Max pool 2x2, stride 2.
  %4 = tensor.empty() : tensor<2x4x4x4xf32>
  %5 = linalg.fill ins(%cst_ninf : f32) outs(%4 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %win2 = tensor.empty() : tensor<2x2xf32>
  %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%3, %win2 : tensor<2x4x8x8xf32>, tensor<2x2xf32>) outs(%5 : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  // conv2: bias broadcast (linalg.broadcast), convolution, relu.
  %7 = tensor.empty() : tensor<2x8x2x2xf32>
  %8 = linalg.broadcast ins(%b2 : tensor<8xf32>) outs(%7 : tensor<2x8x2x2xf32>) dimensions = [0, 2, 3]
  %9 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%6, %w2 : tensor<2x4x4x4xf32>, tensor<8x4x3x3xf32>) outs(%8 : tensor<2x8x2x2xf32>) -> tensor<2x8x2x2xf32>
  %10 = linalg.generic {indexing_maps = [#map_nchw, #map_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%9 : tensor<2x8x2x2xf32>) outs(%7 : tensor<2x8x2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %cst : f32
    linalg.yield %r : f32
  } -> tensor<2x8x2x2xf32>
  // Global average pool: a 2x2 sum pool, then / 4, collapsed to 2x8.
  %11 = tensor.empty() : tensor<2x8x1x1xf32>
  %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %13 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%10, %win2 : tensor<2x8x2x2xf32>, tensor<2x2xf32>) outs(%12 : tensor<2x8x1x1xf32>) -> tensor<2x8x1x1xf32>
  %14 = linalg.generic {indexing_maps = [#map_nchw, #map_nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%13 : tensor<2x8x1x1xf32>) outs(%11 : tensor<2x8x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %cst_4 : f32
    linalg.yield %d : f32
  } -> tensor<2x8x1x1xf32>
  %15 = tensor.collapse_shape %14 [[0], [1, 2, 3]] : tensor<2x8x1x1xf32> into tensor<2x8xf32>
  // Linear: logits = feats wfc^T + bfc.
  %16 = tensor.empty() : tensor<8x3xf32>
  %17 = linalg.transpose ins(%wfc : tensor<3x8xf32>) outs(%16 : tensor<8x3xf32>) permutation = [1, 0]
  %18 = tensor.empty() : tensor<2x3xf32>
  %19 = linalg.broadcast ins(%bfc : tensor<3xf32>) outs(%18 : tensor<2x3xf32>) dimensions = [0]
  %20 = linalg.matmul ins(%15, %17 : tensor<2x8xf32>, tensor<8x3xf32>) outs(%19 : tensor<2x3xf32>) -> tensor<2x3xf32>
  // log_softmax(logits) = logits - m - log(sum exp(logits - m)).
  %21 = tensor.empty() : tensor<2xf32>
  %22 = linalg.fill ins(%cst_ninf : f32) outs(%21 : tensor<2xf32>) -> tensor<2xf32>
  %23 = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%20 : tensor<2x3xf32>) outs(%22 : tensor<2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %24 = linalg.fill ins(%cst : f32) outs(%21 : tensor<2xf32>) -> tensor<2xf32>
  %25 = linalg.generic {indexing_maps = [#map_id, #map_row, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%20, %23 : tensor<2x3xf32>, tensor<2xf32>) outs(%24 : tensor<2xf32>) {
  ^bb0(%in: f32, %in_m: f32, %out: f32):
    %d = arith.subf %in, %in_m : f32
    %e = math.exp %d : f32
    %s = arith.addf %out, %e : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %26 = linalg.generic {indexing_maps = [#map_id, #map_row, #map_row, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%20, %23, %25 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>) outs(%18 : tensor<2x3xf32>) {
  ^bb0(%in: f32, %in_m: f32, %in_s: f32, %out: f32):
    %l = math.log %in_s : f32
    %d = arith.subf %in, %in_m : f32
    %r = arith.subf %d, %l : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  // loss = sum_bc y_bc log_softmax_bc * (-1/2).
  %27 = tensor.empty() : tensor<f32>
  %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<f32>) -> tensor<f32>
  %29 = linalg.generic {indexing_maps = [#map_id, #map_id, #map_all], iterator_types = ["reduction", "reduction"]}
      ins(%26, %y : tensor<2x3xf32>, tensor<2x3xf32>) outs(%28 : tensor<f32>) {
  ^bb0(%in: f32, %in_y: f32, %out: f32):
    %p = arith.mulf %in, %in_y : f32
    %q = arith.mulf %p, %cst_mhalf : f32
    %r = arith.addf %out, %q : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %29 : tensor<f32>
}

// The gradient of the loss with respect to every weight and bias.
func.func @grad(%x: tensor<2x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %b1: tensor<4xf32>,
                %w2: tensor<8x4x3x3xf32>, %b2: tensor<8xf32>,
                %wfc: tensor<3x8xf32>, %bfc: tensor<3xf32>, %y: tensor<2x3xf32>)
    -> (tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<3x8xf32>, tensor<3xf32>) {
  %dw1, %db1, %dw2, %db2, %dwfc, %dbfc = moon.grad @loss(%x, %w1, %b1, %w2, %b2, %wfc, %bfc, %y)
      args [const, active, active, active, active, active, active, const]
      : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>,
         tensor<3x8xf32>, tensor<3xf32>, tensor<2x3xf32>)
      -> (tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<3x8xf32>, tensor<3xf32>)
  return %dw1, %db1, %dw2, %db2, %dwfc, %dbfc
      : tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<8x4x3x3xf32>, tensor<8xf32>, tensor<3x8xf32>, tensor<3xf32>
}
