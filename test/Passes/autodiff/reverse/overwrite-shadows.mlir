// RUN: moonc-opt %s --split-input-file --moon-autodiff --canonicalize --cse | FileCheck %s

// `moon.overwrite_shadows`: the adjoint function (`_o`) sets its shadows.
// lse's first use of x's shadow is the reverse loop of the sum, which
// writes each element once: it stores (0 + the derivative) and the zero
// fill goes.
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @lse(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @lse_vjp_d_a_o
// CHECK-NOT: linalg.fill
// CHECK-NOT: moon.covers
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: math.exp
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT: memref.load %arg1
// CHECK: %[[T:.*]] = memref.load %alloc
// CHECK-NOT: memref.load %arg1
// CHECK: %[[D:.*]] = arith.mulf %{{.*}}, %[[T]]
// CHECK: %[[V:.*]] = arith.addf %[[D]], %[[ZERO]]
// CHECK: memref.store %[[V]], %arg1
// CHECK: scf.yield
// CHECK: return
// CHECK-LABEL: func.func @g
// CHECK: call @lse_vjp_d_a_o

// -----

// sum(sin x) + log(sum(exp x)): the first sum adds its derivative to x's
// shadow in its own forward loop, before the second sum's reverse loop
// runs, so the shadow is filled with zero first and both add.
func.func @two(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s1 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.sin %v : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %s2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %s2 : f64
  %r = arith.addf %s1, %l : f64
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @two(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @two_vjp_d_a_o
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%arg1 : memref<?xf64>)
// CHECK: scf.for
// CHECK: math.cos
// CHECK: memref.load %arg1
// CHECK: memref.store {{.*}}, %arg1
// CHECK: scf.yield
// CHECK: scf.for
// CHECK: math.exp
// CHECK: scf.for
// CHECK: memref.load %arg1
// CHECK: memref.store {{.*}}, %arg1
// CHECK-NOT: moon.covers
// CHECK: return
