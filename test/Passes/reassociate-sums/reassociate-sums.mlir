// RUN: moonc-opt --moon-reassociate-sums %s | FileCheck %s

// A sum the loop carries gets `reassoc` (keeping its other flags); an
// addition that is not the carried value's only use, and one that does
// not add to the carried value, keep their flags.
// CHECK-LABEL: func.func @sums(
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc,nsz> : f64
// CHECK: scf.for
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: arith.addf %{{.*}}, %{{.*}} : f64
// CHECK: return
func.func @sums(%x: memref<?xf64>) -> (f64, f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z, %b = %z) -> (f64, f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %a2 = arith.addf %a, %v : f64
    %b2 = arith.addf %v, %b fastmath<nsz> : f64
    scf.yield %a2, %b2 : f64, f64
  }
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    %a2 = arith.addf %a, %w : f64
    memref.store %a, %x[%i] : memref<?xf64>
    scf.yield %a2 : f64
  }
  return %s#0, %s#1, %t : f64, f64, f64
}
