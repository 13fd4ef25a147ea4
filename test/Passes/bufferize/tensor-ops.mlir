// Every tensor operation torch-mlir's linalg-on-tensors output contains,
// run and differentiated through moonc: pad, concat, extract_slice,
// insert_slice, expand_shape, collapse_shape, extract, insert,
// from_elements, generate, cast, splat, empty, with scf.if and scf.for on
// tensors.
// RUN: moonc run %s --entry shapes --args '[[[1.0, 2.0], [3.0, 4.0]]]' | FileCheck %s --check-prefix=SHAPES
// RUN: moonc check %s --entry loss --args '[[[1.0, -2.0], [3.0, 0.5]], 1]' | FileCheck %s --check-prefix=CHECK-LOSS
// RUN: moonc check %s --entry loss --args '[[[1.0, -2.0], [3.0, 0.5]], 0]' | FileCheck %s --check-prefix=CHECK-LOSS
// CHECK-LOSS: check: PASS

// x = [[1, 2], [3, 4]] padded by a ring of zeros (4x4), above [x x] (2x4),
// flattened.
// SHAPES: {"results": {{\[\[}}0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0]]

#m2 = affine_map<(i, j) -> (i, j)>
#all2 = affine_map<(i, j) -> ()>
#m1 = affine_map<(i) -> (i)>
#all1 = affine_map<(i) -> ()>

// [pad(x) (4x4) ; concat(x, x) by columns (2x4)] as a 6x4 tensor,
// flattened.
func.func @shapes(%x: tensor<2x2xf64>) -> tensor<24xf64> {
  %zero = arith.constant 0.0 : f64
  %padded = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f64
  } : tensor<2x2xf64> to tensor<4x4xf64>
  %wide = tensor.concat dim(1) %x, %x : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x4xf64>
  %tall = tensor.concat dim(0) %padded, %wide : (tensor<4x4xf64>, tensor<2x4xf64>) -> tensor<6x4xf64>
  %flat = tensor.collapse_shape %tall [[0, 1]] : tensor<6x4xf64> into tensor<24xf64>
  return %flat : tensor<24xf64>
}

// A loss through every tensor op: slices, inserts, reshapes, generate,
// splat, from_elements, extract/insert, a cast, scf.if and scf.for.
func.func @loss(%x: tensor<2x2xf64>, %flag: i1) -> tensor<f64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %flat = call @shapes(%x) : (tensor<2x2xf64>) -> tensor<24xf64>
  %grid = tensor.expand_shape %flat [[0, 1]] output_shape [6, 4] : tensor<24xf64> into tensor<6x4xf64>
  %mid = tensor.extract_slice %grid[1, 1] [4, 2] [1, 1] : tensor<6x4xf64> to tensor<4x2xf64>
  %dyn = tensor.cast %mid : tensor<4x2xf64> to tensor<?x2xf64>
  %back = tensor.cast %dyn : tensor<?x2xf64> to tensor<4x2xf64>
  %splat = tensor.splat %half : tensor<4x2xf64>
  %e = tensor.empty() : tensor<4x2xf64>
  %scaled = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
      ins(%back, %splat : tensor<4x2xf64>, tensor<4x2xf64>) outs(%e : tensor<4x2xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    %s = math.sin %p : f64
    linalg.yield %s : f64
  } -> tensor<4x2xf64>
  %gen = tensor.generate {
  ^bb0(%i: index, %j: index):
    %v = tensor.extract %x[%i, %j] : tensor<2x2xf64>
    %w = arith.mulf %v, %v : f64
    tensor.yield %w : f64
  } : tensor<2x2xf64>
  %placed = tensor.insert_slice %gen into %scaled[2, 0] [2, 2] [1, 1] : tensor<2x2xf64> into tensor<4x2xf64>
  %x01 = tensor.extract %x[%c0, %c1] : tensor<2x2xf64>
  %x10 = tensor.extract %x[%c1, %c0] : tensor<2x2xf64>
  %pair = tensor.from_elements %x01, %x10 : tensor<2xf64>
  %cube = arith.mulf %x01, %x10 : f64
  %poked = tensor.insert %cube into %placed[%c3, %c1] : tensor<4x2xf64>
  %chosen = scf.if %flag -> tensor<4x2xf64> {
    scf.yield %poked : tensor<4x2xf64>
  } else {
    scf.yield %scaled : tensor<4x2xf64>
  }
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<4x2xf64>) -> tensor<4x2xf64>
  %acc = scf.for %k = %c0 to %c3 step %c1 iter_args(%t = %init) -> tensor<4x2xf64> {
    %n = linalg.generic {indexing_maps = [#m2, #m2, #m2], iterator_types = ["parallel", "parallel"]}
        ins(%t, %chosen : tensor<4x2xf64>, tensor<4x2xf64>) outs(%e : tensor<4x2xf64>) {
    ^bb0(%a: f64, %b: f64, %o: f64):
      %p = arith.mulf %a, %half : f64
      %q = arith.addf %p, %b : f64
      linalg.yield %q : f64
    } -> tensor<4x2xf64>
    scf.yield %n : tensor<4x2xf64>
  }
  %e0 = tensor.empty() : tensor<f64>
  %z0 = linalg.fill ins(%zero : f64) outs(%e0 : tensor<f64>) -> tensor<f64>
  %s1 = linalg.generic {indexing_maps = [#m2, #all2], iterator_types = ["reduction", "reduction"]}
      ins(%acc : tensor<4x2xf64>) outs(%z0 : tensor<f64>) {
  ^bb0(%a: f64, %o: f64):
    %sq = arith.mulf %a, %a : f64
    %r = arith.addf %o, %sq : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  %s2 = linalg.generic {indexing_maps = [#m1, #all1], iterator_types = ["reduction"]}
      ins(%pair : tensor<2xf64>) outs(%s1 : tensor<f64>) {
  ^bb0(%a: f64, %o: f64):
    %r = arith.addf %o, %a : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %s2 : tensor<f64>
}
