// Derivatives inside a differentiated function are generated first, so the
// outer derivative differentiates their tangent functions (forward over
// forward). No perturbation confusion: D(x -> x * D(y -> x + y)(1))(1) = 1.
// The inner tangent function's primal result is unused in @inner, so the
// outer derivative asks for its tangent only (`_ca`).
// RUN: moonc-opt %s --moon-autodiff=inline-max-ops=0 | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff=inline-max-ops=0 -o %t.mlir
// RUN: moonc run %t.mlir --entry outer --args '[3.0]' | FileCheck %s --check-prefix=VALUE
// VALUE: {"results": [3.0, 1.0], "args": [null]}

// CHECK-LABEL: func.func private @inner_jvp_a_a(
// CHECK: call @add_jvp_aa_a_jvp_accc_ca(
// CHECK-LABEL: func.func @outer(
// CHECK: call @inner_jvp_a_a(
// CHECK-NOT: moon.jvp
func.func private @add(%x: f64, %y: f64) -> f64 {
  %s = arith.addf %x, %y : f64
  return %s : f64
}
func.func private @inner(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %v, %d = moon.jvp @add(%x, %one, %zero, %one) : (f64, f64, f64, f64) -> (f64, f64)
  %p = arith.mulf %x, %d : f64
  return %p : f64
}
func.func @outer(%x: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %v, %d = moon.jvp @inner(%x, %one) : (f64, f64) -> (f64, f64)
  return %v, %d : f64, f64
}
