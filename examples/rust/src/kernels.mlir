// Kernels that examples/rust/src/main.rs calls through the Rust bindings
// moonc writes (build.rs compiles this file with moonc-build).

// The dot product of two vectors: a scalar result.
func.func @dot(%x: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %yi = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %xi, %yi : f64
    %next = arith.addf %acc, %p : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

// y = a * x + y, in place.
func.func @axpy(%a: f64, %x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %yi = memref.load %y[%i] : memref<?xf64>
    %axi = arith.mulf %a, %xi : f64
    %r = arith.addf %axi, %yi : f64
    memref.store %r, %y[%i] : memref<?xf64>
  }
  return
}

// y = A x for a row-major matrix A (a 2-D memref), with linalg.
func.func @matvec(%A: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill ins(%zero : f64) outs(%y : memref<?xf64>)
  linalg.matvec ins(%A, %x : memref<?x?xf64>, memref<?xf64>)
                outs(%y : memref<?xf64>)
  return
}

// total += sum(exp(x)), through a rank-0 memref.
func.func @accumulate_exp(%total: memref<f64>, %x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %init = memref.load %total[] : memref<f64>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %xi : f64
    %next = arith.addf %acc, %e : f64
    scf.yield %next : f64
  }
  memref.store %sum, %total[] : memref<f64>
  return
}

// The smallest and the largest element: two results.
func.func @min_max(%x: memref<?xf64>) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %first = memref.load %x[%c0] : memref<?xf64>
  %lo, %hi = scf.for %i = %c1 to %n step %c1 iter_args(%l = %first, %h = %first)
      -> (f64, f64) {
    %xi = memref.load %x[%i] : memref<?xf64>
    %nl = arith.minimumf %l, %xi : f64
    %nh = arith.maximumf %h, %xi : f64
    scf.yield %nl, %nh : f64, f64
  }
  return %lo, %hi : f64, f64
}

// A fresh vector a * x: a memref result, allocated by the compiled code.
func.func @scaled(%x: memref<?xf64>, %a: f64) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %v = arith.mulf %a, %xi : f64
    memref.store %v, %r[%i] : memref<?xf64>
  }
  return %r : memref<?xf64>
}
