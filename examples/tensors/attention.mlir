// A single-head self-attention block on tensors, written the way
// torch-mlir lowers PyTorch to linalg on tensors. For a sequence of 4
// tokens of width 6 and a head of width d = 4:
//   Q = x Wq,  K = x Wk,  V = x Wv                      (4x4 each)
//   S = Q K^T / sqrt(d)  (K^T by linalg.transpose)      (4x4)
//   P = softmax(S) along the last dim (row max subtracted first)
//   O = P V                                             (4x4)
// and the loss is sum_ij O_ij * c_ij for fixed weights c. @grad returns
// the gradient with respect to Wq, Wk and Wv (x and c are constants).
//
// Run (the inputs sit in test/Examples/Inputs/attention.json):
//   moonc run examples/tensors/attention.mlir --entry loss --args @test/Examples/Inputs/attention.json
//   moonc grad examples/tensors/attention.mlir --entry loss --wrt 1,2,3 --args @test/Examples/Inputs/attention.json
//   moonc run examples/tensors/attention.mlir --entry grad --args @test/Examples/Inputs/attention.json
//   moonc check examples/tensors/attention.mlir --entry loss

#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_all = affine_map<(d0, d1) -> ()>

// x: 4x6 tokens, wq, wk, wv: 6x4 projections, c: 4x4 weights of the loss.
func.func @loss(%x: tensor<4x6xf32>, %wq: tensor<6x4xf32>, %wk: tensor<6x4xf32>,
                %wv: tensor<6x4xf32>, %c: tensor<4x4xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_ninf = arith.constant -3.40282347E+38 : f32
  %cst_scale = arith.constant 5.000000e-01 : f32
  // Projections.
  %0 = tensor.empty() : tensor<4x4xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<4x6xf32>, tensor<6x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<4x6xf32>, tensor<6x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<4x6xf32>, tensor<6x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  // Scores S = Q K^T / sqrt(4).
  %kt = linalg.transpose ins(%k : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) permutation = [1, 0]
  %2 = linalg.matmul ins(%q, %kt : tensor<4x4xf32>, tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = linalg.generic {indexing_maps = [#map_id, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%2 : tensor<4x4xf32>) outs(%0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %cst_scale : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  // Softmax along the last dim: exp(S - max) / sum exp(S - max).
  %3 = tensor.empty() : tensor<4xf32>
  %4 = linalg.fill ins(%cst_ninf : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
  %m = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%s : tensor<4x4xf32>) outs(%4 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<4x4xf32>, tensor<4xf32>) outs(%0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in_m: f32, %out: f32):
    %d = arith.subf %in, %in_m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %5 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4xf32>) -> tensor<4xf32>
  %z = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x4xf32>) outs(%5 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %p = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %z : tensor<4x4xf32>, tensor<4xf32>) outs(%0 : tensor<4x4xf32>) {
  ^bb0(%in: f32, %in_z: f32, %out: f32):
    %r = arith.divf %in, %in_z : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  // O = P V, loss = sum O * c.
  %o = linalg.matmul ins(%p, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%1 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %6 = tensor.empty() : tensor<f32>
  %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<f32>) -> tensor<f32>
  %l = linalg.generic {indexing_maps = [#map_id, #map_id, #map_all], iterator_types = ["reduction", "reduction"]}
      ins(%o, %c : tensor<4x4xf32>, tensor<4x4xf32>) outs(%7 : tensor<f32>) {
  ^bb0(%in: f32, %in_c: f32, %out: f32):
    %t = arith.mulf %in, %in_c : f32
    %r = arith.addf %out, %t : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %l : tensor<f32>
}

// The gradient of the loss with respect to Wq, Wk and Wv.
func.func @grad(%x: tensor<4x6xf32>, %wq: tensor<6x4xf32>, %wk: tensor<6x4xf32>,
                %wv: tensor<6x4xf32>, %c: tensor<4x4xf32>)
    -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) {
  %dwq, %dwk, %dwv = moon.grad @loss(%x, %wq, %wk, %wv, %c) args [const, active, active, active, const]
      : (tensor<4x6xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>, tensor<4x4xf32>)
      -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>)
  return %dwq, %dwk, %dwv : tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>
}
