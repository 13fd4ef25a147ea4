// How the derivative rules of arith's max and min split ties: the whole
// tangent (or cotangent) goes to the first operand, none to the second, for
// equal operands and for -0 against +0 (not half to each, as JAX and
// PyTorch do); so relu(x) = maximumf(x, 0) has the derivative 1 at 0.
// maxnumf and minnumf with a NaN operand return the other operand and take
// its tangent.

// JVPs of maximumf, minimumf, maxnumf, minnumf in the direction (dx, dy) =
// (1, 2): 1 each at ties, y's tangent 2 where y wins.
// RUN: moonc run %s --entry jvps --args '[1.5, 1.5, 1.0, 2.0]' | FileCheck %s --check-prefix=TIE
// TIE: {"results": [1.0, 1.0, 1.0, 1.0], "args":
// RUN: moonc run %s --entry jvps --args '[-0.0, 0.0, 1.0, 2.0]' | FileCheck %s --check-prefix=TIE
// RUN: moonc run %s --entry jvps --args '[0.0, -0.0, 1.0, 2.0]' | FileCheck %s --check-prefix=TIE
// RUN: moonc run %s --entry jvps --args '[1.0, 3.0, 1.0, 2.0]' | FileCheck %s --check-prefix=LESS
// LESS: {"results": [2.0, 1.0, 2.0, 1.0], "args":
func.func private @maxmin(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %a = arith.maximumf %x, %y : f64
  %b = arith.minimumf %x, %y : f64
  %c = arith.maxnumf %x, %y : f64
  %d = arith.minnumf %x, %y : f64
  return %a, %b, %c, %d : f64, f64, f64, f64
}
func.func @jvps(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64, f64, f64) {
  %r:8 = moon.jvp @maxmin(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64, f64, f64, f64, f64, f64, f64)
  return %r#4, %r#5, %r#6, %r#7 : f64, f64, f64, f64
}

// VJPs with the cotangent 1 on one result at a time, f32: (1, 0) at a
// tie, the whole cotangent to y where y wins.
// RUN: moonc run %s --entry vjps --args '[2.5, 2.5]' | FileCheck %s --check-prefix=VJP-TIE
// VJP-TIE: {"results": [1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0], "args":
// RUN: moonc run %s --entry vjps --args '[2.5, 0.5]' | FileCheck %s --check-prefix=VJP-MORE
// VJP-MORE: {"results": [1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0], "args":
func.func private @maximumf(%x: f32, %y: f32) -> f32 {
  %r = arith.maximumf %x, %y : f32
  return %r : f32
}
func.func private @minimumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minimumf %x, %y : f32
  return %r : f32
}
func.func private @maxnumf(%x: f32, %y: f32) -> f32 {
  %r = arith.maxnumf %x, %y : f32
  return %r : f32
}
func.func private @minnumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minnumf %x, %y : f32
  return %r : f32
}
func.func @vjps(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %a:3 = moon.vjp @maximumf(%x, %y, %one) : (f32, f32, f32) -> (f32, f32, f32)
  %b:3 = moon.vjp @minimumf(%x, %y, %one) : (f32, f32, f32) -> (f32, f32, f32)
  %c:3 = moon.vjp @maxnumf(%x, %y, %one) : (f32, f32, f32) -> (f32, f32, f32)
  %d:3 = moon.vjp @minnumf(%x, %y, %one) : (f32, f32, f32) -> (f32, f32, f32)
  return %a#1, %a#2, %b#1, %b#2, %c#1, %c#2, %d#1, %d#2 : f32, f32, f32, f32, f32, f32, f32, f32
}

// relu(x) = maximumf(x, 0): the gradient is 1 at 0 and above, 0 below.
// RUN: moonc run %s --entry relu_grads --args '[0.0, 0.5, -0.5]' | FileCheck %s --check-prefix=RELU
// RELU: {"results": [1.0, 1.0, 0.0], "args":
func.func private @relu(%x: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %r = arith.maximumf %x, %zero : f64
  return %r : f64
}
func.func @relu_grads(%a: f64, %b: f64, %c: f64) -> (f64, f64, f64) {
  %ga = moon.grad @relu(%a) : (f64) -> f64
  %gb = moon.grad @relu(%b) : (f64) -> f64
  %gc = moon.grad @relu(%c) : (f64) -> f64
  return %ga, %gb, %gc : f64, f64, f64
}

// maxnumf and minnumf with NaN (0 / 0, computed at run time) as x, then as
// y, in the direction (1, 2): the tangent of the number returned (2, then
// 1); forward and reverse agree.
// RUN: moonc run %s --entry nan_operands --args '[0.75, 0.0]' | FileCheck %s --check-prefix=NAN
// NAN: {"results": [0.75, 2.0, 0.75, 1.0, 0.75, 2.0, 0.75, 1.0, 0.0, 1.0, 1.0, 0.0], "args":
func.func private @numf(%x: f64, %y: f64) -> (f64, f64) {
  %c = arith.maxnumf %x, %y : f64
  %d = arith.minnumf %x, %y : f64
  return %c, %d : f64, f64
}
func.func private @maxnum(%x: f64, %y: f64) -> f64 {
  %c = arith.maxnumf %x, %y : f64
  return %c : f64
}
func.func @nan_operands(%v: f64, %zero: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %nan = arith.divf %zero, %zero : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %a:4 = moon.jvp @numf(%nan, %v, %one, %two) : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %b:4 = moon.jvp @numf(%v, %nan, %one, %two) : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %c:3 = moon.vjp @maxnum(%nan, %v, %one) : (f64, f64, f64) -> (f64, f64, f64)
  %d:3 = moon.vjp @maxnum(%v, %nan, %one) : (f64, f64, f64) -> (f64, f64, f64)
  return %a#0, %a#2, %b#0, %b#2, %a#1, %a#3, %b#1, %b#3, %c#1, %c#2, %d#1, %d#2 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}
