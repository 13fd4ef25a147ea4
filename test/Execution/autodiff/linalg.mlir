// Forward and reverse mode through linalg on memrefs: linalg.generic (elementwise,
// broadcast of a scalar, reductions, in place, several outputs,
// linalg.index, values captured from outside), fill, copy, transpose and
// the named contractions (matmul, matvec, vecmat, dot, batch_matmul, also
// on dynamic shapes), with outputs that are arguments (their shadows are
// checked) or scratch buffers reduced to a scalar result.
//
// RUN: moonc check %s --entry elementwise | FileCheck %s --check-prefix=ELEMENTWISE
// ELEMENTWISE: check: PASS
// RUN: moonc check %s --entry broadcast_scalar | FileCheck %s --check-prefix=BROADCAST_SCALAR
// BROADCAST_SCALAR: check: PASS
// RUN: moonc check %s --entry row_reduction | FileCheck %s --check-prefix=ROW_REDUCTION
// ROW_REDUCTION: check: PASS
// RUN: moonc check %s --entry generic_in_place | FileCheck %s --check-prefix=GENERIC_IN_PLACE
// GENERIC_IN_PLACE: check: PASS
// RUN: moonc check %s --entry two_outputs | FileCheck %s --check-prefix=TWO_OUTPUTS
// TWO_OUTPUTS: check: PASS
// RUN: moonc check %s --entry fill_scale | FileCheck %s --check-prefix=FILL_SCALE
// FILL_SCALE: check: PASS
// RUN: moonc check %s --entry copy_transpose | FileCheck %s --check-prefix=COPY_TRANSPOSE
// COPY_TRANSPOSE: check: PASS
// RUN: moonc check %s --entry matmul_acc | FileCheck %s --check-prefix=MATMUL_ACC
// MATMUL_ACC: check: PASS
// RUN: moonc check %s --entry matmul_const_rhs | FileCheck %s --check-prefix=MATMUL_CONST_RHS
// MATMUL_CONST_RHS: check: PASS
// RUN: moonc check %s --entry matvec_vecmat | FileCheck %s --check-prefix=MATVEC_VECMAT
// MATVEC_VECMAT: check: PASS
// RUN: moonc check %s --entry dot_product | FileCheck %s --check-prefix=DOT_PRODUCT
// DOT_PRODUCT: check: PASS
// RUN: moonc check %s --entry batch_matmul | FileCheck %s --check-prefix=BATCH_MATMUL
// BATCH_MATMUL: check: PASS
// RUN: moonc check %s --entry mlp_layer | FileCheck %s --check-prefix=MLP_LAYER
// MLP_LAYER: check: PASS
// RUN: moonc check %s --entry generic_capture | FileCheck %s --check-prefix=GENERIC_CAPTURE
// GENERIC_CAPTURE: check: PASS
// RUN: moonc check %s --entry linalg_copy_const | FileCheck %s --check-prefix=LINALG_COPY_CONST
// LINALG_COPY_CONST: check: PASS
// RUN: moonc check %s --entry matmul_dynamic --args '[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[1.0, 0.5, 2.0], [0.3, 0.2, 0.1]], [[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [2.0, 2.0, 2.0]]]' | FileCheck %s --check-prefix=MATMUL_DYNAMIC
// MATMUL_DYNAMIC: check: PASS
// RUN: moonc check %s --entry generic_index | FileCheck %s --check-prefix=GENERIC_INDEX
// GENERIC_INDEX: check: PASS
// RUN: moonc check %s --entry in_place_aliased | FileCheck %s --check-prefix=IN_PLACE_ALIASED
// IN_PLACE_ALIASED: check: PASS

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#scalar1 = affine_map<(i) -> ()>

// c[i] <- sin(a[i]) * b[i] + c[i] * 0.5 (c is read and written).
func.func @elementwise(%a: memref<4xf64>, %b: memref<4xf64>, %c: memref<4xf64>) {
  %half = arith.constant 0.5 : f64
  linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : memref<4xf64>, memref<4xf64>) outs(%c : memref<4xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = math.sin %x : f64
    %p = arith.mulf %s, %y : f64
    %h = arith.mulf %o, %half : f64
    %r = arith.addf %p, %h : f64
    linalg.yield %r : f64
  }
  return
}

