// `moonc grad`: the value and, per argument, the partial derivatives: a
// number for a float scalar, a nested list shaped like a memref of floats,
// null for integer and index arguments.

// g = x * m0 * m1 * m2 * n, and @g overwrites m0 (every JVP still sees the
// memref as given: each call binds fresh buffers).
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' | FileCheck %s --check-prefix=G
// RUN: moonc grad %s --entry g --args '[2.0, [1.0, 2.0, 3.0], 5]' --mode forward | FileCheck %s --check-prefix=G
// G: {"value": 60.0, "gradient": [30.0, {{\[}}60.0, 30.0, 20.0], null]}
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
