// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// A while-loop induction whose step is a constant defined inside the
// `after` region is recomputed as init + k * step in the reverse of the
// `before` region, with the constant cloned there (the `after` region's
// reverse sits in a branch that does not dominate it).
// RUN: moonc check %s --entry f --args '[1.5, 4]' | FileCheck %s --check-prefix=CHECKED
// CHECKED: check: PASS

// CHECK-LABEL: func.func private @f_vjp_ac_n(
// CHECK: scf.for
// CHECK: %[[OFF:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[IV:.*]] = arith.addi %{{.*}}, %[[OFF]] : index
// CHECK: arith.index_cast %[[IV]] : index to i64
func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %r:2 = scf.while (%i = %c0, %acc = %x) : (index, f64) -> (index, f64) {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %m = arith.mulf %acc, %fi : f64
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %m : index, f64
  } do {
  ^bb0(%i: index, %acc: f64):
    %one = arith.constant 1 : index
    %i2 = arith.addi %i, %one : index
    scf.yield %i2, %acc : index, f64
  }
  return %r#1 : f64
}
func.func @caller(%x: f64, %n: index) -> f64 {
  %r = moon.grad @f(%x, %n) args [active, const] : (f64, index) -> f64
  return %r : f64
}
