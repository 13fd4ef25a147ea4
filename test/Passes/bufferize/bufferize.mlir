// RUN: moonc-opt %s --moon-bufferize --split-input-file | FileCheck %s

// Tensor arguments become memrefs read through `to_tensor`; a rank-0 float
// tensor result becomes a scalar; the elementwise square is fused into the
// sum; buffers that do not escape are freed.
// CHECK-LABEL: func.func @loss(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>) -> f32
// CHECK: %[[S:.*]] = memref.alloc() {{.*}} : memref<f32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<4xf32>) outs(%[[S]] : memref<f32>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: %[[V:.*]] = memref.load %[[S]][] : memref<f32>
// CHECK: memref.dealloc %[[S]]
// CHECK: return %[[V]] : f32
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
func.func @loss(%x: tensor<4xf32>) -> tensor<f32> {
  %e = tensor.empty() : tensor<4xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %z = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%z : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%sq : tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// Other tensor results are returned in buffers the function allocates;
// named operations other than products are generalized. A result of
// dynamic shape is copied into a buffer sized from it.
// CHECK-LABEL: func.func @relu(
// CHECK-SAME: %[[X:.*]]: memref<?x8xf32>) -> memref<?x8xf32>
// CHECK: %[[N:.*]] = memref.dim %[[X]], %c0
// CHECK: %[[T:.*]] = memref.alloc(%[[N]]) {{.*}} : memref<?x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<?x8xf32>) outs(%[[T]] : memref<?x8xf32>)
// CHECK: arith.maximumf
// CHECK: %[[Y:.*]] = memref.alloc(%{{.*}}) : memref<?x8xf32>
// CHECK: memref.copy %[[T]], %[[Y]]
// CHECK: memref.dealloc %[[T]]
// CHECK: return %[[Y]]
func.func @relu(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %y = linalg.map ins(%x : tensor<?x8xf32>) outs(%e : tensor<?x8xf32>)
    (%a: f32, %o: f32) {
      %zero = arith.constant 0.0 : f32
      %r = arith.maximumf %a, %zero : f32
      linalg.yield %r : f32
    }
  return %y : tensor<?x8xf32>
}

// -----

// A gradient request: the active tensor becomes `dup` with a zeroed shadow,
// from which the gradient is read.
// CHECK-LABEL: func.func @grad(
// CHECK-SAME: %[[X:.*]]: memref<4xf32>) -> memref<4xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[D:.*]] : memref<4xf32>)
// CHECK: moon.grad @sum(%[[X]], %[[D]]) args [dup] : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK: memref.copy %[[D]], %[[G:.*]] :
// CHECK: return %[[G]]
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
func.func private @sum(%x: tensor<4xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %z = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%z : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<4xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
func.func @grad(%x: tensor<4xf32>) -> tensor<4xf32> {
  %g = moon.grad @sum(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %g : tensor<4xf32>
}

// -----

// The VJP of a tensor result calls a copy of the function in destination-
// passing style: the result is written into a `dup` argument whose shadow
// starts as a copy of the cotangent.
// CHECK-LABEL: func.func private @double(
// CHECK-SAME: memref<2xf64>) -> memref<2xf64>
// CHECK-LABEL: func.func private @double_dps(
// CHECK-SAME: %[[X:.*]]: memref<2xf64>, %[[OUT:.*]]: memref<2xf64>) {
// CHECK: linalg.generic {{.*}} ins(%[[X]] : memref<2xf64>) outs(%[[OUT]] : memref<2xf64>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-LABEL: func.func @vjp(
// CHECK-SAME: %[[X:.*]]: memref<2xf64>, %[[C:.*]]: memref<2xf64>)
// CHECK: linalg.fill {{.*}} outs(%[[DX:.*]] : memref<2xf64>)
// CHECK: memref.copy %[[C]], %[[DY:.*]] :
// CHECK: moon.vjp @double_dps(%[[X]], %{{.*}}, %[[DX]], %[[DY]]) args [dup, dup] results []
#id = affine_map<(i) -> (i)>
func.func private @double(%x: tensor<2xf64>) -> tensor<2xf64> {
  %e = tensor.empty() : tensor<2xf64>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<2xf64>) outs(%e : tensor<2xf64>) {
  ^bb0(%a: f64, %o: f64):
    %r = arith.addf %a, %a : f64
    linalg.yield %r : f64
  } -> tensor<2xf64>
  return %y : tensor<2xf64>
}
func.func @vjp(%x: tensor<2xf64>, %c: tensor<2xf64>) -> (tensor<2xf64>, tensor<2xf64>) {
  %y, %dx = moon.vjp @double(%x, %c) : (tensor<2xf64>, tensor<2xf64>) -> (tensor<2xf64>, tensor<2xf64>)
  return %y, %dx : tensor<2xf64>, tensor<2xf64>
}

// -----

// Calls are inlined first.
// CHECK-LABEL: func.func @caller(
// CHECK-NOT: call
// CHECK: return
func.func private @square(%x: tensor<f64>) -> tensor<f64> {
  %v = tensor.extract %x[] : tensor<f64>
  %s = arith.mulf %v, %v : f64
  %r = tensor.from_elements %s : tensor<f64>
  return %r : tensor<f64>
}
func.func @caller(%x: tensor<f64>) -> tensor<f64> {
  %y = call @square(%x) : (tensor<f64>) -> tensor<f64>
  return %y : tensor<f64>
}

// -----

// A module without tensors at function boundaries is left alone.
// CHECK-LABEL: func.func @memrefs(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.load
func.func @memrefs(%m: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %v = memref.load %m[%c0] : memref<2xf64>
  return %v : f64
}
