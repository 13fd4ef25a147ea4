// GradBench `ba` (evals/ba), written as GradBench's reference C++ writes it
// (cpp/gradbench/evals/ba.hpp, from ADBench's shared/ba.h): the helpers
// sqsum, cross, rodrigues_rotate_point, radial_distort, project,
// computeReprojError and computeZachWeightError, each taking its arrays by
// reference (a C pointer into a row is a strided memref view here), and
// the objective's two loops over the observations. Nothing is reshaped for
// the AD's sake: moonc inlines the helpers before differentiating, unrolls
// the short loops over their small arrays and turns the arrays into values
// (docs/autodiff.md, "Inlining helpers"). The
// hand-shaped form the suite timed before (one scalar function per
// observation, width 16) is bench/suite/workloads/shaped/ba.mlir.
//
// Public functions (the same as the hand-shaped form's, whose header says
// how GradBench's input maps to them):
//   @ba_objective(%cams: memref<?x11xf64>, %x: memref<?x3xf64>,
//                 %w: memref<?xf64>, %obs: memref<?x2xi32>,
//                 %feats: memref<?x2xf64>, %reproj_err: memref<?x2xf64>,
//                 %w_err: memref<?xf64>) -> f64
//     writes reproj_err and w_err as GradBench's objective does and returns
//     the sum of squares of all 3p residuals.
//   @ba_jacobian(%cams, %x, %w, %obs, %feats, %jac: memref<?x2x15xf64>,
//                %wjac: memref<?xf64>)
//     jac[i][k][j] = d reproj_err[i][k] / d(parameter j of observation i)
//     (j = 0..10 camera, 11..13 point, 14 weight), wjac[i] = d w_err[i]/d w[i].
//
// The Jacobian is requested the way a user of a forward-mode AD tool would
// from the plain per-observation functions: per observation, one
// `moon.jvp` of @computeReprojError in vector mode, width 15 (its 15
// inputs: 11 camera parameters, 3 point coordinates, 1 weight), seeded with
// the identity, whose err shadow (15 x 2) is copied into the 2 x 15 block;
// then per observation one `moon.jvp` of @computeZachWeightError (width 1).

!vcam = memref<11xf64, strided<[1], offset: ?>>
!v3 = memref<3xf64, strided<[1], offset: ?>>
!v2 = memref<2xf64, strided<[1], offset: ?>>
!v1 = memref<1xf64, strided<[1], offset: ?>>
!vn = memref<?xf64, strided<[1], offset: ?>>

// T sqsum(int n, const T* x)
func.func private @sqsum(%n: index, %x: !vn) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %res = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %xi = memref.load %x[%i] : !vn
    %sq = arith.mulf %xi, %xi : f64
    %r = arith.addf %acc, %sq : f64
    scf.yield %r : f64
  }
  return %res : f64
}

// void cross(const T* a, const T* b, T* out)   (adbench/shared/matrix.h)
func.func private @cross(%a: !v3, %b: !v3, %out: !v3) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a0 = memref.load %a[%c0] : !v3
  %a1 = memref.load %a[%c1] : !v3
  %a2 = memref.load %a[%c2] : !v3
  %b0 = memref.load %b[%c0] : !v3
  %b1 = memref.load %b[%c1] : !v3
  %b2 = memref.load %b[%c2] : !v3
  %p0 = arith.mulf %a1, %b2 : f64
  %q0 = arith.mulf %a2, %b1 : f64
  %o0 = arith.subf %p0, %q0 : f64
  memref.store %o0, %out[%c0] : !v3
  %p1 = arith.mulf %a2, %b0 : f64
  %q1 = arith.mulf %a0, %b2 : f64
  %o1 = arith.subf %p1, %q1 : f64
  memref.store %o1, %out[%c1] : !v3
  %p2 = arith.mulf %a0, %b1 : f64
  %q2 = arith.mulf %a1, %b0 : f64
  %o2 = arith.subf %p2, %q2 : f64
  memref.store %o2, %out[%c2] : !v3
  return
}

