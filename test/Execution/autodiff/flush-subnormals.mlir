// REQUIRES: x86_64
// --moon-flush-subnormals (docs/autodiff.md, "Subnormals"): the gradient
// of sum_i sum_j x[j] y[i][j] with subnormal y. Its reverse sweep is a
// loop nest (the scratch row t is overwritten by every row), run with
// subnormals flushed to zero: the gradient with respect to x, a sum of
// subnormal y, comes out 0, and exactly with --moon-keep-subnormals. The
// value comes from the forward sweep and keeps IEEE subnormals either way
// (the primal's own 1.099999999999997e-309).
//
// RUN: moonc grad %s --entry rows --args '[[1, 2], [[1e-310, 3e-310], [2e-310, 1e-310]]]' | FileCheck %s --check-prefix=FLUSH
// FLUSH: {"value": 1.099999999999997e-309, "gradient": {{\[}}[0.0, 0.0], {{\[}}[1.0, 2.0], [1.0, 2.0]]]}
// RUN: moonc --moon-keep-subnormals grad %s --entry rows --args '[[1, 2], [[1e-310, 3e-310], [2e-310, 1e-310]]]' | FileCheck %s --check-prefix=KEEP
// KEEP: {"value": 1.099999999999997e-309, "gradient": {{\[}}[3e-310, 4e-310], {{\[}}[1.0, 2.0], [1.0, 2.0]]]}
// RUN: moonc run %s --entry rows --args '[[1, 2], [[1e-310, 3e-310], [2e-310, 1e-310]]]' | FileCheck %s --check-prefix=PRIMAL
// PRIMAL: {"results": [1.099999999999997e-309]
// RUN: moonc check %s --entry rows --args '[[1, 2, -0.5], [[0.5, -1, 2], [3, 0.25, 1]]]' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

func.func @rows(%x: memref<?xf64>, %y: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %y, %c0 : memref<?x?xf64>
  %m = memref.dim %y, %c1 : memref<?x?xf64>
  %t = memref.alloc(%m) : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    scf.for %j = %c0 to %m step %c1 {
      %xv = memref.load %x[%j] : memref<?xf64>
      %yv = memref.load %y[%i, %j] : memref<?x?xf64>
      %p = arith.mulf %xv, %yv : f64
      memref.store %p, %t[%j] : memref<?xf64>
    }
    %e = scf.for %j = %c0 to %m step %c1 iter_args(%s = %z) -> f64 {
      %tv = memref.load %t[%j] : memref<?xf64>
      %s2 = arith.addf %s, %tv : f64
      scf.yield %s2 : f64
    }
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  memref.dealloc %t : memref<?xf64>
  return %r : f64
}
