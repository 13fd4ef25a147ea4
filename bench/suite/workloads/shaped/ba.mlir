// GradBench `ba` (evals/ba): bundle adjustment, ADBench's objective and its
// sparse Jacobian. HAND-SHAPED (the helpers merged into one function of 17
// scalars, @ba_obs, the two loops fused, width 16): the suite reports the
// plain form (tools/moonc-gradbench/workloads/ba.mlir); this is a separate,
// labelled row (`..._shaped`).
//
// GradBench's input (`n`, `m`, `p`, one `cam`, one `x`, one `w`, one `feat`)
// is expanded as GradBench's C++ side does (ba.hpp, from_json): cams = n
// copies of `cam`, x = m copies of `x`, w = p copies of `w`, feats = p
// copies of `feat`, and observation i = (camera i mod n, point i mod m).
// The functions below take those expanded arrays and do not exploit the
// duplication.
//
// Common arguments (all row-major, dynamic sizes; n cameras, m points,
// p observations):
//   %cams : memref<?x11xf64>  n x 11, GradBench `cams`; a camera is
//           [r0 r1 r2  C0 C1 C2  f  u0 v0  k1 k2]: Rodrigues rotation,
//           camera centre, focal length, principal point, radial distortion.
//   %x    : memref<?x3xf64>   m x 3, GradBench `X` (3-D points).
//   %w    : memref<?xf64>     p, GradBench `w` (one weight per observation).
//   %obs  : memref<?x2xi32>   p x 2, GradBench `obs`: row i is
//           (camera index, point index) of observation i.
//   %feats: memref<?x2xf64>   p x 2, GradBench `feats` (observed 2-D points).
//
// func.func @ba_objective(%cams, %x, %w, %obs, %feats,
//                         %reproj_err: memref<?x2xf64>,   // p x 2, output
//                         %w_err: memref<?xf64>)          // p, output
//     -> f64
//   Writes GradBench's objective: reproj_err[i][k] = w[i] * (proj_k - feat_k)
//   (GradBench's `reproj_err`, flattened row-major, element 2i+k) and
//   w_err[i] = 1 - w[i]^2 (GradBench's `w_err`). Returns the sum of squares
//   of all 3p residuals (the suite's scalar primal).
//
// func.func @ba_jacobian(%cams, %x, %w, %obs, %feats,
//                        %jac: memref<?x2x15xf64>,        // p x 2 x 15, output
//                        %wjac: memref<?xf64>)            // p, output
//   jac[i][k][j] = d reproj_err[i][k] / d(parameter j of observation i),
//   with j = 0..10 the 11 parameters of camera obs[i][0] (in the order
//   above), j = 11..13 the 3 coordinates of point obs[i][1], j = 14 the
//   weight w[i]. wjac[i] = d w_err[i] / d w[i] (= -2 w[i]).
//   In GradBench's sparse matrix (rows: 2p reprojection rows, then p weight
//   rows; columns: 11n camera columns, 3m point columns, p weight columns)
//   row 2i+k holds, in this order, columns 11*cam+j (j = 0..10) with values
//   jac[i][k][0..10], columns 11n + 3*pt + j (j = 0..2) with values
//   jac[i][k][11..13], and column 11n + 3m + i with value jac[i][k][14];
//   row 2p+i holds column 11n + 3m + i with value wjac[i]. So GradBench's
//   `vals` are jac flattened row-major followed by wjac, and its output
//   (the first 30 entries and the last) is jac[0] flattened (30 values)
//   then wjac[p-1]. (ADBench's manual ba_d.cpp keeps each 2 x 15 block
//   column-major; here it is row-major, residual first.)
//   Every block comes from forward vector mode: `moon.jvp ... width 16` of
//   the per-observation function @ba_obs, seeded with the 15 unit vectors
//   (lane 15 is padding, always zero: 16 lanes are two AVX-512 registers,
//   and were about 10% faster than width 15 on ba1).
//
// func.func @ba_obs(r0, r1, r2, C0, C1, C2, f, u0, v0, k1, k2,
//                   X0, X1, X2, w, feat0, feat1: f64) -> (f64, f64, f64)
//   The residuals of one observation: (reproj_err 0, reproj_err 1, w_err).
//   Public so that `moonc check`/`moonc jacobian` can test it directly; its
//   Jacobian with respect to the first 15 arguments is the block above
//   (rows 0-1) and wjac (row 2, column 14).

