// Functions on tensors compiled ahead of time (see compile-tensors.test):
// @scale returns a tensor (a buffer it allocates), @loss a rank-0 float
// tensor (a scalar), @grad the gradient of @loss (a tensor).
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>

func.func @scale(%x: tensor<4xf32>, %a: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %r = arith.addf %acc, %sq : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

func.func @grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = moon.grad @loss(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}
