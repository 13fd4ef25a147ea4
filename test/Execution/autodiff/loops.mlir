// Forward mode through structured loops: scf.for with several loop-carried
// values (active and inactive), nested loops, scf.while with a
// value-dependent trip count (and do-while forms), 500 steps of a sin
// recurrence, trip counts given as integer and index arguments, and
// scf.parallel without reductions.
//
// RUN: moonc check %s --entry power_loop | FileCheck %s --check-prefix=POWER_LOOP
// POWER_LOOP: check: PASS
// RUN: moonc check %s --entry horner | FileCheck %s --check-prefix=HORNER
// HORNER: check: PASS
// RUN: moonc check %s --entry mixed_carried | FileCheck %s --check-prefix=MIXED_CARRIED
// MIXED_CARRIED: check: PASS
// RUN: moonc check %s --entry nested_loops | FileCheck %s --check-prefix=NESTED_LOOPS
// NESTED_LOOPS: check: PASS
// RUN: moonc check %s --entry sin_500 | FileCheck %s --check-prefix=SIN_500
// SIN_500: check: PASS
// RUN: moonc check %s --entry while_halving | FileCheck %s --check-prefix=WHILE_HALVING
// WHILE_HALVING: check: PASS
// RUN: moonc check %s --entry while_halving --args '[5.3, 0.9]' | FileCheck %s --check-prefix=WHILE_HALVING_LONG
// WHILE_HALVING_LONG: check: PASS
// RUN: moonc check %s --entry newton_sqrt --args '[2.0, 1.0]' | FileCheck %s --check-prefix=NEWTON_SQRT
// NEWTON_SQRT: check: PASS
// RUN: moonc check %s --entry newton_sqrt | FileCheck %s --check-prefix=NEWTON_SQRT_RANDOM
// NEWTON_SQRT_RANDOM: check: PASS
// RUN: moonc check %s --entry counted --args '[0.8, 1.1, 7, 3]' | FileCheck %s --check-prefix=COUNTED
// COUNTED: check: PASS
// RUN: moonc check %s --entry counted --args '[0.8, 1.1, 0, 0]' | FileCheck %s --check-prefix=COUNTED_ZERO
// COUNTED_ZERO: check: PASS
// RUN: moonc check %s --entry while_do | FileCheck %s --check-prefix=WHILE_DO
// WHILE_DO: check: PASS
// RUN: moonc check %s --entry parallel_store | FileCheck %s --check-prefix=PARALLEL_STORE
// PARALLEL_STORE: check: PASS
// RUN: moonc check %s --entry while_mixed | FileCheck %s --check-prefix=WHILE_MIXED
// WHILE_MIXED: check: PASS
// RUN: moonc check %s --entry parallel_2d_branch --args '[[[0.1, 0.5, 0.9, 1.3], [0.2, 0.6, 1.2, 1.4], [-0.3, 0.7, 1.1, 1.5]], 0.8]' | FileCheck %s --check-prefix=PARALLEL_2D_BRANCH
// PARALLEL_2D_BRANCH: check: PASS

// x^10 by repeated multiplication; the loop also carries
// q <- sin(q + x^k / 10), which reads the other carried value.
func.func @power_loop(%x: f64, %y: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1.0 : f64
  %tenth = arith.constant 0.1 : f64
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%p = %one, %q = %y) -> (f64, f64) {
    %p2 = arith.mulf %p, %x : f64
    %pt = arith.mulf %p2, %tenth : f64
    %q2 = arith.addf %q, %pt : f64
    %q3 = math.sin %q2 : f64
    scf.yield %p2, %q3 : f64, f64
  }
  return %r#0, %r#1 : f64, f64
}

// A polynomial in x whose coefficients are a memref, by Horner's rule
// (coefficients active too).
func.func @horner(%c: memref<6xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> f64 {
    %m = arith.mulf %acc, %x : f64
    %v = memref.load %c[%i] : memref<6xf64>
    %n = arith.addf %m, %v : f64
    scf.yield %n : f64
  }
  return %r : f64
}

