// `moon.vjp` with `moon.overwrite_shadows` (what `moonc gradbench` asks
// for): the shadows end up holding the derivatives, whatever they held
// before (here 100). Reverse mode fills them with zero first, or, where
// the shadow's first use is a reverse loop that writes each element once,
// lets that loop store instead of add (lse).
//
// RUN: moonc run %s --entry lse_set --args '[[0.5, -1.25, 3.0, 2.0], [100, 100, 100, 100]]' | FileCheck %s --check-prefix=LSE
// LSE: "args": {{\[}}[0.5, -1.25, 3.0, 2.0], [0.056060231641{{[0-9]*}}, 0.0097418075230{{[0-9]*}}, 0.68295343340{{[0-9]*}}, 0.25124452742{{[0-9]*}}]]
// Without the attribute the derivatives are added:
// RUN: moonc run %s --entry lse_add --args '[[0.5, -1.25, 3.0, 2.0], [100, 100, 100, 100]]' | FileCheck %s --check-prefix=ADD
// ADD: "args": {{\[}}[0.5, -1.25, 3.0, 2.0], [100.05606023164{{[0-9]*}}, 100.00974180752{{[0-9]*}}, 100.68295343340{{[0-9]*}}, 100.25124452742{{[0-9]*}}]]
// sum(sin x) + log(sum(exp x)): the reverse loop of the second sum covers
// x's shadow, but the first sum's derivative (cos x) is added to it
// before that loop runs, so the fill stays: cos(x) + softmax(x).
// RUN: moonc run %s --entry two_set --args '[[0.5, -1.25, 3.0, 2.0], [100, 100, 100, 100]]' | FileCheck %s --check-prefix=TWO
// TWO: "args": {{\[}}[0.5, -1.25, 3.0, 2.0], [0.93364279353{{[0-9]*}}, 0.32506416991{{[0-9]*}}, -0.30703906319{{[0-9]*}}, -0.16490230911{{[0-9]*}}]]
// A function with a custom reverse rule (which adds, as rules do): the
// shadow is filled with zero before the rule's call. d(2 sum x) = 2.
// RUN: moonc run %s --entry custom_set --args '[[0.5, -1.25, 3.0], [100, 100, 100]]' | FileCheck %s --check-prefix=CUSTOM
// CUSTOM: "args": {{\[}}[0.5, -1.25, 3.0], [2.0, 2.0, 2.0]]

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

func.func @lse_set(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @lse(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

func.func @lse_add(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @lse(%x, %dx, %one) : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

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

func.func @two_set(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @two(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

func.func @twice_sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %two, %s : f64
  return %r : f64
}

func.func @twice_sum_vjp(%x: memref<?xf64>, %dx: memref<?xf64>, %seed: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %g = arith.mulf %two, %seed : f64
  scf.for %i = %c0 to %n step %c1 {
    %d = memref.load %dx[%i] : memref<?xf64>
    %a = arith.addf %d, %g : f64
    memref.store %a, %dx[%i] : memref<?xf64>
  }
  %r = func.call @twice_sum(%x) : (memref<?xf64>) -> f64
  return %r : f64
}
moon.custom_rule @twice_sum vjp @twice_sum_vjp

func.func @custom_set(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @twice_sum(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}
