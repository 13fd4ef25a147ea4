// Forward mode through value-dependent branches: scf.if (results, nested,
// no results but a store), scf.execute_region with several blocks,
// scf.index_switch on an index computed from an active value, and select
// chains. Each branch is taken by one of the RUN lines.
//
// RUN: moonc check %s --entry piecewise --args '[0.3, 1.2]' | FileCheck %s --check-prefix=PIECEWISE_LOW
// PIECEWISE_LOW: check: PASS
// RUN: moonc check %s --entry piecewise --args '[1.7, 1.2]' | FileCheck %s --check-prefix=PIECEWISE_HIGH
// PIECEWISE_HIGH: check: PASS
// RUN: moonc check %s --entry nested_if --args '[0.4, 0.2]' | FileCheck %s --check-prefix=NESTED_IF_A
// NESTED_IF_A: check: PASS
// RUN: moonc check %s --entry nested_if --args '[0.4, 0.9]' | FileCheck %s --check-prefix=NESTED_IF_B
// NESTED_IF_B: check: PASS
// RUN: moonc check %s --entry nested_if --args '[1.4, 0.9]' | FileCheck %s --check-prefix=NESTED_IF_C
// NESTED_IF_C: check: PASS
// RUN: moonc check %s --entry if_in_loop | FileCheck %s --check-prefix=IF_IN_LOOP
// IF_IN_LOOP: check: PASS
// RUN: moonc check %s --entry if_store --args '[[0.5, 2.0, 1.5], 1.0]' | FileCheck %s --check-prefix=IF_STORE
// IF_STORE: check: PASS
// RUN: moonc check %s --entry if_const_branch --args '[0.5, 0.7]' | FileCheck %s --check-prefix=IF_CONST_THEN
// IF_CONST_THEN: check: PASS
// RUN: moonc check %s --entry if_const_branch --args '[1.5, 0.7]' | FileCheck %s --check-prefix=IF_CONST_ELSE
// IF_CONST_ELSE: check: PASS
// RUN: moonc check %s --entry region_blocks --args '[0.6, 1.3]' | FileCheck %s --check-prefix=REGION_A
// REGION_A: check: PASS
// RUN: moonc check %s --entry region_blocks --args '[1.6, 1.3]' | FileCheck %s --check-prefix=REGION_B
// REGION_B: check: PASS
// RUN: moonc check %s --entry switch_on_value --args '[0.5, 1.1]' | FileCheck %s --check-prefix=SWITCH_0
// SWITCH_0: check: PASS
// RUN: moonc check %s --entry switch_on_value --args '[1.5, 1.1]' | FileCheck %s --check-prefix=SWITCH_1
// SWITCH_1: check: PASS
// RUN: moonc check %s --entry switch_on_value --args '[2.5, 1.1]' | FileCheck %s --check-prefix=SWITCH_2
// SWITCH_2: check: PASS
// RUN: moonc check %s --entry switch_on_value --args '[3.5, 1.1]' | FileCheck %s --check-prefix=SWITCH_DEFAULT
// SWITCH_DEFAULT: check: PASS
// RUN: moonc check %s --entry clamp_select | FileCheck %s --check-prefix=CLAMP_SELECT
// CLAMP_SELECT: check: PASS
// RUN: moonc check %s --entry clamp_select --args '[[-2.0, 0.3, 1.7, 0.9], 1.2]' | FileCheck %s --check-prefix=CLAMP_SELECT_SIDES
// CLAMP_SELECT_SIDES: check: PASS
// RUN: moonc check %s --entry region_in_loop | FileCheck %s --check-prefix=REGION_IN_LOOP
// REGION_IN_LOOP: check: PASS

