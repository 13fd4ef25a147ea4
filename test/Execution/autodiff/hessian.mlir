// Hessians by forward over reverse (`moonc hessian`: moon.hvp with up to
// eight directions per call) against finite differences of `moonc grad`
// (Inputs/hessian_check.py), and pinned to values derived by hand. n = 10
// takes two calls (8 + 2 columns), n = 1 one call with a zero direction.
// RUN: %python %S/Inputs/hessian_check.py moonc %s rosenbrock '[[1.5, -0.5, 0.25, 2.0, -1.0, 0.75, 0.1, 1.2]]' | FileCheck %s --check-prefix=ROSEN
// ROSEN: hessian @rosenbrock: 8x8: ok
// RUN: %python %S/Inputs/hessian_check.py moonc %s rosenbrock '[[0.5, 1.5, -0.5, 0.25, 2.0, -1.0, 0.75, 0.1, 1.2, -0.3]]' | FileCheck %s --check-prefix=ROSEN10
// ROSEN10: hessian @rosenbrock: 10x10: ok
// RUN: %python %S/Inputs/hessian_check.py moonc %s poly_sin_x '[0.8]' | FileCheck %s --check-prefix=ONE
// ONE: hessian @poly_sin_x: 1x1: ok
// RUN: %python %S/Inputs/hessian_check.py moonc %s poly_sin '[0.8, -1.3]' | FileCheck %s --check-prefix=POLY
// POLY: hessian @poly_sin: 2x2: ok
// RUN: %python %S/Inputs/hessian_check.py moonc %s softplus_chain '[[0.3, -1.2, 2.0, 0.5, -0.7, 1.1], 0.6]' | FileCheck %s --check-prefix=SOFT
// SOFT: hessian @softplus_chain: 7x7: ok
//
// Rosenbrock at (1, 2, 0.5): H = [[1200 x0^2 - 400 x1 + 2, -400 x0, 0],
// [-400 x0, 200 + 1200 x1^2 - 400 x2 + 2, -400 x1], [0, -400 x1, 200]].
// RUN: moonc hessian %s --entry rosenbrock --args '[[1.0, 2.0, 0.5]]' | FileCheck %s --check-prefix=PIN
// PIN: {"value": 1326.0, "gradient": {{\[\[}}-400.0, 3002.0, -700.0]], "hessian": {{\[\[}}402.0, -400.0, 0.0], [-400.0, 4802.0, -800.0], [0.0, -800.0, 200.0]]}
// moon.hvp with two directions at once (width 2) on g(a, s, t) = a0^2 s t at
// a = [2], s = 3 (const), t = 5: H over (a0, t) = [[2 s t, 2 a0 s], [2 a0 s,
// 0]] = [[30, 12], [12, 0]]; directions e_a0 and e_t. The products for t
// are the results, those for a the output rows.
// RUN: moonc run %s --entry hvp_width2 --args '[[2.0], 3.0, 5.0, [[1.0], [0.0]], [[0.0], [0.0]]]' | FileCheck %s --check-prefix=W2
// W2: {"results": [12.0, 0.0], "args": [{{\[}}2.0], null, null, {{\[\[}}1.0], [0.0]], {{\[\[}}30.0], [12.0]]]}
// A function that does not return one float scalar is refused.
// RUN: not moonc hessian %s --entry two_results --args '[1.0]' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: hessian needs @two_results to return exactly one float scalar

// sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
func.func @rosenbrock(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %m = arith.subi %n, %c1 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %hundred = arith.constant 100.0 : f64
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %z) -> f64 {
    %ip = arith.addi %i, %c1 : index
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %x[%ip] : memref<?xf64>
    %a2 = arith.mulf %a, %a : f64
    %d = arith.subf %b, %a2 : f64
    %d2 = arith.mulf %d, %d : f64
    %t1 = arith.mulf %hundred, %d2 : f64
    %e = arith.subf %one, %a : f64
    %e2 = arith.mulf %e, %e : f64
    %t = arith.addf %t1, %e2 : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// x^3 y^2 + sin(x y)
func.func @poly_sin(%x: f64, %y: f64) -> f64 {
  %x2 = arith.mulf %x, %x : f64
  %x3 = arith.mulf %x2, %x : f64
  %y2 = arith.mulf %y, %y : f64
  %p = arith.mulf %x3, %y2 : f64
  %xy = arith.mulf %x, %y : f64
  %s = math.sin %xy : f64
  %r = arith.addf %p, %s : f64
  return %r : f64
}

// sum_i softplus(x[i] + w x[i-1]) (x[-1] = 0): each term couples a
// neighbour through the shared weight w.
func.func @softplus_chain(%x: memref<?xf64>, %w: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %prev = %z) -> (f64, f64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %c = arith.mulf %w, %prev : f64
    %u = arith.addf %v, %c : f64
    %e = math.exp %u : f64
    %e1 = arith.addf %one, %e : f64
    %sp = math.log %e1 : f64
    %r = arith.addf %acc, %sp : f64
    scf.yield %r, %v : f64, f64
  }
  return %s#0 : f64
}

// x^3 y^2 + sin(x y) at y = -1.3, in x alone.
func.func @poly_sin_x(%x: f64) -> f64 {
  %y = arith.constant -1.3 : f64
  %r = func.call @poly_sin(%x, %y) : (f64, f64) -> f64
  return %r : f64
}

func.func @two_results(%x: f64) -> (f64, f64) {
  return %x, %x : f64, f64
}

func.func @g(%a: memref<?xf64>, %s: f64, %t: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<?xf64>
  %p = arith.mulf %v, %s : f64
  %q = arith.mulf %p, %t : f64
  %r = arith.mulf %q, %v : f64
  return %r : f64
}
func.func @hvp_width2(%a: memref<?xf64>, %s: f64, %t: f64, %va: memref<2x?xf64>, %out: memref<2x?xf64>) -> (f64, f64) {
  %vt = arith.constant dense<[0.0, 1.0]> : vector<2xf64>
  %h = moon.hvp @g(%a, %s, %t, %va, %vt, %out) args [dup, const, active] width 2
      : (memref<?xf64>, f64, f64, memref<2x?xf64>, vector<2xf64>, memref<2x?xf64>) -> vector<2xf64>
  %h0 = vector.extract %h[0] : f64 from vector<2xf64>
  %h1 = vector.extract %h[1] : f64 from vector<2xf64>
  return %h0, %h1 : f64, f64
}
