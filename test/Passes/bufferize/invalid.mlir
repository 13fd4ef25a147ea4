// RUN: moonc-opt %s --moon-bufferize --split-input-file --verify-diagnostics

// expected-error @+1 {{@unranked has the unranked tensor type `tensor<*xf32>`; moonc needs ranked tensors}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// expected-error @+1 {{@encoded has the tensor type `tensor<4xf32, "sparse">` with an encoding, which moonc cannot bufferize}}
func.func @encoded(%x: tensor<4xf32, "sparse">) -> tensor<4xf32, "sparse"> {
  return %x : tensor<4xf32, "sparse">
}

// -----

func.func private @id(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @wide(%x: tensor<4xf32>, %dx: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{`width` above 1 is not supported on functions of tensors yet}}
  %y, %dy = moon.jvp @id(%x, %dx) width 2 : (tensor<4xf32>, tensor<2x4xf32>) -> (tensor<4xf32>, tensor<2x4xf32>)
  return %dy : tensor<2x4xf32>
}

// -----

func.func private @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @dynamic(%x: tensor<?xf32>, %c: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{the derivative of result #0 of @dyn, a tensor of dynamic shape, is not supported yet (its size is known only after the call)}}
  %y, %dx = moon.vjp @dyn(%x, %c) : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>)
  return %dx : tensor<?xf32>
}

// -----

func.func private @scalar(%x: tensor<3xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<3xf32>
  return %v : f32
}
func.func @vmap_scalar(%xs: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{moon.vmap of a function on tensors needs tensor results, but result #0 of @scalar has type f32}}
  %ys = moon.vmap @scalar(%xs) : (tensor<2x3xf32>) -> tensor<2xf32>
  return %ys : tensor<2xf32>
}