// void rodrigues_rotate_point(const T* rot, const T* pt, T* rotatedPt)
func.func private @rodrigues_rotate_point(%rot: !v3, %pt: !v3, %rotatedPt: !v3) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  // The local arrays of both branches (T w[3], w_cross_pt[3];
  // T rot_cross_pt[3]), in the function's frame as a C compiler puts them.
  %w = memref.alloca() : memref<3xf64>
  %w_cross_pt = memref.alloca() : memref<3xf64>
  %rot_cross_pt = memref.alloca() : memref<3xf64>
  %rotn = memref.cast %rot : !v3 to !vn
  %sqtheta = func.call @sqsum(%c3, %rotn) : (index, !vn) -> f64
  %nz = arith.cmpf une, %sqtheta, %zero : f64
  scf.if %nz {
    %theta = math.sqrt %sqtheta : f64
    %costheta = math.cos %theta : f64
    %sintheta = math.sin %theta : f64
    %theta_inverse = arith.divf %one, %theta : f64
    scf.for %i = %c0 to %c3 step %c1 {
      %ri = memref.load %rot[%i] : !v3
      %wi = arith.mulf %ri, %theta_inverse : f64
      memref.store %wi, %w[%i] : memref<3xf64>
    }
    %wv = memref.cast %w : memref<3xf64> to !v3
    %wcpv = memref.cast %w_cross_pt : memref<3xf64> to !v3
    func.call @cross(%wv, %pt, %wcpv) : (!v3, !v3, !v3) -> ()
    %w0 = memref.load %w[%c0] : memref<3xf64>
    %w1 = memref.load %w[%c1] : memref<3xf64>
    %w2 = memref.load %w[%c2] : memref<3xf64>
    %pt0 = memref.load %pt[%c0] : !v3
    %pt1 = memref.load %pt[%c1] : !v3
    %pt2 = memref.load %pt[%c2] : !v3
    %d0 = arith.mulf %w0, %pt0 : f64
    %d1 = arith.mulf %w1, %pt1 : f64
    %d2 = arith.mulf %w2, %pt2 : f64
    %d01 = arith.addf %d0, %d1 : f64
    %dot = arith.addf %d01, %d2 : f64
    %omc = arith.subf %one, %costheta : f64
    %tmp = arith.mulf %dot, %omc : f64
    scf.for %i = %c0 to %c3 step %c1 {
      %pti = memref.load %pt[%i] : !v3
      %wcpi = memref.load %w_cross_pt[%i] : memref<3xf64>
      %wi = memref.load %w[%i] : memref<3xf64>
      %a = arith.mulf %pti, %costheta : f64
      %b = arith.mulf %wcpi, %sintheta : f64
      %c = arith.mulf %wi, %tmp : f64
      %ab = arith.addf %a, %b : f64
      %r = arith.addf %ab, %c : f64
      memref.store %r, %rotatedPt[%i] : !v3
    }
  } else {
    %rcpv = memref.cast %rot_cross_pt : memref<3xf64> to !v3
    func.call @cross(%rot, %pt, %rcpv) : (!v3, !v3, !v3) -> ()
    scf.for %i = %c0 to %c3 step %c1 {
      %pti = memref.load %pt[%i] : !v3
      %rcpi = memref.load %rot_cross_pt[%i] : memref<3xf64>
      %r = arith.addf %pti, %rcpi : f64
      memref.store %r, %rotatedPt[%i] : !v3
    }
  }
  return
}

