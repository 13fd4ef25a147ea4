// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// The reverse (transposed) rules of max, min and remf, one op per case.

// maximumf: the cotangent goes to x where x >= y (ties to the first
// operand), else to y.
// CHECK-LABEL: func.func private @maximumf_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK-NEXT: %[[MAXIMUMF:.*]] = arith.maximumf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[S]], %[[C]] : f64
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf oge, %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF2]], %[[C2]], %[[S]] : f64
// CHECK-NEXT: return %[[MAXIMUMF]], %[[SELECT]], %[[SELECT2]] : f64, f64, f64
func.func @maximumf(%x: f64, %y: f64) -> f64 {
  %r = arith.maximumf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @maximumf(%x, %y, %s) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// minimumf: the cotangent goes to x where x <= y (ties to the first
// operand), else to y.
// CHECK-LABEL: func.func private @minimumf_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[S:[^:]*]]: f32) -> (f32, f32, f32)
// CHECK-NEXT: %[[MINIMUMF:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf ole, %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[S]], %[[C]] : f32
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf ole, %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF2]], %[[C2]], %[[S]] : f32
// CHECK-NEXT: return %[[MINIMUMF]], %[[SELECT]], %[[SELECT2]] : f32, f32, f32
func.func @minimumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minimumf %x, %y : f32
  return %r : f32
}
func.func @caller(%x: f32, %y: f32, %s: f32) -> (f32, f32, f32) {
  %r:3 = moon.vjp @minimumf(%x, %y, %s) : (f32, f32, f32) -> (f32, f32, f32)
  return %r#0, %r#1, %r#2 : f32, f32, f32
}

// -----

// maxnumf: the cotangent goes to x where the result is x (r <= x), else
// to y.
// CHECK-LABEL: func.func private @maxnumf_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK-NEXT: %[[MAXNUMF:.*]] = arith.maxnumf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf ole, %[[MAXNUMF]], %[[X]] : f64
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[S]], %[[C]] : f64
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf ole, %[[MAXNUMF]], %[[X]] : f64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF2]], %[[C2]], %[[S]] : f64
// CHECK-NEXT: return %[[MAXNUMF]], %[[SELECT]], %[[SELECT2]] : f64, f64, f64
func.func @maxnumf(%x: f64, %y: f64) -> f64 {
  %r = arith.maxnumf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @maxnumf(%x, %y, %s) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// minnumf: the cotangent goes to x where the result is x (r >= x), else
// to y.
// CHECK-LABEL: func.func private @minnumf_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[S:[^:]*]]: f32) -> (f32, f32, f32)
// CHECK-NEXT: %[[MINNUMF:.*]] = arith.minnumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[MINNUMF]], %[[X]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[S]], %[[C]] : f32
// CHECK-NEXT: %[[CMPF2:.*]] = arith.cmpf oge, %[[MINNUMF]], %[[X]] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[SELECT2:.*]] = arith.select %[[CMPF2]], %[[C2]], %[[S]] : f32
// CHECK-NEXT: return %[[MINNUMF]], %[[SELECT]], %[[SELECT2]] : f32, f32, f32
func.func @minnumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minnumf %x, %y : f32
  return %r : f32
}
func.func @caller(%x: f32, %y: f32, %s: f32) -> (f32, f32, f32) {
  %r:3 = moon.vjp @minnumf(%x, %y, %s) : (f32, f32, f32) -> (f32, f32, f32)
  return %r#0, %r#1, %r#2 : f32, f32, f32
}

// -----

// remf: x gets the cotangent, y minus the cotangent times trunc(x / y).
// CHECK-LABEL: func.func private @remf_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK-NEXT: %[[REMF:.*]] = arith.remf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[TRUNC:.*]] = math.trunc %[[DIVF]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[S]], %[[TRUNC]] : f64
// CHECK-NEXT: %[[NEGF:.*]] = arith.negf %[[MULF]] : f64
// CHECK-NEXT: return %[[REMF]], %[[S]], %[[NEGF]] : f64, f64, f64
func.func @remf(%x: f64, %y: f64) -> f64 {
  %r = arith.remf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @remf(%x, %y, %s) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}
