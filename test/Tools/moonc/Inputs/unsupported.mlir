func.func @t(%a: vector<4xf64>) -> f64 {
  %v = vector.extract %a[0] : f64 from vector<4xf64>
  return %v : f64
}
