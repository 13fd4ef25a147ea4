// RUN: moonc-opt %s --split-input-file --moon-autodiff=inline-max-ops=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff=inline-max-ops=0 | moonc-opt --split-input-file > /dev/null
// RUN: moonc-opt %s --split-input-file --moon-autodiff=inline-max-ops=0 | grep -c 'func.func private @sq_jvp' | FileCheck %s --check-prefix=ONCE
// ONCE: {{^}}1{{$}}

// Calls call the callee's tangent function for the activities at the call
// site; one tangent function per (function, activities, width), reused.
// CHECK-LABEL: func.func private @outer_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: %[[A:.*]]:2 = call @sq_jvp_a_a(%[[X]], %[[DX]]) : (f64, f64) -> (f64, f64)
// CHECK: %[[B:.*]]:2 = call @sq_jvp_a_a(%[[A]]#0, %[[A]]#1) : (f64, f64) -> (f64, f64)
// CHECK: %[[C:.*]] = call @sq(%{{.*}}) : (f64) -> f64
// CHECK: return %[[B]]#0, %[[B]]#1
func.func private @sq(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func @outer(%x: f64) -> f64 {
  %a = func.call @sq(%x) : (f64) -> f64
  %b = func.call @sq(%a) : (f64) -> f64
  %two = arith.constant 2.0 : f64
  %c = func.call @sq(%two) : (f64) -> f64
  return %b : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @outer(%x, %dx) : (f64, f64) -> (f64, f64)
  %s:2 = moon.jvp @outer(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %s#1 : f64, f64
}

// -----

// Recursion: the tangent function calls itself.
// CHECK-LABEL: func.func private @rec_jvp_ac_a(
// CHECK: call @rec_jvp_ac_a(
func.func @rec(%x: f64, %n: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sle, %n, %c0 : i32
  %r = scf.if %c -> f64 {
    scf.yield %x : f64
  } else {
    %one = arith.constant 1 : i32
    %m = arith.subi %n, %one : i32
    %s = math.sin %x : f64
    %y = func.call @rec(%s, %m) : (f64, i32) -> f64
    scf.yield %y : f64
  }
  return %r : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %n = arith.constant 3 : i32
  %r:2 = moon.jvp @rec(%x, %n, %dx) : (f64, i32, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// A custom rule is called instead of differentiating through the function,
// with zero tangents for inactive operands.
// CHECK-LABEL: func.func private @user_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: call @softplus_jvp(%[[X]], %{{.*}}, %[[DX]], %[[ZERO]])
// CHECK-NOT: math.log1p
func.func private @softplus(%x: f64, %k: f64) -> f64 {
  %e = math.exp %x : f64
  %l = math.log1p %e : f64
  return %l : f64
}
func.func private @softplus_jvp(%x: f64, %k: f64, %dx: f64, %dk: f64) -> (f64, f64) {
  %e = math.exp %x : f64
  %l = math.log1p %e : f64
  return %l, %dx : f64, f64
}
moon.custom_rule @softplus jvp @softplus_jvp
func.func @user(%x: f64) -> f64 {
  %k = arith.constant 1.0 : f64
  %y = func.call @softplus(%x, %k) : (f64, f64) -> f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @user(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
