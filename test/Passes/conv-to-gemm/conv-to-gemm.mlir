// RUN: moonc-opt --moon-conv-to-gemm --split-input-file %s | FileCheck %s
// RUN: moonc-opt --moon-conv-to-gemm --split-input-file %s | moonc-opt --split-input-file > /dev/null
// RUN: moonc-opt --moon-conv-to-gemm=min-flops=0 --split-input-file %s | FileCheck %s --check-prefix=OFF

// min-flops=0 turns the pass off.
// OFF-NOT: memref.collapse_shape

// A 3x3 convolution, stride 1: the patches are copied into an
// N x C x KH x KW x OH x OW buffer (the image read at kh + oh, kw + ow),
// then one product per image, filter (F x C KH KW) times patches
// (C KH KW x OH OW), accumulates into the output; the buffer is freed.
// CHECK-DAG: #[[IM2COL:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG: #[[ID6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-DAG: #[[FILTER:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[PATCHES:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @conv(
// CHECK-SAME: %[[X:[^:]*]]: memref<2x3x10x10xf32>, %[[W:[^:]*]]: memref<8x3x3x3xf32>, %[[Y:[^:]*]]: memref<2x8x8x8xf32>)
// CHECK-NOT: linalg.conv
// CHECK: %[[COL:.*]] = memref.alloc() : memref<2x3x3x3x8x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IM2COL]], #[[ID6]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : memref<2x3x10x10xf32>) outs(%[[COL]] : memref<2x3x3x3x8x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: %[[P:.*]] = memref.collapse_shape %[[COL]] {{\[\[}}0], [1, 2, 3], [4, 5]] : memref<2x3x3x3x8x8xf32> into memref<2x27x64xf32>
// CHECK: %[[F:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0], [1, 2, 3]] : memref<8x3x3x3xf32> into memref<8x27xf32>
// CHECK: %[[O:.*]] = memref.collapse_shape %[[Y]] {{\[\[}}0], [1], [2, 3]] : memref<2x8x8x8xf32> into memref<2x8x64xf32>
// CHECK: linalg.generic {indexing_maps = [#[[FILTER]], #[[PATCHES]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[F]], %[[P]] : memref<8x27xf32>, memref<2x27x64xf32>) outs(%[[O]] : memref<2x8x64xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[M]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
// CHECK: memref.dealloc %[[COL]] : memref<2x3x3x3x8x8xf32>
// CHECK-NEXT: return
func.func @conv(%x: memref<2x3x10x10xf32>, %w: memref<8x3x3x3xf32>, %y: memref<2x8x8x8xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<2x3x10x10xf32>, memref<8x3x3x3xf32>) outs(%y : memref<2x8x8x8xf32>)
  return
}

// -----

// Strides and dilations are in the image's map: (oh * 2 + kh * 3).
// CHECK: affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2 * 3, d5 * 2 + d3 * 3)>
// CHECK-LABEL: func.func @strided(
// CHECK: memref.alloc() : memref<1x4x3x3x8x8xf64>
// CHECK: memref.collapse_shape %{{.*}} : memref<1x4x3x3x8x8xf64> into memref<1x36x64xf64>
func.func @strided(%x: memref<1x4x22x22xf64>, %w: memref<16x4x3x3xf64>, %y: memref<1x16x8x8xf64>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<3> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x22x22xf64>, memref<16x4x3x3xf64>) outs(%y : memref<1x16x8x8xf64>)
  return
}

// -----

// A 1x1 convolution of stride 1 multiplies the image itself: no copy.
// CHECK-LABEL: func.func @pointwise(
// CHECK-SAME: %[[X:[^:]*]]: memref<2x16x8x8xf32>
// CHECK-NOT: memref.alloc
// CHECK: %[[P:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0], [1], [2, 3]] : memref<2x16x8x8xf32> into memref<2x16x64xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[P]] : memref<32x16xf32>, memref<2x16x64xf32>)
// CHECK-NOT: memref.dealloc
func.func @pointwise(%x: memref<2x16x8x8xf32>, %w: memref<32x16x1x1xf32>, %y: memref<2x32x8x8xf32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<2x16x8x8xf32>, memref<32x16x1x1xf32>) outs(%y : memref<2x32x8x8xf32>)
  return
}

// -----

// Left alone: below min-flops per image (2 * 1 * 3 * 3 * 4 * 4 = 288), a
// filter with another layout, dynamic sizes, and integers.
// CHECK-LABEL: func.func @left_alone(
// CHECK-COUNT-4: linalg.conv_2d_nchw_fchw
// CHECK-NOT: memref.collapse_shape
func.func @left_alone(%x: memref<1x1x6x6xf32>, %w: memref<2x1x3x3xf32>, %y: memref<1x2x4x4xf32>,
                      %ws: memref<8x3x3x3xf32, strided<[54, 18, 6, 2]>>, %xb: memref<2x3x10x10xf32>, %yb: memref<2x8x8x8xf32>,
                      %xd: memref<?x3x10x10xf32>, %wd: memref<8x3x3x3xf32>, %yd: memref<?x8x8x8xf32>,
                      %xi: memref<2x3x10x10xi32>, %wi: memref<8x3x3x3xi32>, %yi: memref<2x8x8x8xi32>) {
  linalg.conv_2d_nchw_fchw ins(%x, %w : memref<1x1x6x6xf32>, memref<2x1x3x3xf32>) outs(%y : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw ins(%xb, %ws : memref<2x3x10x10xf32>, memref<8x3x3x3xf32, strided<[54, 18, 6, 2]>>) outs(%yb : memref<2x8x8x8xf32>)
  linalg.conv_2d_nchw_fchw ins(%xd, %wd : memref<?x3x10x10xf32>, memref<8x3x3x3xf32>) outs(%yd : memref<?x8x8x8xf32>)
  linalg.conv_2d_nchw_fchw ins(%xi, %wi : memref<2x3x10x10xi32>, memref<8x3x3x3xi32>) outs(%yi : memref<2x8x8x8xi32>)
  return
}