// void radial_distort(const T* rad_params, T* proj)
func.func private @radial_distort(%rad_params: !v2, %proj: !v2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f64
  %projn = memref.cast %proj : !v2 to !vn
  %rsq = func.call @sqsum(%c2, %projn) : (index, !vn) -> f64
  // L = 1. + rad_params[0] * rsq + rad_params[1] * rsq * rsq
  %k1 = memref.load %rad_params[%c0] : !v2
  %k2 = memref.load %rad_params[%c1] : !v2
  %a = arith.mulf %k1, %rsq : f64
  %b0 = arith.mulf %k2, %rsq : f64
  %b = arith.mulf %b0, %rsq : f64
  %l0 = arith.addf %one, %a : f64
  %L = arith.addf %l0, %b : f64
  %p0 = memref.load %proj[%c0] : !v2
  %q0 = arith.mulf %p0, %L : f64
  memref.store %q0, %proj[%c0] : !v2
  %p1 = memref.load %proj[%c1] : !v2
  %q1 = arith.mulf %p1, %L : f64
  memref.store %q1, %proj[%c1] : !v2
  return
}

// void project(const T* cam, const T* X, T* proj)
func.func private @project(%cam: !vcam, %X: !v3, %proj: !v2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %C = memref.subview %cam[3] [3] [1] : !vcam to !v3
  %Xo = memref.alloca() : memref<3xf64>
  %Xcam = memref.alloca() : memref<3xf64>
  %x0 = memref.load %X[%c0] : !v3
  %cc0 = memref.load %C[%c0] : !v3
  %xo0 = arith.subf %x0, %cc0 : f64
  memref.store %xo0, %Xo[%c0] : memref<3xf64>
  %x1 = memref.load %X[%c1] : !v3
  %cc1 = memref.load %C[%c1] : !v3
  %xo1 = arith.subf %x1, %cc1 : f64
  memref.store %xo1, %Xo[%c1] : memref<3xf64>
  %x2 = memref.load %X[%c2] : !v3
  %cc2 = memref.load %C[%c2] : !v3
  %xo2 = arith.subf %x2, %cc2 : f64
  memref.store %xo2, %Xo[%c2] : memref<3xf64>
  %rot = memref.subview %cam[0] [3] [1] : !vcam to !v3
  %Xov = memref.cast %Xo : memref<3xf64> to !v3
  %Xcamv = memref.cast %Xcam : memref<3xf64> to !v3
  func.call @rodrigues_rotate_point(%rot, %Xov, %Xcamv) : (!v3, !v3, !v3) -> ()
  %xc0 = memref.load %Xcam[%c0] : memref<3xf64>
  %xc1 = memref.load %Xcam[%c1] : memref<3xf64>
  %xc2 = memref.load %Xcam[%c2] : memref<3xf64>
  %h0 = arith.divf %xc0, %xc2 : f64
  memref.store %h0, %proj[%c0] : !v2
  %h1 = arith.divf %xc1, %xc2 : f64
  memref.store %h1, %proj[%c1] : !v2
  %rad = memref.subview %cam[9] [2] [1] : !vcam to !v2
  func.call @radial_distort(%rad, %proj) : (!v2, !v2) -> ()
  %f = memref.load %cam[%c6] : !vcam
  %u0 = memref.load %cam[%c7] : !vcam
  %v0 = memref.load %cam[%c8] : !vcam
  %d0 = memref.load %proj[%c0] : !v2
  %e0 = arith.mulf %d0, %f : f64
  %g0 = arith.addf %e0, %u0 : f64
  memref.store %g0, %proj[%c0] : !v2
  %d1 = memref.load %proj[%c1] : !v2
  %e1 = arith.mulf %d1, %f : f64
  %g1 = arith.addf %e1, %v0 : f64
  memref.store %g1, %proj[%c1] : !v2
  return
}

// void computeReprojError(const T* cam, const T* X, const T* w,
//                         const double* feat, T* err)
func.func @computeReprojError(%cam: !vcam, %X: !v3, %w: !v1, %feat: !v2, %err: !v2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %proj = memref.alloca() : memref<2xf64>
  %projv = memref.cast %proj : memref<2xf64> to !v2
  func.call @project(%cam, %X, %projv) : (!vcam, !v3, !v2) -> ()
  %wv = memref.load %w[%c0] : !v1
  %p0 = memref.load %proj[%c0] : memref<2xf64>
  %f0 = memref.load %feat[%c0] : !v2
  %m0 = arith.subf %p0, %f0 : f64
  %e0 = arith.mulf %wv, %m0 : f64
  memref.store %e0, %err[%c0] : !v2
  %p1 = memref.load %proj[%c1] : memref<2xf64>
  %f1 = memref.load %feat[%c1] : !v2
  %m1 = arith.subf %p1, %f1 : f64
  %e1 = arith.mulf %wv, %m1 : f64
  memref.store %e1, %err[%c1] : !v2
  return
}

