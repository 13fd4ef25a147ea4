// `moonc jacobian --mode forward` (one JVP per input coordinate) and
// `moonc grad --mode forward` against Jacobians derived by hand, at points
// where every entry is exact in binary floating point.

// f(x, y) = (x^2 y + 3y, x^3 - 2 x y^2); at (2, 3):
// f = (21, -28), J = [[2xy, x^2 + 3], [3x^2 - 2y^2, -4xy]] = [[12, 7], [-6, -24]].
// RUN: moonc jacobian %s --entry poly2 --args '[2.0, 3.0]' --mode forward | FileCheck %s --check-prefix=POLY2
// POLY2: {"results": [21.0, -28.0], "jacobian": {{\[}}[12.0, 7.0], [-6.0, -24.0]]}
func.func @poly2(%x: f64, %y: f64) -> (f64, f64) {
  %c2 = arith.constant 2.0 : f64
  %c3 = arith.constant 3.0 : f64
  %xx = arith.mulf %x, %x : f64
  %xxy = arith.mulf %xx, %y : f64
  %y3 = arith.mulf %c3, %y : f64
  %f1 = arith.addf %xxy, %y3 : f64
  %xxx = arith.mulf %xx, %x : f64
  %yy = arith.mulf %y, %y : f64
  %xyy = arith.mulf %x, %yy : f64
  %t = arith.mulf %c2, %xyy : f64
  %f2 = arith.subf %xxx, %t : f64
  return %f1, %f2 : f64, f64
}

// (x^5 by a loop, x*y) at (2, 3): (32, 6), J = [[5x^4, 0], [y, x]] = [[80, 0], [3, 2]].
// RUN: moonc jacobian %s --entry loop_power --args '[2.0, 3.0]' --mode forward | FileCheck %s --check-prefix=LOOP_POWER
// LOOP_POWER: {"results": [32.0, 6.0], "jacobian": {{\[}}[80.0, 0.0], [3.0, 2.0]]}
func.func @loop_power(%x: f64, %y: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f64
  %p = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %one) -> f64 {
    %n = arith.mulf %acc, %x : f64
    scf.yield %n : f64
  }
  %xy = arith.mulf %x, %y : f64
  return %p, %xy : f64, f64
}

// x * sum(a_i^2) at x = 0.5, a = [1, 2, 3]: 7, J = [sum a_i^2, 2 x a_i] = [14, 1, 2, 3].
// RUN: moonc jacobian %s --entry weighted_squares --args '[0.5, [1.0, 2.0, 3.0]]' --mode forward | FileCheck %s --check-prefix=WEIGHTED_SQUARES
// WEIGHTED_SQUARES: {"results": [7.0], "jacobian": {{\[}}[14.0, 1.0, 2.0, 3.0]]}
// The gradient is the same row, split by argument.
// RUN: moonc grad %s --entry weighted_squares --args '[0.5, [1.0, 2.0, 3.0]]' --mode forward | FileCheck %s --check-prefix=WEIGHTED_SQUARES_GRAD
// WEIGHTED_SQUARES_GRAD: {"value": 7.0, "gradient": [14.0, [1.0, 2.0, 3.0]]}
func.func @weighted_squares(%x: f64, %a: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %a[%i] : memref<3xf64>
    %sq = arith.mulf %v, %v : f64
    %n = arith.addf %acc, %sq : f64
    scf.yield %n : f64
  }
  %r = arith.mulf %x, %s : f64
  return %r : f64
}

// f32: (x*y, x/y) at (3, 2): (6, 1.5), J = [[y, x], [1/y, -x/y^2]] = [[2, 3], [0.5, -0.75]].
// RUN: moonc jacobian %s --entry f32_pair --args '[3.0, 2.0]' --mode forward | FileCheck %s --check-prefix=F32_PAIR
// F32_PAIR: {"results": [6.0, 1.5], "jacobian": {{\[}}[2.0, 3.0], [0.5, -0.75]]}
func.func @f32_pair(%x: f32, %y: f32) -> (f32, f32) {
  %p = arith.mulf %x, %y : f32
  %q = arith.divf %x, %y : f32
  return %p, %q : f32, f32
}

// A branch: x < 1 ? x^2 y : (2x - 1) y. At (3, 4) the second arm: 20,
// J = [2y, 2x - 1] = [8, 5]; at (0.5, 4) the first: 1, J = [2xy, x^2] = [4, 0.25].
// RUN: moonc jacobian %s --entry branch --args '[3.0, 4.0]' --mode forward | FileCheck %s --check-prefix=BRANCH_HIGH
// BRANCH_HIGH: {"results": [20.0], "jacobian": {{\[}}[8.0, 5.0]]}
// RUN: moonc jacobian %s --entry branch --args '[0.5, 4.0]' --mode forward | FileCheck %s --check-prefix=BRANCH_LOW
// BRANCH_LOW: {"results": [1.0], "jacobian": {{\[}}[4.0, 0.25]]}
func.func @branch(%x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %lt = arith.cmpf olt, %x, %one : f64
  cf.cond_br %lt, ^low, ^high
^low:
  %xx = arith.mulf %x, %x : f64
  cf.br ^join(%xx : f64)
^high:
  %x2 = arith.mulf %two, %x : f64
  %m = arith.subf %x2, %one : f64
  cf.br ^join(%m : f64)
^join(%v: f64):
  %r = arith.mulf %v, %y : f64
  return %r : f64
}

// <a, b> by linalg.dot at a = [1, 2], b = [3, 4]: 11, J = [b, a] = [3, 4, 1, 2].
// RUN: moonc jacobian %s --entry dot --args '[[1.0, 2.0], [3.0, 4.0]]' --mode forward | FileCheck %s --check-prefix=DOT
// DOT: {"results": [11.0], "jacobian": {{\[}}[3.0, 4.0, 1.0, 2.0]]}
func.func @dot(%a: memref<2xf64>, %b: memref<2xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = memref.alloca() : memref<f64>
  linalg.fill ins(%zero : f64) outs(%s : memref<f64>)
  linalg.dot ins(%a, %b : memref<2xf64>, memref<2xf64>) outs(%s : memref<f64>)
  %r = memref.load %s[] : memref<f64>
  return %r : f64
}

// Rounding has a zero derivative: floor(x) * y + x at (2.5, 3): 8.5, J = [1, 2].
// RUN: moonc jacobian %s --entry floor_scale --args '[2.5, 3.0]' --mode forward | FileCheck %s --check-prefix=FLOOR_SCALE
// FLOOR_SCALE: {"results": [8.5], "jacobian": {{\[}}[1.0, 2.0]]}
func.func @floor_scale(%x: f64, %y: f64) -> f64 {
  %f = math.floor %x : f64
  %p = arith.mulf %f, %y : f64
  %r = arith.addf %p, %x : f64
  return %r : f64
}
