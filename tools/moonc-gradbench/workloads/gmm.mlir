// GradBench `gmm` (evals/gmm) written as GradBench's reference C++ writes
// it (cpp/gradbench/evals/gmm.hpp, with adbench/shared/matrix.h's
// helpers): a loop over the points, and for each point a loop over the
// components calling subtract, Qtimesx and sqnorm on caller-provided
// scratch vectors, then logsumexp; the Wishart prior in its own helper.
// Pointer arithmetic `&a[i * d]` is a memref.subview of row i.
//
// func.func @gmm(%alpha: memref<?xf64>, %mu: memref<?x?xf64>,
//                %q: memref<?x?xf64>, %l: memref<?x?xf64>,
//                %x: memref<?x?xf64>, %gamma: f64, %m: index) -> f64
//   %alpha: K logits; %mu, %q: K x D; %l: K x D(D-1)/2 (GradBench's
//   column-by-column order of the strict lower part of Q_k); %x: N x D
//   points (row-major, points outer, as the reference stores them);
//   %gamma, %m: the Wishart parameters. Returns GradBench's `objective`;
//   its gradient with respect to arguments 0-3 is GradBench's `jacobian`.
//
// Reverse mode inlines the helpers, recomputes Qtimesx's counter
// Lparamsidx from the loop indices instead of taping it, reads xcentered
// as x - mu (the expression subtract stored) and computes x[i] - mu[i]
// once before the triangular inner loop (docs/autodiff.md). The
// hand-shaped form served before (points innermost) is
// bench/suite/workloads/shaped/gmm.mlir.

!row = memref<?xf64, strided<[1], offset: ?>>

// matrix.h: T arr_max(int n, const T* x)  (m = std::max(m, x[i]))
func.func private @arr_max(%n: index, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%m = %x0) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %lt = arith.cmpf olt, %m, %xi : f64
    %mx = arith.select %lt, %xi, %m : f64
    scf.yield %mx : f64
  }
  return %r : f64
}

// matrix.h: T sqnorm(int n, const T* x)
func.func private @sqnorm(%n: index, %x: !row) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x0 = memref.load %x[%c0] : !row
  %r0 = arith.mulf %x0, %x0 : f64
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%res = %r0) -> f64 {
    %xi = memref.load %x[%i] : !row
    %sq = arith.mulf %xi, %xi : f64
    %a = arith.addf %res, %sq : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// matrix.h: void subtract(int d, const T1* x, const T2* y, T3* out)
func.func private @subtract(%d: index, %x: !row, %y: !row, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %id = %c0 to %d step %c1 {
    %xv = memref.load %x[%id] : !row
    %yv = memref.load %y[%id] : !row
    %s = arith.subf %xv, %yv : f64
    memref.store %s, %out[%id] : memref<?xf64>
  }
  return
}

// matrix.h: double log_gamma_distrib(double a, double p)
func.func private @lgamma(f64) -> f64
func.func private @log_gamma_distrib(%a: f64, %p: index) -> f64 {
  %c1 = arith.constant 1 : index
  %quarter = arith.constant 0.25 : f64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %pi = arith.constant 3.141592653589793 : f64
  %pi64 = arith.index_cast %p : index to i64
  %pf = arith.sitofp %pi64 : i64 to f64
  %t0 = arith.mulf %quarter, %pf : f64
  %pm1 = arith.subf %pf, %one : f64
  %t1 = arith.mulf %t0, %pm1 : f64
  %lpi = math.log %pi : f64
  %out0 = arith.mulf %t1, %lpi : f64
  %p1 = arith.addi %p, %c1 : index
  %out = scf.for %j = %c1 to %p1 step %c1 iter_args(%o = %out0) -> f64 {
    %ji = arith.index_cast %j : index to i64
    %c1i = arith.constant 1 : i64
    %omj = arith.subi %c1i, %ji : i64
    %omjf = arith.sitofp %omj : i64 to f64
    %h = arith.mulf %half, %omjf : f64
    %arg = arith.addf %a, %h : f64
    %lg = func.call @lgamma(%arg) : (f64) -> f64
    %s = arith.addf %o, %lg : f64
    scf.yield %s : f64
  }
  return %out : f64
}

// gmm.hpp: T logsumexp(int n, const T* x)
func.func private @logsumexp(%n: index, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %mx = func.call @arr_max(%n, %x) : (index, memref<?xf64>) -> f64
  %semx = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> f64 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %dv = arith.subf %xi, %mx : f64
    %e = math.exp %dv : f64
    %a = arith.addf %s, %e : f64
    scf.yield %a : f64
  }
  %lg = math.log %semx : f64
  %r = arith.addf %lg, %mx : f64
  return %r : f64
}