// A loop carrying an integer counter, an index, an inactive float and two
// active floats that swap roles.
func.func @mixed_carried(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %k = arith.constant 0.25 : f64
  %growth = arith.constant 1.1 : f64
  %tenth = arith.constant 0.1 : f64
  %r:5 = scf.for %i = %c0 to %c8 step %c1
      iter_args(%n = %i0, %j = %c0, %w = %k, %a = %x, %b = %y) -> (i32, index, f64, f64, f64) {
    %n2 = arith.addi %n, %i1 : i32
    %j2 = arith.addi %j, %i : index
    %w2 = arith.mulf %w, %growth : f64
    %nf = arith.sitofp %n2 : i32 to f64
    %s = arith.mulf %a, %w2 : f64
    %t = arith.mulf %b, %nf : f64
    %t2 = arith.mulf %t, %tenth : f64
    %u = arith.addf %s, %t2 : f64
    %v = math.cos %u : f64
    scf.yield %n2, %j2, %w2, %b, %v : i32, index, f64, f64, f64
  }
  %jf = arith.index_cast %r#1 : index to i64
  %jd = arith.sitofp %jf : i64 to f64
  %p = arith.mulf %r#4, %jd : f64
  %q = arith.addf %p, %r#3 : f64
  return %q : f64
}

// acc <- 1.1 acc + sin(x*i + y*j) for i, j < 4: nested loops, the inner
// one carrying the outer one's value.
func.func @nested_loops(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %tenth = arith.constant 0.1 : f64
  %outer = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %xi = arith.mulf %x, %fi : f64
    %inner = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc2 = %acc) -> f64 {
      %jj = arith.index_cast %j : index to i64
      %fj = arith.sitofp %jj : i64 to f64
      %yj = arith.mulf %y, %fj : f64
      %a = arith.addf %xi, %yj : f64
      %s = math.sin %a : f64
      %d = arith.mulf %acc2, %tenth : f64
      %e = arith.addf %s, %d : f64
      %f = arith.addf %acc2, %e : f64
      scf.yield %f : f64
    }
    scf.yield %inner : f64
  }
  return %outer : f64
}

// 500 steps of x <- x + 0.01 * sin(a * x): the tangent is carried through
// a long recurrence.
func.func @sin_500(%x: f64, %a: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c500 = arith.constant 500 : index
  %h = arith.constant 0.01 : f64
  %r = scf.for %i = %c0 to %c500 step %c1 iter_args(%v = %x) -> f64 {
    %ax = arith.mulf %a, %v : f64
    %s = math.sin %ax : f64
    %hs = arith.mulf %h, %s : f64
    %n = arith.addf %v, %hs : f64
    scf.yield %n : f64
  }
  return %r : f64
}

// Halve x until it drops below y, counting steps; returns x_final * y and
// the count times y. The trip count depends on the inputs.
func.func @while_halving(%x: f64, %y: f64) -> (f64, f64) {
  %half = arith.constant 0.5 : f64
  %i0 = arith.constant 0 : i64
  %i1 = arith.constant 1 : i64
  %r:2 = scf.while (%v = %x, %n = %i0) : (f64, i64) -> (f64, i64) {
    %more = arith.cmpf oge, %v, %y : f64
    scf.condition(%more) %v, %n : f64, i64
  } do {
  ^bb0(%v2: f64, %n2: i64):
    %h = arith.mulf %v2, %half : f64
    %m = arith.addi %n2, %i1 : i64
    scf.yield %h, %m : f64, i64
  }
  %p = arith.mulf %r#0, %y : f64
  %nf = arith.sitofp %r#1 : i64 to f64
  %q = arith.mulf %nf, %y : f64
  return %p, %q : f64, f64
}

