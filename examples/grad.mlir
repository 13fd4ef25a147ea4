// The gradient of f(x, y) = sin(x * y) + x^2, requested with moon.grad.
// `make demo` runs `moonc-opt examples/grad.mlir --moon-grad-to-vjp`, which
// rewrites the request into the reverse-mode operation moon.vjp.

func.func @f(%x: f64, %y: f64) -> f64 {
  %xy = arith.mulf %x, %y : f64
  %s = math.sin %xy : f64
  %xx = arith.mulf %x, %x : f64
  %r = arith.addf %s, %xx : f64
  return %r : f64
}

func.func @grad_f(%x: f64, %y: f64) -> (f64, f64) {
  %dx, %dy = moon.grad @f(%x, %y) : (f64, f64) -> (f64, f64)
  return %dx, %dy : f64, f64
}
