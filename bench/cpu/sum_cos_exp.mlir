// sum(cos(exp(x))) over a dynamic f64 vector: the seed benchmark's primal.
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
