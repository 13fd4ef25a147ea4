// RUN: moonc-opt --moon-vmap --split-input-file --verify-diagnostics %s

func.func @f(%x: f32) -> f32 {
  return %x : f32
}
func.func @tensors(%xs: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{moon.vmap: batched operand #0 has type tensor<4xf32>; only memrefs can be batched yet (not tensors or vectors)}}
  %r = moon.vmap @f(%xs) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func private @g(f64) -> f64
func.func @declaration(%xs: memref<?xf64>) -> memref<?xf64> {
  // expected-error @+1 {{@g is a declaration: moon.vmap needs its body}}
  %r = moon.vmap @g(%xs) : (memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}

// -----

func.func @h(%x: f64, %y: f64) -> f64 {
  return %y : f64
}
func.func @unbatched(%xs: memref<?xf64>, %y: f64) -> f64 {
  // expected-error @+1 {{moon.vmap: result #0: unbatched results (`none` in out_axes) are not supported yet}}
  %r = moon.vmap @h(%xs, %y) in_axes [0, none] out_axes [none] : (memref<?xf64>, f64) -> f64
  return %r : f64
}
