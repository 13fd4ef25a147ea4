// sum(5x) over a dynamic f64 vector: the seed benchmark's cheap case.
func.func @sum_5x(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %five = arith.constant 5.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %five : f64
    %next = arith.addf %acc, %p : f64
    scf.yield %next : f64
  }
  return %sum : f64
}
