// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// sin, exp and powf backwards: powf gives both operands an adjoint
// (s * (y * e^(y-1)) and s * (log(e) * p)); exp reuses its primal result,
// sin takes the cosine of its operand.
// CHECK-LABEL: func.func private @chain_vjp_aa_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64, f64)
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK: %[[E:.*]] = math.exp %[[SIN]] : f64
// CHECK: %[[P:.*]] = math.powf %[[E]], %[[Y]] : f64
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[YM1:.*]] = arith.subf %[[Y]], %[[ONE]] : f64
// CHECK: %[[POW:.*]] = math.powf %[[E]], %[[YM1]] : f64
// CHECK: %[[K:.*]] = arith.mulf %[[Y]], %[[POW]] : f64
// CHECK: %[[DE:.*]] = arith.mulf %[[S]], %[[K]] : f64
// CHECK: %[[LOG:.*]] = math.log %[[E]] : f64
// CHECK: %[[LP:.*]] = arith.mulf %[[LOG]], %[[P]] : f64
// CHECK: %[[DY:.*]] = arith.mulf %[[S]], %[[LP]] : f64
// CHECK: %[[DSIN:.*]] = arith.mulf %[[DE]], %[[E]] : f64
// CHECK: %[[COS:.*]] = math.cos %[[X]] : f64
// CHECK: %[[DX:.*]] = arith.mulf %[[DSIN]], %[[COS]] : f64
// CHECK: return %[[P]], %[[DX]], %[[DY]] : f64, f64, f64
func.func @chain(%x: f64, %y: f64) -> f64 {
  %s = math.sin %x : f64
  %e = math.exp %s : f64
  %p = math.powf %e, %y : f64
  return %p : f64
}
func.func @caller(%x: f64, %y: f64, %s: f64) -> (f64, f64, f64) {
  %r:3 = moon.vjp @chain(%x, %y, %s) : (f64, f64, f64) -> (f64, f64, f64)
  return %r#0, %r#1, %r#2 : f64, f64, f64
}

// -----

// f32, with a rounding operation: floor passes no adjoint, so the
// adjoint of q is the addf's only; tanh reuses its result (1 - t*t).
// CHECK-LABEL: func.func private @f32chain_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[S:[^:]*]]: f32) -> f32
// CHECK: %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK: %[[L:.*]] = math.log %[[T]] : f32
// CHECK: %[[Q:.*]] = math.sqrt %[[L]] : f32
// CHECK-NOT: math.floor
// CHECK: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK: %[[K:.*]] = arith.divf %[[HALF]], %[[Q]] : f32
// CHECK: %[[DL:.*]] = arith.mulf %[[S]], %[[K]] : f32
// CHECK: %[[DT:.*]] = arith.divf %[[DL]], %[[T]] : f32
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[TT:.*]] = arith.mulf %[[T]], %[[T]] : f32
// CHECK: %[[D:.*]] = arith.subf %[[ONE]], %[[TT]] : f32
// CHECK: %[[DX:.*]] = arith.mulf %[[DT]], %[[D]] : f32
// CHECK: return %[[DX]] : f32
func.func @f32chain(%x: f32) -> f32 {
  %t = math.tanh %x : f32
  %l = math.log %t : f32
  %q = math.sqrt %l : f32
  %f = math.floor %q : f32
  %a = arith.addf %q, %f : f32
  return %a : f32
}
func.func @caller(%x: f32) -> f32 {
  %r = moon.grad @f32chain(%x) : (f32) -> f32
  return %r : f32
}

// -----

// Vector element operations are transposed elementwise.
// CHECK-LABEL: func.func private @vcos_vjp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: vector<4xf64>, %[[S:[^:]*]]: vector<4xf64>) -> (vector<4xf64>, vector<4xf64>)
// CHECK: %[[C:.*]] = math.cos %[[X]] : vector<4xf64>
// CHECK: %[[NS:.*]] = arith.negf %[[S]] : vector<4xf64>
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : vector<4xf64>
// CHECK: %[[DX:.*]] = arith.mulf %[[NS]], %[[SIN]] : vector<4xf64>
// CHECK: return %[[C]], %[[DX]] : vector<4xf64>, vector<4xf64>
func.func @vcos(%x: vector<4xf64>) -> vector<4xf64> {
  %c = math.cos %x : vector<4xf64>
  return %c : vector<4xf64>
}
func.func @caller(%x: vector<4xf64>, %s: vector<4xf64>) -> (vector<4xf64>, vector<4xf64>) {
  %r:2 = moon.vjp @vcos(%x, %s) : (vector<4xf64>, vector<4xf64>) -> (vector<4xf64>, vector<4xf64>)
  return %r#0, %r#1 : vector<4xf64>, vector<4xf64>
}

// -----

// fma adds its cotangent to the addend; fpowi's integer exponent gets no
// adjoint, and the x^(n-1) of its rule is recomputed in the reverse sweep.
// CHECK-LABEL: func.func private @fp_vjp_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[P:.*]] = math.fpowi %[[X]], %[[N]] : f64, i32
// CHECK: %[[Q:.*]] = math.fma %[[P]], %[[X]], %[[X]] : f64
// CHECK: %[[DP:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK: %[[DX1:.*]] = arith.mulf %[[P]], %[[S]] : f64
// CHECK: %[[DX2:.*]] = arith.addf %[[DX1]], %[[S]] : f64
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i32 to f64
// CHECK: %[[NM1:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK: %[[PM1:.*]] = math.fpowi %[[X]], %[[NM1]] : f64, i32
// CHECK: %[[K:.*]] = arith.mulf %[[NF]], %[[PM1]] : f64
// CHECK: %[[DX3:.*]] = arith.mulf %[[DP]], %[[K]] : f64
// CHECK: %[[DX:.*]] = arith.addf %[[DX2]], %[[DX3]] : f64
// CHECK: return %[[Q]], %[[DX]] : f64, f64
func.func @fp(%x: f64, %n: i32) -> f64 {
  %p = math.fpowi %x, %n : f64, i32
  %q = math.fma %p, %x, %x : f64
  return %q : f64
}
func.func @caller(%x: f64, %n: i32, %s: f64) -> (f64, f64) {
  %r:2 = moon.vjp @fp(%x, %n, %s) : (f64, i32, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
