// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// Reverse mode of arith element operations: the adjoint function runs the
// primal code, then the transposed forward rules backwards, from the
// result's cotangent (the last argument) to the arguments' adjoints.
// divf: dm = s * (1 / y), dy = -(s * d) * (1 / y) (times the reciprocal:
// a divisor that does not change in a loop is divided once); then mulf:
// dx = dm * y, dy += x * dm.
// CHECK-LABEL: func.func private @muldiv_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f64
// CHECK: %[[D:.*]] = arith.divf %[[M]], %[[Y]] : f64
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %[[Y]] : f64
// CHECK: %[[DM:.*]] = arith.mulf %[[S]], %[[R]] : f64
// CHECK: %[[SD:.*]] = arith.mulf %[[S]], %[[D]] : f64
// CHECK: %[[NEG:.*]] = arith.negf %[[SD]] : f64
// CHECK: %[[R2:.*]] = arith.divf %{{.*}}, %[[Y]] : f64
// CHECK: %[[DY1:.*]] = arith.mulf %[[NEG]], %[[R2]] : f64
// CHECK: %[[DX:.*]] = arith.mulf %[[DM]], %[[Y]] : f64
// CHECK: %[[DY2:.*]] = arith.mulf %[[X]], %[[DM]] : f64
// CHECK: %[[DY:.*]] = arith.addf %[[DY1]], %[[DY2]] : f64
// CHECK: return %[[D]], %[[DX]], %[[DY]] : f64, f64, f64
// CHECK-LABEL: func.func @caller(
// CHECK: call @muldiv_vjp_aa_a(
func.func @muldiv(%x: f64, %y: f64) -> f64 {
  %m = arith.mulf %x, %y : f64
  %d = arith.divf %m, %y : f64
  return %d : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @muldiv(%x, %y, %s) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// select routes the cotangent to the chosen operand on the same (primal)
// condition; moon.grad seeds 1.0 and drops the primal result (`_n`).
// CHECK-LABEL: func.func private @sel_vjp_aa_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[C:.*]] = arith.cmpf olt, %[[X]], %[[Y]] : f64
// CHECK-NOT: arith.select %[[C]], %[[X]]
// CHECK: %[[Z1:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[DX:.*]] = arith.select %[[C]], %[[S]], %[[Z1]] : f64
// CHECK: %[[Z2:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[DY:.*]] = arith.select %[[C]], %[[Z2]], %[[S]] : f64
// CHECK: return %[[DX]], %[[DY]] : f64, f64
// CHECK-LABEL: func.func @caller(
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: call @sel_vjp_aa_n(%{{.*}}, %{{.*}}, %[[ONE]]) : (f64, f64, f64) -> (f64, f64)
func.func @sel(%x: f64, %y: f64) -> f64 {
  %c = arith.cmpf olt, %x, %y : f64
  %s = arith.select %c, %x, %y : f64
  return %s : f64
}
func.func @caller(%x: f64, %y: f64) -> (f64, f64) {
  %r:2 = moon.grad @sel(%x, %y) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// subf, negf and maximumf with a const argument and an `active_noneed`
// result: the primal work is dead and removed; the maximumf adjoint is a
// select on x >= y.
// CHECK-LABEL: func.func private @mx_vjp_ac_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK-NOT: arith.maximumf
// CHECK: %[[DX1:.*]] = arith.negf %[[S]] : f64
// CHECK: %[[DM:.*]] = arith.negf %[[S]] : f64
// CHECK: %[[GE:.*]] = arith.cmpf oge, %[[X]], %[[Y]] : f64
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[DX2:.*]] = arith.select %[[GE]], %[[DM]], %[[Z]] : f64
// CHECK: %[[DX:.*]] = arith.addf %[[DX1]], %[[DX2]] : f64
// CHECK: return %[[DX]] : f64
func.func @mx(%x: f64, %y: f64) -> f64 {
  %m = arith.maximumf %x, %y : f64
  %n = arith.negf %m : f64
  %s = arith.subf %n, %x : f64
  return %s : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> f64 {
  %r = moon.vjp @mx(%x, %y, %s) args [active, const] results [active_noneed] : (f64, f64, f64) -> f64
  return %r : f64
}

// -----

// Fan-out: every use of x adds to its adjoint (addf uses it twice).
// moon.value_and_grad keeps the primal result.
// CHECK-LABEL: func.func private @fan_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[A:.*]] = arith.addf %[[X]], %[[X]] : f64
// CHECK: %[[B:.*]] = arith.mulf %[[A]], %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK: %[[DX1:.*]] = arith.mulf %[[A]], %[[S]] : f64
// CHECK: %[[DX2:.*]] = arith.addf %[[DX1]], %[[DA]] : f64
// CHECK: %[[DX:.*]] = arith.addf %[[DX2]], %[[DA]] : f64
// CHECK: return %[[B]], %[[DX]] : f64, f64
// CHECK-LABEL: func.func @caller(
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[R:.*]]:2 = call @fan_vjp_a_a(%{{.*}}, %[[ONE]])
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @fan(%x: f64) -> f64 {
  %a = arith.addf %x, %x : f64
  %b = arith.mulf %a, %x : f64
  return %b : f64
}
func.func @caller(%x: f64) -> (f64, f64) {
  %r:2 = moon.value_and_grad @fan(%x) : (f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// extf and truncf: the adjoint converts back to the operand's precision
// (truncf of the cotangent of an extf, extf of that of a truncf).
// CHECK-LABEL: func.func private @cast_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32) -> (f32, f32)
// CHECK: %[[E:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[M:.*]] = arith.mulf %[[E]], %[[E]] : f64
// CHECK: %[[T:.*]] = arith.truncf %[[M]] : f64 to f32
// CHECK: %[[DM:.*]] = arith.extf %[[S]] : f32 to f64
// CHECK: %[[A:.*]] = arith.mulf %[[DM]], %[[E]] : f64
// CHECK: %[[B:.*]] = arith.mulf %[[E]], %[[DM]] : f64
// CHECK: %[[DE:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK: %[[DX:.*]] = arith.truncf %[[DE]] : f64 to f32
// CHECK: return %[[T]], %[[DX]] : f32, f32
func.func @cast(%x: f32) -> f32 {
  %e = arith.extf %x : f32 to f64
  %m = arith.mulf %e, %e : f64
  %t = arith.truncf %m : f64 to f32
  return %t : f32
}
func.func @caller(%x: f32) -> (f32, f32) {
  %r:2 = moon.value_and_grad @cast(%x) : (f32) -> (f32, f32)
  return %r#0, %r#1 : f32, f32
}