// x < 1 ? x*x*y : log(x) + y.
func.func @piecewise(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  %r = scf.if %lt -> f64 {
    %xx = arith.mulf %x, %x : f64
    %p = arith.mulf %xx, %y : f64
    scf.yield %p : f64
  } else {
    %l = math.log %x : f64
    %s = arith.addf %l, %y : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// Three regions by nested scf.if, each yielding two results (one of them
// inactive in some branches).
func.func @nested_if(%x: f64, %y: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %half = arith.constant 0.5 : f64
  %c2 = arith.constant 2.0 : f64
  %a = arith.cmpf olt, %x, %one : f64
  %r:2 = scf.if %a -> (f64, f64) {
    %b = arith.cmpf olt, %y, %half : f64
    %s:2 = scf.if %b -> (f64, f64) {
      %e = math.exp %y : f64
      %m = arith.mulf %e, %x : f64
      scf.yield %m, %c2 : f64, f64
    } else {
      %sn = math.sin %x : f64
      %m = arith.mulf %sn, %y : f64
      scf.yield %m, %y : f64, f64
    }
    scf.yield %s#0, %s#1 : f64, f64
  } else {
    %d = arith.divf %y, %x : f64
    scf.yield %d, %x : f64, f64
  }
  %p = arith.mulf %r#0, %r#1 : f64
  return %r#0, %p : f64, f64
}

// The sum over i < 8 of (d < 0 ? -d*y : d) with d = x - 1 - i/4, by scf.if
// in a loop: both branches run in one call.
func.func @if_in_loop(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %q = arith.constant 0.25 : f64
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %fq = arith.mulf %fi, %q : f64
    %xm = arith.subf %x, %one : f64
    %d = arith.subf %xm, %fq : f64
    %neg = arith.cmpf olt, %d, %zero : f64
    %v = scf.if %neg -> f64 {
      %n = arith.negf %d : f64
      %ny = arith.mulf %n, %y : f64
      scf.yield %ny : f64
    } else {
      scf.yield %d : f64
    }
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// An scf.if without results that stores into an argument: a[i] <- a[i]^2
// where a[i] > t, else a[i] * t.
func.func @if_store(%a: memref<3xf64>, %t: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %a[%i] : memref<3xf64>
    %gt = arith.cmpf ogt, %v, %t : f64
    scf.if %gt {
      %s = arith.mulf %v, %v : f64
      memref.store %s, %a[%i] : memref<3xf64>
    } else {
      %s = arith.mulf %v, %t : f64
      memref.store %s, %a[%i] : memref<3xf64>
    }
  }
  return
}

// One branch yields a constant (zero tangent), the other an active value.
func.func @if_const_branch(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %c = arith.constant 0.75 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  %r = scf.if %lt -> f64 {
    scf.yield %c : f64
  } else {
    %t = math.tanh %x : f64
    scf.yield %t : f64
  }
  %p = arith.mulf %r, %y : f64
  %s = arith.addf %p, %x : f64
  return %s : f64
}

// scf.execute_region whose body branches between blocks that pass active
// block arguments.
func.func @region_blocks(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = scf.execute_region -> f64 {
    %lt = arith.cmpf olt, %x, %one : f64
    %xy = arith.mulf %x, %y : f64
    cf.cond_br %lt, ^small(%xy : f64), ^large(%x, %y : f64, f64)
  ^small(%a: f64):
    %s = math.sin %a : f64
    cf.br ^done(%s : f64)
  ^large(%b: f64, %c: f64):
    %q = arith.divf %c, %b : f64
    %e = math.exp %q : f64
    cf.br ^done(%e : f64)
  ^done(%v: f64):
    %w = arith.mulf %v, %y : f64
    scf.yield %w : f64
  }
  return %r : f64
}

// scf.index_switch on floor(x) (an index computed from an active value):
// a different function of x and y in each case.
func.func @switch_on_value(%x: f64, %y: f64) -> f64 {
  %fl = math.floor %x : f64
  %k = arith.fptosi %fl : f64 to i64
  %idx = arith.index_cast %k : i64 to index
  %r = scf.index_switch %idx -> f64
  case 0 {
    %a = arith.mulf %x, %y : f64
    scf.yield %a : f64
  }
  case 1 {
    %a = math.sin %x : f64
    %b = arith.addf %a, %y : f64
    scf.yield %b : f64
  }
  case 2 {
    %a = math.exp %y : f64
    %b = arith.divf %a, %x : f64
    scf.yield %b : f64
  }
  default {
    %a = arith.mulf %y, %y : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// a[i] <- clamp(a[i] * s, -1, 1) with cmpf/select; the scale s is active.
func.func @clamp_select(%a: memref<4xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %lo = arith.constant -1.0 : f64
  %hi = arith.constant 1.0 : f64
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %w = arith.mulf %v, %s : f64
    %big = arith.cmpf ogt, %w, %hi : f64
    %small = arith.cmpf olt, %w, %lo : f64
    %u = arith.select %big, %hi, %w : f64
    %c = arith.select %small, %lo, %u : f64
    memref.store %c, %a[%i] : memref<4xf64>
  }
  return
}

// scf.execute_region with two yielding blocks inside an scf.for: the
// branch taken changes from one iteration to the next.
func.func @region_in_loop(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %one = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%v = %x) -> f64 {
    %n = scf.execute_region -> f64 {
      %lt = arith.cmpf olt, %v, %one : f64
      cf.cond_br %lt, ^a, ^b
    ^a:
      %p = arith.addf %v, %y : f64
      scf.yield %p : f64
    ^b:
      %q = arith.mulf %v, %y : f64
      %s = math.sin %q : f64
      scf.yield %s : f64
    }
    scf.yield %n : f64
  }
  return %r : f64
}
