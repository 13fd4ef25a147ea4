// moon-cpu-pipeline takes linalg on tensors: it bufferizes first
// (moon-bufferize), so a tensor function lowers to the LLVM dialect with
// memref descriptors at its boundary, and a gradient request on tensors
// (after moon-autodiff) does too.
// RUN: moonc-opt --moon-autodiff --moon-cpu-pipeline %s | FileCheck %s

// CHECK-NOT: tensor<
// CHECK-LABEL: llvm.func @relu(
// CHECK-SAME: !llvm.ptr
// CHECK: llvm.intr.maximum
// CHECK-LABEL: llvm.func @grad(
// CHECK: llvm.call @loss_vjp
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
func.func @relu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.maximumf %v, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}

func.func private @loss(%x: tensor<8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<8xf32>) outs(%init : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %t = math.tanh %v : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

func.func @grad(%x: tensor<8xf32>) -> tensor<8xf32> {
  %g = moon.grad @loss(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}
