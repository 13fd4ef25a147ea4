// Kernels that examples/c/main.c calls through the C header moonc writes.

// sum(cos(exp(x))) over a vector of any length: a scalar result.
func.func @sum_cos_exp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %next = arith.addf %acc, %c : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

// y = a * x + y in single precision, in place: no result.
func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf32>
    %yi = memref.load %y[%i] : memref<?xf32>
    %axi = arith.mulf %a, %xi : f32
    %r = arith.addf %axi, %yi : f32
    memref.store %r, %y[%i] : memref<?xf32>
  }
  return
}

// y = A x for a row-major matrix A: a 2-D memref argument, written with
// linalg (which moonc lowers to loops).
func.func @matvec(%A: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill ins(%zero : f64) outs(%y : memref<?xf64>)
  linalg.matvec ins(%A, %x : memref<?x?xf64>, memref<?xf64>)
                outs(%y : memref<?xf64>)
  return
}

// The mean and the (population) variance of x: two results.
func.func @mean_var(%x: memref<?xf64>) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %next = arith.addf %acc, %v : f64
    scf.yield %next : f64
  }
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %mean = arith.divf %sum, %nf : f64
  %ss = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %mean : f64
    %d2 = arith.mulf %d, %d : f64
    %next = arith.addf %acc, %d2 : f64
    scf.yield %next : f64
  }
  %var = arith.divf %ss, %nf : f64
  return %mean, %var : f64, f64
}
