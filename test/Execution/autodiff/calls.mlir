// Forward and reverse mode through calls: private helpers with several results, a
// helper called with different activities (so it gets several tangent
// versions), helpers that mutate a memref, calls in loops, recursion
// through func.call (direct, mutual, and with changing activities),
// integer and index arguments alongside floats, f32 functions and mixed
// f32/f64 calls, a memref.global table, a view returned by a helper, and a
// helper with a moon.custom_rule.
//
// RUN: moonc check %s --entry use_helpers | FileCheck %s --check-prefix=USE_HELPERS
// USE_HELPERS: check: PASS
// RUN: moonc check %s --entry mixed_activity | FileCheck %s --check-prefix=MIXED_ACTIVITY
// MIXED_ACTIVITY: check: PASS
// RUN: moonc check %s --entry call_in_loop | FileCheck %s --check-prefix=CALL_IN_LOOP
// CALL_IN_LOOP: check: PASS
// RUN: moonc check %s --entry mutate_through_call | FileCheck %s --check-prefix=MUTATE_THROUGH_CALL
// MUTATE_THROUGH_CALL: check: PASS
// RUN: moonc check %s --entry scratch_through_call | FileCheck %s --check-prefix=SCRATCH_THROUGH_CALL
// SCRATCH_THROUGH_CALL: check: PASS
// RUN: moonc check %s --entry recursive_power --args '[1.1, 1.3, 6]' | FileCheck %s --check-prefix=RECURSIVE_POWER
// RECURSIVE_POWER: check: PASS
// RUN: moonc check %s --entry recursive_power --args '[0.7, 1.3, 0]' | FileCheck %s --check-prefix=RECURSIVE_POWER_BASE
// RECURSIVE_POWER_BASE: check: PASS
// RUN: moonc check %s --entry mutual_recursion --args '[0.8, 3]' | FileCheck %s --check-prefix=MUTUAL_RECURSION
// MUTUAL_RECURSION: check: PASS
// RUN: moonc check %s --entry recursive_sum --args '[[0.5, 1.5, -0.7, 2.0, 0.9, 1.1], 0.4, 6]' | FileCheck %s --check-prefix=RECURSIVE_SUM
// RECURSIVE_SUM: check: PASS
// RUN: moonc check %s --entry int_and_index --args '[0.9, 3, 2, 1.7]' | FileCheck %s --check-prefix=INT_AND_INDEX
// INT_AND_INDEX: check: PASS
// RUN: moonc check %s --entry f32_helpers | FileCheck %s --check-prefix=F32_HELPERS
// F32_HELPERS: check: PASS
// RUN: moonc check %s --entry mixed_precision_call | FileCheck %s --check-prefix=MIXED_PRECISION_CALL
// MIXED_PRECISION_CALL: check: PASS
// RUN: moonc check %s --entry call_public | FileCheck %s --check-prefix=CALL_PUBLIC
// CALL_PUBLIC: check: PASS
// RUN: moonc check %s --entry global_table | FileCheck %s --check-prefix=GLOBAL_TABLE
// GLOBAL_TABLE: check: PASS
// RUN: moonc check %s --entry memref_from_call | FileCheck %s --check-prefix=MEMREF_FROM_CALL
// MEMREF_FROM_CALL: check: PASS
// RUN: moonc check %s --entry tail_of_call --args '[[0.5, 1.5, 2.5], 0.7]' | FileCheck %s --check-prefix=TAIL_OF_CALL
// TAIL_OF_CALL: check: PASS
// RUN: moonc check %s --entry subview_to_call | FileCheck %s --check-prefix=SUBVIEW_TO_CALL
// SUBVIEW_TO_CALL: check: PASS
// RUN: moonc check %s --entry uses_custom | FileCheck %s --check-prefix=USES_CUSTOM
// USES_CUSTOM: check: PASS
// RUN: moonc check %s --entry call_multi_return --args '[0.5, 1.5]' | FileCheck %s --check-prefix=CALL_MULTI_RETURN
// CALL_MULTI_RETURN: check: PASS
// RUN: moonc check %s --entry recursion_changing_activity --args '[0.7, 1.3, 3]' | FileCheck %s --check-prefix=RECURSION_CHANGING_ACTIVITY
// RECURSION_CHANGING_ACTIVITY: check: PASS
// RUN: moonc check %s --entry flags --args '[0.7, true, 3, 2, 1.5]' | FileCheck %s --check-prefix=FLAGS_TRUE
// FLAGS_TRUE: check: PASS
// RUN: moonc check %s --entry flags --args '[0.7, false, 3, 2, 1.5]' | FileCheck %s --check-prefix=FLAGS_FALSE
// FLAGS_FALSE: check: PASS
// RUN: moonc check %s --entry gather --args '[[0.5, 1.0, 1.5, 2.0], [2, 0, 2], 0.9]' | FileCheck %s --check-prefix=GATHER
// GATHER: check: PASS
// RUN: moonc check %s --entry stored_then_read_by_call | FileCheck %s --check-prefix=STORED_THEN_READ_BY_CALL
// STORED_THEN_READ_BY_CALL: check: PASS

