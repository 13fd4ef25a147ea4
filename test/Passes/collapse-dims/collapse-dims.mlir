// RUN: moonc-opt --moon-collapse-dims --split-input-file %s | FileCheck %s
// RUN: moonc-opt --moon-collapse-dims --split-input-file %s | moonc-opt --split-input-file > /dev/null

// A bias gradient: the pixels' two loops (both reductions, adjacent and
// contiguous in the one operand that has them) become one loop over 1024;
// the images' loop stays apart from them (parallel between).
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @bias_gradient(
// CHECK-SAME: %[[DY:[^:]*]]: memref<8x16x32x32xf32>, %[[DB:[^:]*]]: memref<16xf32>)
// CHECK: %[[V:.*]] = memref.collapse_shape %[[DY]] {{\[\[}}0], [1], [2, 3]] : memref<8x16x32x32xf32> into memref<8x16x1024xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["reduction", "parallel", "reduction"]} ins(%[[V]] : memref<8x16x1024xf32>) outs(%[[DB]] : memref<16xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[B]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
func.func @bias_gradient(%dy: memref<8x16x32x32xf32>, %db: memref<16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy : memref<8x16x32x32xf32>) outs(%db : memref<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %b, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An elementwise op in place: one loop, the buffer collapsed once.
// CHECK-LABEL: func.func @relu(
// CHECK-SAME: %[[X:[^:]*]]: memref<2x3x4xf32>)
// CHECK: %[[V:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[V]] : memref<24xf32>) outs(%[[V]] : memref<24xf32>)
func.func @relu(%x: memref<2x3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x3x4xf32>) outs(%x : memref<2x3x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Left alone: a transposed operand (its loops adjacent but in the other
// order), a strided view, linalg.index in the body, and a map that is not
// a projected permutation (a pooling window).
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @left_alone(%a: memref<4x8xf32>, %t: memref<8x4xf32>, %s: memref<4x8xf32, strided<[16, 1]>>,
                      %o: memref<4x8xf32>, %p: memref<5x5xf32>, %q: memref<4x4xf32>, %w: memref<2x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8x4xf32>) outs(%o : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf32, strided<[16, 1]>>) outs(%o : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      outs(%o : memref<4x8xf32>) {
  ^bb0(%y: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    linalg.yield %f : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k, l) -> (i + k, j + l)>, affine_map<(i, j, k, l) -> (k, l)>,
                                   affine_map<(i, j, k, l) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%p, %w : memref<5x5xf32>, memref<2x2xf32>) outs(%q : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.maximumf %z, %x : f32
    linalg.yield %m : f32
  }
  return
}