// void computeZachWeightError(const T* w, T* err)
func.func @computeZachWeightError(%w: !v1, %err: !v1) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %wv = memref.load %w[%c0] : !v1
  %ww = arith.mulf %wv, %wv : f64
  %e = arith.subf %one, %ww : f64
  memref.store %e, %err[%c0] : !v1
  return
}

// ba::objective, then the sum of squares of its outputs (the suite's
// scalar primal).
func.func @ba_objective(%cams: memref<?x11xf64>, %x: memref<?x3xf64>,
                        %w: memref<?xf64>, %obs: memref<?x2xi32>,
                        %feats: memref<?x2xf64>,
                        %reproj_err: memref<?x2xf64>, %w_err: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %p = memref.dim %w, %c0 : memref<?xf64>
  scf.for %i = %c0 to %p step %c1 {
    %camIdx32 = memref.load %obs[%i, %c0] : memref<?x2xi32>
    %ptIdx32 = memref.load %obs[%i, %c1] : memref<?x2xi32>
    %camIdx = arith.index_cast %camIdx32 : i32 to index
    %ptIdx = arith.index_cast %ptIdx32 : i32 to index
    %cam = memref.subview %cams[%camIdx, 0] [1, 11] [1, 1] : memref<?x11xf64> to !vcam
    %X = memref.subview %x[%ptIdx, 0] [1, 3] [1, 1] : memref<?x3xf64> to !v3
    %wi = memref.subview %w[%i] [1] [1] : memref<?xf64> to !v1
    %feat = memref.subview %feats[%i, 0] [1, 2] [1, 1] : memref<?x2xf64> to !v2
    %err = memref.subview %reproj_err[%i, 0] [1, 2] [1, 1] : memref<?x2xf64> to !v2
    func.call @computeReprojError(%cam, %X, %wi, %feat, %err) : (!vcam, !v3, !v1, !v2, !v2) -> ()
  }
  scf.for %i = %c0 to %p step %c1 {
    %wi = memref.subview %w[%i] [1] [1] : memref<?xf64> to !v1
    %erri = memref.subview %w_err[%i] [1] [1] : memref<?xf64> to !v1
    func.call @computeZachWeightError(%wi, %erri) : (!v1, !v1) -> ()
  }
  %rflat = memref.collapse_shape %reproj_err [[0, 1]] : memref<?x2xf64> into memref<?xf64>
  %rv = memref.cast %rflat : memref<?xf64> to !vn
  %wv = memref.cast %w_err : memref<?xf64> to !vn
  %twop = arith.muli %p, %c2 : index
  %s1 = func.call @sqsum(%twop, %rv) : (index, !vn) -> f64
  %s2 = func.call @sqsum(%p, %wv) : (index, !vn) -> f64
  %s = arith.addf %s1, %s2 : f64
  return %s : f64
}

