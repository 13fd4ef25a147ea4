// The derivative of copysign(x, s) in x is the product of the signs of x
// and s, signed zeros included, and does not depend on x * s (which is -0
// or +0 for a zero s and underflows for tiny operands); in s it is zero.
// (1e-30 squared underflows in f32, 1e-200 squared in f64, where f32
// holds +0 and -0.) JVPs in the direction (dx, ds) = (1, 5), then the VJP's (xbar, sbar)
// for the cotangent 1, f64 then f32.
// RUN: moonc run %s --entry signs --args '[0.5, -0.0]' | FileCheck %s --check-prefix=NEG
// NEG: {"results": [-0.5, -1.0, -1.0, 0.0, -0.5, -1.0, -1.0, 0.0], "args":
// RUN: moonc run %s --entry signs --args '[-0.5, -0.0]' | FileCheck %s --check-prefix=NEGNEG
// NEGNEG: {"results": [-0.5, 1.0, 1.0, 0.0, -0.5, 1.0, 1.0, 0.0], "args":
// RUN: moonc run %s --entry signs --args '[-0.5, 0.0]' | FileCheck %s --check-prefix=POS
// POS: {"results": [0.5, -1.0, -1.0, 0.0, 0.5, -1.0, -1.0, 0.0], "args":
// RUN: moonc run %s --entry signs --args '[1e-30, -1e-30]' | FileCheck %s --check-prefix=TINY
// TINY: {"results": [-1e-30, -1.0, -1.0, 0.0, -1e-30, -1.0, -1.0, 0.0], "args":
// RUN: moonc run %s --entry signs --args '[1e-200, -1e-200]' | FileCheck %s --check-prefix=TINY64
// TINY64: {"results": [-1e-200, -1.0, -1.0, 0.0, -0.0, -1.0, -1.0, 0.0], "args":

func.func private @copysign(%x: f64, %s: f64) -> f64 {
  %r = math.copysign %x, %s : f64
  return %r : f64
}
func.func private @copysign32(%x: f32, %s: f32) -> f32 {
  %r = math.copysign %x, %s : f32
  return %r : f32
}
func.func @signs(%x: f64, %s: f64) -> (f64, f64, f64, f64, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f64
  %five = arith.constant 5.0 : f64
  %j:2 = moon.jvp @copysign(%x, %s, %one, %five) : (f64, f64, f64, f64) -> (f64, f64)
  %v:3 = moon.vjp @copysign(%x, %s, %one) : (f64, f64, f64) -> (f64, f64, f64)
  %x32 = arith.truncf %x : f64 to f32
  %s32 = arith.truncf %s : f64 to f32
  %one32 = arith.constant 1.0 : f32
  %five32 = arith.constant 5.0 : f32
  %j32:2 = moon.jvp @copysign32(%x32, %s32, %one32, %five32) : (f32, f32, f32, f32) -> (f32, f32)
  %v32:3 = moon.vjp @copysign32(%x32, %s32, %one32) : (f32, f32, f32) -> (f32, f32, f32)
  return %j#0, %j#1, %v#1, %v#2, %j32#0, %j32#1, %v32#1, %v32#2 : f64, f64, f64, f64, f32, f32, f32, f32
}
