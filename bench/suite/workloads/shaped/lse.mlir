// GradBench `lse` (evals/lse), HAND-SHAPED: its sum is marked
// `fastmath<reassoc>` so that it vectorizes. The suite reports the plain
// form (tools/moonc-gradbench/workloads/lse.mlir); this one is a separate,
// labelled row (`lse_shaped`).
//
// func.func @lse(%x: memref<?xf64>) -> f64
//   %x: GradBench input field `x` (double[] of length n), as is.
//   Returns log(sum_i exp(x_i)), computed as m + log(sum_i exp(x_i - m))
//   with m = max_i x_i. The gradient with respect to %x (argument 0) is
//   GradBench's `gradient` output (softmax(x), length n).
//
// The sum may be reassociated (as XLA does), so that it vectorizes.
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e fastmath<reassoc> : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
