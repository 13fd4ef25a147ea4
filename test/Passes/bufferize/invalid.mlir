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
