// `moonc check` of arith's max, min and remf rules away from ties (see
// test/Execution/arith-max-min-ties.mlir for ties and NaN): the JVP
// against central finite differences, the VJP, and the forward/reverse
// dot-product test, on inputs drawn from [0.5, 1.5] (seed 0) or --args.
// Both orders of the operands are compared, so each operand's tangent is
// taken by some result.

// RUN: moonc check %s --entry maxmin | FileCheck %s --check-prefix=MAXMIN
// RUN: moonc check %s --entry maxmin --args '[1.2, 0.7]' | FileCheck %s --check-prefix=MAXMIN
// RUN: moonc check %s --entry maxmin --args '[0.6, 1.3]' | FileCheck %s --check-prefix=MAXMIN
// MAXMIN: check @maxmin: 2 float inputs, 4 float outputs
// MAXMIN: jvp vs finite differences, direction 1: ok
// MAXMIN: dot product (forward vs reverse): ok
// MAXMIN: check: PASS (8 checks)
func.func @maxmin(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %two = arith.constant 2.0 : f64
  %y2 = arith.mulf %y, %two : f64
  %x2 = arith.mulf %x, %x : f64
  %a = arith.maximumf %x2, %y : f64
  %b = arith.minimumf %y2, %x : f64
  %c = arith.maxnumf %y, %x2 : f64
  %d = arith.minnumf %x, %y2 : f64
  return %a, %b, %c, %d : f64, f64, f64, f64
}

// remf(x * 7, y) (the quotient of 3 to 21 ranges over integers) and
// remf(y, x) in f32.
// RUN: moonc check %s --entry rem | FileCheck %s --check-prefix=REM
// REM: check: PASS (8 checks)
// RUN: moonc check %s --entry rem32 | FileCheck %s --check-prefix=REM32
// REM32: check: PASS (8 checks)
func.func @rem(%x: f64, %y: f64) -> (f64, f64) {
  %seven = arith.constant 7.0 : f64
  %x7 = arith.mulf %x, %seven : f64
  %a = arith.remf %x7, %y : f64
  %b = arith.remf %y, %x : f64
  return %a, %b : f64, f64
}
func.func @rem32(%x: f32, %y: f32) -> f32 {
  %seven = arith.constant 7.0 : f32
  %x7 = arith.mulf %x, %seven : f32
  %a = arith.remf %x7, %y : f32
  return %a : f32
}
