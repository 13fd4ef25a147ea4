// Every float op of MLIR 22's math dialect, in f64 and f32, compiled by
// moon-cpu-pipeline and run: libm calls, LLVM intrinsics, MLIR's
// expansions and moon-math-before-libm's rewrites. Each function returns
// its ops' results in the order they are computed; values are checked to
// 12 significant digits (f64) or 8 (f32, printed as the f64 it converts
// to).

// Unary functions at x = 0.4 (acosh at w = 1.5), f64: absf, acos, asin, atan,
// asinh, atanh, cbrt, cos, cosh, erf, erfc, exp, exp2, expm1, log, log10,
// log1p, log2, rsqrt (1 / sqrt(x): libm has no rsqrt), sin, sinh, sqrt, tan,
// tanh, acosh.
// RUN: moonc run %s --entry unary_f64 --args '[0.4, 1.5]' | FileCheck %s --check-prefix=UNARY64
// UNARY64: {"results": [0.4,
// UNARY64-SAME: {{ }}1.15927948072{{[0-9]*}},
// UNARY64-SAME: {{ }}0.411516846067{{[0-9]*}},
// UNARY64-SAME: {{ }}0.380506377112{{[0-9]*}},
// UNARY64-SAME: {{ }}0.390035319770{{[0-9]*}},
// UNARY64-SAME: {{ }}0.423648930193{{[0-9]*}},
// UNARY64-SAME: {{ }}0.736806299728{{[0-9]*}},
// UNARY64-SAME: {{ }}0.921060994002{{[0-9]*}},
// UNARY64-SAME: {{ }}1.08107237183{{[0-9]*}},
// UNARY64-SAME: {{ }}0.428392355046{{[0-9]*}},
// UNARY64-SAME: {{ }}0.571607644953{{[0-9]*}},
// UNARY64-SAME: {{ }}1.49182469764{{[0-9]*}},
// UNARY64-SAME: {{ }}1.31950791077{{[0-9]*}},
// UNARY64-SAME: {{ }}0.491824697641{{[0-9]*}},
// UNARY64-SAME: {{ }}-0.916290731874{{[0-9]*}},
// UNARY64-SAME: {{ }}-0.397940008672{{[0-9]*}},
// UNARY64-SAME: {{ }}0.336472236621{{[0-9]*}},
// UNARY64-SAME: {{ }}-1.32192809488{{[0-9]*}},
// UNARY64-SAME: {{ }}1.58113883008{{[0-9]*}},
// UNARY64-SAME: {{ }}0.389418342308{{[0-9]*}},
// UNARY64-SAME: {{ }}0.410752325802{{[0-9]*}},
// UNARY64-SAME: {{ }}0.632455532033{{[0-9]*}},
// UNARY64-SAME: {{ }}0.422793218738{{[0-9]*}},
// UNARY64-SAME: {{ }}0.379948962255{{[0-9]*}},
// UNARY64-SAME: {{ }}0.962423650119{{[0-9]*}}]
func.func @unary_f64(%x: f64, %w: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %absf = math.absf %x : f64
  %acos = math.acos %x : f64
  %asin = math.asin %x : f64
  %atan = math.atan %x : f64
  %asinh = math.asinh %x : f64
  %atanh = math.atanh %x : f64
  %cbrt = math.cbrt %x : f64
  %cos = math.cos %x : f64
  %cosh = math.cosh %x : f64
  %erf = math.erf %x : f64
  %erfc = math.erfc %x : f64
  %exp = math.exp %x : f64
  %exp2 = math.exp2 %x : f64
  %expm1 = math.expm1 %x : f64
  %log = math.log %x : f64
  %log10 = math.log10 %x : f64
  %log1p = math.log1p %x : f64
  %log2 = math.log2 %x : f64
  %rsqrt = math.rsqrt %x : f64
  %sin = math.sin %x : f64
  %sinh = math.sinh %x : f64
  %sqrt = math.sqrt %x : f64
  %tan = math.tan %x : f64
  %tanh = math.tanh %x : f64
  %acosh = math.acosh %w : f64
  return %absf, %acos, %asin, %atan, %asinh, %atanh, %cbrt, %cos, %cosh, %erf, %erfc, %exp, %exp2, %expm1, %log, %log10, %log1p, %log2, %rsqrt, %sin, %sinh, %sqrt, %tan, %tanh, %acosh : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}