// out[i] <- exp(s * a[i]) with the scalar s broadcast as a generic input.
func.func @broadcast_scalar(%a: memref<5xf64>, %s: f64, %out: memref<5xf64>) {
  linalg.generic {indexing_maps = [#id1, #scalar1, #id1], iterator_types = ["parallel"]}
      ins(%a, %s : memref<5xf64>, f64) outs(%out : memref<5xf64>) {
  ^bb0(%x: f64, %k: f64, %o: f64):
    %p = arith.mulf %x, %k : f64
    %e = math.exp %p : f64
    linalg.yield %e : f64
  }
  return
}

// r[i] <- r[i] + sum_j m[i, j]^2 * w (a reduction into an argument), then
// returns the sum of r through a second reduction into a scratch scalar.
func.func @row_reduction(%m: memref<3x4xf64>, %r: memref<3xf64>, %w: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%m : memref<3x4xf64>) outs(%r : memref<3xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %sq = arith.mulf %x, %x : f64
    %sw = arith.mulf %sq, %w : f64
    %n = arith.addf %acc, %sw : f64
    linalg.yield %n : f64
  }
  %total = memref.alloca() : memref<f64>
  linalg.fill ins(%zero : f64) outs(%total : memref<f64>)
  linalg.generic {indexing_maps = [#id1, #scalar1], iterator_types = ["reduction"]}
      ins(%r : memref<3xf64>) outs(%total : memref<f64>) {
  ^bb0(%x: f64, %acc: f64):
    %t = math.tanh %x : f64
    %n = arith.addf %acc, %t : f64
    linalg.yield %n : f64
  }
  %v = memref.load %total[] : memref<f64>
  return %v : f64
}

// a[i] <- a[i] * a[i] * x with the same buffer as input and output.
func.func @generic_in_place(%a: memref<4xf64>, %x: f64) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<4xf64>) outs(%a : memref<4xf64>) {
  ^bb0(%v: f64, %o: f64):
    %sq = arith.mulf %v, %o : f64
    %p = arith.mulf %sq, %x : f64
    linalg.yield %p : f64
  }
  return
}

// Two outputs from one generic: p[i] <- a[i] * b[i], q[i] <- a[i] / b[i];
// a third, inactive output counts the elements.
func.func @two_outputs(%a: memref<3xf64>, %b: memref<3xf64>, %p: memref<3xf64>, %q: memref<3xf64>) {
  %n = memref.alloca() : memref<3xi32>
  linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : memref<3xf64>, memref<3xf64>)
      outs(%p, %q, %n : memref<3xf64>, memref<3xf64>, memref<3xi32>) {
  ^bb0(%x: f64, %y: f64, %o1: f64, %o2: f64, %o3: i32):
    %m = arith.mulf %x, %y : f64
    %d = arith.divf %x, %y : f64
    %one = arith.constant 1 : i32
    linalg.yield %m, %d, %one : f64, f64, i32
  }
  return
}

// linalg.fill of an active scalar, then an elementwise product with a.
func.func @fill_scale(%a: memref<2x3xf64>, %x: f64, %out: memref<2x3xf64>) {
  %xx = arith.mulf %x, %x : f64
  linalg.fill ins(%xx : f64) outs(%out : memref<2x3xf64>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<2x3xf64>) outs(%out : memref<2x3xf64>) {
  ^bb0(%v: f64, %o: f64):
    %p = arith.mulf %v, %o : f64
    %s = math.sin %p : f64
    linalg.yield %s : f64
  }
  return
}

// linalg.copy of a into a scratch buffer that is squared, then
// linalg.transpose of it into the output.
func.func @copy_transpose(%a: memref<2x3xf64>, %out: memref<3x2xf64>) {
  %t = memref.alloc() : memref<2x3xf64>
  linalg.copy ins(%a : memref<2x3xf64>) outs(%t : memref<2x3xf64>)
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]}
      outs(%t : memref<2x3xf64>) {
  ^bb0(%o: f64):
    %sq = arith.mulf %o, %o : f64
    linalg.yield %sq : f64
  }
  linalg.transpose ins(%t : memref<2x3xf64>) outs(%out : memref<3x2xf64>) permutation = [1, 0]
  memref.dealloc %t : memref<2x3xf64>
  return
}

// c <- c + a * b with all three active.
func.func @matmul_acc(%a: memref<2x3xf64>, %b: memref<3x4xf64>, %c: memref<2x4xf64>) {
  linalg.matmul ins(%a, %b : memref<2x3xf64>, memref<3x4xf64>) outs(%c : memref<2x4xf64>)
  return
}

