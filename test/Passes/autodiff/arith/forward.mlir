// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// Product and quotient rules; the tangent follows each primal operation.
// The quotient's is multiplied by 1 / y (divided once when y does not
// change in a loop).
// CHECK-LABEL: func.func private @muldiv_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DX:[^:]*]]: f64, %[[DY:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK: %[[A:.*]] = arith.mulf %[[DX]], %[[Y]]
// CHECK: %[[B:.*]] = arith.mulf %[[X]], %[[DY]]
// CHECK: %[[DP:.*]] = arith.addf %[[A]], %[[B]]
// CHECK: %[[Q:.*]] = arith.divf %[[P]], %[[Y]]
// CHECK: %[[C:.*]] = arith.mulf %[[DY]], %[[Q]]
// CHECK: %[[D:.*]] = arith.subf %[[DP]], %[[C]]
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %[[Y]]
// CHECK: %[[DQ:.*]] = arith.mulf %[[D]], %[[R]]
// CHECK: return %[[Q]], %[[DQ]]
func.func @muldiv(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %q = arith.divf %p, %y : f64
  return %q : f64
}
func.func @caller(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  // CHECK-LABEL: func.func @caller(
  // CHECK: call @muldiv_jvp_aa_a(
  // CHECK-NOT: moon.jvp
  %r:2 = moon.jvp @muldiv(%x, %y, %dx, %dy) : (f64, f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// A constant operand has no tangent: no code for its term.
// CHECK-LABEL: func.func private @mixed_jvp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK-NEXT: %[[DP:.*]] = arith.mulf %[[DX]], %[[Y]]
// CHECK-NEXT: %[[S:.*]] = arith.subf %[[P]], %[[Y]]
// CHECK-NEXT: %[[N:.*]] = arith.negf %[[S]]
// CHECK-NEXT: %[[DN:.*]] = arith.negf %[[DP]]
// CHECK-NEXT: return %[[N]], %[[DN]]
func.func @mixed(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = arith.subf %p, %y : f64
  %n = arith.negf %s : f64
  return %n : f64
}
func.func @caller(%x: f64, %y: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @mixed(%x, %y, %dx) args [active, const] : (f64, f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// select picks the tangent of the branch taken; cmpf has no tangent;
// maximumf selects by comparison; casts apply to tangents.
// CHECK-LABEL: func.func private @pick_jvp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[DX:[^:]*]]: f32, %[[DY:[^:]*]]: f32)
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f32
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[X]], %[[Y]]
// CHECK: %[[DS:.*]] = arith.select %[[C]], %[[DX]], %[[DY]]
// CHECK: %[[M:.*]] = arith.maximumf %[[S]], %[[X]]
// CHECK: %[[GE:.*]] = arith.cmpf oge, %[[S]], %[[X]] : f32
// CHECK: %[[DM:.*]] = arith.select %[[GE]], %[[DS]], %[[DX]]
// CHECK: %[[E:.*]] = arith.extf %[[M]] : f32 to f64
// CHECK: %[[DE:.*]] = arith.extf %[[DM]] : f32 to f64
// CHECK: return %[[E]], %[[DE]]
func.func @pick(%x: f32, %y: f32) -> f64 {
  %c = arith.cmpf olt, %x, %y : f32
  %s = arith.select %c, %x, %y : f32
  %m = arith.maximumf %s, %x : f32
  %e = arith.extf %m : f32 to f64
  return %e : f64
}
func.func @caller(%x: f32, %y: f32, %dx: f32, %dy: f32) -> (f64, f64) {
  %r:2 = moon.jvp @pick(%x, %y, %dx, %dy) : (f32, f32, f32, f32) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Integer work is inactive and untouched; fptosi ends the derivative.
// CHECK-LABEL: func.func private @ints_jvp_ac_ca(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[DX:[^:]*]]: f64) -> (i32, f64, f64)
// CHECK: %[[I:.*]] = arith.fptosi %[[X]]
// CHECK: %[[S:.*]] = arith.addi %[[I]], %[[N]]
// CHECK: %[[F:.*]] = arith.sitofp %[[S]]
// CHECK: %[[Y:.*]] = arith.mulf %[[F]], %[[X]]
// CHECK: %[[DY:.*]] = arith.mulf %[[F]], %[[DX]]
// CHECK: return %[[S]], %[[Y]], %[[DY]]
func.func @ints(%x: f64, %n: i32) -> (i32, f64) {
  %i = arith.fptosi %x : f64 to i32
  %s = arith.addi %i, %n : i32
  %f = arith.sitofp %s : i32 to f64
  %y = arith.mulf %f, %x : f64
  return %s, %y : i32, f64
}
func.func @caller(%x: f64, %n: i32, %dx: f64) -> (i32, f64, f64) {
  %r:3 = moon.jvp @ints(%x, %n, %dx) : (f64, i32, f64) -> (i32, f64, f64)
  return %r#0, %r#1, %r#2 : i32, f64, f64
}
