// A convolution written as a linalg.generic whose input map is not a
// projected permutation (`d0 + d1`) and whose body reads the iteration
// indices (linalg.index: each product is scaled by 1 + i * k), in both
// modes. The input's adjoint is accumulated by a loop nest in which the
// indices are the loops' induction variables.
// RUN: moonc check %s --entry indexed | FileCheck %s
// CHECK: check @indexed: 11 float inputs, 12 float outputs
// CHECK: jvp vs finite differences, direction 1: ok
// CHECK: vjp primal: ok
// CHECK: dot product (forward vs reverse): ok
// CHECK: check: PASS (8 checks)
// o[i] = sum_k x[i + k] w[k] (1 + i k) and the result is sum_i sin(o[i]):
// at x = e_2 and w = 0 (o = 0, cos 0 = 1), d/dw[k] = x[2] (1 + i k) with
// i = 2 - k: 1, 2, 1.
// RUN: moonc grad %s --entry indexed --args '[[0,0,1,0,0,0,0,0], [0,0,0]]' --wrt 1 | FileCheck %s --check-prefix=GRAD
// RUN: moonc grad %s --entry indexed --args '[[0,0,1,0,0,0,0,0], [0,0,0]]' --wrt 1 --mode forward | FileCheck %s --check-prefix=GRAD
// GRAD: {"value": 0.0, "gradient": [null, [1.0, 2.0, 1.0]]}

#x = affine_map<(d0, d1) -> (d0 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#o = affine_map<(d0, d1) -> (d0)>
func.func @indexed(%x: memref<8xf64>, %w: memref<3xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %o = memref.alloc() : memref<6xf64>
  linalg.fill ins(%zero : f64) outs(%o : memref<6xf64>)
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<8xf64>, memref<3xf64>) outs(%o : memref<6xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %ik = arith.muli %i, %k : index
    %n = arith.index_cast %ik : index to i64
    %f = arith.sitofp %n : i64 to f64
    %one = arith.constant 1.0 : f64
    %scale = arith.addf %f, %one : f64
    %ab = arith.mulf %a, %b : f64
    %p = arith.mulf %ab, %scale : f64
    %s = arith.addf %c, %p : f64
    linalg.yield %s : f64
  }
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%o : memref<6xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %e = math.sin %a : f64
    %t = arith.addf %s, %e : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<6xf64>
  return %r : f64
}