// The right factor is a constant matrix built in the function: the tangent
// comes from a alone; c is zeroed first and reduced to sum(c^2).
func.func @matmul_const_rhs(%a: memref<3x3xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %k = arith.constant 0.5 : f64
  %b = memref.alloc() : memref<3x3xf64>
  linalg.fill ins(%k : f64) outs(%b : memref<3x3xf64>)
  %c = memref.alloc() : memref<3x3xf64>
  linalg.fill ins(%zero : f64) outs(%c : memref<3x3xf64>)
  linalg.matmul ins(%a, %b : memref<3x3xf64>, memref<3x3xf64>) outs(%c : memref<3x3xf64>)
  %s = memref.alloca() : memref<f64>
  linalg.fill ins(%zero : f64) outs(%s : memref<f64>)
  linalg.generic {indexing_maps = [#id2, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%c : memref<3x3xf64>) outs(%s : memref<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %sq = arith.mulf %v, %v : f64
    %n = arith.addf %acc, %sq : f64
    linalg.yield %n : f64
  }
  %r = memref.load %s[] : memref<f64>
  memref.dealloc %b : memref<3x3xf64>
  memref.dealloc %c : memref<3x3xf64>
  return %r : f64
}

// y <- y + m * v (matvec) and z <- z + u * m (vecmat) on the same matrix.
func.func @matvec_vecmat(%m: memref<3x4xf64>, %v: memref<4xf64>, %u: memref<3xf64>,
                         %y: memref<3xf64>, %z: memref<4xf64>) {
  linalg.matvec ins(%m, %v : memref<3x4xf64>, memref<4xf64>) outs(%y : memref<3xf64>)
  linalg.vecmat ins(%u, %m : memref<3xf64>, memref<3x4xf64>) outs(%z : memref<4xf64>)
  return
}

// <a, b> + <a, a> through linalg.dot into a rank-0 scratch buffer.
func.func @dot_product(%a: memref<5xf64>, %b: memref<5xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %s = memref.alloca() : memref<f64>
  linalg.fill ins(%zero : f64) outs(%s : memref<f64>)
  linalg.dot ins(%a, %b : memref<5xf64>, memref<5xf64>) outs(%s : memref<f64>)
  linalg.dot ins(%a, %a : memref<5xf64>, memref<5xf64>) outs(%s : memref<f64>)
  %r = memref.load %s[] : memref<f64>
  return %r : f64
}

// c[b] <- c[b] + a[b] * w[b] for a batch of 2.
func.func @batch_matmul(%a: memref<2x2x3xf64>, %w: memref<2x3x2xf64>, %c: memref<2x2x2xf64>) {
  linalg.batch_matmul ins(%a, %w : memref<2x2x3xf64>, memref<2x3x2xf64>)
      outs(%c : memref<2x2x2xf64>)
  return
}

// One dense layer and a loss: sum(tanh(W x + b)^2), W x by matvec into a
// copy of b.
func.func @mlp_layer(%w: memref<3x4xf64>, %x: memref<4xf64>, %b: memref<3xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %h = memref.alloc() : memref<3xf64>
  linalg.copy ins(%b : memref<3xf64>) outs(%h : memref<3xf64>)
  linalg.matvec ins(%w, %x : memref<3x4xf64>, memref<4xf64>) outs(%h : memref<3xf64>)
  %s = memref.alloca() : memref<f64>
  linalg.fill ins(%zero : f64) outs(%s : memref<f64>)
  linalg.generic {indexing_maps = [#id1, #scalar1], iterator_types = ["reduction"]}
      ins(%h : memref<3xf64>) outs(%s : memref<f64>) {
  ^bb0(%v: f64, %acc: f64):
    %t = math.tanh %v : f64
    %sq = arith.mulf %t, %t : f64
    %n = arith.addf %acc, %sq : f64
    linalg.yield %n : f64
  }
  %r = memref.load %s[] : memref<f64>
  memref.dealloc %h : memref<3xf64>
  return %r : f64
}

// A generic body that uses linalg.index and active values defined outside
// the generic (not operands).
func.func @generic_capture(%a: memref<4xf64>, %x: f64) {
  %e = math.exp %x : f64
  linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%a : memref<4xf64>) {
  ^bb0(%o: f64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %p = arith.mulf %o, %e : f64
    %q = arith.addf %p, %f : f64
    %r = arith.mulf %q, %x : f64
    linalg.yield %r : f64
  }
  return
}

// linalg.copy of constants over an active argument zeroes its tangent.
func.func @linalg_copy_const(%a: memref<3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %k = arith.constant 0.5 : f64
  %v = memref.load %a[%c0] : memref<3xf64>
  %t = memref.alloc() : memref<3xf64>
  linalg.fill ins(%k : f64) outs(%t : memref<3xf64>)
  linalg.copy ins(%t : memref<3xf64>) outs(%a : memref<3xf64>)
  %r = arith.mulf %v, %x : f64
  memref.dealloc %t : memref<3xf64>
  return %r : f64
}

// linalg.matmul on dynamic shapes (3x2 times 2x3).
func.func @matmul_dynamic(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  linalg.matmul ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

// out[i] <- a[i] * i with linalg.index.
func.func @generic_index(%a: memref<4xf64>, %out: memref<4xf64>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<4xf64>) outs(%out : memref<4xf64>) {
  ^bb0(%v: f64, %o: f64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %p = arith.mulf %v, %f : f64
    linalg.yield %p : f64
  }
  return
}

// b[i] <- sin(a[i]) * b[i] with b both an input and the output the body
// does not read: reverse mode must read b's adjoint before replacing it.
func.func @in_place_aliased(%a: memref<4xf64>, %b: memref<4xf64>) {
  linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%a, %b : memref<4xf64>, memref<4xf64>) outs(%b : memref<4xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = math.sin %x : f64
    %p = arith.mulf %s, %y : f64
    linalg.yield %p : f64
  }
  return
}