func.func @ba_jacobian(%cams: memref<?x11xf64>, %x: memref<?x3xf64>,
                       %w: memref<?xf64>, %obs: memref<?x2xi32>,
                       %feats: memref<?x2xf64>,
                       %jac: memref<?x2x15xf64>, %wjac: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c11 = arith.constant 11 : index
  %c14 = arith.constant 14 : index
  %c15 = arith.constant 15 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %p = memref.dim %w, %c0 : memref<?xf64>
  // Seeds: direction j is the unit vector of input j of one observation
  // (11 camera parameters, 3 point coordinates, the weight).
  %d_cam = memref.alloc() : memref<15x11xf64>
  %d_X = memref.alloc() : memref<15x3xf64>
  %d_w = memref.alloc() : memref<15x1xf64>
  scf.for %j = %c0 to %c15 step %c1 {
    scf.for %k = %c0 to %c11 step %c1 {
      %eq = arith.cmpi eq, %j, %k : index
      %v = arith.select %eq, %one, %zero : f64
      memref.store %v, %d_cam[%j, %k] : memref<15x11xf64>
    }
    scf.for %k = %c0 to %c3 step %c1 {
      %kk = arith.addi %k, %c11 : index
      %eq = arith.cmpi eq, %j, %kk : index
      %v = arith.select %eq, %one, %zero : f64
      memref.store %v, %d_X[%j, %k] : memref<15x3xf64>
    }
    %eq = arith.cmpi eq, %j, %c14 : index
    %v = arith.select %eq, %one, %zero : f64
    memref.store %v, %d_w[%j, %c0] : memref<15x1xf64>
  }
  %err = memref.alloc() : memref<2xf64>
  %errv = memref.cast %err : memref<2xf64> to !v2
  %d_err = memref.alloc() : memref<15x2xf64>
  scf.for %i = %c0 to %p step %c1 {
    %camIdx32 = memref.load %obs[%i, %c0] : memref<?x2xi32>
    %ptIdx32 = memref.load %obs[%i, %c1] : memref<?x2xi32>
    %camIdx = arith.index_cast %camIdx32 : i32 to index
    %ptIdx = arith.index_cast %ptIdx32 : i32 to index
    %cam = memref.subview %cams[%camIdx, 0] [1, 11] [1, 1] : memref<?x11xf64> to !vcam
    %X = memref.subview %x[%ptIdx, 0] [1, 3] [1, 1] : memref<?x3xf64> to !v3
    %wi = memref.subview %w[%i] [1] [1] : memref<?xf64> to !v1
    %feat = memref.subview %feats[%i, 0] [1, 2] [1, 1] : memref<?x2xf64> to !v2
    moon.jvp @computeReprojError(%cam, %X, %wi, %feat, %errv, %d_cam, %d_X, %d_w, %d_err)
        args [dup, dup, dup, const, dup_noneed] width 15
        : (!vcam, !v3, !v1, !v2, !v2, memref<15x11xf64>, memref<15x3xf64>,
           memref<15x1xf64>, memref<15x2xf64>) -> ()
    scf.for %j = %c0 to %c15 step %c1 {
      scf.for %k = %c0 to %c2 step %c1 {
        %v = memref.load %d_err[%j, %k] : memref<15x2xf64>
        memref.store %v, %jac[%i, %k, %j] : memref<?x2x15xf64>
      }
    }
  }
  %w_err = memref.alloc() : memref<1xf64>
  %w_errv = memref.cast %w_err : memref<1xf64> to !v1
  %w_d = memref.alloc() : memref<1xf64>
  %w_dv = memref.cast %w_d : memref<1xf64> to !v1
  %err_d = memref.alloc() : memref<1xf64>
  %err_dv = memref.cast %err_d : memref<1xf64> to !v1
  scf.for %i = %c0 to %p step %c1 {
    %wi = memref.subview %w[%i] [1] [1] : memref<?xf64> to !v1
    memref.store %one, %w_d[%c0] : memref<1xf64>
    moon.jvp @computeZachWeightError(%wi, %w_errv, %w_dv, %err_dv)
        args [dup, dup_noneed]
        : (!v1, !v1, !v1, !v1) -> ()
    %v = memref.load %err_d[%c0] : memref<1xf64>
    memref.store %v, %wjac[%i] : memref<?xf64>
  }
  memref.dealloc %d_cam : memref<15x11xf64>
  memref.dealloc %d_X : memref<15x3xf64>
  memref.dealloc %d_w : memref<15x1xf64>
  memref.dealloc %err : memref<2xf64>
  memref.dealloc %d_err : memref<15x2xf64>
  memref.dealloc %w_err : memref<1xf64>
  memref.dealloc %w_d : memref<1xf64>
  memref.dealloc %err_d : memref<1xf64>
  return
}