// (sin(x)*y, x + y*y): two results, both active.
func.func private @pair(%x: f64, %y: f64) -> (f64, f64) {
  %s = math.sin %x : f64
  %p = arith.mulf %s, %y : f64
  %yy = arith.mulf %y, %y : f64
  %q = arith.addf %x, %yy : f64
  return %p, %q : f64, f64
}

// log(1 + exp(x)) by a call to a helper of the helper.
func.func private @softplus(%x: f64) -> f64 {
  %e = math.exp %x : f64
  %l = math.log1p %e : f64
  return %l : f64
}

func.func private @scaled_softplus(%x: f64, %k: f64) -> f64 {
  %kx = arith.mulf %k, %x : f64
  %s = func.call @softplus(%kx) : (f64) -> f64
  %r = arith.divf %s, %k : f64
  return %r : f64
}

func.func @use_helpers(%x: f64, %y: f64) -> (f64, f64) {
  %a:2 = func.call @pair(%x, %y) : (f64, f64) -> (f64, f64)
  %b = func.call @scaled_softplus(%a#0, %a#1) : (f64, f64) -> f64
  %c = func.call @softplus(%y) : (f64) -> f64
  %d = arith.mulf %b, %c : f64
  return %d, %a#1 : f64, f64
}

// The same helper with (active, const), (const, active) and (active,
// active) arguments, and once with only constants.
func.func @mixed_activity(%x: f64, %y: f64) -> f64 {
  %k = arith.constant 2.0 : f64
  %m = arith.constant 0.5 : f64
  %a = func.call @scaled_softplus(%x, %k) : (f64, f64) -> f64
  %b = func.call @scaled_softplus(%m, %y) : (f64, f64) -> f64
  %c = func.call @scaled_softplus(%x, %y) : (f64, f64) -> f64
  %d = func.call @scaled_softplus(%m, %k) : (f64, f64) -> f64
  %ab = arith.mulf %a, %b : f64
  %cd = arith.mulf %c, %d : f64
  %r = arith.addf %ab, %cd : f64
  return %r : f64
}

// A call in a loop body feeding the loop-carried value.
func.func @call_in_loop(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%v = %x) -> f64 {
    %p:2 = func.call @pair(%v, %y) : (f64, f64) -> (f64, f64)
    %s = arith.subf %p#0, %p#1 : f64
    %t = math.tanh %s : f64
    scf.yield %t : f64
  }
  return %r : f64
}

// a[i] <- a[i] * s + b[i] in a helper; the caller passes its arguments.
func.func private @axpy(%s: f64, %a: memref<4xf64>, %b: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %w = memref.load %b[%i] : memref<4xf64>
    %m = arith.mulf %v, %s : f64
    %n = arith.addf %m, %w : f64
    memref.store %n, %a[%i] : memref<4xf64>
  }
  return
}

func.func @mutate_through_call(%a: memref<4xf64>, %b: memref<4xf64>, %s: f64) {
  func.call @axpy(%s, %a, %b) : (f64, memref<4xf64>, memref<4xf64>) -> ()
  %s2 = arith.mulf %s, %s : f64
  func.call @axpy(%s2, %b, %a) : (f64, memref<4xf64>, memref<4xf64>) -> ()
  return
}

// A helper fills a scratch buffer of the caller (which only gets active by
// the call), then the caller reduces it.
func.func private @fill_exp(%t: memref<4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %p = arith.mulf %fi, %x : f64
    %e = math.exp %p : f64
    memref.store %e, %t[%i] : memref<4xf64>
  }
  return
}

func.func @scratch_through_call(%x: f64, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf64>
  func.call @fill_exp(%t, %x) : (memref<4xf64>, f64) -> ()
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %y) -> f64 {
    %v = memref.load %t[%i] : memref<4xf64>
    %p = arith.mulf %acc, %v : f64
    %q = math.sqrt %p : f64
    scf.yield %q : f64
  }
  memref.dealloc %t : memref<4xf64>
  return %r : f64
}

