// Forward mode through the math ops with a derivative: `moonc check`
// compares each function's JVP with central finite differences in random
// directions (inputs drawn uniformly from [0.5, 1.5] unless --args gives
// them) and its primal with a plain call. Arguments are shifted or scaled
// inside the functions so that every op stays inside its domain.
//
// asin, acos, asinh, acosh and absf are in @inverse_trig_abs, rsqrt and
// copysign in @rsqrt_copysign, at the end.
//
// RUN: moonc check %s --entry trig | FileCheck %s --check-prefix=TRIG
// TRIG: check: PASS
// RUN: moonc check %s --entry hyperbolic | FileCheck %s --check-prefix=HYPERBOLIC
// HYPERBOLIC: check: PASS
// RUN: moonc check %s --entry inverse_trig | FileCheck %s --check-prefix=INVERSE_TRIG
// INVERSE_TRIG: check: PASS
// RUN: moonc check %s --entry atan2_quadrants --args '[-0.7, -1.3]' | FileCheck %s --check-prefix=ATAN2_QUADRANTS
// ATAN2_QUADRANTS: check: PASS
// RUN: moonc check %s --entry inverse_hyperbolic | FileCheck %s --check-prefix=INVERSE_HYPERBOLIC
// INVERSE_HYPERBOLIC: check: PASS
// RUN: moonc check %s --entry atanh_near_one --args '[0.97, -0.99]' | FileCheck %s --check-prefix=ATANH_NEAR_ONE
// ATANH_NEAR_ONE: check: PASS
// RUN: moonc check %s --entry exponentials | FileCheck %s --check-prefix=EXPONENTIALS
// EXPONENTIALS: check: PASS
// RUN: moonc check %s --entry logarithms | FileCheck %s --check-prefix=LOGARITHMS
// LOGARITHMS: check: PASS
// RUN: moonc check %s --entry roots | FileCheck %s --check-prefix=ROOTS
// ROOTS: check: PASS
// RUN: moonc check %s --entry erf_gauss | FileCheck %s --check-prefix=ERF_GAUSS
// ERF_GAUSS: check: PASS
// RUN: moonc check %s --entry powers | FileCheck %s --check-prefix=POWERS
// POWERS: check: PASS
// RUN: moonc check %s --entry fpowi_n --args '[1.3, 3]' | FileCheck %s --check-prefix=FPOWI_N
// FPOWI_N: check: PASS
// RUN: moonc check %s --entry fpowi_n --args '[0.8, -2]' | FileCheck %s --check-prefix=FPOWI_NEG
// FPOWI_NEG: check: PASS
// RUN: moonc check %s --entry fma_chain | FileCheck %s --check-prefix=FMA_CHAIN
// FMA_CHAIN: check: PASS
// RUN: moonc check %s --entry rounding | FileCheck %s --check-prefix=ROUNDING
// ROUNDING: check: PASS
// RUN: moonc check %s --entry long_chain | FileCheck %s --check-prefix=LONG_CHAIN
// LONG_CHAIN: check: PASS
// RUN: moonc check %s --entry f32_math | FileCheck %s --check-prefix=F32_MATH
// F32_MATH: check: PASS

// sin(x*y), cos(x+y), tan(x/2) (x/2 < pi/2).
func.func @trig(%x: f64, %y: f64) -> (f64, f64, f64) {
  %half = arith.constant 0.5 : f64
  %xy = arith.mulf %x, %y : f64
  %s = math.sin %xy : f64
  %xpy = arith.addf %x, %y : f64
  %c = math.cos %xpy : f64
  %xh = arith.mulf %x, %half : f64
  %t = math.tan %xh : f64
  return %s, %c, %t : f64, f64, f64
}

// sinh(x - y), cosh(x*y), tanh(2x - y).
func.func @hyperbolic(%x: f64, %y: f64) -> (f64, f64, f64) {
  %two = arith.constant 2.0 : f64
  %d = arith.subf %x, %y : f64
  %s = math.sinh %d : f64
  %p = arith.mulf %x, %y : f64
  %c = math.cosh %p : f64
  %x2 = arith.mulf %two, %x : f64
  %e = arith.subf %x2, %y : f64
  %t = math.tanh %e : f64
  return %s, %c, %t : f64, f64, f64
}

// atan(x*y), atan2(x, y - 2) (second quadrant).
func.func @inverse_trig(%x: f64, %y: f64) -> (f64, f64) {
  %two = arith.constant 2.0 : f64
  %xy = arith.mulf %x, %y : f64
  %at = math.atan %xy : f64
  %ym = arith.subf %y, %two : f64
  %a2 = math.atan2 %x, %ym : f64
  return %at, %a2 : f64, f64
}