func.func @ba_obs(%r0: f64, %r1: f64, %r2: f64, %C0: f64, %C1: f64, %C2: f64,
                  %f: f64, %u0: f64, %v0: f64, %k1: f64, %k2: f64,
                  %X0: f64, %X1: f64, %X2: f64, %w: f64,
                  %ft0: f64, %ft1: f64) -> (f64, f64, f64) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  // Xo = X - C
  %o0 = arith.subf %X0, %C0 : f64
  %o1 = arith.subf %X1, %C1 : f64
  %o2 = arith.subf %X2, %C2 : f64
  // Rodrigues rotation of Xo by r.
  %s0 = arith.mulf %r0, %r0 : f64
  %s1 = arith.mulf %r1, %r1 : f64
  %s2 = arith.mulf %r2, %r2 : f64
  %s01 = arith.addf %s0, %s1 : f64
  %sqtheta = arith.addf %s01, %s2 : f64
  %nz = arith.cmpf one, %sqtheta, %zero : f64
  %xc0, %xc1, %xc2 = scf.if %nz -> (f64, f64, f64) {
    %theta = math.sqrt %sqtheta : f64
    %cost = math.cos %theta : f64
    %sint = math.sin %theta : f64
    %tinv = arith.divf %one, %theta : f64
    %w0 = arith.mulf %r0, %tinv : f64
    %w1 = arith.mulf %r1, %tinv : f64
    %w2 = arith.mulf %r2, %tinv : f64
    // w x Xo
    %a0 = arith.mulf %w1, %o2 : f64
    %b0 = arith.mulf %w2, %o1 : f64
    %cr0 = arith.subf %a0, %b0 : f64
    %a1 = arith.mulf %w2, %o0 : f64
    %b1 = arith.mulf %w0, %o2 : f64
    %cr1 = arith.subf %a1, %b1 : f64
    %a2 = arith.mulf %w0, %o1 : f64
    %b2 = arith.mulf %w1, %o0 : f64
    %cr2 = arith.subf %a2, %b2 : f64
    // tmp = (w . Xo) (1 - cos theta)
    %d0 = arith.mulf %w0, %o0 : f64
    %d1 = arith.mulf %w1, %o1 : f64
    %d2 = arith.mulf %w2, %o2 : f64
    %d01 = arith.addf %d0, %d1 : f64
    %dot = arith.addf %d01, %d2 : f64
    %omc = arith.subf %one, %cost : f64
    %tmp = arith.mulf %dot, %omc : f64
    // Xcam = Xo cos + (w x Xo) sin + w tmp
    %p0 = arith.mulf %o0, %cost : f64
    %q0 = arith.mulf %cr0, %sint : f64
    %t0 = arith.mulf %w0, %tmp : f64
    %pq0 = arith.addf %p0, %q0 : f64
    %y0 = arith.addf %pq0, %t0 : f64
    %p1 = arith.mulf %o1, %cost : f64
    %q1 = arith.mulf %cr1, %sint : f64
    %t1 = arith.mulf %w1, %tmp : f64
    %pq1 = arith.addf %p1, %q1 : f64
    %y1 = arith.addf %pq1, %t1 : f64
    %p2 = arith.mulf %o2, %cost : f64
    %q2 = arith.mulf %cr2, %sint : f64
    %t2 = arith.mulf %w2, %tmp : f64
    %pq2 = arith.addf %p2, %q2 : f64
    %y2 = arith.addf %pq2, %t2 : f64
    scf.yield %y0, %y1, %y2 : f64, f64, f64
  } else {
    // Xcam = Xo + r x Xo
    %a0 = arith.mulf %r1, %o2 : f64
    %b0 = arith.mulf %r2, %o1 : f64
    %cr0 = arith.subf %a0, %b0 : f64
    %a1 = arith.mulf %r2, %o0 : f64
    %b1 = arith.mulf %r0, %o2 : f64
    %cr1 = arith.subf %a1, %b1 : f64
    %a2 = arith.mulf %r0, %o1 : f64
    %b2 = arith.mulf %r1, %o0 : f64
    %cr2 = arith.subf %a2, %b2 : f64
    %y0 = arith.addf %o0, %cr0 : f64
    %y1 = arith.addf %o1, %cr1 : f64
    %y2 = arith.addf %o2, %cr2 : f64
    scf.yield %y0, %y1, %y2 : f64, f64, f64
  }
  // Perspective division, radial distortion, focal length, principal point.
  %h0 = arith.divf %xc0, %xc2 : f64
  %h1 = arith.divf %xc1, %xc2 : f64
  %hh0 = arith.mulf %h0, %h0 : f64
  %hh1 = arith.mulf %h1, %h1 : f64
  %rsq = arith.addf %hh0, %hh1 : f64
  %l1 = arith.mulf %k1, %rsq : f64
  %k2r = arith.mulf %k2, %rsq : f64
  %l2 = arith.mulf %k2r, %rsq : f64
  %l1p = arith.addf %one, %l1 : f64
  %L = arith.addf %l1p, %l2 : f64
  %dh0 = arith.mulf %h0, %L : f64
  %dh1 = arith.mulf %h1, %L : f64
  %fh0 = arith.mulf %dh0, %f : f64
  %fh1 = arith.mulf %dh1, %f : f64
  %pr0 = arith.addf %fh0, %u0 : f64
  %pr1 = arith.addf %fh1, %v0 : f64
  // Weighted reprojection error and weight error.
  %m0 = arith.subf %pr0, %ft0 : f64
  %m1 = arith.subf %pr1, %ft1 : f64
  %e0 = arith.mulf %w, %m0 : f64
  %e1 = arith.mulf %w, %m1 : f64
  %ww = arith.mulf %w, %w : f64
  %we = arith.subf %one, %ww : f64
  return %e0, %e1, %we : f64, f64, f64
}

