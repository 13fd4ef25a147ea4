// RUN: moonc-opt %s --verify-diagnostics --moon-autodiff
// moon.vjp asks for a width reverse mode does not support: a located error.

func.func @f(%x: f64) -> f64 {
  %s = math.sin %x : f64
  return %s : f64
}
func.func @caller(%x: f64, %s: vector<2xf64>) -> (f64, vector<2xf64>) {
  // expected-error @+1 {{reverse mode with `width` above 1 is not supported yet}}
  %r:2 = moon.vjp @f(%x, %s) width 2 : (f64, vector<2xf64>) -> (f64, vector<2xf64>)
  return %r#0, %r#1 : f64, vector<2xf64>
}
