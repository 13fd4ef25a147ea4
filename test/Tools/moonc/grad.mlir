// `moonc grad`: the value and, per argument, the partial derivatives: a
// number for a float scalar, a nested list shaped like a memref of floats,
// null for integer and index arguments. Reverse mode (the default) makes
// one VJP with the cotangent 1 and zero shadows; forward mode one JVP per
// float input. Both print the same.

// g = x * m0 * m1 * m2 * n, and @g overwrites m0: the gradient is with
// respect to the values the memref held on entry (and every JVP sees the
// memref as given: each call binds fresh buffers).
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' | FileCheck %s --check-prefix=G
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --mode reverse | FileCheck %s --check-prefix=G
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --mode forward | FileCheck %s --check-prefix=G
// G: {"value": 60.0, "gradient": [30.0, {{\[}}60.0, 30.0, 20.0], null]}
// --wrt: the arguments listed only; the others are constants (null).
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --wrt 1 | FileCheck %s --check-prefix=WRT-M
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --wrt 1 --mode forward | FileCheck %s --check-prefix=WRT-M
// WRT-M: {"value": 60.0, "gradient": [null, {{\[}}60.0, 30.0, 20.0], null]}
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --wrt 0 | FileCheck %s --check-prefix=WRT-X
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --wrt 0 --mode forward | FileCheck %s --check-prefix=WRT-X
// WRT-X: {"value": 60.0, "gradient": [30.0, null, null]}
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --wrt 1,0 | FileCheck %s --check-prefix=G
func.func @g(%x: f64, %m: memref<3xf64>, %n: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.load %m[%c0] : memref<3xf64>
  %b = memref.load %m[%c1] : memref<3xf64>
  %c = memref.load %m[%c2] : memref<3xf64>
  %nf = arith.sitofp %n : i32 to f64
  %ab = arith.mulf %a, %b : f64
  %abc = arith.mulf %ab, %c : f64
  %xabc = arith.mulf %abc, %x : f64
  %r = arith.mulf %xabc, %nf : f64
  memref.store %ab, %m[%c0] : memref<3xf64>
  return %r : f64
}

// A 2-D memref's gradient keeps its shape; an f32 function's is f32.
// d det [[a, b], [c, d]] = [[d, -c], [-b, a]].
// RUN: moonc grad %s --entry det --args '[[[0.1, 0.2], [0.3, 0.4]], 9]' | FileCheck %s --check-prefix=DET
// RUN: moonc grad %s --entry det --args '[[[0.1, 0.2], [0.3, 0.4]], 9]' --mode forward | FileCheck %s --check-prefix=DET
// DET: {"value": -0.02, "gradient": {{\[}}{{\[}}[0.4, -0.3], [-0.2, 0.1]], null]}
func.func @det(%m: memref<2x2xf32>, %unused: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c0, %c0] : memref<2x2xf32>
  %b = memref.load %m[%c0, %c1] : memref<2x2xf32>
  %c = memref.load %m[%c1, %c0] : memref<2x2xf32>
  %d = memref.load %m[%c1, %c1] : memref<2x2xf32>
  %ad = arith.mulf %a, %d : f32
  %bc = arith.mulf %b, %c : f32
  %r = arith.subf %ad, %bc : f32
  return %r : f32
}

// A loop over a dynamically sized memref: d/dm_i sum(exp(m)) = exp(m_i)
// (the last digits are left open: libmvec may differ from libm by an ulp).
// RUN: moonc grad %s --entry sum_exp --args '[[0.0, 1.0, -1.0]]' | FileCheck %s --check-prefix=LOOP
// RUN: moonc grad %s --entry sum_exp --args '[[0.0, 1.0, -1.0]]' --mode forward | FileCheck %s --check-prefix=LOOP
// LOOP: {"value": 4.0861612696304{{[0-9]*}}, "gradient": {{\[}}[1.0, 2.7182818284590{{[0-9]*}}, 0.3678794411714{{[0-9]*}}]]}
func.func @sum_exp(%m: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %m[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %next = arith.addf %acc, %e : f64
    scf.yield %next : f64
  }
  return %s : f64
}

// A while loop (its trip count is known only at run time) over x = sin(x):
// d/dx0 = prod cos(x_k) over the steps taken; 3 steps from 1.0.
// RUN: moonc grad %s --entry sin_while --args '[1.0, 3]' | FileCheck %s --check-prefix=WHILE
// RUN: moonc grad %s --entry sin_while --args '[1.0, 3]' --mode forward | FileCheck %s --check-prefix=WHILE
// WHILE: {"value": 0.6784304773607{{[0-9]*}}, "gradient": [0.264508270395{{[0-9]*}}, null]}
func.func @sin_while(%x0: f64, %n: i64) -> f64 {
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.while (%x = %x0, %i = %zero) : (f64, i64) -> (f64, i64) {
    %more = arith.cmpi slt, %i, %n : i64
    scf.condition(%more) %x, %i : f64, i64
  } do {
  ^bb0(%x: f64, %i: i64):
    %s = math.sin %x : f64
    %next = arith.addi %i, %one : i64
    scf.yield %s, %next : f64, i64
  }
  return %r#0 : f64
}
