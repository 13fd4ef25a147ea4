// `moonc jacobian`: rows are the float scalar results, columns the float
// inputs (scalars, then memrefs row-major, in argument order). In forward
// mode (the default) column j is the JVP with the unit direction e_j; in
// reverse mode row i is the VJP with the unit cotangent e_i and zero
// shadows. `results` is what `moonc run` prints.

// Two inputs, two outputs: d(x*y, sin x)/d(x, y) = [[y, x], [cos x, 0]].
// RUN: moonc jacobian %s --entry f --args '[1.0, 2.0]' | FileCheck %s --check-prefix=F
// RUN: moonc jacobian %s --entry f --args '[1.0, 2.0]' --mode reverse | FileCheck %s --check-prefix=F
// RUN: moonc jacobian %s --entry f --args '[1.0, 2.0]' --mode forward | FileCheck %s --check-prefix=F
// F: {"results": [2.0, 0.8414709848078965], "jacobian": {{\[}}[2.0, 1.0], [0.5403023058681398, 0.0]]}
func.func @f(%x: f64, %y: f64) -> (f64, f64) {
  %p = arith.mulf %x, %y : f64
  %s = math.sin %x : f64
  return %p, %s : f64, f64
}

// Integer arguments are not columns and integer results are not rows; the
// memref's elements are columns 1 and 2. Every column (and row) sees the
// memref as given, although @mixed overwrites it (each call binds fresh
// buffers, and reverse mode differentiates with respect to the contents
// on entry).
// r0 = x * m0 * m1 * n, r2 = m0 + m1; m0 := x * m0.
// RUN: moonc jacobian %s --entry mixed --args '[2.0, [3.0, 5.0], 7]' | FileCheck %s --check-prefix=MIXED
// RUN: moonc jacobian %s --entry mixed --args '[2.0, [3.0, 5.0], 7]' --mode reverse | FileCheck %s --check-prefix=MIXED
// MIXED: {"results": [210.0, 7, 8.0], "jacobian": {{\[}}[105.0, 70.0, 42.0], [0.0, 1.0, 1.0]]}
func.func @mixed(%x: f64, %m: memref<2xf64>, %n: i32) -> (f64, i32, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %m[%c0] : memref<2xf64>
  %b = memref.load %m[%c1] : memref<2xf64>
  %nf = arith.sitofp %n : i32 to f64
  %xa = arith.mulf %x, %a : f64
  %xab = arith.mulf %xa, %b : f64
  %r0 = arith.mulf %xab, %nf : f64
  %r2 = arith.addf %a, %b : f64
  memref.store %xa, %m[%c0] : memref<2xf64>
  return %r0, %n, %r2 : f64, i32, f64
}

// f32 results print in f32's shortest form; a 2-D memref is row-major.
// det [[a, b], [c, d]] = a*d - b*c: the row is [d, -c, -b, a].
// RUN: moonc jacobian %s --entry det --args '[[[0.1, 0.2], [0.3, 0.4]]]' | FileCheck %s --check-prefix=DET
// RUN: moonc jacobian %s --entry det --args '[[[0.1, 0.2], [0.3, 0.4]]]' --mode reverse | FileCheck %s --check-prefix=DET
// DET: {"results": [-0.02], "jacobian": {{\[}}[0.4, -0.3, -0.2, 0.1]]}
func.func @det(%m: memref<2x2xf32>) -> f32 {
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

// No float scalar result: no rows (and, in reverse mode, no VJP).
// RUN: moonc jacobian %s --entry scale --args '[[1.0, 2.0], 3.0]' | FileCheck %s --check-prefix=NOROWS
// RUN: moonc jacobian %s --entry scale --args '[[1.0, 2.0], 3.0]' --mode reverse | FileCheck %s --check-prefix=NOROWS
// NOROWS: {"results": [], "jacobian": []}
func.func @scale(%m: memref<?xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<?xf64>
  %w = arith.mulf %v, %s : f64
  memref.store %w, %m[%c0] : memref<?xf64>
  return
}

// A file with an explicit `module`, a strided memref and a memref result.
// RUN: moonc jacobian %S/Inputs/explicit-module.mlir --args '[[1.5, 2, 3], 2]' | FileCheck %s --check-prefix=MODULE
// RUN: moonc jacobian %S/Inputs/explicit-module.mlir --args '[[1.5, 2, 3], 2]' --mode reverse | FileCheck %s --check-prefix=MODULE
// MODULE: {"results": [4.5, [1.5, 2.0, 4.5]], "jacobian": {{\[}}[3.0, 0.0, 1.5]]}