// Unary functions at x = 0.4 (acosh at w = 1.5), f32: absf, acos, asin, atan,
// asinh, atanh, cbrt, cos, cosh, erf, erfc, exp, exp2, expm1, log, log10,
// log1p, log2, rsqrt (1 / sqrt(x): libm has no rsqrt), sin, sinh, sqrt, tan,
// tanh, acosh.
// RUN: moonc run %s --entry unary_f32 --args '[0.4, 1.5]' | FileCheck %s --check-prefix=UNARY32
// UNARY32: {"results": [0.4,
// UNARY32-SAME: {{ }}1.1592795,
// UNARY32-SAME: {{ }}0.41151685,
// UNARY32-SAME: {{ }}0.3805064,
// UNARY32-SAME: {{ }}0.39003533,
// UNARY32-SAME: {{ }}0.42364895,
// UNARY32-SAME: {{ }}0.73680633,
// UNARY32-SAME: {{ }}0.921061,
// UNARY32-SAME: {{ }}1.0810723,
// UNARY32-SAME: {{ }}0.42839235,
// UNARY32-SAME: {{ }}0.57160765,
// UNARY32-SAME: {{ }}1.4918247,
// UNARY32-SAME: {{ }}1.319508,
// UNARY32-SAME: {{ }}0.4918247,
// UNARY32-SAME: {{ }}-0.9162907,
// UNARY32-SAME: {{ }}-0.39794,
// UNARY32-SAME: {{ }}0.33647224,
// UNARY32-SAME: {{ }}-1.321928,
// UNARY32-SAME: {{ }}1.5811388,
// UNARY32-SAME: {{ }}0.38941833,
// UNARY32-SAME: {{ }}0.41075233,
// UNARY32-SAME: {{ }}0.6324555,
// UNARY32-SAME: {{ }}0.42279324,
// UNARY32-SAME: {{ }}0.37994897,
// UNARY32-SAME: {{ }}0.9624237]
func.func @unary_f32(%x: f32, %w: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %absf = math.absf %x : f32
  %acos = math.acos %x : f32
  %asin = math.asin %x : f32
  %atan = math.atan %x : f32
  %asinh = math.asinh %x : f32
  %atanh = math.atanh %x : f32
  %cbrt = math.cbrt %x : f32
  %cos = math.cos %x : f32
  %cosh = math.cosh %x : f32
  %erf = math.erf %x : f32
  %erfc = math.erfc %x : f32
  %exp = math.exp %x : f32
  %exp2 = math.exp2 %x : f32
  %expm1 = math.expm1 %x : f32
  %log = math.log %x : f32
  %log10 = math.log10 %x : f32
  %log1p = math.log1p %x : f32
  %log2 = math.log2 %x : f32
  %rsqrt = math.rsqrt %x : f32
  %sin = math.sin %x : f32
  %sinh = math.sinh %x : f32
  %sqrt = math.sqrt %x : f32
  %tan = math.tan %x : f32
  %tanh = math.tanh %x : f32
  %acosh = math.acosh %w : f32
  return %absf, %acos, %asin, %atan, %asinh, %atanh, %cbrt, %cos, %cosh, %erf, %erfc, %exp, %exp2, %expm1, %log, %log10, %log1p, %log2, %rsqrt, %sin, %sinh, %sqrt, %tan, %tanh, %acosh : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// Rounding, f64: floor, ceil, round (ties away from zero), roundeven
// (ties to even), trunc; at ties and between them.
// RUN: moonc run %s --entry rounding_f64 --args '[-2.5]' | FileCheck %s --check-prefix=ROUNDING64A
// ROUNDING64A: {"results": [-3.0,
// ROUNDING64A-SAME: {{ }}-2.0,
// ROUNDING64A-SAME: {{ }}-3.0,
// ROUNDING64A-SAME: {{ }}-2.0,
// ROUNDING64A-SAME: {{ }}-2.0]
// RUN: moonc run %s --entry rounding_f64 --args '[2.5]' | FileCheck %s --check-prefix=ROUNDING64B
// ROUNDING64B: {"results": [2.0,
// ROUNDING64B-SAME: {{ }}3.0,
// ROUNDING64B-SAME: {{ }}3.0,
// ROUNDING64B-SAME: {{ }}2.0,
// ROUNDING64B-SAME: {{ }}2.0]
// RUN: moonc run %s --entry rounding_f64 --args '[0.7]' | FileCheck %s --check-prefix=ROUNDING64C
// ROUNDING64C: {"results": [0.0,
// ROUNDING64C-SAME: {{ }}1.0,
// ROUNDING64C-SAME: {{ }}1.0,
// ROUNDING64C-SAME: {{ }}1.0,
// ROUNDING64C-SAME: {{ }}0.0]
// RUN: moonc run %s --entry rounding_f64 --args '[-0.3]' | FileCheck %s --check-prefix=ROUNDING64D
// ROUNDING64D: {"results": [-1.0,
// ROUNDING64D-SAME: {{ }}-0.0,
// ROUNDING64D-SAME: {{ }}-0.0,
// ROUNDING64D-SAME: {{ }}-0.0,
// ROUNDING64D-SAME: {{ }}-0.0]
func.func @rounding_f64(%x: f64) -> (f64, f64, f64, f64, f64) {
  %floor = math.floor %x : f64
  %ceil = math.ceil %x : f64
  %round = math.round %x : f64
  %roundeven = math.roundeven %x : f64
  %trunc = math.trunc %x : f64
  return %floor, %ceil, %round, %roundeven, %trunc : f64, f64, f64, f64, f64
}

// Rounding, f32: floor, ceil, round (ties away from zero), roundeven
// (ties to even), trunc; at ties and between them.
// RUN: moonc run %s --entry rounding_f32 --args '[-2.5]' | FileCheck %s --check-prefix=ROUNDING32A
// ROUNDING32A: {"results": [-3.0,
// ROUNDING32A-SAME: {{ }}-2.0,
// ROUNDING32A-SAME: {{ }}-3.0,
// ROUNDING32A-SAME: {{ }}-2.0,
// ROUNDING32A-SAME: {{ }}-2.0]
// RUN: moonc run %s --entry rounding_f32 --args '[2.5]' | FileCheck %s --check-prefix=ROUNDING32B
// ROUNDING32B: {"results": [2.0,
// ROUNDING32B-SAME: {{ }}3.0,
// ROUNDING32B-SAME: {{ }}3.0,
// ROUNDING32B-SAME: {{ }}2.0,
// ROUNDING32B-SAME: {{ }}2.0]
// RUN: moonc run %s --entry rounding_f32 --args '[0.7]' | FileCheck %s --check-prefix=ROUNDING32C
// ROUNDING32C: {"results": [0.0,
// ROUNDING32C-SAME: {{ }}1.0,
// ROUNDING32C-SAME: {{ }}1.0,
// ROUNDING32C-SAME: {{ }}1.0,
// ROUNDING32C-SAME: {{ }}0.0]
// RUN: moonc run %s --entry rounding_f32 --args '[-0.3]' | FileCheck %s --check-prefix=ROUNDING32D
// ROUNDING32D: {"results": [-1.0,
// ROUNDING32D-SAME: {{ }}-0.0,
// ROUNDING32D-SAME: {{ }}-0.0,
// ROUNDING32D-SAME: {{ }}-0.0,
// ROUNDING32D-SAME: {{ }}-0.0]
func.func @rounding_f32(%x: f32) -> (f32, f32, f32, f32, f32) {
  %floor = math.floor %x : f32
  %ceil = math.ceil %x : f32
  %round = math.round %x : f32
  %roundeven = math.roundeven %x : f32
  %trunc = math.trunc %x : f32
  return %floor, %ceil, %round, %roundeven, %trunc : f32, f32, f32, f32, f32
}

// Binary ops on (x, y) then (y, x), f64: atan2, copysign, powf (NaN for a
// negative base), maximumf, minimumf, maxnumf, minnumf, remf (the sign of
// the dividend); then fma(x, y, x) and two clampf: MLIR 22 defines
// clampf(v, lo, hi) as maximumf(minimumf(v, lo), hi) and lowers it so,
// which clamps only where lo >= hi: clampf(0.7, -2.5, 1) is 1.
// RUN: moonc run %s --entry binary_f64 --args '[0.7, -2.5]' | FileCheck %s --check-prefix=BINARY64
// BINARY64: {"results": [2.86858395050{{[0-9]*}},
// BINARY64-SAME: {{ }}-1.29778762370{{[0-9]*}},
// BINARY64-SAME: {{ }}-0.7,
// BINARY64-SAME: {{ }}2.5,
// BINARY64-SAME: {{ }}2.43924205986{{[0-9]*}},
// BINARY64-SAME: {{ }}"NaN",
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}-2.5,
// BINARY64-SAME: {{ }}-2.5,
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}-2.5,
// BINARY64-SAME: {{ }}-2.5,
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}-0.400000000000{{[0-9]*}},
// BINARY64-SAME: {{ }}-1.04999999999{{[0-9]*}},
// BINARY64-SAME: {{ }}0.7,
// BINARY64-SAME: {{ }}1.0]
func.func @binary_f64(%x: f64, %y: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %atan2_xy = math.atan2 %x, %y : f64
  %atan2_yx = math.atan2 %y, %x : f64
  %copysign_xy = math.copysign %x, %y : f64
  %copysign_yx = math.copysign %y, %x : f64
  %powf_xy = math.powf %x, %y : f64
  %powf_yx = math.powf %y, %x : f64
  %maximumf_xy = arith.maximumf %x, %y : f64
  %maximumf_yx = arith.maximumf %y, %x : f64
  %minimumf_xy = arith.minimumf %x, %y : f64
  %minimumf_yx = arith.minimumf %y, %x : f64
  %maxnumf_xy = arith.maxnumf %x, %y : f64
  %maxnumf_yx = arith.maxnumf %y, %x : f64
  %minnumf_xy = arith.minnumf %x, %y : f64
  %minnumf_yx = arith.minnumf %y, %x : f64
  %remf_xy = arith.remf %x, %y : f64
  %remf_yx = arith.remf %y, %x : f64
  %fma = math.fma %x, %y, %x : f64
  %clamp_in = math.clampf %x to [%y, %x] : f64
  %one = arith.constant 1.0 : f64
  %clamp_doc = math.clampf %x to [%y, %one] : f64
  return %atan2_xy, %atan2_yx, %copysign_xy, %copysign_yx, %powf_xy, %powf_yx, %maximumf_xy, %maximumf_yx, %minimumf_xy, %minimumf_yx, %maxnumf_xy, %maxnumf_yx, %minnumf_xy, %minnumf_yx, %remf_xy, %remf_yx, %fma, %clamp_in, %clamp_doc : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}

