// Calls: private helpers, recursion, several results, branches.
// RUN: moonc run %s --entry factorial --args '[20]' | FileCheck %s --check-prefix=FACT
// FACT: {"results": [2432902008176640000], "args": [null]}
// RUN: moonc run %s --entry fib --args '[20]' | FileCheck %s --check-prefix=FIB
// FIB: {"results": [6765], "args": [null]}
// RUN: moonc run %s --entry divmod --args '[-7, 2]' | FileCheck %s --check-prefix=DIVMOD
// DIVMOD: {"results": [-4, 1, 1], "args": [null, null]}
// RUN: moonc run %s --entry clamp --args '[2.5, 0.0, 1.0]' | FileCheck %s --check-prefix=CLAMP
// CLAMP: {"results": [1.0], "args": [null, null, null]}
// RUN: moonc run %s --entry clamp --args '[-0.5, -1.0, 1.0]' | FileCheck %s --check-prefix=CLAMP2
// CLAMP2: {"results": [-0.5], "args": [null, null, null]}

func.func @factorial(%n: i64) -> i64 {
  %one = arith.constant 1 : i64
  %small = arith.cmpi sle, %n, %one : i64
  %r = scf.if %small -> i64 {
    scf.yield %one : i64
  } else {
    %m = arith.subi %n, %one : i64
    %f = func.call @factorial(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}

func.func private @fib_helper(%n: index) -> index {
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %small = arith.cmpi ult, %n, %c2 : index
  cf.cond_br %small, ^base, ^rec
^base:
  return %n : index
^rec:
  %a = arith.subi %n, %c1 : index
  %b = arith.subi %n, %c2 : index
  %fa = func.call @fib_helper(%a) : (index) -> index
  %fb = func.call @fib_helper(%b) : (index) -> index
  %s = arith.addi %fa, %fb : index
  return %s : index
}

func.func @fib(%n: index) -> index {
  %r = func.call @fib_helper(%n) : (index) -> index
  return %r : index
}

// Floor division, the matching remainder, and whether the remainder is odd.
func.func @divmod(%a: i32, %b: i32) -> (i32, i32, i1) {
  %q = arith.floordivsi %a, %b : i32
  %p = arith.muli %q, %b : i32
  %r = arith.subi %a, %p : i32
  %one = arith.constant 1 : i32
  %low = arith.andi %r, %one : i32
  %odd = arith.cmpi eq, %low, %one : i32
  return %q, %r, %odd : i32, i32, i1
}

func.func @clamp(%x: f64, %lo: f64, %hi: f64) -> f64 {
  %a = arith.maximumf %x, %lo : f64
  %b = arith.minimumf %a, %hi : f64
  return %b : f64
}
