// Memrefs: in-place mutation, fresh results, static shapes, rank 0, views
// and copies (memrefCopy from moonrt), linalg on memrefs, f32 and i1.
// RUN: moonc run %s --entry axpy --args '[2.0, [1, 2, 3], [10, 20, 30]]' | FileCheck %s --check-prefix=AXPY
// AXPY: {"results": [], "args": [null, [1.0, 2.0, 3.0], [12.0, 24.0, 36.0]]}
// RUN: moonc run %s --entry scaled --args '[[0.5, 1.5], 3.0]' | FileCheck %s --check-prefix=SCALED
// SCALED: {"results": {{\[}}[1.5, 4.5]], "args": {{\[}}[0.5, 1.5], null]}
// RUN: moonc run %s --entry matmul --args '[[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[0, 0], [0, 0]]]' | FileCheck %s --check-prefix=MATMUL
// MATMUL: "args": {{\[}}{{\[}}[1.0, 2.0], [3.0, 4.0]], {{\[}}[5.0, 6.0], [7.0, 8.0]], {{\[}}[19.0, 22.0], [43.0, 50.0]]]}
// RUN: moonc run %s --entry accumulate --args '[5.0, 0.25]' | FileCheck %s --check-prefix=RANK0
// RANK0: {"results": [], "args": [5.25, null]}
// RUN: moonc run %s --entry center --args '[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]]' | FileCheck %s --check-prefix=VIEW
// VIEW: {"results": {{\[}}{{\[}}[6.0, 10.0], [7.0, 11.0]]], "args":
// RUN: moonc run %s --entry positive --args '[[-1.0, 0.0, 2.0]]' | FileCheck %s --check-prefix=MASK
// MASK: {"results": {{\[}}[0, 0, 1]], "args": {{\[}}[-1.0, 0.0, 2.0]]}
// RUN: moonc run %s --entry third --args '[0.1]' | FileCheck %s --check-prefix=F32
// F32: {"results": [0.033333335], "args": [null]}

func.func @axpy(%a: f64, %x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %yi = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %a, %xi : f64
    %s = arith.addf %p, %yi : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}

func.func @scaled(%x: memref<2xf64>, %a: f64) -> memref<2xf64> {
  %y = memref.alloc() : memref<2xf64>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x : memref<2xf64>) outs(%y : memref<2xf64>) {
  ^bb0(%in: f64, %out: f64):
    %p = arith.mulf %in, %a : f64
    linalg.yield %p : f64
  }
  return %y : memref<2xf64>
}

func.func @matmul(%a: memref<2x2xf64>, %b: memref<2x2xf64>, %c: memref<2x2xf64>) {
  linalg.matmul ins(%a, %b : memref<2x2xf64>, memref<2x2xf64>) outs(%c : memref<2x2xf64>)
  return
}

func.func @accumulate(%acc: memref<f64>, %x: f64) {
  %v = memref.load %acc[] : memref<f64>
  %s = arith.addf %v, %x : f64
  memref.store %s, %acc[] : memref<f64>
  return
}

// The transposed centre 2x2 block of a 4x4 matrix, through a subview, a
// transpose view and a copy into a fresh buffer.
func.func @center(%a: memref<4x4xf64>) -> memref<2x2xf64> {
  %s = memref.subview %a[1, 1][2, 2][1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1], offset: 5>>
  %t = memref.transpose %s (i, j) -> (j, i) : memref<2x2xf64, strided<[4, 1], offset: 5>> to memref<2x2xf64, strided<[1, 4], offset: 5>>
  %out = memref.alloc() : memref<2x2xf64>
  memref.copy %t, %out : memref<2x2xf64, strided<[1, 4], offset: 5>> to memref<2x2xf64>
  return %out : memref<2x2xf64>
}

func.func @positive(%x: memref<?xf64>) -> memref<?xi1> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %m = memref.alloc(%n) : memref<?xi1>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.cmpf ogt, %v, %zero : f64
    memref.store %p, %m[%i] : memref<?xi1>
  }
  return %m : memref<?xi1>
}

func.func @third(%x: f32) -> f32 {
  %three = arith.constant 3.0 : f32
  %r = arith.divf %x, %three : f32
  return %r : f32
}