// x^n * y by recursion on the i32 n: n == 0 ? y : x * pow(x, y, n - 1).
func.func private @pow_rec(%x: f64, %y: f64, %n: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %base = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %base -> f64 {
    scf.yield %y : f64
  } else {
    %m = arith.subi %n, %c1 : i32
    %p = func.call @pow_rec(%x, %y, %m) : (f64, f64, i32) -> f64
    %q = arith.mulf %x, %p : f64
    scf.yield %q : f64
  }
  return %r : f64
}

func.func @recursive_power(%x: f64, %y: f64, %n: i32) -> f64 {
  %p = func.call @pow_rec(%x, %y, %n) : (f64, f64, i32) -> f64
  %s = math.sin %p : f64
  return %s : f64
}

// even(x, n) = n == 0 ? x : odd(sin(x), n - 1) and
// odd(x, n) = even(x*x + 1/2, n - 1): mutual recursion through private
// functions, 2n calls deep.
func.func private @even(%x: f64, %n: i64) -> f64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %base = arith.cmpi eq, %n, %c0 : i64
  cf.cond_br %base, ^done, ^rec
^done:
  return %x : f64
^rec:
  %s = math.sin %x : f64
  %m = arith.subi %n, %c1 : i64
  %r = func.call @odd(%s, %m) : (f64, i64) -> f64
  return %r : f64
}

func.func private @odd(%x: f64, %n: i64) -> f64 {
  %c1 = arith.constant 1 : i64
  %half = arith.constant 0.5 : f64
  %xx = arith.mulf %x, %x : f64
  %y = arith.addf %xx, %half : f64
  %m = arith.subi %n, %c1 : i64
  %r = func.call @even(%y, %m) : (f64, i64) -> f64
  return %r : f64
}

func.func @mutual_recursion(%x: f64, %n: i64) -> f64 {
  %c2 = arith.constant 2 : i64
  %n2 = arith.muli %n, %c2 : i64
  %r = func.call @even(%x, %n2) : (f64, i64) -> f64
  return %r : f64
}

// A recursive sum over a memref with an index argument: s(i) = a[i] * x +
// s(i + 1) * cos(x), the end given as an index.
func.func private @sum_from(%a: memref<6xf64>, %x: f64, %i: index, %n: index) -> f64 {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %done = arith.cmpi sge, %i, %n : index
  %r = scf.if %done -> f64 {
    scf.yield %zero : f64
  } else {
    %v = memref.load %a[%i] : memref<6xf64>
    %vx = arith.mulf %v, %x : f64
    %j = arith.addi %i, %c1 : index
    %rest = func.call @sum_from(%a, %x, %j, %n) : (memref<6xf64>, f64, index, index) -> f64
    %c = math.cos %x : f64
    %rc = arith.mulf %rest, %c : f64
    %s = arith.addf %vx, %rc : f64
    scf.yield %s : f64
  }
  return %r : f64
}

func.func @recursive_sum(%a: memref<6xf64>, %x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %r = func.call @sum_from(%a, %x, %c0, %n) : (memref<6xf64>, f64, index, index) -> f64
  return %r : f64
}

// Integer and index arguments between the floats: x * k + sin(y) * i where
// k: i32 and i: index are converted to floats (no derivative).
func.func @int_and_index(%x: f64, %k: i32, %i: index, %y: f64) -> f64 {
  %kf = arith.sitofp %k : i32 to f64
  %ii = arith.index_cast %i : index to i64
  %if = arith.sitofp %ii : i64 to f64
  %xk = arith.mulf %x, %kf : f64
  %s = math.sin %y : f64
  %si = arith.mulf %s, %if : f64
  %xy = arith.mulf %x, %y : f64
  %a = arith.addf %xk, %si : f64
  %r = arith.addf %a, %xy : f64
  return %r : f64
}

// f32 helpers: a f32 function calling a f32 helper with two results.
func.func private @polar(%r: f32, %t: f32) -> (f32, f32) {
  %c = math.cos %t : f32
  %s = math.sin %t : f32
  %x = arith.mulf %r, %c : f32
  %y = arith.mulf %r, %s : f32
  return %x, %y : f32, f32
}

