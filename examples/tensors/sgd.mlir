// Training the 2-layer MLP of mlp.mlir (the same @loss: softmax
// cross-entropy of relu(x W1 + b1) W2 + b2 against one-hot labels) by
// plain gradient descent: @train runs 8 steps of an scf.for that carries
// W1, b1, W2 and b2 as iter_args; each step takes moon.value_and_grad of
// @loss and updates every parameter as p - lr * dp (lr = 0.5) with a
// linalg.generic that writes over the parameter's iter_arg (so that the
// loop's tensors bufferize in place), and stores the step's loss (before
// its update) into the returned tensor<8xf32>, so that one sees the
// losses decrease.
//
// Run (the inputs sit in test/Examples/Inputs/mlp.json):
//   moonc run examples/tensors/sgd.mlir --entry train --args @test/Examples/Inputs/mlp.json

#map_id = affine_map<(d0, d1) -> (d0, d1)>
#map_row = affine_map<(d0, d1) -> (d0)>
#map_r1 = affine_map<(d0) -> (d0)>
#map_r0 = affine_map<(d0) -> ()>

// The loss of mlp.mlir. x: 4x3 inputs, w1: 3x5, b1: 5, w2: 5x3, b2: 3, y: 4x3 one-hot labels.
func.func @loss(%x: tensor<4x3xf32>, %w1: tensor<3x5xf32>, %b1: tensor<5xf32>,
                %w2: tensor<5x3xf32>, %b2: tensor<3xf32>, %y: tensor<4x3xf32>) -> tensor<f32> {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_ninf = arith.constant -3.40282347E+38 : f32
  %cst_b = arith.constant 4.000000e+00 : f32
  // Layer 1: h = relu(x W1 + b1).
  %0 = tensor.empty() : tensor<4x5xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %2 = linalg.matmul ins(%x, %w1 : tensor<4x3xf32>, tensor<3x5xf32>) outs(%1 : tensor<4x5xf32>) -> tensor<4x5xf32>
  %3 = linalg.broadcast ins(%b1 : tensor<5xf32>) outs(%0 : tensor<4x5xf32>) dimensions = [0]
  %4 = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%2, %3 : tensor<4x5xf32>, tensor<4x5xf32>) outs(%0 : tensor<4x5xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    %r = arith.maximumf %s, %cst : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  // Layer 2: logits = h W2 + b2.
  %5 = tensor.empty() : tensor<4x3xf32>
  %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %7 = linalg.matmul ins(%4, %w2 : tensor<4x5xf32>, tensor<5x3xf32>) outs(%6 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %8 = linalg.broadcast ins(%b2 : tensor<3xf32>) outs(%5 : tensor<4x3xf32>) dimensions = [0]
  %9 = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id], iterator_types = ["parallel", "parallel"]}
      ins(%7, %8 : tensor<4x3xf32>, tensor<4x3xf32>) outs(%5 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  // Row max m_b = max_c logits_bc.
  %10 = tensor.empty() : tensor<4xf32>
  %11 = linalg.fill ins(%cst_ninf : f32) outs(%10 : tensor<4xf32>) -> tensor<4xf32>
  %12 = linalg.generic {indexing_maps = [#map_id, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%9 : tensor<4x3xf32>) outs(%11 : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  // s_b = sum_c exp(logits_bc - m_b); t_b = sum_c y_bc logits_bc.
  %13 = linalg.fill ins(%cst : f32) outs(%10 : tensor<4xf32>) -> tensor<4xf32>
  %14:2 = linalg.generic {indexing_maps = [#map_id, #map_row, #map_id, #map_row, #map_row], iterator_types = ["parallel", "reduction"]}
      ins(%9, %12, %y : tensor<4x3xf32>, tensor<4xf32>, tensor<4x3xf32>) outs(%13, %13 : tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%in: f32, %in_m: f32, %in_y: f32, %out_s: f32, %out_t: f32):
    %d = arith.subf %in, %in_m : f32
    %e = math.exp %d : f32
    %s = arith.addf %out_s, %e : f32
    %yl = arith.mulf %in_y, %in : f32
    %t = arith.addf %out_t, %yl : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<4xf32>, tensor<4xf32>)
  // loss = sum_b (m_b + log s_b - t_b) / 4.
  %15 = tensor.empty() : tensor<f32>
  %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<f32>) -> tensor<f32>
  %17 = linalg.generic {indexing_maps = [#map_r1, #map_r1, #map_r1, #map_r0], iterator_types = ["reduction"]}
      ins(%12, %14#0, %14#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%16 : tensor<f32>) {
  ^bb0(%in_m: f32, %in_s: f32, %in_t: f32, %out: f32):
    %l = math.log %in_s : f32
    %lse = arith.addf %in_m, %l : f32
    %nll = arith.subf %lse, %in_t : f32
    %mean = arith.divf %nll, %cst_b : f32
    %acc = arith.addf %out, %mean : f32
    linalg.yield %acc : f32
  } -> tensor<f32>
  return %17 : tensor<f32>
}

// 8 steps of gradient descent from the given parameters; returns the loss
// of each step, computed before that step's update.
func.func @train(%x: tensor<4x3xf32>, %w1_0: tensor<3x5xf32>, %b1_0: tensor<5xf32>,
                 %w2_0: tensor<5x3xf32>, %b2_0: tensor<3xf32>, %y: tensor<4x3xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %lr = arith.constant 5.000000e-01 : f32
  %cst = arith.constant 0.000000e+00 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %losses0 = linalg.fill ins(%cst : f32) outs(%e8 : tensor<8xf32>) -> tensor<8xf32>
  %res:5 = scf.for %i = %c0 to %c8 step %c1
      iter_args(%w1 = %w1_0, %b1 = %b1_0, %w2 = %w2_0, %b2 = %b2_0, %losses = %losses0)
      -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5x3xf32>, tensor<3xf32>, tensor<8xf32>) {
    %l, %dw1, %db1, %dw2, %db2 = moon.value_and_grad @loss(%x, %w1, %b1, %w2, %b2, %y)
        args [const, active, active, active, active, const]
        : (tensor<4x3xf32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x3xf32>, tensor<3xf32>, tensor<4x3xf32>)
        -> (tensor<f32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x3xf32>, tensor<3xf32>)
    %lv = tensor.extract %l[] : tensor<f32>
    %losses_next = tensor.insert %lv into %losses[%i] : tensor<8xf32>
    // p - lr * dp for each parameter, written over p (the iter_arg is the
    // destination, so that the loop's tensors bufferize in place).
    %w1_next = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id], iterator_types = ["parallel", "parallel"]}
        ins(%w1, %dw1 : tensor<3x5xf32>, tensor<3x5xf32>) outs(%w1 : tensor<3x5xf32>) {
    ^bb0(%p: f32, %g: f32, %out: f32):
      %s = arith.mulf %lr, %g : f32
      %n = arith.subf %p, %s : f32
      linalg.yield %n : f32
    } -> tensor<3x5xf32>
    %b1_next = linalg.generic {indexing_maps = [#map_r1, #map_r1, #map_r1], iterator_types = ["parallel"]}
        ins(%b1, %db1 : tensor<5xf32>, tensor<5xf32>) outs(%b1 : tensor<5xf32>) {
    ^bb0(%p: f32, %g: f32, %out: f32):
      %s = arith.mulf %lr, %g : f32
      %n = arith.subf %p, %s : f32
      linalg.yield %n : f32
    } -> tensor<5xf32>
    %w2_next = linalg.generic {indexing_maps = [#map_id, #map_id, #map_id], iterator_types = ["parallel", "parallel"]}
        ins(%w2, %dw2 : tensor<5x3xf32>, tensor<5x3xf32>) outs(%w2 : tensor<5x3xf32>) {
    ^bb0(%p: f32, %g: f32, %out: f32):
      %s = arith.mulf %lr, %g : f32
      %n = arith.subf %p, %s : f32
      linalg.yield %n : f32
    } -> tensor<5x3xf32>
    %b2_next = linalg.generic {indexing_maps = [#map_r1, #map_r1, #map_r1], iterator_types = ["parallel"]}
        ins(%b2, %db2 : tensor<3xf32>, tensor<3xf32>) outs(%b2 : tensor<3xf32>) {
    ^bb0(%p: f32, %g: f32, %out: f32):
      %s = arith.mulf %lr, %g : f32
      %n = arith.subf %p, %s : f32
      linalg.yield %n : f32
    } -> tensor<3xf32>
    scf.yield %w1_next, %b1_next, %w2_next, %b2_next, %losses_next
        : tensor<3x5xf32>, tensor<5xf32>, tensor<5x3xf32>, tensor<3xf32>, tensor<8xf32>
  }
  return %res#4 : tensor<8xf32>
}
