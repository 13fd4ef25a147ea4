// Forward mode through arith: the four operations, negation, remainders,
// min/max and select on both sides, and precision changes (extf, truncf)
// between f32 and f64. `moonc check` compares each JVP with central finite
// differences in random directions.
//
// RUN: moonc check %s --entry basic | FileCheck %s --check-prefix=BASIC
// BASIC: check: PASS
// RUN: moonc check %s --entry rational | FileCheck %s --check-prefix=RATIONAL
// RATIONAL: check: PASS
// RUN: moonc check %s --entry remainders | FileCheck %s --check-prefix=REMAINDERS
// REMAINDERS: check: PASS
// RUN: moonc check %s --entry remainders --args '[-1.7, 0.45]' | FileCheck %s --check-prefix=REMAINDERS_NEG
// REMAINDERS_NEG: check: PASS
// RUN: moonc check %s --entry min_max --args '[1.3, 1.2]' | FileCheck %s --check-prefix=MIN_MAX_A
// MIN_MAX_A: check: PASS
// RUN: moonc check %s --entry min_max --args '[0.15, 0.3]' | FileCheck %s --check-prefix=MIN_MAX_B
// MIN_MAX_B: check: PASS
// RUN: moonc check %s --entry select_branches --args '[0.7, 1.1]' | FileCheck %s --check-prefix=SELECT_LT
// SELECT_LT: check: PASS
// RUN: moonc check %s --entry select_branches --args '[1.4, 0.8]' | FileCheck %s --check-prefix=SELECT_GE
// SELECT_GE: check: PASS
// RUN: moonc check %s --entry relu_sum | FileCheck %s --check-prefix=RELU_SUM
// RELU_SUM: check: PASS
// RUN: moonc check %s --entry f32_chain | FileCheck %s --check-prefix=F32_CHAIN
// F32_CHAIN: check: PASS
// RUN: moonc check %s --entry widen_narrow | FileCheck %s --check-prefix=WIDEN_NARROW
// WIDEN_NARROW: check: PASS
// RUN: moonc check %s --entry f64_in_f32_out | FileCheck %s --check-prefix=F64_IN_F32_OUT
// F64_IN_F32_OUT: check: PASS
// RUN: moonc check %s --entry results_shapes | FileCheck %s --check-prefix=RESULTS_SHAPES
// RESULTS_SHAPES: check: PASS
// RUN: moonc check %s --entry fptosi_path --args '[2.5]' | FileCheck %s --check-prefix=FPTOSI_PATH
// FPTOSI_PATH: check: PASS

// x + y, x - z, x*y*z, -(x*x), and a product with a constant.
func.func @basic(%x: f64, %y: f64, %z: f64) -> (f64, f64, f64, f64, f64) {
  %c3 = arith.constant 3.0 : f64
  %a = arith.addf %x, %y : f64
  %s = arith.subf %x, %z : f64
  %xy = arith.mulf %x, %y : f64
  %m = arith.mulf %xy, %z : f64
  %xx = arith.mulf %x, %x : f64
  %n = arith.negf %xx : f64
  %k = arith.mulf %c3, %z : f64
  return %a, %s, %m, %n, %k : f64, f64, f64, f64, f64
}

// x/y, 1/(x + y), (x - y)/(x*y), (y/y)*x (y/y has a zero derivative).
func.func @rational(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %q = arith.divf %x, %y : f64
  %s = arith.addf %x, %y : f64
  %r = arith.divf %one, %s : f64
  %d = arith.subf %x, %y : f64
  %p = arith.mulf %x, %y : f64
  %t = arith.divf %d, %p : f64
  %u = arith.divf %y, %y : f64
  %ux = arith.mulf %u, %x : f64
  return %q, %r, %t, %ux : f64, f64, f64, f64
}

// remf(5x, y) (both operands active), remf(x*y, 0.3), remf(2, y).
func.func @remainders(%x: f64, %y: f64) -> (f64, f64, f64) {
  %c5 = arith.constant 5.0 : f64
  %c03 = arith.constant 0.3 : f64
  %two = arith.constant 2.0 : f64
  %x5 = arith.mulf %x, %c5 : f64
  %a = arith.remf %x5, %y : f64
  %xy = arith.mulf %x, %y : f64
  %b = arith.remf %xy, %c03 : f64
  %c = arith.remf %two, %y : f64
  return %a, %b, %c : f64, f64, f64
}

