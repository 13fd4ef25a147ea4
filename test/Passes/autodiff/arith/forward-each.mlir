// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// The forward rules of max, min and remf, one op per case.

// maximumf: the tangent of x where x >= y (ties to the first operand),
// else of y.
// CHECK-LABEL: func.func private @maximumf_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DX:[^:]*]]: f64, %[[DY:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[MAXIMUMF:.*]] = arith.maximumf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[DX]], %[[DY]] : f64
// CHECK-NEXT: return %[[MAXIMUMF]], %[[SELECT]] : f64, f64
func.func @maximumf(%x: f64, %y: f64) -> f64 {
  %r = arith.maximumf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  %r:2 = moon.jvp @maximumf(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// minimumf: the tangent of x where x <= y (ties to the first operand),
// else of y.
// CHECK-LABEL: func.func private @minimumf_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[DX:[^:]*]]: f32, %[[DY:[^:]*]]: f32) -> (f32, f32)
// CHECK-NEXT: %[[MINIMUMF:.*]] = arith.minimumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf ole, %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[DX]], %[[DY]] : f32
// CHECK-NEXT: return %[[MINIMUMF]], %[[SELECT]] : f32, f32
func.func @minimumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minimumf %x, %y : f32
  return %r : f32
}
func.func @caller(%x: f32, %y: f32, %dx: f32, %dy: f32) -> (f32, f32) {
  %r:2 = moon.jvp @minimumf(%x, %y, %dx, %dy) : (f32, f32, f32, f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}

// -----

// maxnumf: the tangent of x where the result is x (r <= x: ties to the
// first operand, and y NaN, where r = x), else of y (x NaN: r = y).
// CHECK-LABEL: func.func private @maxnumf_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DX:[^:]*]]: f64, %[[DY:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[MAXNUMF:.*]] = arith.maxnumf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf ole, %[[MAXNUMF]], %[[X]] : f64
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[DX]], %[[DY]] : f64
// CHECK-NEXT: return %[[MAXNUMF]], %[[SELECT]] : f64, f64
func.func @maxnumf(%x: f64, %y: f64) -> f64 {
  %r = arith.maxnumf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  %r:2 = moon.jvp @maxnumf(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// minnumf: the tangent of x where the result is x (r >= x), else of y.
// CHECK-LABEL: func.func private @minnumf_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[DX:[^:]*]]: f32, %[[DY:[^:]*]]: f32) -> (f32, f32)
// CHECK-NEXT: %[[MINNUMF:.*]] = arith.minnumf %[[X]], %[[Y]] : f32
// CHECK-NEXT: %[[CMPF:.*]] = arith.cmpf oge, %[[MINNUMF]], %[[X]] : f32
// CHECK-NEXT: %[[SELECT:.*]] = arith.select %[[CMPF]], %[[DX]], %[[DY]] : f32
// CHECK-NEXT: return %[[MINNUMF]], %[[SELECT]] : f32, f32
func.func @minnumf(%x: f32, %y: f32) -> f32 {
  %r = arith.minnumf %x, %y : f32
  return %r : f32
}
func.func @caller(%x: f32, %y: f32, %dx: f32, %dy: f32) -> (f32, f32) {
  %r:2 = moon.jvp @minnumf(%x, %y, %dx, %dy) : (f32, f32, f32, f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}

// -----

// remf: dx - dy * trunc(x / y).
// CHECK-LABEL: func.func private @remf_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DX:[^:]*]]: f64, %[[DY:[^:]*]]: f64) -> (f64, f64)
// CHECK-NEXT: %[[REMF:.*]] = arith.remf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[DIVF:.*]] = arith.divf %[[X]], %[[Y]] : f64
// CHECK-NEXT: %[[TRUNC:.*]] = math.trunc %[[DIVF]] : f64
// CHECK-NEXT: %[[MULF:.*]] = arith.mulf %[[DY]], %[[TRUNC]] : f64
// CHECK-NEXT: %[[SUBF:.*]] = arith.subf %[[DX]], %[[MULF]] : f64
// CHECK-NEXT: return %[[REMF]], %[[SUBF]] : f64, f64
func.func @remf(%x: f64, %y: f64) -> f64 {
  %r = arith.remf %x, %y : f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  %r:2 = moon.jvp @remf(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
