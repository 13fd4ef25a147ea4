// vmap benchmark (see README.md): per-example gradients of a 10-parameter
// model, tanh(w . x + b) with w in R^9, under the squared error, over a
// batch: moon.vmap of a function that asks for one example's gradient,
// against the same computation written as a loop over the batch by hand.

// (tanh(p[0:9] . x + p[9]) - y)^2
func.func @loss(%p: memref<10xf64>, %x: memref<9xf64>, %y: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %bias = memref.load %p[%c9] : memref<10xf64>
  %z = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %bias) -> f64 {
    %w = memref.load %p[%i] : memref<10xf64>
    %v = memref.load %x[%i] : memref<9xf64>
    %m = arith.mulf %w, %v : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  %t = math.tanh %z : f64
  %d = arith.subf %t, %y : f64
  %l = arith.mulf %d, %d : f64
  return %l : f64
}

// One example: the loss, its gradient in p added into dp.
func.func @example(%p: memref<10xf64>, %dp: memref<10xf64>, %x: memref<9xf64>, %y: f64) -> f64 {
  %l = moon.value_and_grad @loss(%p, %x, %y, %dp) args [dup, const, const]
      : (memref<10xf64>, memref<9xf64>, f64, memref<10xf64>) -> f64
  return %l : f64
}

// G[b] = the gradient of example b (G zero on entry); returns loss 0.
func.func @per_example_vmap(%p: memref<10xf64>, %g: memref<?x10xf64>, %xs: memref<?x9xf64>, %ys: memref<?xf64>) -> f64 {
  %ls = moon.vmap @example(%p, %g, %xs, %ys) in_axes [none, 0, 0, 0] out_axes [0]
      : (memref<10xf64>, memref<?x10xf64>, memref<?x9xf64>, memref<?xf64>) -> memref<?xf64>
  %c0 = arith.constant 0 : index
  %l0 = memref.load %ls[%c0] : memref<?xf64>
  memref.dealloc %ls : memref<?xf64>
  return %l0 : f64
}

// The same by hand: d = 2 (t - y)(1 - t^2), G[b, i] = d x[b, i], G[b, 9] = d.
func.func @per_example_loop(%p: memref<10xf64>, %g: memref<?x10xf64>, %xs: memref<?x9xf64>, %ys: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %n = memref.dim %xs, %c0 : memref<?x9xf64>
  %bias = memref.load %p[%c9] : memref<10xf64>
  scf.for %b = %c0 to %n step %c1 {
    %z = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %bias) -> f64 {
      %w = memref.load %p[%i] : memref<10xf64>
      %v = memref.load %xs[%b, %i] : memref<?x9xf64>
      %m = arith.mulf %w, %v : f64
      %a = arith.addf %acc, %m : f64
      scf.yield %a : f64
    }
    %t = math.tanh %z : f64
    %y = memref.load %ys[%b] : memref<?xf64>
    %e = arith.subf %t, %y : f64
    %t2 = arith.mulf %t, %t : f64
    %s = arith.subf %one, %t2 : f64
    %e2 = arith.mulf %two, %e : f64
    %d = arith.mulf %e2, %s : f64
    scf.for %i = %c0 to %c9 step %c1 {
      %v = memref.load %xs[%b, %i] : memref<?x9xf64>
      %gi = arith.mulf %d, %v : f64
      memref.store %gi, %g[%b, %i] : memref<?x10xf64>
    }
    memref.store %d, %g[%b, %c9] : memref<?x10xf64>
  }
  %y0 = memref.load %ys[%c0] : memref<?xf64>
  return %y0 : f64
}
