// The suite's seed workloads (bench/suite/workloads/seed.py): the two
// functions of the first benchmark, as bench/reverse/reverse.mlir writes
// them. x is a dynamic f64 vector (n = 1024 in the suite).

// sum(cos(exp(x)))
func.func @sum_cos_exp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %a = arith.addf %acc, %c : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// sum(5x)
func.func @sum_5x(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %five = arith.constant 5.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %m = arith.mulf %v, %five : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  return %s : f64
}
