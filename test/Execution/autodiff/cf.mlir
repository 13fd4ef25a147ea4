// Forward mode through unstructured control flow: loops built from cf.br
// and cf.cond_br with active block arguments, cf.switch, a loop with two
// exits, an early return, and a diamond whose arms pass different numbers
// of active values.
//
// RUN: moonc check %s --entry cf_loop | FileCheck %s --check-prefix=CF_LOOP
// CF_LOOP: check: PASS
// RUN: moonc check %s --entry cf_while --args '[0.3, 1.1]' | FileCheck %s --check-prefix=CF_WHILE
// CF_WHILE: check: PASS
// RUN: moonc check %s --entry cf_switch --args '[0.7, 1.3, 0]' | FileCheck %s --check-prefix=CF_SWITCH_0
// CF_SWITCH_0: check: PASS
// RUN: moonc check %s --entry cf_switch --args '[0.7, 1.3, 1]' | FileCheck %s --check-prefix=CF_SWITCH_1
// CF_SWITCH_1: check: PASS
// RUN: moonc check %s --entry cf_switch --args '[0.7, 1.3, 5]' | FileCheck %s --check-prefix=CF_SWITCH_DEFAULT
// CF_SWITCH_DEFAULT: check: PASS
// RUN: moonc check %s --entry two_exits --args '[0.9, 0.2]' | FileCheck %s --check-prefix=TWO_EXITS_LIMIT
// TWO_EXITS_LIMIT: check: PASS
// RUN: moonc check %s --entry two_exits --args '[0.9, -2.0]' | FileCheck %s --check-prefix=TWO_EXITS_COUNT
// TWO_EXITS_COUNT: check: PASS
// RUN: moonc check %s --entry early_return --args '[0.4, 1.2]' | FileCheck %s --check-prefix=EARLY_RETURN_EARLY
// EARLY_RETURN_EARLY: check: PASS
// RUN: moonc check %s --entry early_return --args '[1.4, 1.2]' | FileCheck %s --check-prefix=EARLY_RETURN_LATE
// EARLY_RETURN_LATE: check: PASS
// RUN: moonc check %s --entry diamond --args '[0.6, 0.9]' | FileCheck %s --check-prefix=DIAMOND_LEFT
// DIAMOND_LEFT: check: PASS
// RUN: moonc check %s --entry diamond --args '[1.6, 0.9]' | FileCheck %s --check-prefix=DIAMOND_RIGHT
// DIAMOND_RIGHT: check: PASS
// RUN: moonc check %s --entry cf_memref_loop | FileCheck %s --check-prefix=CF_MEMREF_LOOP
// CF_MEMREF_LOOP: check: PASS
// RUN: moonc check %s --entry cf_accumulate | FileCheck %s --check-prefix=CF_ACCUMULATE
// CF_ACCUMULATE: check: PASS
// RUN: moonc check %s --entry same_successor --args '[0.5, 1.2]' | FileCheck %s --check-prefix=SAME_SUCCESSOR_TRUE
// SAME_SUCCESSOR_TRUE: check: PASS
// RUN: moonc check %s --entry same_successor --args '[1.5, 1.2]' | FileCheck %s --check-prefix=SAME_SUCCESSOR_FALSE
// SAME_SUCCESSOR_FALSE: check: PASS

// for i in 0..6: (a, b) <- (b, a*b/2 + sin(a)); a cf loop whose header
// carries an index and two active floats.
func.func @cf_loop(%x: f64, %y: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %half = arith.constant 0.5 : f64
  cf.br ^header(%c0, %x, %y : index, f64, f64)
^header(%i: index, %a: f64, %b: f64):
  %more = arith.cmpi slt, %i, %c6 : index
  cf.cond_br %more, ^body, ^exit
^body:
  %ab = arith.mulf %a, %b : f64
  %h = arith.mulf %ab, %half : f64
  %s = math.sin %a : f64
  %n = arith.addf %h, %s : f64
  %i2 = arith.addi %i, %c1 : index
  cf.br ^header(%i2, %b, %n : index, f64, f64)
^exit:
  return %a, %b : f64, f64
}

// while x < 5: x <- x * (1 + y); the trip count depends on the inputs.
func.func @cf_while(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %five = arith.constant 5.0 : f64
  cf.br ^check(%x : f64)
^check(%v: f64):
  %lt = arith.cmpf olt, %v, %five : f64
  cf.cond_br %lt, ^grow(%v : f64), ^done(%v : f64)
^grow(%w: f64):
  %g = arith.addf %one, %y : f64
  %n = arith.mulf %w, %g : f64
  cf.br ^check(%n : f64)
^done(%r: f64):
  %sq = math.sqrt %r : f64
  return %sq : f64
}