// atan2 with both arguments negative (the third quadrant, next to the
// branch cut on the negative x axis).
func.func @atan2_quadrants(%y: f64, %x: f64) -> (f64, f64) {
  %a = math.atan2 %y, %x : f64
  %b = math.atan2 %x, %y : f64
  return %a, %b : f64, f64
}

// atanh(y/2 - 0.3) (on both sides of 0) and atanh(x*y/3).
func.func @inverse_hyperbolic(%x: f64, %y: f64) -> (f64, f64) {
  %half = arith.constant 0.5 : f64
  %c3 = arith.constant 0.3 : f64
  %three = arith.constant 3.0 : f64
  %yh = arith.mulf %y, %half : f64
  %ys = arith.subf %yh, %c3 : f64
  %at = math.atanh %ys : f64
  %xy = arith.mulf %x, %y : f64
  %q = arith.divf %xy, %three : f64
  %at2 = math.atanh %q : f64
  return %at, %at2 : f64, f64
}

// atanh on raw arguments near the ends of its domain (from --args).
func.func @atanh_near_one(%x: f64, %y: f64) -> f64 {
  %a = math.atanh %x : f64
  %b = math.atanh %y : f64
  %c = arith.mulf %a, %b : f64
  return %c : f64
}

// exp(x*y), exp2(x - y), expm1(y/x).
func.func @exponentials(%x: f64, %y: f64) -> (f64, f64, f64) {
  %xy = arith.mulf %x, %y : f64
  %e = math.exp %xy : f64
  %d = arith.subf %x, %y : f64
  %e2 = math.exp2 %d : f64
  %q = arith.divf %y, %x : f64
  %em = math.expm1 %q : f64
  return %e, %e2, %em : f64, f64, f64
}

// log(x*y), log2(x + y), log10(x/y), log1p(x - y).
func.func @logarithms(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %xy = arith.mulf %x, %y : f64
  %l = math.log %xy : f64
  %s = arith.addf %x, %y : f64
  %l2 = math.log2 %s : f64
  %q = arith.divf %x, %y : f64
  %l10 = math.log10 %q : f64
  %d = arith.subf %x, %y : f64
  %l1p = math.log1p %d : f64
  return %l, %l2, %l10, %l1p : f64, f64, f64, f64
}

// sqrt(x*y), cbrt(x + y), cbrt(x - 2y) (cbrt of a negative number).
func.func @roots(%x: f64, %y: f64) -> (f64, f64, f64) {
  %two = arith.constant 2.0 : f64
  %xy = arith.mulf %x, %y : f64
  %s = math.sqrt %xy : f64
  %p = arith.addf %x, %y : f64
  %r = math.cbrt %p : f64
  %y2 = arith.mulf %two, %y : f64
  %d = arith.subf %x, %y2 : f64
  %c = math.cbrt %d : f64
  return %s, %r, %c : f64, f64, f64
}

// erf(x - y) and erf(x*y) (both sides of 0 are reached).
func.func @erf_gauss(%x: f64, %y: f64) -> (f64, f64) {
  %d = arith.subf %x, %y : f64
  %e = math.erf %d : f64
  %p = arith.mulf %x, %y : f64
  %f = math.erf %p : f64
  return %e, %f : f64, f64
}

// x^y with both active, x^2.5 with a constant exponent, 2^(x*y).
func.func @powers(%x: f64, %y: f64) -> (f64, f64, f64) {
  %c25 = arith.constant 2.5 : f64
  %two = arith.constant 2.0 : f64
  %a = math.powf %x, %y : f64
  %b = math.powf %x, %c25 : f64
  %xy = arith.mulf %x, %y : f64
  %c = math.powf %two, %xy : f64
  return %a, %b, %c : f64, f64, f64
}

// x^n * x for an integer n (from --args).
func.func @fpowi_n(%x: f64, %n: i32) -> f64 {
  %p = math.fpowi %x, %n : f64, i32
  %q = arith.mulf %p, %x : f64
  return %q : f64
}

// fma(x, y, z) feeding fma(y, r, x*z).
func.func @fma_chain(%x: f64, %y: f64, %z: f64) -> (f64, f64) {
  %r = math.fma %x, %y, %z : f64
  %xz = arith.mulf %x, %z : f64
  %s = math.fma %y, %r, %xz : f64
  return %r, %s : f64, f64
}

