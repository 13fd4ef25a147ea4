// GradBench `lse` (evals/lse): the log-sum-exp of a vector, written as
// GradBench's reference C++ writes it (cpp/gradbench/evals/lse.hpp): the
// maximum from x_0 on (std::max, as arith.maximumf), then an ordered sum
// of exp(x_i - m) (no reassociation: moonc keeps the order of every sum a
// program writes; docs/autodiff.md, "Reduction order"), then log(s) + m.
//
// func.func @lse(%x: memref<?xf64>) -> f64
//   %x: GradBench input field `x` (double[] of length n), as is.
//   Returns log(sum_i exp(x_i)), computed as m + log(sum_i exp(x_i - m))
//   with m = max_i x_i. The gradient with respect to %x (argument 0) is
//   GradBench's `gradient` output (softmax(x), length n).
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
