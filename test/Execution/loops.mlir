// Loops: scf.for with iter_args, scf.while, a cf loop with block arguments,
// scf.parallel, and a dynamic 2-D nest; exact printed values.
// RUN: moonc run %s --entry sum_squares --args '[[1.5, -2.0, 0.25]]' | FileCheck %s --check-prefix=SUM
// SUM: {"results": [6.3125], "args": {{\[}}[1.5, -2.0, 0.25]]}
// RUN: moonc run %s --entry collatz --args '[27]' | FileCheck %s --check-prefix=WHILE
// WHILE: {"results": [111], "args": [null]}
// RUN: moonc run %s --entry cf_power --args '[1.5, 5]' | FileCheck %s --check-prefix=CF
// CF: {"results": [7.59375], "args": [null, null]}
// RUN: moonc run %s --entry row_sums --args '[[[1, 2, 3], [4, 5, 6]], [0, 0]]' | FileCheck %s --check-prefix=ROWS
// ROWS: {"results": [], "args": [{{\[}}[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [6.0, 15.0]]}
// RUN: moonc run %s --entry parallel_square --args '[[1, 2, 3, 4, 5]]' | FileCheck %s --check-prefix=PAR
// PAR: {"results": [], "args": {{\[}}[1.0, 4.0, 9.0, 16.0, 25.0]]}

func.func @sum_squares(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %sq : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

// Number of Collatz steps from %start down to 1.
func.func @collatz(%start: i64) -> i64 {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %zero = arith.constant 0 : i64
  %r:2 = scf.while (%n = %start, %steps = %zero) : (i64, i64) -> (i64, i64) {
    %more = arith.cmpi ne, %n, %one : i64
    scf.condition(%more) %n, %steps : i64, i64
  } do {
  ^bb0(%n: i64, %steps: i64):
    %rem = arith.remui %n, %two : i64
    %even = arith.cmpi eq, %rem, %zero : i64
    %next = scf.if %even -> i64 {
      %h = arith.divui %n, %two : i64
      scf.yield %h : i64
    } else {
      %t = arith.muli %n, %three : i64
      %u = arith.addi %t, %one : i64
      scf.yield %u : i64
    }
    %s = arith.addi %steps, %one : i64
    scf.yield %next, %s : i64, i64
  }
  return %r#1 : i64
}

// x^k by repeated multiplication in an unstructured (cf) loop.
func.func @cf_power(%x: f64, %k: i32) -> f64 {
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  cf.br ^loop(%k, %one : i32, f64)
^loop(%i: i32, %acc: f64):
  %done = arith.cmpi sle, %i, %c0 : i32
  cf.cond_br %done, ^exit(%acc : f64), ^body
^body:
  %next = arith.mulf %acc, %x : f64
  %j = arith.subi %i, %c1 : i32
  cf.br ^loop(%j, %next : i32, f64)
^exit(%r: f64):
  return %r : f64
}

func.func @row_sums(%a: memref<?x?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %a, %c0 : memref<?x?xf64>
  %cols = memref.dim %a, %c1 : memref<?x?xf64>
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %rows step %c1 {
    %s = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %a[%i, %j] : memref<?x?xf64>
      %n = arith.addf %acc, %v : f64
      scf.yield %n : f64
    }
    memref.store %s, %out[%i] : memref<?xf64>
  }
  return
}

func.func @parallel_square(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %sq = arith.mulf %v, %v : f32
    memref.store %sq, %x[%i] : memref<?xf32>
  }
  return
}
