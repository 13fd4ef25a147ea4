// RUN: moonc-opt %s --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff | moonc-opt > /dev/null

// Only values some derivative needs are active (activity.rs): m depends on
// x but only decides which value a select keeps, so neither mode gives it
// a derivative. The tangent loop carries a, m and a's tangent; the reverse
// loop carries a's adjoint alone.
// CHECK-LABEL: func.func private @clamp_vjp_ac_a(
// CHECK: scf.for %{{.*}} -> (f64, f64) {
// CHECK: scf.for %{{.*}} iter_args(%{{[^ ]*}} = %{{.*}}) -> (f64) {
// CHECK: } {moon.reverse}
// CHECK-LABEL: func.func private @clamp_jvp_ac_a(
// CHECK: scf.for %{{.*}} iter_args(%{{[^ ]*}} = %{{.*}}, %{{[^ ]*}} = %{{.*}}, %{{[^ ]*}} = %{{.*}}) -> (f64, f64, f64) {
func.func @clamp(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ten = arith.constant 10.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x, %m = %x) -> (f64, f64) {
    %s = math.sin %a : f64
    %m2 = arith.mulf %m, %x : f64
    %big = arith.cmpf ogt, %m2, %ten : f64
    %a2 = arith.select %big, %a, %s : f64
    scf.yield %a2, %m2 : f64, f64
  }
  return %r#0 : f64
}
func.func @both(%x: f64, %n: index) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %v, %t = moon.jvp @clamp(%x, %n, %one) : (f64, index, f64) -> (f64, f64)
  %w, %g = moon.vjp @clamp(%x, %n, %one) : (f64, index, f64) -> (f64, f64)
  return %t, %g : f64, f64
}
