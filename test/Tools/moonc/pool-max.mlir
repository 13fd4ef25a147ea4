// Max pooling and max/min reductions in both modes. The adjoint of each
// output goes to the element selected; on ties, to the first in
// iteration order (PyTorch's and JAX's choice), in both modes.
// RUN: moonc check %s --entry maxpool | FileCheck %s --check-prefix=POOL
// POOL: check @maxpool: 32 float inputs, 33 float outputs
// POOL: jvp vs finite differences, direction 1: ok
// POOL: vjp primal: ok
// POOL: dot product (forward vs reverse): ok
// POOL: check: PASS (8 checks)
// RUN: moonc check %s --entry maxpool --mode reverse | FileCheck %s --check-prefix=POOL-REV
// POOL-REV: vjp vs finite differences, direction 3: ok
// POOL-REV: check: PASS (6 checks)

// Ties (finite differences do not apply there): 2x2 windows of ones, of
// 2 on a diagonal, of 5s; the first maximum of each window in row-major
// order takes 2 * max, the others nothing.
// RUN: moonc grad %s --entry maxpool --args '[[[[[1,1,2,0],[1,1,0,2],[3,0,0,0],[0,0,0,0]],[[5,5,5,5],[5,5,5,5],[0,1,1,0],[1,0,0,1]]]]]' | FileCheck %s --check-prefix=TIES
// RUN: moonc grad %s --entry maxpool --mode forward --args '[[[[[1,1,2,0],[1,1,0,2],[3,0,0,0],[0,0,0,0]],[[5,5,5,5],[5,5,5,5],[0,1,1,0],[1,0,0,1]]]]]' | FileCheck %s --check-prefix=TIES
// TIES: {"value": 66.0, "gradient": {{\[\[\[\[}}[2.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0], [6.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], {{\[}}[10.0, 0.0, 10.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]]]}

// A row maximum written as cmpf + select, and a column minimum with
// minimumf, into outputs the caller initializes with the first row and
// column (which take part as the old contents).
// RUN: moonc check %s --entry rowmax | FileCheck %s --check-prefix=ROWMAX
// ROWMAX: check @rowmax: 12 float inputs, 13 float outputs
// ROWMAX: dot product (forward vs reverse): ok
// ROWMAX: check: PASS (8 checks)
// Ties in a row: [2, 2, 1, 2] gives its adjoint to the old contents (the
// first element), [0, 3, 3, 1] to the first 3; the columns' minima of
// [[2,2,1,2],[0,3,3,1],[4,0,5,6]] are in rows 1, 2, 0 (the old contents)
// and 1.
// RUN: moonc grad %s --entry rowmax --args '[[[2,2,1,2],[0,3,3,1],[4,0,5,6]]]' | FileCheck %s --check-prefix=ROWMAX-TIES
// RUN: moonc grad %s --entry rowmax --mode forward --args '[[[2,2,1,2],[0,3,3,1],[4,0,5,6]]]' | FileCheck %s --check-prefix=ROWMAX-TIES
// ROWMAX-TIES: {"value": 13.0, "gradient": {{\[\[}}[1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]]]}

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#all4 = affine_map<(d0, d1, d2, d3) -> ()>
#ij = affine_map<(d0, d1) -> (d0, d1)>
#i = affine_map<(d0, d1) -> (d0)>
#ji = affine_map<(d0, d1) -> (d1, d0)>
func.func @maxpool(%x: memref<1x2x4x4xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %win = memref.alloc() : memref<2x2xf64>
  %o = memref.alloc() : memref<1x2x2x2xf64>
  linalg.fill ins(%ninf : f64) outs(%o : memref<1x2x2x2xf64>)
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %win : memref<1x2x4x4xf64>, memref<2x2xf64>) outs(%o : memref<1x2x2x2xf64>)
  memref.dealloc %win : memref<2x2xf64>
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<1x2x2x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x2x2x2xf64>
  return %r : f64
}

func.func @rowmax(%x: memref<3x4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %rows = memref.alloc() : memref<3xf64>
  %first = memref.subview %x[0, 0] [3, 1] [1, 1] : memref<3x4xf64> to memref<3xf64, strided<[4]>>
  memref.copy %first, %rows : memref<3xf64, strided<[4]>> to memref<3xf64>
  linalg.generic {indexing_maps = [#ij, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf64>) outs(%rows : memref<3xf64>) {
  ^bb0(%v: f64, %m: f64):
    %gt = arith.cmpf ogt, %v, %m : f64
    %s = arith.select %gt, %v, %m : f64
    linalg.yield %s : f64
  }
  %cols = memref.alloc() : memref<4xf64>
  %top = memref.subview %x[0, 0] [1, 4] [1, 1] : memref<3x4xf64> to memref<4xf64, strided<[1]>>
  memref.copy %top, %cols : memref<4xf64, strided<[1]>> to memref<4xf64>
  linalg.generic {indexing_maps = [#ji, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf64>) outs(%cols : memref<4xf64>) {
  ^bb0(%v: f64, %m: f64):
    %s = arith.minimumf %m, %v : f64
    linalg.yield %s : f64
  }
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%rows : memref<3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %t = arith.addf %s, %a : f64
    linalg.yield %t : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%cols : memref<4xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %t = arith.addf %s, %a : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %rows : memref<3xf64>
  memref.dealloc %cols : memref<4xf64>
  return %r : f64
}
