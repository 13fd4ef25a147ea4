// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// The forward rule of each math op forward.mlir does not show, one op per
// case.

// |x|: the sign of x times dx (+1 at 0).
// CHECK-LABEL: func.func private @absf_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ABSF:.*]] = math.absf %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf olt, %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[DX]] : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[NEGF]], %[[DX]] : f64
// CHECK-NEXT: return %[[ABSF]], %[[SELECT]] : f64, f64
func.func @absf(%x: f64) -> f64 {
  %y = math.absf %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @absf(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// tan: dx * (1 + y^2), from the result.
// CHECK-LABEL: func.func private @tan_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[TAN:.*]] = math.tan %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[TAN]], %[[TAN]] : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DX]], %[[ADDF]] : f64
// CHECK-NEXT: return %[[TAN]], %[[MULF2]] : f64, f64
func.func @tan(%x: f64) -> f64 {
  %y = math.tan %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @tan(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// sinh: dx * cosh(x).
// CHECK-LABEL: func.func private @sinh_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[SINH:.*]] = math.sinh %[[X]] : f64
// CHECK-NEXT: %[[COSH:.*]] = math.cosh %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DX]], %[[COSH]] : f64
// CHECK-NEXT: return %[[SINH]], %[[MULF]] : f64, f64
func.func @sinh(%x: f64) -> f64 {
  %y = math.sinh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @sinh(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// cosh: dx * sinh(x).
// CHECK-LABEL: func.func private @cosh_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[COSH:.*]] = math.cosh %[[X]] : f64
// CHECK-NEXT: %[[SINH:.*]] = math.sinh %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DX]], %[[SINH]] : f64
// CHECK-NEXT: return %[[COSH]], %[[MULF]] : f64, f64
func.func @cosh(%x: f64) -> f64 {
  %y = math.cosh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @cosh(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// asin: dx / sqrt(1 - x^2).
// CHECK-LABEL: func.func private @asin_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ASIN:.*]] = math.asin %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[SUBF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ASIN]], %[[DIVF]] : f64, f64
func.func @asin(%x: f64) -> f64 {
  %y = math.asin %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @asin(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// acos: -dx / sqrt(1 - x^2).
// CHECK-LABEL: func.func private @acos_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ACOS:.*]] = math.acos %[[X]] : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[DX]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[SUBF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[NEGF]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ACOS]], %[[DIVF]] : f64, f64
func.func @acos(%x: f64) -> f64 {
  %y = math.acos %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @acos(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// atan: dx / (1 + x^2).
// CHECK-LABEL: func.func private @atan_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ATAN:.*]] = math.atan %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[ADDF]] : f64
// CHECK-NEXT: return %[[ATAN]], %[[DIVF]] : f64, f64
func.func @atan(%x: f64) -> f64 {
  %y = math.atan %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @atan(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// asinh: dx / sqrt(x^2 + 1).
// CHECK-LABEL: func.func private @asinh_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ASINH:.*]] = math.asinh %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[MULF]], %[[C]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[ADDF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ASINH]], %[[DIVF]] : f64, f64
func.func @asinh(%x: f64) -> f64 {
  %y = math.asinh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @asinh(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// acosh: dx / sqrt(x^2 - 1).
// CHECK-LABEL: func.func private @acosh_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ACOSH:.*]] = math.acosh %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[MULF]], %[[C]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[SUBF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ACOSH]], %[[DIVF]] : f64, f64
func.func @acosh(%x: f64) -> f64 {
  %y = math.acosh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @acosh(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// atanh: dx / (1 - x^2).
// CHECK-LABEL: func.func private @atanh_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ATANH:.*]] = math.atanh %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[SUBF]] : f64
// CHECK-NEXT: return %[[ATANH]], %[[DIVF]] : f64, f64
func.func @atanh(%x: f64) -> f64 {
  %y = math.atanh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @atanh(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// exp2: dx * (y * ln 2), from the result.
// CHECK-LABEL: func.func private @exp2_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[EXP2:.*]] = math.exp2 %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.69314718055994529 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[EXP2]], %[[C]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DX]], %[[MULF]] : f64
// CHECK-NEXT: return %[[EXP2]], %[[MULF2]] : f64, f64
func.func @exp2(%x: f64) -> f64 {
  %y = math.exp2 %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @exp2(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// expm1: dx * (y + 1), from the result.
// CHECK-LABEL: func.func private @expm1_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[EXPM1:.*]] = math.expm1 %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[EXPM1]], %[[C]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DX]], %[[ADDF]] : f64
// CHECK-NEXT: return %[[EXPM1]], %[[MULF]] : f64, f64
func.func @expm1(%x: f64) -> f64 {
  %y = math.expm1 %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @expm1(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// log2: dx / (x * ln 2).
// CHECK-LABEL: func.func private @log2_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[LOG2:.*]] = math.log2 %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.69314718055994529 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[MULF]] : f64
// CHECK-NEXT: return %[[LOG2]], %[[DIVF]] : f64, f64
func.func @log2(%x: f64) -> f64 {
  %y = math.log2 %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @log2(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// log10: dx / (x * ln 10).
// CHECK-LABEL: func.func private @log10_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[LOG10:.*]] = math.log10 %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.3025850929940459 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[MULF]] : f64
// CHECK-NEXT: return %[[LOG10]], %[[DIVF]] : f64, f64
func.func @log10(%x: f64) -> f64 {
  %y = math.log10 %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @log10(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// log1p: dx / (x + 1).
// CHECK-LABEL: func.func private @log1p_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[LOG1P:.*]] = math.log1p %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[DX]], %[[ADDF]] : f64
// CHECK-NEXT: return %[[LOG1P]], %[[DIVF]] : f64, f64
func.func @log1p(%x: f64) -> f64 {
  %y = math.log1p %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @log1p(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// rsqrt: dx * (-0.5 * y / x), from the result.
// CHECK-LABEL: func.func private @rsqrt_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[RSQRT:.*]] = math.rsqrt %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[C]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[NEGF]], %[[RSQRT]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[MULF]], %[[X]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DX]], %[[DIVF]] : f64
// CHECK-NEXT: return %[[RSQRT]], %[[MULF2]] : f64, f64
func.func @rsqrt(%x: f64) -> f64 {
  %y = math.rsqrt %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @rsqrt(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// cbrt: dx * (y / (3x)), from the result.
// CHECK-LABEL: func.func private @cbrt_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[CBRT:.*]] = math.cbrt %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[C]], %[[X]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[CBRT]], %[[MULF]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DX]], %[[DIVF]] : f64
// CHECK-NEXT: return %[[CBRT]], %[[MULF2]] : f64, f64
func.func @cbrt(%x: f64) -> f64 {
  %y = math.cbrt %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @cbrt(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// erf: dx * 2/sqrt(pi) * exp(-x^2).
// CHECK-LABEL: func.func private @erf_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ERF:.*]] = math.erf %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.1283791670955126 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[MULF]] : f64
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEGF]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[C]], %[[EXP]] : f64
// CHECK-NEXT: %[[MULF3:.*]] = arith.mulf %[[DX]], %[[MULF2]] : f64
// CHECK-NEXT: return %[[ERF]], %[[MULF3]] : f64, f64
func.func @erf(%x: f64) -> f64 {
  %y = math.erf %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @erf(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// erfc: dx * -2/sqrt(pi) * exp(-x^2).
// CHECK-LABEL: func.func private @erfc_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ERFC:.*]] = math.erfc %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.1283791670955126 : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[C]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[NEGF2:.*]] = arith.negf %[[MULF]] : f64
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEGF2]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[NEGF]], %[[EXP]] : f64
// CHECK-NEXT: %[[MULF3:.*]] = arith.mulf %[[DX]], %[[MULF2]] : f64
// CHECK-NEXT: return %[[ERFC]], %[[MULF3]] : f64, f64
func.func @erfc(%x: f64) -> f64 {
  %y = math.erfc %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @erfc(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// copysign(x, s): dx times the product of the signs of x and s
// (signed zeros included); s has no tangent term (piecewise constant).
// CHECK-LABEL: func.func private @copysign_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32, %[[DX:[^:]*]]: f32, %[[DS:[^:]*]]: f32) -> (f32, f32)
// CHECK-NEXT: %[[COPYSIGN:.*]] = math.copysign %[[X]], %[[S]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[COPYSIGN2:.*]] = math.copysign %[[C]], %[[X]] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[COPYSIGN3:.*]] = math.copysign %[[C2]], %[[S]] : f32
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[COPYSIGN2]], %[[COPYSIGN3]] : f32
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DX]], %[[MULF]] : f32
// CHECK-NEXT: return %[[COPYSIGN]], %[[MULF2]] : f32, f32
func.func @copysign(%x: f32, %s: f32) -> f32 {
  %y = math.copysign %x, %s : f32
  return %y : f32
}
func.func @caller(%x: f32, %s: f32, %dx: f32, %ds: f32) -> (f32, f32) {
  %r:2 = moon.jvp @copysign(%x, %s, %dx, %ds) : (f32, f32, f32, f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}

// -----

// clampf(v, lo, hi) = maximumf(minimumf(v, lo), hi) (MLIR 22): the
// tangent of the operand each picks, ties to the first operand.
// CHECK-LABEL: func.func private @clampf_jvp_aaa_a(
// CHECK-SAME: %[[V:[^:]*]]: f64, %[[LO:[^:]*]]: f64, %[[HI:[^:]*]]: f64, %[[DV:[^:]*]]: f64, %[[DLO:[^:]*]]: f64, %[[DHI:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[CLAMPF:.*]] = math.clampf %[[V]] to [%[[LO]], %[[HI]]] : f64
// CHECK-NEXT: %[[MINIMUMF:.*]] = arith.minimumf %[[V]], %[[LO]] : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[MINIMUMF]], %[[HI]] : f64
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf ole, %[[V]], %[[LO]] : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF2]], %[[DV]], %[[DLO]] : f64
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF]], %[[SELECT]], %[[DHI]] : f64
// CHECK-NEXT: return %[[CLAMPF]], %[[SELECT2]] : f64, f64
func.func @clampf(%v: f64, %lo: f64, %hi: f64) -> f64 {
  %y = math.clampf %v to [%lo, %hi] : f64
  return %y : f64
}
func.func @caller(%v: f64, %lo: f64, %hi: f64, %dv: f64, %dlo: f64, %dhi: f64) -> (f64, f64) {
  %r:2 = moon.jvp @clampf(%v, %lo, %hi, %dv, %dlo, %dhi) : (f64, f64, f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// sincos: the tangent of the sine is dx * cos, that of the cosine
// -dx * sin, each from the other result.
// CHECK-LABEL: func.func private @sincos_jvp_a_aa(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64, f64, f64)
// CHECK-NEXT: %[[SIN:[^ ,]*]], %[[COS:[^ ,]*]] = math.sincos %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DX]], %[[COS]] : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[DX]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[NEGF]], %[[SIN]] : f64
// CHECK-NEXT: return %[[SIN]], %[[COS]], %[[MULF]], %[[MULF2]] : f64, f64, f64, f64
func.func @sincos(%x: f64) -> (f64, f64) {
  %s, %c = math.sincos %x : f64
  return %s, %c : f64, f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64, f64, f64) {
  %r:4 = moon.jvp @sincos(%x, %dx) : (f64, f64) -> (f64, f64, f64, f64)
  return %r#0, %r#1, %r#2, %r#3 : f64, f64, f64, f64
}

// -----

// sincos in vector mode: the other result is broadcast to the width.
// CHECK-LABEL: func.func private @sincos_jvp_a_n_w2(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[DX:[^:]*]]: vector<2xf32>) -> vector<2xf32>
// CHECK-NEXT: %[[SIN:[^ ,]*]], %[[COS:[^ ,]*]] = math.sincos %[[X]] : f32
// CHECK-NEXT: %[[BROADCAST:.*]] = vector.broadcast %[[COS]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DX]], %[[BROADCAST]] : vector<2xf32>
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[DX]] : vector<2xf32>
// CHECK-NEXT: %[[BROADCAST2:.*]] = vector.broadcast %[[SIN]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[NEGF]], %[[BROADCAST2]] : vector<2xf32>
// CHECK-NEXT: %[[BROADCAST3:.*]] = vector.broadcast %[[COS]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[MULF3:.*]] = arith.mulf %[[MULF]], %[[BROADCAST3]] : vector<2xf32>
// CHECK-NEXT: %[[BROADCAST4:.*]] = vector.broadcast %[[SIN]] : f32 to vector<2xf32>
// CHECK-NEXT: %[[MULF4:.*]] = arith.mulf %[[BROADCAST4]], %[[MULF2]] : vector<2xf32>
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[MULF3]], %[[MULF4]] : vector<2xf32>
// CHECK-NEXT: return %[[ADDF]] : vector<2xf32>
func.func @sincos(%x: f32) -> f32 {
  %s, %c = math.sincos %x : f32
  %p = arith.mulf %s, %c : f32
  return %p : f32
}
func.func @caller(%x: f32, %dx: vector<2xf32>) -> vector<2xf32> {
  %r = moon.jvp @sincos(%x, %dx) results [active_noneed] width 2 : (f32, vector<2xf32>) -> vector<2xf32>
  return %r : vector<2xf32>
}

// -----

// ceil, round, roundeven and trunc have a zero tangent: only the
// last term of the sum has one.
// CHECK-LABEL: func.func private @rounding_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[CEIL:.*]] = math.ceil %[[X]] : f64
// CHECK-NEXT: %[[ROUND:.*]] = math.round %[[X]] : f64
// CHECK-NEXT: %[[ROUNDEVEN:.*]] = math.roundeven %[[X]] : f64
// CHECK-NEXT: %[[TRUNC:.*]] = math.trunc %[[X]] : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[CEIL]], %[[ROUND]] : f64
// CHECK-NEXT: %[[ADDF2:.*]] = arith.addf %[[ROUNDEVEN]], %[[TRUNC]] : f64
// CHECK-NEXT: %[[ADDF3:.*]] = arith.addf %[[ADDF]], %[[ADDF2]] : f64
// CHECK-NEXT: %[[ADDF4:.*]] = arith.addf %[[ADDF3]], %[[X]] : f64
// CHECK-NEXT: return %[[ADDF4]], %[[DX]] : f64, f64
func.func @rounding(%x: f64) -> f64 {
  %c = math.ceil %x : f64
  %r = math.round %x : f64
  %e = math.roundeven %x : f64
  %t = math.trunc %x : f64
  %s1 = arith.addf %c, %r : f64
  %s2 = arith.addf %e, %t : f64
  %s3 = arith.addf %s1, %s2 : f64
  %s = arith.addf %s3, %x : f64
  return %s : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @rounding(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// The classification tests of an active value carry no tangent: the
// select takes the tangent of its value operands only.
// CHECK-LABEL: func.func private @classify_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ISNAN:.*]] = math.isnan %[[X]] : f64
// CHECK-NEXT: %[[ISINF:.*]] = math.isinf %[[X]] : f64
// CHECK-NEXT: %[[ISFINITE:.*]] = math.isfinite %[[X]] : f64
// CHECK-NEXT: %[[ISNORMAL:.*]] = math.isnormal %[[X]] : f64
// CHECK-NEXT: %[[ORI:.*]] = arith.ori %[[ISNAN]], %[[ISINF]] : i1
// CHECK-NEXT: %[[ANDI:.*]] = arith.andi %[[ISFINITE]], %[[ISNORMAL]] : i1
// CHECK-NEXT: %[[ORI2:.*]] = arith.ori %[[ORI]], %[[ANDI]] : i1
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[ORI2]], %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[ORI2]], %[[DX]], %[[C2]] : f64
// CHECK-NEXT: return %[[SELECT]], %[[SELECT2]] : f64, f64
func.func @classify(%x: f64) -> f64 {
  %n = math.isnan %x : f64
  %i = math.isinf %x : f64
  %f = math.isfinite %x : f64
  %m = math.isnormal %x : f64
  %a = arith.ori %n, %i : i1
  %b = arith.andi %f, %m : i1
  %c = arith.ori %a, %b : i1
  %zero = arith.constant 0.0 : f64
  %y = arith.select %c, %x, %zero : f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @classify(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
