// Reverse mode on the programs of the reverse-mode issue: a tape of exp in
// a sum, a while-loop sum, a 500-step sin loop, in-place mutation then a
// sum, recursion f(a,b) = a < b ? a*b : f(b,a) + a, Newton's method in cf
// form with a value-dependent trip count, a matmul into a local buffer,
// overwrite-then-read, and a store into one memref argument then a load of
// another (called with the same buffer twice in test/Tools/moonc). Each is
// checked by `moonc check` (forward and reverse against finite
// differences, and the dot-product test).
// RUN: moonc check %s --entry sce --args '[[0.1, 0.2, 0.3]]' | FileCheck %s --check-prefix=SCE
// SCE: check: PASS
// RUN: moonc check %s --entry wsum --args '[[0.1, 0.2, 0.3]]' | FileCheck %s --check-prefix=WSUM
// WSUM: check: PASS
// RUN: moonc check %s --entry sinloop --args '[0.7]' | FileCheck %s --check-prefix=SINLOOP
// SINLOOP: check: PASS
// RUN: moonc check %s --entry inplace --args '[[0.1, 0.2, 0.3]]' | FileCheck %s --check-prefix=INPLACE
// INPLACE: check: PASS
// RUN: moonc check %s --entry rec --args '[3.0, 2.0]' | FileCheck %s --check-prefix=REC
// REC: check: PASS
// RUN: moonc check %s --entry newton --args '[2.0]' | FileCheck %s --check-prefix=NEWTON
// NEWTON: check: PASS
// RUN: moonc check %s --entry owr --args '[[1.0, 2.0, 3.0]]' | FileCheck %s --check-prefix=OWR
// OWR: check: PASS
// RUN: moonc check %s --entry mm --args '[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 1, 2, 3]], [[1, 2], [3, 4], [5, 6], [7, 8]]]' | FileCheck %s --check-prefix=MM
// MM: check: PASS
// RUN: moonc check %s --entry alias --args '[[1.5, 2.5], [0.5, 0.25]]' | FileCheck %s --check-prefix=ALIAS
// ALIAS: check: PASS

func.func @sce(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %a = arith.addf %acc, %c : f64
    scf.yield %a : f64
  }
  return %s : f64
}

func.func @wsum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %sv = math.sin %v : f64
    %a2 = arith.addf %a, %sv : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}

func.func @sinloop(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 500 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> f64 {
    %b = math.sin %a : f64
    scf.yield %b : f64
  }
  return %s : f64
}

func.func @inplace(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %s = math.sin %c : f64
    memref.store %s, %x[%i] : memref<?xf64>
  }
  %z = arith.constant 0.0 : f64
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %t : f64
}

func.func @rec(%a: f64, %b: f64) -> f64 {
  %c = arith.cmpf olt, %a, %b : f64
  %r = scf.if %c -> f64 {
    %m = arith.mulf %a, %b : f64
    scf.yield %m : f64
  } else {
    %f = func.call @rec(%b, %a) : (f64, f64) -> f64
    %s = arith.addf %f, %a : f64
    scf.yield %s : f64
  }
  return %r : f64
}

func.func @newton(%a: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %tol = arith.constant 1.0e-12 : f64
  cf.br ^loop(%a : f64)
^loop(%x: f64):
  %q = arith.divf %a, %x : f64
  %s = arith.addf %x, %q : f64
  %nx = arith.mulf %s, %half : f64
  %d = arith.subf %nx, %x : f64
  %ad = math.absf %d : f64
  %done = arith.cmpf olt, %ad, %tol : f64
  cf.cond_br %done, ^exit(%nx : f64), ^loop(%nx : f64)
^exit(%r: f64):
  return %r : f64
}

func.func @mm(%a: memref<3x4xf64>, %b: memref<4x2xf64>) -> f64 {
  %c = memref.alloc() : memref<3x2xf64>
  %z = arith.constant 0.0 : f64
  linalg.fill ins(%z : f64) outs(%c : memref<3x2xf64>)
  linalg.matmul ins(%a, %b : memref<3x4xf64>, memref<4x2xf64>) outs(%c : memref<3x2xf64>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %z) -> f64 {
    %t = scf.for %j = %c0 to %c2 step %c1 iter_args(%acc2 = %acc) -> f64 {
      %v = memref.load %c[%i, %j] : memref<3x2xf64>
      %sq = arith.mulf %v, %v : f64
      %a2 = arith.addf %acc2, %sq : f64
      scf.yield %a2 : f64
    }
    scf.yield %t : f64
  }
  memref.dealloc %c : memref<3x2xf64>
  return %s : f64
}

func.func @alias(%a: memref<2xf64>, %b: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c0] : memref<2xf64>
  %y = memref.load %b[%c1] : memref<2xf64>
  %p = arith.mulf %x, %y : f64
  memref.store %p, %b[%c0] : memref<2xf64>
  %q = memref.load %a[%c0] : memref<2xf64>
  %r = arith.mulf %q, %y : f64
  return %r : f64
}

func.func @owr(%x: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x1 = memref.load %x[%c1] : memref<3xf64>
  %s = math.sin %x1 : f64
  memref.store %s, %x[%c0] : memref<3xf64>
  %a = memref.load %x[%c0] : memref<3xf64>
  %b = memref.load %x[%c2] : memref<3xf64>
  %r = arith.mulf %a, %b : f64
  return %r : f64
}