// Rounding has a zero derivative: x*y + floor(7x) + ceil(5y) + round(3x*y)
// + trunc(x + y) + roundeven(11y); the JVP is that of x*y alone.
func.func @rounding(%x: f64, %y: f64) -> f64 {
  %c7 = arith.constant 7.0 : f64
  %c5 = arith.constant 5.0 : f64
  %c3 = arith.constant 3.0 : f64
  %c11 = arith.constant 11.0 : f64
  %xy = arith.mulf %x, %y : f64
  %x7 = arith.mulf %x, %c7 : f64
  %f = math.floor %x7 : f64
  %y5 = arith.mulf %y, %c5 : f64
  %c = math.ceil %y5 : f64
  %xy3 = arith.mulf %xy, %c3 : f64
  %r = math.round %xy3 : f64
  %s = arith.addf %x, %y : f64
  %t = math.trunc %s : f64
  %y11 = arith.mulf %y, %c11 : f64
  %re = math.roundeven %y11 : f64
  %a1 = arith.addf %xy, %f : f64
  %a2 = arith.addf %a1, %c : f64
  %a3 = arith.addf %a2, %r : f64
  %a4 = arith.addf %a3, %t : f64
  %a5 = arith.addf %a4, %re : f64
  return %a5 : f64
}

// One long chain through many ops: every tangent flows through all of them.
func.func @long_chain(%x: f64, %y: f64, %z: f64) -> f64 {
  %half = arith.constant 0.5 : f64
  %a = math.sin %x : f64
  %b = arith.mulf %a, %y : f64
  %c = math.exp %b : f64
  %d = math.log1p %c : f64
  %e = math.sqrt %d : f64
  %f = arith.divf %e, %z : f64
  %g = math.tanh %f : f64
  %h = math.atan2 %g, %x : f64
  %i = math.powf %z, %h : f64
  %j = math.cbrt %i : f64
  %k = arith.mulf %j, %half : f64
  %l = math.atanh %k : f64
  %m = math.erf %l : f64
  %n = math.cosh %m : f64
  %o = math.log %n : f64
  %p = math.fma %o, %y, %x : f64
  %q = math.atan %p : f64
  return %q : f64
}

// The f32 versions (libm's and libmvec's float functions): one result per
// op family.
func.func @f32_math(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32) {
  %half = arith.constant 0.5 : f32
  %xy = arith.mulf %x, %y : f32
  %s = math.sin %xy : f32
  %c = math.cos %y : f32
  %sc = arith.addf %s, %c : f32
  %e = math.exp %x : f32
  %l = math.log %y : f32
  %el = arith.mulf %e, %l : f32
  %t = math.tanh %xy : f32
  %a = math.atan2 %x, %y : f32
  %ta = arith.addf %t, %a : f32
  %c3 = arith.constant 3 : i64
  %p = math.powf %x, %y : f32
  %q = math.fpowi %y, %c3 : f32, i64
  %pq = arith.subf %p, %q : f32
  %xh = arith.mulf %x, %half : f32
  %er = math.erf %xh : f32
  %cb = math.cbrt %xy : f32
  %ec = arith.addf %er, %cb : f32
  %sq = math.sqrt %x : f32
  %l1 = math.log1p %y : f32
  %e2 = math.exp2 %sq : f32
  %r = arith.mulf %l1, %e2 : f32
  return %sc, %el, %ta, %pq, %ec, %r : f32, f32, f32, f32, f32, f32
}

// RUN: moonc check %s --entry inverse_trig_abs --args '[0.5, -1.5]' | FileCheck %s --check-prefix=INVTRIG
// RUN: moonc check %s --entry inverse_trig_abs --args '[-0.3, 1.2]' | FileCheck %s --check-prefix=INVTRIG
// INVTRIG: check: PASS
func.func @inverse_trig_abs(%x: f64, %y: f64) -> f64 {
  %a = math.asin %x : f64
  %b = math.acos %x : f64
  %c = math.absf %y : f64
  %d = math.acosh %c : f64
  %e = math.asinh %y : f64
  %s1 = arith.mulf %a, %y : f64
  %s2 = arith.addf %s1, %b : f64
  %s3 = arith.addf %s2, %d : f64
  %s4 = arith.mulf %s3, %e : f64
  return %s4 : f64
}

// rsqrt(x*y), copysign(x, y - 1) and copysign(-x, 1 - x): the sign operands
// take both signs (positive for the first --args, negative for the second).
// RUN: moonc check %s --entry rsqrt_copysign | FileCheck %s --check-prefix=RSQRT_COPYSIGN
// RUN: moonc check %s --entry rsqrt_copysign --args '[0.7, 1.4]' | FileCheck %s --check-prefix=RSQRT_COPYSIGN
// RUN: moonc check %s --entry rsqrt_copysign --args '[1.3, 0.6]' | FileCheck %s --check-prefix=RSQRT_COPYSIGN
// RSQRT_COPYSIGN: check: PASS
func.func @rsqrt_copysign(%x: f64, %y: f64) -> (f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %xy = arith.mulf %x, %y : f64
  %r = math.rsqrt %xy : f64
  %ym = arith.subf %y, %one : f64
  %c = math.copysign %x, %ym : f64
  %xm = arith.subf %one, %x : f64
  %nx = arith.negf %x : f64
  %d = math.copysign %nx, %xm : f64
  return %r, %c, %d : f64, f64, f64
}