// gmm.hpp: T log_wishart_prior(int d, int k, Wishart wishart,
//                              const T* sum_qs, const T* Qdiags, const T* l)
func.func private @log_wishart_prior(%d: index, %k: index, %gamma: f64, %m: index,
                                     %sum_qs: memref<?xf64>, %Qdiags: memref<?x?xf64>,
                                     %l: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %two = arith.constant 2.0 : f64
  // int n = d + wishart.m + 1; const int l_sz = d * (d - 1) / 2;
  %dm = arith.addi %d, %m : index
  %n = arith.addi %dm, %c1 : index
  %dm1 = arith.subi %d, %c1 : index
  %ddm1 = arith.muli %d, %dm1 : index
  %l_sz = arith.divui %ddm1, %c2 : index
  // double C = n * d * (log(wishart.gamma) - 0.5 * log(2)) -
  //            log_gamma_distrib(0.5 * n, d);
  %nd = arith.muli %n, %d : index
  %ndi = arith.index_cast %nd : index to i64
  %ndf = arith.sitofp %ndi : i64 to f64
  %lg = math.log %gamma : f64
  %l2 = math.log %two : f64
  %hl2 = arith.mulf %half, %l2 : f64
  %lgd = arith.subf %lg, %hl2 : f64
  %cA = arith.mulf %ndf, %lgd : f64
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %hn = arith.mulf %half, %nf : f64
  %lgdist = func.call @log_gamma_distrib(%hn, %d) : (f64, index) -> f64
  %C = arith.subf %cA, %lgdist : f64
  // out += 0.5 * gamma * gamma * frobenius - wishart.m * sum_qs[ik]
  %mi = arith.index_cast %m : index to i64
  %mf = arith.sitofp %mi : i64 to f64
  %out = scf.for %ik = %c0 to %k step %c1 iter_args(%o = %z) -> f64 {
    %qrow = memref.subview %Qdiags[%ik, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
    %lrow = memref.subview %l[%ik, 0] [1, %l_sz] [1, 1] : memref<?x?xf64> to !row
    %f1 = func.call @sqnorm(%d, %qrow) : (index, !row) -> f64
    %f2 = func.call @sqnorm(%l_sz, %lrow) : (index, !row) -> f64
    %frob = arith.addf %f1, %f2 : f64
    %hg = arith.mulf %half, %gamma : f64
    %hgg = arith.mulf %hg, %gamma : f64
    %t1 = arith.mulf %hgg, %frob : f64
    %sq = memref.load %sum_qs[%ik] : memref<?xf64>
    %t2 = arith.mulf %mf, %sq : f64
    %t = arith.subf %t1, %t2 : f64
    %o2 = arith.addf %o, %t : f64
    scf.yield %o2 : f64
  }
  // return -out + k * C;
  %neg = arith.negf %out : f64
  %ki = arith.index_cast %k : index to i64
  %kf = arith.sitofp %ki : i64 to f64
  %kC = arith.mulf %kf, %C : f64
  %r = arith.addf %neg, %kC : f64
  return %r : f64
}

// gmm.hpp: void Qtimesx(int d, const T* Qdiag, const T* ltri, const T* x, T* out)
func.func private @Qtimesx(%d: index, %Qdiag: !row, %ltri: !row, %x: memref<?xf64>,
                           %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %id = %c0 to %d step %c1 {
    %qv = memref.load %Qdiag[%id] : !row
    %xv = memref.load %x[%id] : memref<?xf64>
    %p = arith.mulf %qv, %xv : f64
    memref.store %p, %out[%id] : memref<?xf64>
  }
  // int Lparamsidx = 0; ... Lparamsidx++;
  %last = scf.for %i = %c0 to %d step %c1 iter_args(%li0 = %c0) -> index {
    %i1 = arith.addi %i, %c1 : index
    %li1 = scf.for %j = %i1 to %d step %c1 iter_args(%li = %li0) -> index {
      %ov = memref.load %out[%j] : memref<?xf64>
      %lv = memref.load %ltri[%li] : !row
      %xi = memref.load %x[%i] : memref<?xf64>
      %pr = arith.mulf %lv, %xi : f64
      %s = arith.addf %ov, %pr : f64
      memref.store %s, %out[%j] : memref<?xf64>
      %next = arith.addi %li, %c1 : index
      scf.yield %next : index
    }
    scf.yield %li1 : index
  }
  return
}

// gmm.hpp: void objective(int d, int k, int n, alpha, mu, q, l, x, wishart, err)
func.func @gmm(%alpha: memref<?xf64>, %mu: memref<?x?xf64>, %q: memref<?x?xf64>,
               %l: memref<?x?xf64>, %x: memref<?x?xf64>, %gamma: f64, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %k = memref.dim %alpha, %c0 : memref<?xf64>
  %d = memref.dim %mu, %c1 : memref<?x?xf64>
  %n = memref.dim %x, %c0 : memref<?x?xf64>
  // const double CONSTANT = -n * d * 0.5 * log(2 * M_PI);
  %nd = arith.muli %n, %d : index
  %ndi = arith.index_cast %nd : index to i64
  %c0i = arith.constant 0 : i64
  %nndi = arith.subi %c0i, %ndi : i64
  %nndf = arith.sitofp %nndi : i64 to f64
  %cst0 = arith.mulf %nndf, %half : f64
  %twopi = arith.constant 6.283185307179586 : f64
  %l2pi = math.log %twopi : f64
  %CONSTANT = arith.mulf %cst0, %l2pi : f64
  // const int l_sz = d * (d - 1) / 2;
  %dm1 = arith.subi %d, %c1 : index
  %ddm1 = arith.muli %d, %dm1 : index
  %l_sz = arith.divui %ddm1, %c2 : index
  // std::vector<T> Qdiags(d * k); std::vector<T> sum_qs(k);
  %Qdiags = memref.alloc(%k, %d) : memref<?x?xf64>
  %sum_qs = memref.alloc(%k) : memref<?xf64>
  scf.for %i = %c0 to %k step %c1 {
    memref.store %z, %sum_qs[%i] : memref<?xf64>
  }
  // Qdiags[i] = exp(q[i]);
  scf.for %i = %c0 to %k step %c1 {
    scf.for %j = %c0 to %d step %c1 {
      %qv = memref.load %q[%i, %j] : memref<?x?xf64>
      %e = math.exp %qv : f64
      memref.store %e, %Qdiags[%i, %j] : memref<?x?xf64>
    }
  }
  // sum_qs[i] += q[i * d + j];
  scf.for %i = %c0 to %k step %c1 {
    scf.for %j = %c0 to %d step %c1 {
      %sv = memref.load %sum_qs[%i] : memref<?xf64>
      %qv = memref.load %q[%i, %j] : memref<?x?xf64>
      %a = arith.addf %sv, %qv : f64
      memref.store %a, %sum_qs[%i] : memref<?xf64>
    }
  }
  // std::vector<T> xcentered(d), Qxcentered(d), main_term(k);
  %xcentered = memref.alloc(%d) : memref<?xf64>
  %Qxcentered = memref.alloc(%d) : memref<?xf64>
  %main_term = memref.alloc(%k) : memref<?xf64>
  %Qxc_row = memref.cast %Qxcentered : memref<?xf64> to !row
  %slse = scf.for %ix = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    scf.for %ik = %c0 to %k step %c1 {
      // subtract(d, &x[ix * d], &mu[ik * d], &xcentered[0]);
      %xrow = memref.subview %x[%ix, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
      %murow = memref.subview %mu[%ik, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
      func.call @subtract(%d, %xrow, %murow, %xcentered) : (index, !row, !row, memref<?xf64>) -> ()
      // Qtimesx(d, &Qdiags[ik * d], &l[ik * l_sz], &xcentered[0], &Qxcentered[0]);
      %qrow = memref.subview %Qdiags[%ik, 0] [1, %d] [1, 1] : memref<?x?xf64> to !row
      %lrow = memref.subview %l[%ik, 0] [1, %l_sz] [1, 1] : memref<?x?xf64> to !row
      func.call @Qtimesx(%d, %qrow, %lrow, %xcentered, %Qxcentered)
          : (index, !row, !row, memref<?xf64>, memref<?xf64>) -> ()
      // main_term[ik] = alpha[ik] + sum_qs[ik] - 0.5 * sqnorm(d, &Qxcentered[0]);
      %av = memref.load %alpha[%ik] : memref<?xf64>
      %sv = memref.load %sum_qs[%ik] : memref<?xf64>
      %as = arith.addf %av, %sv : f64
      %sqn = func.call @sqnorm(%d, %Qxc_row) : (index, !row) -> f64
      %hs = arith.mulf %half, %sqn : f64
      %mt = arith.subf %as, %hs : f64
      memref.store %mt, %main_term[%ik] : memref<?xf64>
    }
    // T lsum = logsumexp(k, &main_term[0]); slse += lsum;
    %lsum = func.call @logsumexp(%k, %main_term) : (index, memref<?xf64>) -> f64
    %a = arith.addf %acc, %lsum : f64
    scf.yield %a : f64
  }
  // T lse_alpha = logsumexp(k, alpha);
  %lse_alpha = func.call @logsumexp(%k, %alpha) : (index, memref<?xf64>) -> f64
  // *err = CONSTANT + slse - n * lse_alpha;
  %e0 = arith.addf %CONSTANT, %slse : f64
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %nl = arith.mulf %nf, %lse_alpha : f64
  %err = arith.subf %e0, %nl : f64
  // T ws = log_wishart_prior(d, k, wishart, &sum_qs[0], &Qdiags[0], l);
  %ws = func.call @log_wishart_prior(%d, %k, %gamma, %m, %sum_qs, %Qdiags, %l)
      : (index, index, f64, index, memref<?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> f64
  // *err = *err + ws;
  %r = arith.addf %err, %ws : f64
  memref.dealloc %main_term : memref<?xf64>
  memref.dealloc %Qxcentered : memref<?xf64>
  memref.dealloc %xcentered : memref<?xf64>
  memref.dealloc %sum_qs : memref<?xf64>
  memref.dealloc %Qdiags : memref<?x?xf64>
  return %r : f64
}
