// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// The reverse rules (transposed forward rules, and sincos's own) of the
// math ops reverse.mlir does not show, one op per case.

// rsqrt: the cotangent times -0.5 * y / x.
// CHECK-LABEL: func.func private @rsqrt_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[RSQRT:.*]] = math.rsqrt %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 5.000000e-01 : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[C]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[NEGF]], %[[RSQRT]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[MULF]], %[[X]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[S]], %[[DIVF]] : f64
// CHECK-NEXT: return %[[RSQRT]], %[[MULF2]] : f64, f64
func.func @rsqrt(%x: f64) -> f64 {
  %y = math.rsqrt %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @rsqrt(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// erfc: the cotangent times -2/sqrt(pi) * exp(-x^2).
// CHECK-LABEL: func.func private @erfc_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ERFC:.*]] = math.erfc %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.1283791670955126 : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[C]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[NEGF2:.*]] = arith.negf %[[MULF]] : f64
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEGF2]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[NEGF]], %[[EXP]] : f64
// CHECK-NEXT: %[[MULF3:.*]] = arith.mulf %[[S]], %[[MULF2]] : f64
// CHECK-NEXT: return %[[ERFC]], %[[MULF3]] : f64, f64
func.func @erfc(%x: f64) -> f64 {
  %y = math.erfc %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @erfc(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// tan: the cotangent times 1 + y^2.
// CHECK-LABEL: func.func private @tan_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[TAN:.*]] = math.tan %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[TAN]], %[[TAN]] : f64
// CHECK-NEXT: %[[ADDF:.*]] = arith.addf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[S]], %[[ADDF]] : f64
// CHECK-NEXT: return %[[TAN]], %[[MULF2]] : f64, f64
func.func @tan(%x: f64) -> f64 {
  %y = math.tan %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @tan(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// asin: the cotangent over sqrt(1 - x^2).
// CHECK-LABEL: func.func private @asin_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ASIN:.*]] = math.asin %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[SUBF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[S]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ASIN]], %[[DIVF]] : f64, f64
func.func @asin(%x: f64) -> f64 {
  %y = math.asin %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @asin(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// acosh: the cotangent over sqrt(x^2 - 1).
// CHECK-LABEL: func.func private @acosh_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ACOSH:.*]] = math.acosh %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[MULF]], %[[C]] : f64
// CHECK-NEXT: %[[SQRT:.*]] = math.sqrt %[[SUBF]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[S]], %[[SQRT]] : f64
// CHECK-NEXT: return %[[ACOSH]], %[[DIVF]] : f64, f64
func.func @acosh(%x: f64) -> f64 {
  %y = math.acosh %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @acosh(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// cbrt: the cotangent times y / (3x).
// CHECK-LABEL: func.func private @cbrt_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[CBRT:.*]] = math.cbrt %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[C]], %[[X]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[CBRT]], %[[MULF]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[S]], %[[DIVF]] : f64
// CHECK-NEXT: return %[[CBRT]], %[[MULF2]] : f64, f64
func.func @cbrt(%x: f64) -> f64 {
  %y = math.cbrt %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @cbrt(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// log10: the cotangent over x * ln 10.
// CHECK-LABEL: func.func private @log10_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[LOG10:.*]] = math.log10 %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 2.3025850929940459 : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[S]], %[[MULF]] : f64
// CHECK-NEXT: return %[[LOG10]], %[[DIVF]] : f64, f64
func.func @log10(%x: f64) -> f64 {
  %y = math.log10 %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @log10(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// copysign: x gets the cotangent times the product of the signs; s none.
// CHECK-LABEL: func.func private @copysign_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64, %[[C:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK-NEXT: %[[COPYSIGN:.*]] = math.copysign %[[X]], %[[S]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[COPYSIGN2:.*]] = math.copysign %[[C2]], %[[X]] : f64
// CHECK-NEXT: %[[C3:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT: %[[COPYSIGN3:.*]] = math.copysign %[[C3]], %[[S]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[COPYSIGN2]], %[[COPYSIGN3]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[C]], %[[MULF]] : f64
// CHECK-NEXT: %[[C4:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: return %[[COPYSIGN]], %[[MULF2]], %[[C4]] : f64, f64, f64
func.func @copysign(%x: f64, %s: f64) -> f64 {
  %y = math.copysign %x, %s : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64, %c: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @copysign(%x, %s, %c) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// clampf: the cotangent goes to the operand the min and the max pick
// (ties to the first); each operand reads its own selects.
// CHECK-LABEL: func.func private @clampf_vjp_aaa_a(
// CHECK-SAME: %[[V:[^:]*]]: f32, %[[LO:[^:]*]]: f32, %[[HI:[^:]*]]: f32, %[[C:[^:]*]]: f32) -> (f32, f32, f32, f32)
// CHECK-NEXT: %[[CLAMPF:.*]] = math.clampf %[[V]] to [%[[LO]], %[[HI]]] : f32
// CHECK-NEXT: %[[MINIMUMF:.*]] = arith.minimumf %[[V]], %[[LO]] : f32
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[MINIMUMF]], %[[HI]] : f32
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf ole, %[[V]], %[[LO]] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF2]], %[[C]], %[[C2]] : f32
// CHECK-NEXT: %[[C3:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF]], %[[SELECT]], %[[C3]] : f32
// CHECK-NEXT: %[[MINIMUMF2:.*]] = arith.minimumf %[[V]], %[[LO]] : f32
// CHECK-NEXT: %[[CMPF3:.*]] = arith.cmpf oge, %[[MINIMUMF2]], %[[HI]] : f32
// CHECK-NEXT: %[[CMPF4:.*]] = arith.cmpf ole, %[[V]], %[[LO]] : f32
// CHECK-NEXT: %[[C4:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT3:.*]] = arith.select %[[CMPF4]], %[[C4]], %[[C]] : f32
// CHECK-NEXT: %[[C5:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT4:.*]] = arith.select %[[CMPF3]], %[[SELECT3]], %[[C5]] : f32
// CHECK-NEXT: %[[MINIMUMF3:.*]] = arith.minimumf %[[V]], %[[LO]] : f32
// CHECK-NEXT: %[[CMPF5:.*]] = arith.cmpf oge, %[[MINIMUMF3]], %[[HI]] : f32
// CHECK-NEXT: %[[C6:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT5:.*]] = arith.select %[[CMPF5]], %[[C6]], %[[C]] : f32
// CHECK-NEXT: return %[[CLAMPF]], %[[SELECT2]], %[[SELECT4]], %[[SELECT5]] : f32, f32, f32, f32
func.func @clampf(%v: f32, %lo: f32, %hi: f32) -> f32 {
  %y = math.clampf %v to [%lo, %hi] : f32
  return %y : f32
}
func.func @caller(%v: f32, %lo: f32, %hi: f32, %c: f32) -> (f32, f32, f32, f32) {
  %r:4 = moon.vjp @clampf(%v, %lo, %hi, %c) : (f32, f32, f32, f32) -> (f32, f32, f32, f32)
  return %r#0, %r#1, %r#2, %r#3 : f32, f32, f32, f32
}

// -----

// sincos with both results used: x gets sbar * cos - cbar * sin.
// CHECK-LABEL: func.func private @sincos_vjp_a_aa(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DS:[^:]*]]: f64, %[[DC:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK-NEXT: %[[SIN:[^ ,]*]], %[[COS:[^ ,]*]] = math.sincos %[[X]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DS]], %[[COS]] : f64
// CHECK-NEXT: %[[MULF2:.*]] = arith.mulf %[[DC]], %[[SIN]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[MULF]], %[[MULF2]] : f64
// CHECK-NEXT: return %[[SIN]], %[[COS]], %[[SUBF]] : f64, f64, f64
func.func @sincos(%x: f64) -> (f64, f64) {
  %s, %c = math.sincos %x : f64
  return %s, %c : f64, f64
}
func.func @caller(%x: f64, %ds: f64, %dc: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @sincos(%x, %ds, %dc) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// sincos with only the cosine used: x gets -cbar * sin.
// CHECK-LABEL: func.func private @cosine_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32) -> f32
// CHECK-NEXT: %[[SIN:[^ ,]*]], %[[COS:[^ ,]*]] = math.sincos %[[X]] : f32
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[S]], %[[SIN]] : f32
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[MULF]] : f32
// CHECK-NEXT: return %[[NEGF]] : f32
func.func @cosine(%x: f32) -> f32 {
  %s, %c = math.sincos %x : f32
  return %c : f32
}
func.func @caller(%x: f32) -> f32 {
  %r = moon.grad @cosine(%x) : (f32) -> f32
  return %r : f32
}

// -----

// The classification tests pass no cotangent: x gets the select's only.
// CHECK-LABEL: func.func private @classify_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[ISNAN:.*]] = math.isnan %[[X]] : f64
// CHECK-NEXT: %[[ISINF:.*]] = math.isinf %[[X]] : f64
// CHECK-NEXT: %[[ORI:.*]] = arith.ori %[[ISNAN]], %[[ISINF]] : i1
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[ORI]], %[[C]], %[[X]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[ORI]], %[[C2]], %[[S]] : f64
// CHECK-NEXT: return %[[SELECT]], %[[SELECT2]] : f64, f64
func.func @classify(%x: f64) -> f64 {
  %n = math.isnan %x : f64
  %i = math.isinf %x : f64
  %a = arith.ori %n, %i : i1
  %zero = arith.constant 0.0 : f64
  %y = arith.select %a, %zero, %x : f64
  return %y : f64
}
func.func @caller(%x: f64, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @classify(%x, %s) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
