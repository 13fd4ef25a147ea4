// The reverse of a max selection whose scan runs inside a later loop of
// the forward sweep over the same elements (docs/ndual.md, selection loops):
// f(x) = max(x) * sum(x_i^2), so the max's adjoint, sum(x_i^2), is not
// zero and the gradient shows which element was selected:
// df/dx_i = 2 m x_i + [i selected] * sum(x^2).
//
// RUN: moonc check %s --entry first --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s --check-prefix=CHECK-PASS
// RUN: moonc check %s --entry last --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s --check-prefix=CHECK-PASS
// RUN: moonc check %s --entry shorter --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s --check-prefix=CHECK-PASS
// RUN: moonc check %s --entry from_one --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s --check-prefix=CHECK-PASS
// RUN: moonc check %s --entry skip_first --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s --check-prefix=CHECK-PASS
// CHECK-PASS: check: PASS
//
// Ties go to the first maximum (m = 3, sum = 23):
// RUN: moonc grad %s --entry first --args '[[1, 3, 3, 2]]' | FileCheck %s --check-prefix=FIRST
// FIRST: "gradient": {{\[}}[6.0, 41.0, 18.0, 12.0]]
// ... or to the last, when the element is maximumf's first operand:
// RUN: moonc grad %s --entry last --args '[[1, 3, 3, 2]]' | FileCheck %s --check-prefix=LAST
// LAST: "gradient": {{\[}}[6.0, 18.0, 41.0, 12.0]]
// The maximum past the host's range (the sum stops before the last
// element; m = 5, sum = 5): found by the scan of what the host leaves out.
// RUN: moonc grad %s --entry shorter --args '[[1, 2, 5]]' | FileCheck %s --check-prefix=SHORTER
// SHORTER: "gradient": {{\[}}[10.0, 20.0, 5.0]]
// The max loop starting at x_1 from x_0 (GradBench's lse): the initial
// value x_0 takes the adjoint when it equals the maximum.
// RUN: moonc grad %s --entry from_one --args '[[3, 1, 3, 2]]' | FileCheck %s --check-prefix=INIT
// INIT: "gradient": {{\[}}[41.0, 6.0, 18.0, 12.0]]
// The max of x_1.. only: x_0, equal to it, comes first in the host and
// hides x_2, so every element is scanned again.
// RUN: moonc grad %s --entry skip_first --args '[[3, 1, 3, 2]]' | FileCheck %s --check-prefix=HIDDEN
// HIDDEN: "gradient": {{\[}}[18.0, 6.0, 41.0, 12.0]]
// RUN: moonc grad %s --entry from_one --args '[[2, 1, 3, 3]]' | FileCheck %s --check-prefix=FROM-ONE
// FROM-ONE: "gradient": {{\[}}[12.0, 6.0, 41.0, 18.0]]

func.func @first(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %m, %s : f64
  return %r : f64
}

func.func @last(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %v, %acc : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %m, %s : f64
  return %r : f64
}

func.func @shorter(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %n1 = arith.subi %n, %c1 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n1 step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %m, %s : f64
  return %r : f64
}

func.func @from_one(%x: memref<?xf64>) -> f64 {
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
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %m, %s : f64
  return %r : f64
}

func.func @skip_first(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %m, %s : f64
  return %r : f64
}
