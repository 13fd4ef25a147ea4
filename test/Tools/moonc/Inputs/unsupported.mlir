func.func @t(%a: tensor<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %a[%c0] : tensor<4xf64>
  return %v : f64
}