func.func @f32_helpers(%r: f32, %t: f32) -> (f32, f32) {
  %p:2 = func.call @polar(%r, %t) : (f32, f32) -> (f32, f32)
  %q:2 = func.call @polar(%p#0, %p#1) : (f32, f32) -> (f32, f32)
  return %q#0, %q#1 : f32, f32
}

// Mixed precision: a f32 helper called on a truncf'd f64 (extf after) and
// a f64 helper called on an extf'd f32 (truncf after).
func.func private @f32_helper(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %s = math.sqrt %e : f32
  return %s : f32
}

func.func private @f64_helper(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %l = math.log %p : f64
  return %l : f64
}

func.func @mixed_precision_call(%x: f64, %y: f32) -> (f64, f32) {
  %xs = arith.truncf %x : f64 to f32
  %a = func.call @f32_helper(%xs) : (f32) -> f32
  %ad = arith.extf %a : f32 to f64
  %r = arith.mulf %ad, %x : f64
  %yd = arith.extf %y : f32 to f64
  %b = func.call @f64_helper(%yd, %x) : (f64, f64) -> f64
  %bs = arith.truncf %b : f64 to f32
  %t = arith.mulf %bs, %y : f32
  return %r, %t : f64, f32
}

// A public function calls another public function of the module.
func.func @cube_plus(%x: f64, %y: f64) -> f64 {
  %xx = arith.mulf %x, %x : f64
  %xxx = arith.mulf %xx, %x : f64
  %r = arith.addf %xxx, %y : f64
  return %r : f64
}

func.func @call_public(%x: f64, %y: f64) -> f64 {
  %a = func.call @cube_plus(%x, %y) : (f64, f64) -> f64
  %b = func.call @cube_plus(%y, %a) : (f64, f64) -> f64
  return %b : f64
}

// A constant table from memref.global passed to a helper with an active
// scalar: the table is read-only and needs no tangent.
memref.global "private" constant @table : memref<3xf64> = dense<[1.0, 2.0, 3.0]>

func.func private @dot_table(%t: memref<3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %t[%i] : memref<3xf64>
    %p = arith.mulf %v, %x : f64
    %s = arith.addf %acc, %p : f64
    %q = math.sin %s : f64
    scf.yield %q : f64
  }
  return %r : f64
}

func.func @global_table(%x: f64) -> f64 {
  %t = memref.get_global @table : memref<3xf64>
  %r = func.call @dot_table(%t, %x) : (memref<3xf64>, f64) -> f64
  return %r : f64
}

// A helper returns a view (a row) of its argument; the caller writes through it.
func.func private @row_of(%m: memref<3x3xf64>, %i: index) -> memref<3xf64, strided<[1], offset: ?>> {
  %s = memref.subview %m[%i, 0] [1, 3] [1, 1] : memref<3x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  return %s : memref<3xf64, strided<[1], offset: ?>>
}

func.func @memref_from_call(%m: memref<3x3xf64>, %x: f64) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = func.call @row_of(%m, %c1) : (memref<3x3xf64>, index) -> memref<3xf64, strided<[1], offset: ?>>
  %v = memref.load %r[%c2] : memref<3xf64, strided<[1], offset: ?>>
  %p = arith.mulf %v, %x : f64
  memref.store %p, %r[%c2] : memref<3xf64, strided<[1], offset: ?>>
  return
}

// The caller passes a subview of its argument to a helper that mutates it.
func.func private @scale_row(%r: memref<3xf64, strided<[1], offset: ?>>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %r[%i] : memref<3xf64, strided<[1], offset: ?>>
    %p = arith.mulf %v, %x : f64
    %e = math.exp %p : f64
    memref.store %e, %r[%i] : memref<3xf64, strided<[1], offset: ?>>
  }
  return
}

func.func @subview_to_call(%m: memref<3x3xf64>, %x: f64) {
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%c1, 0] [1, 3] [1, 1] : memref<3x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  func.call @scale_row(%s, %x) : (memref<3xf64, strided<[1], offset: ?>>, f64) -> ()
  return
}

// softplus computed on a vector (vector ops have no derivative rules):
// only the custom rule makes it differentiable.
func.func private @vsoftplus(%x: f64) -> f64 {
  %v = vector.broadcast %x : f64 to vector<2xf64>
  %e = math.exp %v : vector<2xf64>
  %l = math.log1p %e : vector<2xf64>
  %r = vector.extract %l[1] : f64 from vector<2xf64>
  return %r : f64
}
func.func private @vsoftplus_jvp(%x: f64, %dx: f64) -> (f64, f64) {
  %y = func.call @vsoftplus(%x) : (f64) -> f64
  %n = arith.negf %x : f64
  %e = math.exp %n : f64
  %one = arith.constant 1.0 : f64
  %d = arith.addf %one, %e : f64
  %s = arith.divf %dx, %d : f64
  return %y, %s : f64, f64
}
moon.custom_rule @vsoftplus jvp @vsoftplus_jvp

