// `moonc run` differentiates before it compiles: a `moon.vjp` in the
// program becomes a call to the reverse-mode function --moon-autodiff
// generates. r = x * (m0 + m1) at x = 3, m = [1, 2], with the cotangent 2:
// dx = 2 * (m0 + m1) = 6, and the shadow [10, 20] on entry is added to:
// [10 + 2x, 20 + 2x] = [16, 26]. The primal memref is left as a plain call
// leaves it.
// RUN: moonc run %s --args '[3.0, [1.0, 2.0], [10.0, 20.0], 2.0]' | FileCheck %s
// CHECK: {"results": [9.0, 6.0], "args": [null, [1.0, 2.0], [16.0, 26.0], null]}

func.func private @f(%x: f64, %m: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c0] : memref<2xf64>
  %b = memref.load %m[%c1] : memref<2xf64>
  %s = arith.addf %a, %b : f64
  %r = arith.mulf %x, %s : f64
  return %r : f64
}

func.func @df(%x: f64, %m: memref<2xf64>, %dm: memref<2xf64>, %seed: f64) -> (f64, f64) {
  %r:2 = moon.vjp @f(%x, %m, %dm, %seed) : (f64, memref<2xf64>, memref<2xf64>, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
