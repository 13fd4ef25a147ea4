// Executed: each derivative request on a function of tensors, through
// `moonc run` (which bufferizes, differentiates and runs). With
// f(x, w) = sum(w * x^2) (x: 3 floats, w: 3 floats) and
// g(x) = x * x elementwise (a tensor result):
// RUN: moonc run %s --entry grad --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0]]' | FileCheck %s --check-prefix=GRAD
// df/dx = 2 w x = [1, 4, 12]; df/dw = x^2 = [1, 4, 9]
// GRAD: {"results": {{\[\[}}1.0, 4.0, 12.0], [1.0, 4.0, 9.0]]
// RUN: moonc run %s --entry value_and_grad --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0]]' | FileCheck %s --check-prefix=VAG
// f = 0.5 + 4 + 18 = 22.5
// VAG: {"results": [22.5, [1.0, 4.0, 12.0]]
// RUN: moonc run %s --entry vjp --args '[[1.0, 2.0, 3.0], [1.0, 10.0, 100.0]]' | FileCheck %s --check-prefix=VJP
// g = x^2 = [1, 4, 9]; cotangent c: x̄ = 2 x c = [2, 40, 600]
// VJP: {"results": {{\[\[}}1.0, 4.0, 9.0], [2.0, 40.0, 600.0]]
// RUN: moonc run %s --entry jvp --args '[[1.0, 2.0, 3.0], [1.0, 10.0, 100.0]]' | FileCheck %s --check-prefix=JVP
// ġ = 2 x ẋ = [2, 40, 600]
// JVP: {"results": {{\[\[}}1.0, 4.0, 9.0], [2.0, 40.0, 600.0]]
// RUN: moonc run %s --entry jvp_scalar --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0], [1.0, 0.0, 1.0]]' | FileCheck %s --check-prefix=JVPS
// ḟ = <2 w x, ẋ> = 1 + 12 = 13
// JVPS: {"results": [22.5, 13.0]
// RUN: moonc run %s --entry hvp --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0], [1.0, 1.0, 1.0]]' | FileCheck %s --check-prefix=HVP
// H_xx v = 2 w v = [1, 2, 4]
// HVP: {"results": {{\[\[}}1.0, 2.0, 4.0]]
// RUN: moonc run %s --entry per_example --args '[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [0.5, 1.0, 2.0]]' | FileCheck %s --check-prefix=VMAP
// per-example gradients of f(x_b, w): 2 w x_b
// VMAP: {"results": {{\[\[\[}}1.0, 4.0, 12.0], [4.0, 10.0, 24.0]]]
// RUN: moonc run %s --entry hessian_row --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0], [1.0, 1.0, 1.0]]' | FileCheck %s --check-prefix=RR
// ∂(2 w x)/∂x · v = 2 w v = [1, 2, 4]
// RR: {"results": {{\[\[}}1.0, 2.0, 4.0]]
// RUN: moonc grad %s --entry f --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0]]' | FileCheck %s --check-prefix=DRIVER
// DRIVER: {"value": 22.5, "gradient": {{\[\[}}1.0, 4.0, 12.0], [1.0, 4.0, 9.0]]}
// RUN: moonc check %s --entry f | FileCheck %s --check-prefix=CHECK-F
// CHECK-F: check: PASS
// RUN: moonc jacobian %s --entry jvp --args '[[1.0, 2.0, 3.0], [1.0, 0.0, 0.0]]' | FileCheck %s --check-prefix=JACT
// Rows: the elements of g = x^2 (d/dx = 2x, d/ddx = 0), then of its
// tangent 2 x dx (d/dx = 2 dx, d/ddx = 2 x); columns x then dx.
// JACT: "jacobian": {{\[\[}}2.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 6.0, 0.0, 0.0, 0.0], [2.0, 0.0, 0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 4.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 6.0]]}
// RUN: moonc jacobian %s --entry f --args '[[1.0, 2.0, 3.0], [0.5, 1.0, 2.0]]' | FileCheck %s --check-prefix=JAC
// JAC: "jacobian": {{\[\[}}1.0, 4.0, 12.0, 1.0, 4.0, 9.0]]

#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>

func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %s = linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%x, %w : tensor<3xf32>, tensor<3xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %a2 = arith.mulf %a, %a : f32
    %t = arith.mulf %b, %a2 : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}

func.func private @g(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @grad(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %dx, %dw = moon.grad @f(%x, %w) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %dx, %dw : tensor<3xf32>, tensor<3xf32>
}

func.func @value_and_grad(%x: tensor<3xf32>, %w: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %v, %dx = moon.value_and_grad @f(%x, %w) args [active, const]
      : (tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
  return %v, %dx : tensor<f32>, tensor<3xf32>
}

func.func @vjp(%x: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y, %dx = moon.vjp @g(%x, %c) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %dx : tensor<3xf32>, tensor<3xf32>
}

func.func @jvp(%x: tensor<3xf32>, %dx: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y, %dy = moon.jvp @g(%x, %dx) : (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %y, %dy : tensor<3xf32>, tensor<3xf32>
}

func.func @jvp_scalar(%x: tensor<3xf32>, %w: tensor<3xf32>, %dx: tensor<3xf32>) -> (tensor<f32>, tensor<f32>) {
  %y, %dy = moon.jvp @f(%x, %w, %dx) args [active, const]
      : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
  return %y, %dy : tensor<f32>, tensor<f32>
}

func.func @hvp(%x: tensor<3xf32>, %w: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %h = moon.hvp @f(%x, %w, %v) args [active, const]
      : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %h : tensor<3xf32>
}

func.func private @dfdx(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<3xf32> {
  %dx = moon.grad @f(%x, %w) args [active, const] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %dx : tensor<3xf32>
}

func.func @per_example(%xs: tensor<2x3xf32>, %w: tensor<3xf32>) -> tensor<2x3xf32> {
  %dxs = moon.vmap @dfdx(%xs, %w) in_axes [0, none] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %dxs : tensor<2x3xf32>
}

// The forward mode of a function that itself takes a gradient (forward
// over reverse): its destination-passing copy holds a request too.
func.func @hessian_row(%x: tensor<3xf32>, %w: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %g, %h = moon.jvp @dfdx(%x, %w, %v) args [active, const]
      : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
  return %h : tensor<3xf32>
}
