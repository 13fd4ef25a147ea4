func.func @f(%a: f64) -> f64 {
  %s = arith.addf %a, %a : f64
  return %s : f32
}
