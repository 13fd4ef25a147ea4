// `moonc check` of the math rules that MLIR 22's ops added or that
// moon-cpu-pipeline could not run before (rsqrt, copysign, erfc, clampf,
// sincos, the classification tests): the JVP against central finite
// differences, the VJP, and the forward/reverse dot-product test, in f64
// and f32, on inputs drawn from [0.5, 1.5] (seed 0) unless --args gives
// them. Arguments are shifted inside the functions to reach both signs.

// RUN: moonc check %s --entry rsqrt_erfc | FileCheck %s --check-prefix=RSQRT
// RSQRT: check @rsqrt_erfc: 2 float inputs, 3 float outputs
// RSQRT: jvp vs finite differences, direction 1: ok
// RSQRT: dot product (forward vs reverse): ok
// RSQRT: check: PASS (8 checks)
func.func @rsqrt_erfc(%x: f64, %y: f64) -> (f64, f64, f64) {
  %xy = arith.mulf %x, %y : f64
  %r = math.rsqrt %xy : f64
  %d = arith.subf %x, %y : f64
  %e = math.erfc %d : f64
  %e2 = math.erfc %xy : f64
  return %r, %e, %e2 : f64, f64, f64
}

// copysign with magnitudes and signs of both signs: the derivative in the
// magnitude is the product of the signs, in the sign zero. The --args run
// puts x - 1 and 1 - y on opposite sides of 0.
// RUN: moonc check %s --entry copysign | FileCheck %s --check-prefix=COPYSIGN
// COPYSIGN: check: PASS (8 checks)
// RUN: moonc check %s --entry copysign --args '[0.7, 0.6]' | FileCheck %s --check-prefix=COPYSIGN-ARGS
// COPYSIGN-ARGS: check: PASS (8 checks)
// RUN: moonc check %s --entry copysign --args '[1.3, 1.4]' | FileCheck %s --check-prefix=COPYSIGN-ARGS
func.func @copysign(%x: f64, %y: f64) -> (f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %xm = arith.subf %x, %one : f64
  %ym = arith.subf %one, %y : f64
  %xy = arith.mulf %x, %y : f64
  %a = math.copysign %xy, %ym : f64
  %b = math.copysign %xm, %y : f64
  %c = math.copysign %xm, %ym : f64
  return %a, %b, %c : f64, f64, f64
}

// clampf(v, lo, hi) = maximumf(minimumf(v, lo), hi) (MLIR 22): with
// (v, lo, hi) = (x, y, z), then (x, y, 1) and (x, 2, y), each operand's
// tangent is reached by some draw or --args.
// RUN: moonc check %s --entry clampf | FileCheck %s --check-prefix=CLAMPF
// CLAMPF: check: PASS (8 checks)
// RUN: moonc check %s --entry clampf --args '[0.6, 1.2, 0.8]' | FileCheck %s --check-prefix=CLAMPF
// RUN: moonc check %s --entry clampf --args '[1.4, 0.7, 0.9]' | FileCheck %s --check-prefix=CLAMPF
// RUN: moonc check %s --entry clampf --args '[1.4, 1.1, 0.9]' | FileCheck %s --check-prefix=CLAMPF
func.func @clampf(%x: f64, %y: f64, %z: f64) -> (f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %a = math.clampf %x to [%y, %z] : f64
  %b = math.clampf %x to [%y, %one] : f64
  %c = math.clampf %x to [%two, %y] : f64
  return %a, %b, %c : f64, f64, f64
}

// sincos: both results, then only one.
// RUN: moonc check %s --entry sincos | FileCheck %s --check-prefix=SINCOS
// SINCOS: check: PASS (8 checks)
func.func @sincos(%x: f64, %y: f64) -> (f64, f64, f64) {
  %xy = arith.mulf %x, %y : f64
  %s, %c = math.sincos %xy : f64
  %p = arith.mulf %s, %c : f64
  %q = arith.addf %p, %c : f64
  %s2, %c2 = math.sincos %y : f64
  %t = arith.mulf %x, %c2 : f64
  return %q, %s, %t : f64, f64, f64
}

// The classification tests of active values: no tangent of their own.
// RUN: moonc check %s --entry classify | FileCheck %s --check-prefix=CLASSIFY
// CLASSIFY: check: PASS (8 checks)
func.func @classify(%x: f64, %y: f64) -> f64 {
  %xy = arith.mulf %x, %y : f64
  %n = math.isnan %xy : f64
  %i = math.isinf %xy : f64
  %f = math.isfinite %x : f64
  %m = math.isnormal %y : f64
  %bad = arith.ori %n, %i : i1
  %good = arith.andi %f, %m : i1
  %zero = arith.constant 0.0 : f64
  %a = arith.select %bad, %zero, %xy : f64
  %b = arith.select %good, %a, %zero : f64
  return %b : f64
}

// The same rules in f32.
// RUN: moonc check %s --entry f32_ops | FileCheck %s --check-prefix=F32
// F32: check @f32_ops: 2 float inputs, 5 float outputs
// F32: check: PASS (8 checks)
func.func @f32_ops(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32) {
  %one = arith.constant 1.0 : f32
  %xy = arith.mulf %x, %y : f32
  %r = math.rsqrt %xy : f32
  %d = arith.subf %x, %y : f32
  %e = math.erfc %d : f32
  %ym = arith.subf %one, %y : f32
  %c = math.copysign %xy, %ym : f32
  %k = math.clampf %x to [%y, %one] : f32
  %s, %co = math.sincos %xy : f32
  %sc = arith.mulf %s, %co : f32
  return %r, %e, %c, %k, %sc : f32, f32, f32, f32, f32
}