func.func @uses_custom(%x: f64, %y: f64) -> f64 {
  %p = arith.mulf %x, %y : f64
  %s = func.call @vsoftplus(%p) : (f64) -> f64
  %t = arith.mulf %s, %x : f64
  return %t : f64
}

// A helper with two returns (an early one), called with swapped arguments.
func.func private @early(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  cf.cond_br %lt, ^a, ^b
^a:
  %p = arith.mulf %x, %y : f64
  return %p : f64
^b:
  %q = math.log %x : f64
  %r = arith.addf %q, %y : f64
  return %r : f64
}

func.func @call_multi_return(%x: f64, %y: f64) -> f64 {
  %a = func.call @early(%x, %y) : (f64, f64) -> f64
  %b = func.call @early(%y, %x) : (f64, f64) -> f64
  %r = arith.mulf %a, %b : f64
  return %r : f64
}

// Recursion whose recursive call passes a constant where the caller had an
// active value: tangent versions for (active, active) and (active, const)
// are generated, and the innermost calls run the plain function.
func.func private @rec_swap(%x: f64, %y: f64, %n: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %two = arith.constant 2.0 : f64
  %base = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %base -> f64 {
    %p = arith.mulf %x, %y : f64
    scf.yield %p : f64
  } else {
    %m = arith.subi %n, %c1 : i32
    %f = func.call @rec_swap(%y, %two, %m) : (f64, f64, i32) -> f64
    %s = arith.addf %f, %x : f64
    scf.yield %s : f64
  }
  return %r : f64
}

func.func @recursion_changing_activity(%x: f64, %y: f64, %n: i32) -> f64 {
  %r = func.call @rec_swap(%x, %y, %n) : (f64, f64, i32) -> f64
  return %r : f64
}

// i1, i8 and i16 arguments between a f64 and a f32.
func.func @flags(%x: f64, %b: i1, %k: i8, %h: i16, %y: f32) -> f64 {
  %kf = arith.sitofp %k : i8 to f64
  %hf = arith.sitofp %h : i16 to f64
  %yd = arith.extf %y : f32 to f64
  %p = arith.mulf %x, %kf : f64
  %q = arith.mulf %yd, %hf : f64
  %s = math.sin %q : f64
  %r = arith.select %b, %p, %s : f64
  %t = arith.addf %r, %yd : f64
  return %t : f64
}

// Indices from an i32 memref (an inactive memref argument) select the
// elements of an active one, twice the same element.
func.func @gather(%a: memref<4xf64>, %idx: memref<3xi32>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> f64 {
    %j = memref.load %idx[%i] : memref<3xi32>
    %ji = arith.index_cast %j : i32 to index
    %v = memref.load %a[%ji] : memref<4xf64>
    %p = arith.mulf %acc, %v : f64
    %s = math.sin %p : f64
    memref.store %s, %a[%ji] : memref<4xf64>
    scf.yield %s : f64
  }
  return %r : f64
}

// A stack buffer filled with active and constant values, read by a helper.
func.func private @reader(%t: memref<3xf64>, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %t[%c0] : memref<3xf64>
  %b = memref.load %t[%c2] : memref<3xf64>
  %p = arith.mulf %a, %b : f64
  %q = arith.addf %p, %y : f64
  return %q : f64
}

func.func @stored_then_read_by_call(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = arith.constant 3.0 : f64
  %t = memref.alloca() : memref<3xf64>
  memref.store %x, %t[%c0] : memref<3xf64>
  memref.store %k, %t[%c1] : memref<3xf64>
  %xx = arith.mulf %x, %x : f64
  memref.store %xx, %t[%c2] : memref<3xf64>
  %r = func.call @reader(%t, %k) : (memref<3xf64>, f64) -> f64
  return %r : f64
}

// A helper returns a dynamically sized view (memref.dim inside); the
// caller reads and writes through it and returns a value.
func.func private @tail(%m: memref<?xf64>) -> memref<?xf64, strided<[1], offset: 1>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  %k = arith.subi %n, %c1 : index
  %s = memref.subview %m[1] [%k] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  return %s : memref<?xf64, strided<[1], offset: 1>>
}
func.func @tail_of_call(%m: memref<?xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %t = func.call @tail(%m) : (memref<?xf64>) -> memref<?xf64, strided<[1], offset: 1>>
  %v = memref.load %t[%c0] : memref<?xf64, strided<[1], offset: 1>>
  %p = arith.mulf %v, %x : f64
  %q = math.sin %p : f64
  memref.store %q, %t[%c0] : memref<?xf64, strided<[1], offset: 1>>
  return %p : f64
}
