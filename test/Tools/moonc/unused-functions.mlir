// `run`, `grad`, `check` and `bench` compile only the functions they call
// and what those call: other public functions are made private and
// dropped (symbol-dce) before differentiation and moon-cpu-pipeline. A
// 50 MB module of 75,000 functions runs one in 5 s, most of it parsing.
// `compile` keeps every public function, and so reports @unused.
// RUN: moonc run %s --entry used --args '[2.0]' | FileCheck %s
// CHECK: {"results": [5.0]
// RUN: moonc grad %s --entry used --args '[2.0]' | FileCheck %s --check-prefix=GRAD
// GRAD: {"value": 5.0, "gradient": [4.0]}
// RUN: not moonc compile %s -o %t.o 2>&1 | FileCheck %s --check-prefix=COMPILE
// COMPILE: unused-functions.mlir:[[@LINE+9]]:8: error: `tensor.empty` cannot be compiled for the CPU
func.func @used(%a: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %s = func.call @square(%a) : (f64) -> f64
  %r = arith.addf %s, %one : f64
  return %r : f64
}

func.func @unused(%a: f64) -> f64 {
  %t = tensor.empty() : tensor<4xf64>
  %c0 = arith.constant 0 : index
  %v = tensor.extract %t[%c0] : tensor<4xf64>
  %s = arith.addf %a, %v : f64
  return %s : f64
}

func.func @square(%a: f64) -> f64 {
  %s = arith.mulf %a, %a : f64
  return %s : f64
}
