// Nested derivatives without perturbation confusion, in the four nestings
// (outer forward or reverse, inner forward or reverse). The inner function
// captures the outer variable x as a `const` argument.
// D(x -> x * D(y -> x + y)(1))(1) must be 1 (2 is the confused answer):
// RUN: moonc run %s --entry dg_ff --args '[1.0]' | FileCheck %s --check-prefix=ONE
// RUN: moonc run %s --entry dg_fr --args '[1.0]' | FileCheck %s --check-prefix=ONE
// RUN: moonc run %s --entry dg_rf --args '[1.0]' | FileCheck %s --check-prefix=ONE
// RUN: moonc run %s --entry dg_rr --args '[1.0]' | FileCheck %s --check-prefix=ONE
// ONE: {"results": [1.0],
// D(y -> sin(x y))(1) = x cos(x), whose derivative at 0.7 is
// cos(0.7) - 0.7 sin(0.7) = 0.3138898062181048:
// RUN: moonc run %s --entry dh_ff --args '[0.7]' | FileCheck %s --check-prefix=DH
// RUN: moonc run %s --entry dh_fr --args '[0.7]' | FileCheck %s --check-prefix=DH
// RUN: moonc run %s --entry dh_rf --args '[0.7]' | FileCheck %s --check-prefix=DH
// RUN: moonc run %s --entry dh_rr --args '[0.7]' | FileCheck %s --check-prefix=DH
// DH: {"results": [0.31388980621810{{[0-9]*}}],
// The functions holding an inner derivative, differentiated once more by
// moonc check (finite differences, forward against reverse):
// RUN: moonc check %s --entry h_fwd | FileCheck %s --check-prefix=CHECK-OK
// RUN: moonc check %s --entry h_rev | FileCheck %s --check-prefix=CHECK-OK
// RUN: moonc check %s --entry g_rev | FileCheck %s --check-prefix=CHECK-OK
// CHECK-OK: check: PASS

// D(y -> x + y)(1), x captured (const to the inner derivative).
func.func @plus(%x: f64, %y: f64) -> f64 {
  %s = arith.addf %x, %y : f64
  return %s : f64
}
// x * D(y -> x + y)(1), inner derivative by forward mode.
func.func @g_fwd(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @plus(%x, %one, %one) args [const, active] results [active_noneed] : (f64, f64, f64) -> f64
  %r = arith.mulf %x, %d : f64
  return %r : f64
}
// The same, inner derivative by reverse mode.
func.func @g_rev(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.grad @plus(%x, %one) args [const, active] : (f64, f64) -> f64
  %r = arith.mulf %x, %d : f64
  return %r : f64
}
func.func @dg_ff(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @g_fwd(%x, %one) results [active_noneed] : (f64, f64) -> f64
  return %d : f64
}
func.func @dg_fr(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @g_rev(%x, %one) results [active_noneed] : (f64, f64) -> f64
  return %d : f64
}
func.func @dg_rf(%x: f64) -> f64 {
  %d = moon.grad @g_fwd(%x) : (f64) -> f64
  return %d : f64
}
func.func @dg_rr(%x: f64) -> f64 {
  %d = moon.grad @g_rev(%x) : (f64) -> f64
  return %d : f64
}
// D(y -> sin(x * y))(1) = x cos(x), x captured; its derivative is
// cos(x) - x sin(x).
func.func @sin_xy(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %p : f64
  return %s : f64
}
func.func @h_fwd(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @sin_xy(%x, %one, %one) args [const, active] results [active_noneed] : (f64, f64, f64) -> f64
  return %d : f64
}
func.func @h_rev(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.grad @sin_xy(%x, %one) args [const, active] : (f64, f64) -> f64
  return %d : f64
}
func.func @dh_ff(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @h_fwd(%x, %one) results [active_noneed] : (f64, f64) -> f64
  return %d : f64
}
func.func @dh_fr(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @h_rev(%x, %one) results [active_noneed] : (f64, f64) -> f64
  return %d : f64
}
func.func @dh_rf(%x: f64) -> f64 {
  %d = moon.grad @h_fwd(%x) : (f64) -> f64
  return %d : f64
}
func.func @dh_rr(%x: f64) -> f64 {
  %d = moon.grad @h_rev(%x) : (f64) -> f64
  return %d : f64
}
