// GradBench `llsq` written as GradBench's reference C++ writes it
// (cpp/gradbench/evals/llsq.hpp, `llsq::primal`):
//
//   double t(double i, double n) { return -1 + i*2/(n-1); }
//   T s(T ti) { return (T(0) < ti) - (ti < T(0)); }
//   T sum = 0;
//   for (size_t i = 0; i < n; i++) {
//     T ti = t(i, n);
//     T inner_sum = s(ti);
//     for (size_t j = 0; j < m; j++) inner_sum -= x[j] * pow(ti, j);
//     sum += inner_sum*inner_sum;
//   }
//   *out = sum/T(2);
//
// func.func @llsq(%x: memref<?xf64>, %n: index) -> f64
//   %x: GradBench's `x` (m coefficients); %n: GradBench's `n` (points).
//   Returns the objective; its gradient with respect to %x is GradBench's
//   `gradient`. pow(ti, j) with an integral j is std::pow(double, double):
//   math.powf on (double)j, one libm call per term as in the reference. The
//   form the suite timed before, a running product of t_i instead of pow
//   (the hand-shaped `llsq_shaped` row), is
//   bench/suite/workloads/shaped/llsq.mlir.
func.func @llsq(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %ni = arith.index_cast %n : index to i64
  %nf = arith.uitofp %ni : i64 to f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    // t(i, n) = -1 + i*2/(n-1), all in double
    %ii = arith.index_cast %i : index to i64
    %if = arith.uitofp %ii : i64 to f64
    %i2 = arith.mulf %if, %two : f64
    %nm1 = arith.subf %nf, %one : f64
    %q = arith.divf %i2, %nm1 : f64
    %mone = arith.constant -1.0 : f64
    %ti = arith.addf %mone, %q : f64
    // s(ti) = (0 < ti) - (ti < 0), an int converted to double
    %gt = arith.cmpf olt, %z, %ti : f64
    %lt = arith.cmpf olt, %ti, %z : f64
    %gti = arith.extui %gt : i1 to i32
    %lti = arith.extui %lt : i1 to i32
    %si = arith.subi %gti, %lti : i32
    %s = arith.sitofp %si : i32 to f64
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%is = %s) -> f64 {
      %xj = memref.load %x[%j] : memref<?xf64>
      %ji = arith.index_cast %j : index to i64
      %jf = arith.uitofp %ji : i64 to f64
      %p = math.powf %ti, %jf : f64
      %prod = arith.mulf %xj, %p : f64
      %d = arith.subf %is, %prod : f64
      scf.yield %d : f64
    }
    %sq = arith.mulf %inner, %inner : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  %r = arith.divf %sum, %two : f64
  return %r : f64
}