func.func @ba_objective(%cams: memref<?x11xf64>, %x: memref<?x3xf64>,
                        %w: memref<?xf64>, %obs: memref<?x2xi32>,
                        %feats: memref<?x2xf64>,
                        %rerr: memref<?x2xf64>, %werr: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f64
  %p = memref.dim %w, %c0 : memref<?xf64>
  %sum = scf.for %i = %c0 to %p step %c1 iter_args(%acc = %zero) -> f64 {
    %ci32 = memref.load %obs[%i, %c0] : memref<?x2xi32>
    %pi32 = memref.load %obs[%i, %c1] : memref<?x2xi32>
    %ci = arith.index_cast %ci32 : i32 to index
    %pi = arith.index_cast %pi32 : i32 to index
    %r0 = memref.load %cams[%ci, %c0] : memref<?x11xf64>
    %r1 = memref.load %cams[%ci, %c1] : memref<?x11xf64>
    %r2 = memref.load %cams[%ci, %c2] : memref<?x11xf64>
    %C0 = memref.load %cams[%ci, %c3] : memref<?x11xf64>
    %C1 = memref.load %cams[%ci, %c4] : memref<?x11xf64>
    %C2 = memref.load %cams[%ci, %c5] : memref<?x11xf64>
    %f = memref.load %cams[%ci, %c6] : memref<?x11xf64>
    %u0 = memref.load %cams[%ci, %c7] : memref<?x11xf64>
    %v0 = memref.load %cams[%ci, %c8] : memref<?x11xf64>
    %k1 = memref.load %cams[%ci, %c9] : memref<?x11xf64>
    %k2 = memref.load %cams[%ci, %c10] : memref<?x11xf64>
    %X0 = memref.load %x[%pi, %c0] : memref<?x3xf64>
    %X1 = memref.load %x[%pi, %c1] : memref<?x3xf64>
    %X2 = memref.load %x[%pi, %c2] : memref<?x3xf64>
    %wi = memref.load %w[%i] : memref<?xf64>
    %ft0 = memref.load %feats[%i, %c0] : memref<?x2xf64>
    %ft1 = memref.load %feats[%i, %c1] : memref<?x2xf64>
    %e0, %e1, %we = func.call @ba_obs(%r0, %r1, %r2, %C0, %C1, %C2, %f, %u0, %v0,
        %k1, %k2, %X0, %X1, %X2, %wi, %ft0, %ft1)
        : (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64,
           f64, f64, f64, f64) -> (f64, f64, f64)
    memref.store %e0, %rerr[%i, %c0] : memref<?x2xf64>
    memref.store %e1, %rerr[%i, %c1] : memref<?x2xf64>
    memref.store %we, %werr[%i] : memref<?xf64>
    %q0 = arith.mulf %e0, %e0 : f64
    %q1 = arith.mulf %e1, %e1 : f64
    %q2 = arith.mulf %we, %we : f64
    %q01 = arith.addf %q0, %q1 : f64
    %q = arith.addf %q01, %q2 : f64
    %a = arith.addf %acc, %q : f64
    scf.yield %a : f64
  }
  return %sum : f64
}