// Binary ops on (x, y) then (y, x), f32: atan2, copysign, powf (NaN for a
// negative base), maximumf, minimumf, maxnumf, minnumf, remf (the sign of
// the dividend); then fma(x, y, x) and two clampf: MLIR 22 defines
// clampf(v, lo, hi) as maximumf(minimumf(v, lo), hi) and lowers it so,
// which clamps only where lo >= hi: clampf(0.7, -2.5, 1) is 1.
// RUN: moonc run %s --entry binary_f32 --args '[0.7, -2.5]' | FileCheck %s --check-prefix=BINARY32
// BINARY32: {"results": [2.868584,
// BINARY32-SAME: {{ }}-1.2977877,
// BINARY32-SAME: {{ }}-0.7,
// BINARY32-SAME: {{ }}2.5,
// BINARY32-SAME: {{ }}2.4392421,
// BINARY32-SAME: {{ }}"NaN",
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}-2.5,
// BINARY32-SAME: {{ }}-2.5,
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}-2.5,
// BINARY32-SAME: {{ }}-2.5,
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}-0.40000004,
// BINARY32-SAME: {{ }}-1.05,
// BINARY32-SAME: {{ }}0.7,
// BINARY32-SAME: {{ }}1.0]
func.func @binary_f32(%x: f32, %y: f32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %atan2_xy = math.atan2 %x, %y : f32
  %atan2_yx = math.atan2 %y, %x : f32
  %copysign_xy = math.copysign %x, %y : f32
  %copysign_yx = math.copysign %y, %x : f32
  %powf_xy = math.powf %x, %y : f32
  %powf_yx = math.powf %y, %x : f32
  %maximumf_xy = arith.maximumf %x, %y : f32
  %maximumf_yx = arith.maximumf %y, %x : f32
  %minimumf_xy = arith.minimumf %x, %y : f32
  %minimumf_yx = arith.minimumf %y, %x : f32
  %maxnumf_xy = arith.maxnumf %x, %y : f32
  %maxnumf_yx = arith.maxnumf %y, %x : f32
  %minnumf_xy = arith.minnumf %x, %y : f32
  %minnumf_yx = arith.minnumf %y, %x : f32
  %remf_xy = arith.remf %x, %y : f32
  %remf_yx = arith.remf %y, %x : f32
  %fma = math.fma %x, %y, %x : f32
  %clamp_in = math.clampf %x to [%y, %x] : f32
  %one = arith.constant 1.0 : f32
  %clamp_doc = math.clampf %x to [%y, %one] : f32
  return %atan2_xy, %atan2_yx, %copysign_xy, %copysign_yx, %powf_xy, %powf_yx, %maximumf_xy, %maximumf_yx, %minimumf_xy, %minimumf_yx, %maxnumf_xy, %maxnumf_yx, %minnumf_xy, %minnumf_yx, %remf_xy, %remf_yx, %fma, %clamp_in, %clamp_doc : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// Integer powers (fpowi, by convert-math-to-funcs' helper) with i32 and
// i64 exponents, x^0, and sincos (as sin and cos), f64.
// RUN: moonc run %s --entry powers_f64 --args '[1.5, 3, -2]' | FileCheck %s --check-prefix=POWERS64A
// POWERS64A: {"results": [3.375,
// POWERS64A-SAME: {{ }}0.444444444444{{[0-9]*}},
// POWERS64A-SAME: {{ }}1.0,
// POWERS64A-SAME: {{ }}0.997494986604{{[0-9]*}},
// POWERS64A-SAME: {{ }}0.0707372016677{{[0-9]*}}]
// RUN: moonc run %s --entry powers_f64 --args '[-0.5, -3, 5]' | FileCheck %s --check-prefix=POWERS64B
// POWERS64B: {"results": [-8.0,
// POWERS64B-SAME: {{ }}-0.03125,
// POWERS64B-SAME: {{ }}1.0,
// POWERS64B-SAME: {{ }}-0.479425538604{{[0-9]*}},
// POWERS64B-SAME: {{ }}0.877582561890{{[0-9]*}}]
func.func @powers_f64(%x: f64, %n: i32, %m: i64) -> (f64, f64, f64, f64, f64) {
  %p = math.fpowi %x, %n : f64, i32
  %q = math.fpowi %x, %m : f64, i64
  %zero = arith.constant 0 : i32
  %p0 = math.fpowi %x, %zero : f64, i32
  %s, %c = math.sincos %x : f64
  return %p, %q, %p0, %s, %c : f64, f64, f64, f64, f64
}

// Integer powers (fpowi, by convert-math-to-funcs' helper) with i32 and
// i64 exponents, x^0, and sincos (as sin and cos), f32.
// RUN: moonc run %s --entry powers_f32 --args '[1.5, 3, -2]' | FileCheck %s --check-prefix=POWERS32A
// POWERS32A: {"results": [3.375,
// POWERS32A-SAME: {{ }}0.44444445,
// POWERS32A-SAME: {{ }}1.0,
// POWERS32A-SAME: {{ }}0.997495,
// POWERS32A-SAME: {{ }}0.0707372]
// RUN: moonc run %s --entry powers_f32 --args '[-0.5, -3, 5]' | FileCheck %s --check-prefix=POWERS32B
// POWERS32B: {"results": [-8.0,
// POWERS32B-SAME: {{ }}-0.03125,
// POWERS32B-SAME: {{ }}1.0,
// POWERS32B-SAME: {{ }}-0.47942555,
// POWERS32B-SAME: {{ }}0.87758255]
func.func @powers_f32(%x: f32, %n: i32, %m: i64) -> (f32, f32, f32, f32, f32) {
  %p = math.fpowi %x, %n : f32, i32
  %q = math.fpowi %x, %m : f32, i64
  %zero = arith.constant 0 : i32
  %p0 = math.fpowi %x, %zero : f32, i32
  %s, %c = math.sincos %x : f32
  return %p, %q, %p0, %s, %c : f32, f32, f32, f32, f32
}

// isnan, isinf, isfinite, isnormal of 1, 0, the least subnormal, +inf,
// -inf and NaN (computed at run time, so that LLVM cannot fold the tests),
// f64: isinf and isnormal as compares of |x|, the others LLVM's is.fpclass.
// RUN: moonc run %s --entry classify_f64 --args '[1.0, 0.0, 5e-324]' | FileCheck %s --check-prefix=CLASSIFY64
// CLASSIFY64: {"results": [0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}1,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0,
// CLASSIFY64-SAME: {{ }}0]
func.func @classify_f64(%one: f64, %zero: f64, %sub: f64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %pinf = arith.divf %one, %zero : f64
  %ninf = arith.negf %pinf : f64
  %nan = arith.divf %zero, %zero : f64
  %isnan0 = math.isnan %one : f64
  %isinf0 = math.isinf %one : f64
  %isfinite0 = math.isfinite %one : f64
  %isnormal0 = math.isnormal %one : f64
  %isnan1 = math.isnan %zero : f64
  %isinf1 = math.isinf %zero : f64
  %isfinite1 = math.isfinite %zero : f64
  %isnormal1 = math.isnormal %zero : f64
  %isnan2 = math.isnan %sub : f64
  %isinf2 = math.isinf %sub : f64
  %isfinite2 = math.isfinite %sub : f64
  %isnormal2 = math.isnormal %sub : f64
  %isnan3 = math.isnan %pinf : f64
  %isinf3 = math.isinf %pinf : f64
  %isfinite3 = math.isfinite %pinf : f64
  %isnormal3 = math.isnormal %pinf : f64
  %isnan4 = math.isnan %ninf : f64
  %isinf4 = math.isinf %ninf : f64
  %isfinite4 = math.isfinite %ninf : f64
  %isnormal4 = math.isnormal %ninf : f64
  %isnan5 = math.isnan %nan : f64
  %isinf5 = math.isinf %nan : f64
  %isfinite5 = math.isfinite %nan : f64
  %isnormal5 = math.isnormal %nan : f64
  return %isnan0, %isinf0, %isfinite0, %isnormal0, %isnan1, %isinf1, %isfinite1, %isnormal1, %isnan2, %isinf2, %isfinite2, %isnormal2, %isnan3, %isinf3, %isfinite3, %isnormal3, %isnan4, %isinf4, %isfinite4, %isnormal4, %isnan5, %isinf5, %isfinite5, %isnormal5 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// isnan, isinf, isfinite, isnormal of 1, 0, the least subnormal, +inf,
// -inf and NaN (computed at run time, so that LLVM cannot fold the tests),
// f32: isinf and isnormal as compares of |x|, the others LLVM's is.fpclass.
// RUN: moonc run %s --entry classify_f32 --args '[1.0, 0.0, 1e-45]' | FileCheck %s --check-prefix=CLASSIFY32
// CLASSIFY32: {"results": [0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}1,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0,
// CLASSIFY32-SAME: {{ }}0]
func.func @classify_f32(%one: f32, %zero: f32, %sub: f32) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %pinf = arith.divf %one, %zero : f32
  %ninf = arith.negf %pinf : f32
  %nan = arith.divf %zero, %zero : f32
  %isnan0 = math.isnan %one : f32
  %isinf0 = math.isinf %one : f32
  %isfinite0 = math.isfinite %one : f32
  %isnormal0 = math.isnormal %one : f32
  %isnan1 = math.isnan %zero : f32
  %isinf1 = math.isinf %zero : f32
  %isfinite1 = math.isfinite %zero : f32
  %isnormal1 = math.isnormal %zero : f32
  %isnan2 = math.isnan %sub : f32
  %isinf2 = math.isinf %sub : f32
  %isfinite2 = math.isfinite %sub : f32
  %isnormal2 = math.isnormal %sub : f32
  %isnan3 = math.isnan %pinf : f32
  %isinf3 = math.isinf %pinf : f32
  %isfinite3 = math.isfinite %pinf : f32
  %isnormal3 = math.isnormal %pinf : f32
  %isnan4 = math.isnan %ninf : f32
  %isinf4 = math.isinf %ninf : f32
  %isfinite4 = math.isfinite %ninf : f32
  %isnormal4 = math.isnormal %ninf : f32
  %isnan5 = math.isnan %nan : f32
  %isinf5 = math.isinf %nan : f32
  %isfinite5 = math.isfinite %nan : f32
  %isnormal5 = math.isnormal %nan : f32
  return %isnan0, %isinf0, %isfinite0, %isnormal0, %isnan1, %isinf1, %isfinite1, %isnormal1, %isnan2, %isinf2, %isfinite2, %isnormal2, %isnan3, %isinf3, %isfinite3, %isnormal3, %isnan4, %isinf4, %isfinite4, %isnormal4, %isnan5, %isinf5, %isfinite5, %isnormal5 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}