// Newton's iteration for sqrt(a) from the guess g, until the update is
// tiny: the derivative of the converged value is 1/(2 sqrt(a)) in a and 0
// in g.
func.func @newton_sqrt(%a: f64, %g: f64) -> f64 {
  %half = arith.constant 0.5 : f64
  %tol = arith.constant 1.0e-15 : f64
  %r:2 = scf.while (%v = %g, %d = %a) : (f64, f64) -> (f64, f64) {
    %more = arith.cmpf ogt, %d, %tol : f64
    scf.condition(%more) %v, %d : f64, f64
  } do {
  ^bb0(%v2: f64, %d2: f64):
    %q = arith.divf %a, %v2 : f64
    %s = arith.addf %v2, %q : f64
    %n = arith.mulf %s, %half : f64
    %diff = arith.subf %v2, %n : f64
    %sq = arith.mulf %diff, %diff : f64
    scf.yield %n, %sq : f64, f64
  }
  return %r#0 : f64
}

// x * y^n + x by a loop from lo to lo + n, its bounds from i32 and index
// arguments.
func.func @counted(%x: f64, %y: f64, %n: i32, %lo: index) -> f64 {
  %c1 = arith.constant 1 : index
  %ni = arith.index_cast %n : i32 to index
  %hi = arith.addi %ni, %lo : index
  %r = scf.for %i = %lo to %hi step %c1 iter_args(%v = %x) -> f64 {
    %m = arith.mulf %v, %y : f64
    scf.yield %m : f64
  }
  %s = arith.addf %r, %x : f64
  return %s : f64
}

// A do-while: the before region computes the next value (active), the
// after region only forwards it.
func.func @while_do(%x: f64, %y: f64) -> f64 {
  %c3 = arith.constant 3.0 : f64
  %r = scf.while (%v = %x) : (f64) -> f64 {
    %n = arith.addf %v, %y : f64
    %s = math.sqrt %n : f64
    %w = arith.mulf %s, %v : f64
    %more = arith.cmpf olt, %w, %c3 : f64
    scf.condition(%more) %w : f64
  } do {
  ^bb0(%w2: f64):
    scf.yield %w2 : f64
  }
  return %r : f64
}

// scf.parallel without reductions: each iteration updates its own element.
func.func @parallel_store(%a: memref<4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %a[%i] : memref<4xf64>
    %p = arith.mulf %v, %x : f64
    %s = math.sin %p : f64
    memref.store %s, %a[%i] : memref<4xf64>
    scf.reduce
  }
  return
}

// scf.while whose before region takes two values and forwards one
// product; the after region rebuilds both.
func.func @while_mixed(%x: f64, %y: f64) -> f64 {
  %ten = arith.constant 10.0 : f64
  %r = scf.while (%v = %x, %w = %y) : (f64, f64) -> f64 {
    %s = arith.addf %v, %w : f64
    %lt = arith.cmpf olt, %s, %ten : f64
    %p = arith.mulf %v, %w : f64
    scf.condition(%lt) %p : f64
  } do {
  ^bb0(%p2: f64):
    %e = math.sqrt %p2 : f64
    %n = arith.addf %e, %y : f64
    scf.yield %n, %p2 : f64, f64
  }
  return %r : f64
}

// A 2-d scf.parallel whose body branches on a value and uses an
// induction variable inside the branch, stored in place.
func.func @parallel_2d_branch(%a: memref<3x4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c3, %c4) step (%c1, %c1) {
    %v = memref.load %a[%i, %j] : memref<3x4xf64>
    %p = arith.mulf %v, %x : f64
    %c = arith.cmpf ogt, %p, %x : f64
    %r = scf.if %c -> f64 {
      %s = math.sin %p : f64
      %ii = arith.index_cast %j : index to i64
      %f = arith.sitofp %ii : i64 to f64
      %m = arith.mulf %s, %f : f64
      scf.yield %m : f64
    } else {
      scf.yield %p : f64
    }
    memref.store %r, %a[%i, %j] : memref<3x4xf64>
    scf.reduce
  }
  return
}
