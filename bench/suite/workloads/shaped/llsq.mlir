// GradBench `llsq` (evals/llsq): a linear least-squares objective (cmpad's
// llsq_obj). HAND-SHAPED: t_i^j as a running product instead of the
// reference's pow(t_i, j). The suite reports the plain form
// (tools/moonc-gradbench/workloads/llsq.mlir); this is a separate, labelled
// row (`llsq_shaped`).
//
// func.func @llsq(%x: memref<?xf64>, %n: index) -> f64
//   %x: GradBench input field `x` (double[] of length m), as is: the
//       polynomial's coefficients, x_j multiplying t^j.
//   %n: GradBench input field `n` (int): the number of sample points.
//   Returns 1/2 sum_{i<n} (s_i - sum_{j<m} x_j t_i^j)^2 with
//   t_i = -1 + 2i/(n-1) and s_i = sign(t_i). The gradient with respect to
//   %x (argument 0) is GradBench's `gradient` output (length m).
func.func @llsq(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %mone = arith.constant -1.0 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %n1 = arith.subi %n, %c1 : index
  %n1i = arith.index_cast %n1 : index to i64
  %n1f = arith.sitofp %n1i : i64 to f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %i2 = arith.mulf %if, %two : f64
    %q = arith.divf %i2, %n1f : f64
    %t = arith.addf %mone, %q : f64
    %pos = arith.cmpf ogt, %t, %z : f64
    %neg = arith.cmpf olt, %t, %z : f64
    %s1 = arith.select %neg, %mone, %z : f64
    %sg = arith.select %pos, %one, %s1 : f64
    %in:2 = scf.for %j = %c0 to %m step %c1 iter_args(%sum = %sg, %mul = %one) -> (f64, f64) {
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %xj, %mul : f64
      %d = arith.subf %sum, %p : f64
      %mt = arith.mulf %mul, %t : f64
      scf.yield %d, %mt : f64, f64
    }
    %sq = arith.mulf %in#0, %in#0 : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %s, %half : f64
  return %r : f64
}