func.func @ba_jacobian(%cams: memref<?x11xf64>, %x: memref<?x3xf64>,
                       %w: memref<?xf64>, %obs: memref<?x2xi32>,
                       %feats: memref<?x2xf64>,
                       %jac: memref<?x2x15xf64>, %wjac: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %c10 = arith.constant 10 : index
  %c14 = arith.constant 14 : index
  // The 15 unit seeds: lane j of the tangent of parameter j is 1; lane 15
  // is padding (zero in every seed), dropped when the rows are stored.
  %e_0 = arith.constant dense<[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_1 = arith.constant dense<[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_2 = arith.constant dense<[0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_3 = arith.constant dense<[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_4 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_5 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_6 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_7 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_8 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_9 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_10 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_11 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_12 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]> : vector<16xf64>
  %e_13 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0]> : vector<16xf64>
  %e_14 = arith.constant dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]> : vector<16xf64>
  %p = memref.dim %w, %c0 : memref<?xf64>
  scf.for %i = %c0 to %p step %c1 {
    %ci32 = memref.load %obs[%i, %c0] : memref<?x2xi32>
    %pi32 = memref.load %obs[%i, %c1] : memref<?x2xi32>
    %ci = arith.index_cast %ci32 : i32 to index
    %pi = arith.index_cast %pi32 : i32 to index
    %r0 = memref.load %cams[%ci, %c0] : memref<?x11xf64>
    %r1 = memref.load %cams[%ci, %c1] : memref<?x11xf64>
    %r2 = memref.load %cams[%ci, %c2] : memref<?x11xf64>
    %C0 = memref.load %cams[%ci, %c3] : memref<?x11xf64>
    %C1 = memref.load %cams[%ci, %c4] : memref<?x11xf64>
    %C2 = memref.load %cams[%ci, %c5] : memref<?x11xf64>
    %f = memref.load %cams[%ci, %c6] : memref<?x11xf64>
    %u0 = memref.load %cams[%ci, %c7] : memref<?x11xf64>
    %v0 = memref.load %cams[%ci, %c8] : memref<?x11xf64>
    %k1 = memref.load %cams[%ci, %c9] : memref<?x11xf64>
    %k2 = memref.load %cams[%ci, %c10] : memref<?x11xf64>
    %X0 = memref.load %x[%pi, %c0] : memref<?x3xf64>
    %X1 = memref.load %x[%pi, %c1] : memref<?x3xf64>
    %X2 = memref.load %x[%pi, %c2] : memref<?x3xf64>
    %wi = memref.load %w[%i] : memref<?xf64>
    %ft0 = memref.load %feats[%i, %c0] : memref<?x2xf64>
    %ft1 = memref.load %feats[%i, %c1] : memref<?x2xf64>
    %d0, %d1, %d2 = moon.jvp @ba_obs(%r0, %r1, %r2, %C0, %C1, %C2, %f, %u0, %v0,
        %k1, %k2, %X0, %X1, %X2, %wi, %ft0, %ft1,
        %e_0, %e_1, %e_2, %e_3, %e_4, %e_5, %e_6, %e_7, %e_8, %e_9, %e_10,
        %e_11, %e_12, %e_13, %e_14)
        args [active, active, active, active, active, active, active, active,
              active, active, active, active, active, active, active,
              const, const]
        results [active_noneed, active_noneed, active_noneed] width 16
        : (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64,
           f64, f64, f64, f64,
           vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>,
           vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>,
           vector<16xf64>, vector<16xf64>, vector<16xf64>, vector<16xf64>,
           vector<16xf64>, vector<16xf64>, vector<16xf64>)
        -> (vector<16xf64>, vector<16xf64>, vector<16xf64>)
    %s0 = vector.extract_strided_slice %d0 {offsets = [0], sizes = [15], strides = [1]} : vector<16xf64> to vector<15xf64>
    vector.store %s0, %jac[%i, %c0, %c0] : memref<?x2x15xf64>, vector<15xf64>
    %s1 = vector.extract_strided_slice %d1 {offsets = [0], sizes = [15], strides = [1]} : vector<16xf64> to vector<15xf64>
    vector.store %s1, %jac[%i, %c1, %c0] : memref<?x2x15xf64>, vector<15xf64>
    %dw = vector.extract %d2[14] : f64 from vector<16xf64>
    memref.store %dw, %wjac[%i] : memref<?xf64>
  }
  return
}