// maximumf(x, y^2), minimumf(x, 1 - y), maxnumf(e^x - 1, y), minnumf(x*y, y):
// at (1.3, 1.2) they pick y^2, 1 - y, e^x - 1 and y; at (0.15, 0.3) the
// other side each.
func.func @min_max(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %one = arith.constant 1.0 : f64
  %yy = arith.mulf %y, %y : f64
  %a = arith.maximumf %x, %yy : f64
  %d = arith.subf %one, %y : f64
  %b = arith.minimumf %x, %d : f64
  %e = math.expm1 %x : f64
  %c = arith.maxnumf %e, %y : f64
  %xy = arith.mulf %x, %y : f64
  %dd = arith.minnumf %xy, %y : f64
  return %a, %b, %c, %dd : f64, f64, f64, f64
}

// select on a comparison of active values: x < y ? x*y : sin(x) + y.
func.func @select_branches(%x: f64, %y: f64) -> f64 {
  %lt = arith.cmpf olt, %x, %y : f64
  %p = arith.mulf %x, %y : f64
  %s = math.sin %x : f64
  %q = arith.addf %s, %y : f64
  %r = arith.select %lt, %p, %q : f64
  return %r : f64
}

// max(0, x - 1) + max(0, 1 - y) + x*y: a hinge on both sides at once.
func.func @relu_sum(%x: f64, %y: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %a = arith.subf %x, %one : f64
  %ra = arith.maximumf %zero, %a : f64
  %b = arith.subf %one, %y : f64
  %rb = arith.maximumf %b, %zero : f64
  %xy = arith.mulf %x, %y : f64
  %s = arith.addf %ra, %rb : f64
  %t = arith.addf %s, %xy : f64
  return %t : f64
}

// f32 throughout: exp(x) * sin(y) / (1 + x*y), sqrt(x + y).
func.func @f32_chain(%x: f32, %y: f32) -> (f32, f32) {
  %one = arith.constant 1.0 : f32
  %e = math.exp %x : f32
  %s = math.sin %y : f32
  %n = arith.mulf %e, %s : f32
  %xy = arith.mulf %x, %y : f32
  %d = arith.addf %one, %xy : f32
  %q = arith.divf %n, %d : f32
  %p = arith.addf %x, %y : f32
  %r = math.sqrt %p : f32
  return %q, %r : f32, f32
}

// f32 inputs widened to f64 for the computation, the result narrowed back,
// plus an f64 result.
func.func @widen_narrow(%x: f32, %y: f32) -> (f32, f64) {
  %xd = arith.extf %x : f32 to f64
  %yd = arith.extf %y : f32 to f64
  %p = arith.mulf %xd, %yd : f64
  %l = math.log %p : f64
  %e = math.exp %yd : f64
  %s = arith.addf %l, %e : f64
  %n = arith.truncf %s : f64 to f32
  %c = math.cos %n : f32
  %w = arith.extf %c : f32 to f64
  %r = arith.mulf %w, %xd : f64
  return %c, %r : f32, f64
}

// f64 inputs computed in f32 and returned as f32.
func.func @f64_in_f32_out(%x: f64, %y: f64) -> f32 {
  %xs = arith.truncf %x : f64 to f32
  %ys = arith.truncf %y : f64 to f32
  %t = math.tanh %xs : f32
  %p = arith.mulf %t, %ys : f32
  %q = arith.addf %p, %ys : f32
  return %q : f32
}

// Results that are products, constants, arguments returned as they are,
// and the same value twice.
func.func @results_shapes(%x: f64, %y: f64) -> (f64, f64, f64, f64) {
  %two = arith.constant 2.0 : f64
  %p = arith.mulf %x, %y : f64
  return %p, %two, %x, %p : f64, f64, f64, f64
}

// x * x * float(int(x)): the round trip through an integer is constant.
func.func @fptosi_path(%x: f32) -> f32 {
  %i = arith.fptosi %x : f32 to i32
  %f = arith.sitofp %i : i32 to f32
  %p = arith.mulf %f, %x : f32
  %q = arith.mulf %p, %x : f32
  return %q : f32
}
