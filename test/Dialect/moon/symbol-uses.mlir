// The functions moon operations name (through `callee`, `jvp`, `vjp`) are
// uses of those symbols: they survive --symbol-dce, and unused private
// functions do not.
// RUN: moonc-opt %s --symbol-dce | FileCheck %s

// CHECK-DAG: func.func private @f(
// CHECK-DAG: func.func private @f_vjp(
// CHECK-DAG: func.func private @g(
// CHECK-NOT: @unused
func.func private @f(%x: f64) -> f64 {
  return %x : f64
}
func.func private @f_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  return %x, %dy : f64, f64
}
func.func private @g(%x: f64) -> f64 {
  return %x : f64
}
func.func private @unused(%x: f64) -> f64 {
  return %x : f64
}
moon.custom_rule @f vjp @f_vjp

func.func @caller(%x: f64) -> f64 {
  %0 = moon.grad @g(%x) : (f64) -> f64
  return %0 : f64
}
