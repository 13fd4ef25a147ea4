// Input the pass cannot rewrite is rejected by the verifier, at the
// operation, before the pass runs.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-grad-to-vjp

func.func private @two(f64) -> (f64, f64)
func.func @caller(%x: f64) -> f64 {
  // expected-error @+1 {{'moon.grad' op needs a function that returns exactly one floating-point scalar (or rank-0 tensor of floats), but the function returns (f64, f64)}}
  %0 = moon.grad @two(%x) : (f64) -> f64
  return %0 : f64
}

// -----

func.func @caller(%x: f64) -> f64 {
  // expected-error @+1 {{'moon.value_and_grad' op no function named @absent}}
  %0:2 = moon.value_and_grad @absent(%x) : (f64) -> (f64, f64)
  return %0#1 : f64
}
