// Layer normalization on tensors, written the way torch-mlir lowers
// torch.nn.LayerNorm to linalg on tensors. Over the last dimension of x
// (4 rows of 6 features):
//   mean_i = sum_j x_ij / 6,   var_i = sum_j (x_ij - mean_i)^2 / 6,
//   y_ij = (x_ij - mean_i) * rsqrt(var_i + 1e-5) * gamma_j + beta_j,
// and the loss is sum_ij y_ij^2. @value_and_grad returns the loss and its
// gradient with respect to x, gamma and beta.
//
// Run (the inputs sit in test/Examples/Inputs/layernorm.json):
//   moonc run examples/tensors/layernorm.mlir --entry loss --args @test/Examples/Inputs/layernorm.json
//   moonc grad examples/tensors/layernorm.mlir --entry loss --args @test/Examples/Inputs/layernorm.json
//   moonc run examples/tensors/layernorm.mlir --entry value_and_grad --args @test/Examples/Inputs/layernorm.json
//   moonc check examples/tensors/layernorm.mlir --entry loss

#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_col = affine_map<(d0, d1) -> (d1)>
#map_all = affine_map<(d0, d1) -> ()>
#map_1d = affine_map<(d0) -> (d0)>

// x: 4x6, gamma: 6, beta: 6.
func.func @loss(%x: tensor<4x6xf32>, %gamma: tensor<6xf32>, %beta: tensor<6xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_n = arith.constant 6.000000e+00 : f32
  %cst_eps = arith.constant 9.99999974E-6 : f32
  // mean_i.
  %0 = tensor.empty() : tensor<4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>
  %2 = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x6xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %3 = linalg.generic {indexing_maps = [#map_1d, #map_1d], iterator_types = ["parallel"]}
      ins(%2 : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.divf %in, %cst_n : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  // x - mean_i, and var_i.
  %4 = tensor.empty() : tensor<4x6xf32>
  %5 = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %3 : tensor<4x6xf32>, tensor<4xf32>) outs(%4 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %in_m: f32, %out: f32):
    %d = arith.subf %in, %in_m : f32
    linalg.yield %d : f32
  } -> tensor<4x6xf32>
  %6 = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%5 : tensor<4x6xf32>) outs(%1 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %out : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  // rstd_i = rsqrt(var_i + eps).
  %7 = linalg.generic {indexing_maps = [#map_1d, #map_1d], iterator_types = ["parallel"]}
      ins(%6 : tensor<4xf32>) outs(%0 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %v = arith.divf %in, %cst_n : f32
    %ve = arith.addf %v, %cst_eps : f32
    %r = math.rsqrt %ve : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  // y = (x - mean) * rstd * gamma + beta.
  %8 = linalg.generic {indexing_maps = [#map_id, #map_row, #map_col, #map_col, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%5, %7, %gamma, %beta : tensor<4x6xf32>, tensor<4xf32>, tensor<6xf32>, tensor<6xf32>) outs(%4 : tensor<4x6xf32>) {
  ^bb0(%in: f32, %in_r: f32, %in_g: f32, %in_b: f32, %out: f32):
    %n = arith.mulf %in, %in_r : f32
    %g = arith.mulf %n, %in_g : f32
    %y = arith.addf %g, %in_b : f32
    linalg.yield %y : f32
  } -> tensor<4x6xf32>
  // loss = sum y^2.
  %9 = tensor.empty() : tensor<f32>
  %10 = linalg.fill ins(%cst : f32) outs(%9 : tensor<f32>) -> tensor<f32>
  %11 = linalg.generic {indexing_maps = [#map_id, #map_all], iterator_types = ["reduction", "reduction"]}
      ins(%8 : tensor<4x6xf32>) outs(%10 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %11 : tensor<f32>
}

// The loss and its gradient with respect to x, gamma and beta.
func.func @value_and_grad(%x: tensor<4x6xf32>, %gamma: tensor<6xf32>, %beta: tensor<6xf32>)
    -> (tensor<f32>, tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %l, %dx, %dgamma, %dbeta = moon.value_and_grad @loss(%x, %gamma, %beta)
      : (tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>) -> (tensor<f32>, tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>)
  return %l, %dx, %dgamma, %dbeta : tensor<f32>, tensor<4x6xf32>, tensor<6xf32>, tensor<6xf32>
}
