// RUN: moonc-opt %s --verify-diagnostics --moon-autodiff
// XFAIL: *
// Known bug: moonc-opt crashes (SIGSEGV in mlirEmitError) instead of
// reporting this error. replace_vjp queues the adjoint function with the
// moon.vjp as the location of its diagnostics, then erases the moon.vjp;
// check_key later reports the unsupported width at the erased operation.
// Remove the XFAIL line when fixed.

func.func @f(%x: f64) -> f64 {
  %s = math.sin %x : f64
  return %s : f64
}
func.func @caller(%x: f64, %s: vector<2xf64>) -> (f64, vector<2xf64>) {
  // expected-error @+1 {{reverse mode with `width` above 1 is not supported yet}}
  %r:2 = moon.vjp @f(%x, %s) width 2 : (f64, vector<2xf64>) -> (f64, vector<2xf64>)
  return %r#0, %r#1 : f64, vector<2xf64>
}
