func.func @g(%a: f64) -> f64 {
  %t = tensor.empty() : tensor<4xf64>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %t[%c0] : tensor<4xf64>
  %s = arith.addf %a, %v : f64
  return %s : f64
}