// cf.switch on an i32 argument: each case block gets different active
// operands.
func.func @cf_switch(%x: f64, %y: f64, %k: i32) -> f64 {
  %c2 = arith.constant 2.0 : f64
  cf.switch %k : i32, [
    default: ^other(%y : f64),
    0: ^zero(%x, %y : f64, f64),
    1: ^one(%x : f64)
  ]
^zero(%a: f64, %b: f64):
  %p = arith.mulf %a, %b : f64
  cf.br ^join(%p : f64)
^one(%c: f64):
  %e = math.exp %c : f64
  %m = arith.mulf %e, %y : f64
  cf.br ^join(%m : f64)
^other(%d: f64):
  %q = arith.mulf %d, %c2 : f64
  %l = math.log %q : f64
  cf.br ^join(%l : f64)
^join(%r: f64):
  %s = arith.addf %r, %x : f64
  return %s : f64
}

// A loop with two exits: it stops when the value exceeds 10 or after
// 4 steps; the exits pass different values to the join block.
func.func @two_exits(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ten = arith.constant 10.0 : f64
  %c3 = arith.constant 3.0 : f64
  cf.br ^loop(%c0, %x : index, f64)
^loop(%i: index, %v: f64):
  %big = arith.cmpf ogt, %v, %ten : f64
  cf.cond_br %big, ^limit(%v, %i : f64, index), ^step
^step:
  %e = math.exp %y : f64
  %m = arith.mulf %v, %e : f64
  %n = arith.addf %m, %c3 : f64
  %i2 = arith.addi %i, %c1 : index
  %last = arith.cmpi sge, %i2, %c4 : index
  cf.cond_br %last, ^count(%n : f64), ^loop(%i2, %n : index, f64)
^limit(%a: f64, %j: index):
  %s = math.sqrt %a : f64
  cf.br ^join(%s : f64)
^count(%b: f64):
  %l = math.log %b : f64
  cf.br ^join(%l : f64)
^join(%r: f64):
  %p = arith.mulf %r, %y : f64
  return %p : f64
}

// Returns early (from a block other than the last) when x < 1.
func.func @early_return(%x: f64, %y: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  %xy = arith.mulf %x, %y : f64
  cf.cond_br %lt, ^early, ^late
^early:
  %s = math.sin %xy : f64
  return %s, %y : f64, f64
^late:
  %l = math.log %xy : f64
  %c = math.cos %x : f64
  %m = arith.mulf %l, %c : f64
  return %m, %xy : f64, f64
}

// A diamond: the left arm passes (x*y, y), the right arm (a constant,
// x - y); the join computes with both.
func.func @diamond(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %k = arith.constant 2.5 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  cf.cond_br %lt, ^left, ^right
^left:
  %p = arith.mulf %x, %y : f64
  cf.br ^join(%p, %y : f64, f64)
^right:
  %d = arith.subf %x, %y : f64
  cf.br ^join(%k, %d : f64, f64)
^join(%a: f64, %b: f64):
  %e = math.exp %b : f64
  %r = arith.mulf %a, %e : f64
  return %r : f64
}

// A cf loop over a memref: a[i] <- a[i] * c + a[i-1], with the running
// coefficient carried in a block argument.
func.func @cf_memref_loop(%a: memref<5xf64>, %c: f64) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %decay = arith.constant 0.9 : f64
  cf.br ^header(%c1, %c : index, f64)
^header(%i: index, %k: f64):
  %more = arith.cmpi slt, %i, %c5 : index
  cf.cond_br %more, ^body, ^exit
^body:
  %im = arith.subi %i, %c1 : index
  %prev = memref.load %a[%im] : memref<5xf64>
  %v = memref.load %a[%i] : memref<5xf64>
  %m = arith.mulf %v, %k : f64
  %n = arith.addf %m, %prev : f64
  memref.store %n, %a[%i] : memref<5xf64>
  %k2 = arith.mulf %k, %decay : f64
  %i2 = arith.addi %i, %c1 : index
  cf.br ^header(%i2, %k2 : index, f64)
^exit:
  return
}

// A cf loop whose block argument starts as a constant and becomes active
// on the back edge only.
func.func @cf_accumulate(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  cf.br ^h(%c0, %zero : index, f64)
^h(%i: index, %acc: f64):
  %more = arith.cmpi slt, %i, %c4 : index
  cf.cond_br %more, ^b, ^e
^b:
  %s = arith.addf %acc, %x : f64
  %t = arith.mulf %s, %x : f64
  %i2 = arith.addi %i, %c1 : index
  cf.br ^h(%i2, %t : index, f64)
^e:
  return %acc : f64
}

// cf.cond_br with the same successor on both edges, passing different
// active values.
func.func @same_successor(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  cf.cond_br %lt, ^b(%x : f64), ^b(%y : f64)
^b(%v: f64):
  %s = math.sin %v : f64
  %p = arith.mulf %s, %x : f64
  return %p : f64
}
