// GradBench `ht` (evals/ht, hand tracking), written as GradBench's reference
// C++ writes it (cpp/gradbench/evals/ht.hpp, from ADBench's
// hand_light_matrix.h): the helpers angle_axis_to_rotation_matrix,
// euler_angles_to_rotation_matrix, get_posed_relatives,
// relatives_to_absolutes, get_skinned_vertex_positions,
// apply_global_transform and to_pose_params, the two `objective` overloads
// (simple: the residual is the point minus one vertex; complicated: the
// point minus a point of a triangle, barycentric coordinates `us`), loops,
// in-place updates and ordered sums. `mat_mult` (light_matrix.h: out(i, k)
// = lhs(i, 0) * rhs(0, k) + sum over j >= 1 of lhs(i, j) * rhs(j, k)) is
// written once per shape it is called with, as the C++ template is
// instantiated.
//
// Matrices: a LightMatrix is column-major. The per-vertex and per-point
// ones keep its memory layout, so they are indexed [column][row]:
// pose_params (3 x (bones + 3)) is memref<?x3xf64> with pose_params[c][r] =
// C++ pose_params(r, c) (get_col(c) is row c, a subview); positions,
// curr_positions, base_positions, points likewise ([vertex][coordinate]);
// weights[v][b] = C++ weights(b, v). The 3x3 and 4x4 matrices are indexed
// [row][column] (memref<3x3xf64>, memref<?x4x4xf64> per bone).
//
// Public functions (n = number of correspondences, B = bones, V = vertices):
//   @ht_objective(%theta: memref<26xf64>, %us: memref<?x2xf64>,
//                 %parents: memref<?xi32>,
//                 %base_relatives: memref<?x4x4xf64>,
//                 %inverse_base_absolutes: memref<?x4x4xf64>,
//                 %base_positions: memref<?x4xf64>, %weights: memref<?x?xf64>,
//                 %triangles: memref<?x3xi32>, %is_mirrored: i64,
//                 %correspondences: memref<?xi32>, %points: memref<?x3xf64>,
//                 %err: memref<?x3xf64>)
//     writes err[i][j] = residual 3i + j (GradBench's objective, flattened
//     row by row). The complicated variant when %us has rows (n x 2), the
//     simple one when it has none (pass a 0 x 2 %us), as the C++ decides
//     (`input.us.size() != 0`).
//   @ht_jacobian(the same arguments but %err, then %jac: memref<?x?xf64>)
//     jac (3n x C, every element written) is GradBench's Jacobian row by
//     row: jac[3i + j][c] = d err[i][j] / d (column c). Complicated: C = 28;
//     column 0 is us[i][0] and column 1 us[i][1] of the residual's own
//     point i (it depends on no other point's us), columns 2..27 are
//     theta[0..25]. Simple: C = 26, the theta columns. This is the order of
//     tools/manual/ht_d.hpp's pJ (du0, du1, then theta), which is
//     column-major; GradBench's output is its rows.
//
// GradBench input -> arguments (HandInput's JSON, python/gradbench/gradbench/
// adbench/ht_data.py), every list taken as it is, row-major, nothing
// transposed:
//   theta                               -> %theta (26)
//   us (n x 2; [] for simple)           -> %us (n x 2, or 0 x 2)
//   data.model.parents (B)              -> %parents (i32; -1 for the root)
//   data.model.base_relatives (B x 4 x 4) -> %base_relatives
//   data.model.inverse_base_absolutes (B x 4 x 4) -> %inverse_base_absolutes
//       ([b][r][c] is C++'s matrix (r, c): the C++ reads these transposed
//       and transposes them back)
//   data.model.base_positions (V x 4, homogeneous) -> %base_positions
//   data.model.weights (V x B)          -> %weights
//   data.model.triangles (T x 3)        -> %triangles (i32)
//   data.model.is_mirrored (bool)       -> %is_mirrored (0 or 1)
//   data.correspondences (n)            -> %correspondences (i32)
//   data.points (n x 3)                 -> %points
//   bone_names and bone_count are not read: B is the length of parents.
//
// The Jacobian is requested the way a user of a forward-mode tool would:
// `moon.jvp` of the objective in vector mode, theta seeded with the
// identity, width 26. Complicated: a second `moon.jvp`, width 2, with theta
// constant, whose direction 0 seeds us[i][0] and direction 1 us[i][1] of
// every point i at once (each residual depends only on its own point's us,
// so its tangent in direction 0 or 1 is its derivative with respect to its
// own u0 or u1). One jvp of width 28 over both was also correct, but
// slower: 41 ms against 25 ms on hand11 complicated small, and twice the
// compile time. The err shadows (C x n x 3, column-major like the
// reference's pJ) are then copied into jac's rows.
//
// With is_mirrored set, this Jacobian agrees with finite differences and
// tools/manual's does not in the 20 finger columns (ht_d.hpp negates the
// positions' x row but not its positions_d); GradBench's data is never
// mirrored (io.py reads is_mirrored as false).

!v3 = memref<3xf64, strided<[1], offset: ?>>
!vn = memref<?xf64, strided<[1], offset: ?>>
!m4 = memref<4x4xf64, strided<[4, 1], offset: ?>>

// matrix.h: T sqnorm(int n, const T* x)
func.func private @sqnorm(%n: index, %x: !vn) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x0 = memref.load %x[%c0] : !vn
  %r0 = arith.mulf %x0, %x0 : f64
  %r = scf.for %i = %c1 to %n step %c1 iter_args(%res = %r0) -> f64 {
    %xi = memref.load %x[%i] : !vn
    %sq = arith.mulf %xi, %xi : f64
    %a = arith.addf %res, %sq : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// LightMatrix::set_identity on a 3x3
func.func private @set_identity_3(%m: memref<3x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %eq = arith.cmpi eq, %i, %j : index
      %v = arith.select %eq, %one, %zero : f64
      memref.store %v, %m[%i, %j] : memref<3x3xf64>
    }
  }
  return
}

// LightMatrix::set_identity on a 4x4
func.func private @set_identity_4(%m: memref<4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %eq = arith.cmpi eq, %i, %j : index
      %v = arith.select %eq, %one, %zero : f64
      memref.store %v, %m[%i, %j] : memref<4x4xf64>
    }
  }
  return
}

// mat_mult, 3x3 by 3x3
func.func private @mat_mult_3(%lhs: memref<3x3xf64>, %rhs: memref<3x3xf64>,
                              %out: memref<3x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %a0 = memref.load %lhs[%i, %c0] : memref<3x3xf64>
      %b0 = memref.load %rhs[%c0, %k] : memref<3x3xf64>
      %p0 = arith.mulf %a0, %b0 : f64
      %s = scf.for %j = %c1 to %c3 step %c1 iter_args(%acc = %p0) -> f64 {
        %a = memref.load %lhs[%i, %j] : memref<3x3xf64>
        %b = memref.load %rhs[%j, %k] : memref<3x3xf64>
        %p = arith.mulf %a, %b : f64
        %r = arith.addf %acc, %p : f64
        scf.yield %r : f64
      }
      memref.store %s, %out[%i, %k] : memref<3x3xf64>
    }
  }
  return
}

// mat_mult, 4x4 by 4x4
func.func private @mat_mult_4(%lhs: !m4, %rhs: !m4, %out: !m4) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %a0 = memref.load %lhs[%i, %c0] : !m4
      %b0 = memref.load %rhs[%c0, %k] : !m4
      %p0 = arith.mulf %a0, %b0 : f64
      %s = scf.for %j = %c1 to %c4 step %c1 iter_args(%acc = %p0) -> f64 {
        %a = memref.load %lhs[%i, %j] : !m4
        %b = memref.load %rhs[%j, %k] : !m4
        %p = arith.mulf %a, %b : f64
        %r = arith.addf %acc, %p : f64
        scf.yield %r : f64
      }
      memref.store %s, %out[%i, %k] : !m4
    }
  }
  return
}

// mat_mult, 3x3 by 3 x V (rhs and out column-major: [vertex][row])
func.func private @mat_mult_3n(%lhs: memref<3x3xf64>, %rhs: memref<?x3xf64>,
                               %out: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %ncols = memref.dim %rhs, %c0 : memref<?x3xf64>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %k = %c0 to %ncols step %c1 {
      %a0 = memref.load %lhs[%i, %c0] : memref<3x3xf64>
      %b0 = memref.load %rhs[%k, %c0] : memref<?x3xf64>
      %p0 = arith.mulf %a0, %b0 : f64
      %s = scf.for %j = %c1 to %c3 step %c1 iter_args(%acc = %p0) -> f64 {
        %a = memref.load %lhs[%i, %j] : memref<3x3xf64>
        %b = memref.load %rhs[%k, %j] : memref<?x3xf64>
        %p = arith.mulf %a, %b : f64
        %r = arith.addf %acc, %p : f64
        scf.yield %r : f64
      }
      memref.store %s, %out[%k, %i] : memref<?x3xf64>
    }
  }
  return
}

// mat_mult, 4x4 by 4 x V (rhs and out column-major: [vertex][row])
func.func private @mat_mult_4n(%lhs: !m4, %rhs: memref<?x4xf64>,
                               %out: memref<?x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ncols = memref.dim %rhs, %c0 : memref<?x4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %ncols step %c1 {
      %a0 = memref.load %lhs[%i, %c0] : !m4
      %b0 = memref.load %rhs[%k, %c0] : memref<?x4xf64>
      %p0 = arith.mulf %a0, %b0 : f64
      %s = scf.for %j = %c1 to %c4 step %c1 iter_args(%acc = %p0) -> f64 {
        %a = memref.load %lhs[%i, %j] : !m4
        %b = memref.load %rhs[%k, %j] : memref<?x4xf64>
        %p = arith.mulf %a, %b : f64
        %r = arith.addf %acc, %p : f64
        scf.yield %r : f64
      }
      memref.store %s, %out[%k, %i] : memref<?x4xf64>
    }
  }
  return
}

// void angle_axis_to_rotation_matrix(const T* angle_axis, LightMatrix<T>* pR)
func.func private @angle_axis_to_rotation_matrix(%angle_axis: !v3, %R: memref<3x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %eps = arith.constant 1.0e-4 : f64
  %aan = memref.cast %angle_axis : !v3 to !vn
  %sq = func.call @sqnorm(%c3, %aan) : (index, !vn) -> f64
  %norm = math.sqrt %sq : f64
  %small = arith.cmpf olt, %norm, %eps : f64
  scf.if %small {
    func.call @set_identity_3(%R) : (memref<3x3xf64>) -> ()
  } else {
    %a0 = memref.load %angle_axis[%c0] : !v3
    %a1 = memref.load %angle_axis[%c1] : !v3
    %a2 = memref.load %angle_axis[%c2] : !v3
    %x = arith.divf %a0, %norm : f64
    %y = arith.divf %a1, %norm : f64
    %z = arith.divf %a2, %norm : f64
    %s = math.sin %norm : f64
    %c = math.cos %norm : f64
    %omc = arith.subf %one, %c : f64
    %xx = arith.mulf %x, %x : f64
    %yy = arith.mulf %y, %y : f64
    %zz = arith.mulf %z, %z : f64
    %xy = arith.mulf %x, %y : f64
    %xz = arith.mulf %x, %z : f64
    %yz = arith.mulf %y, %z : f64
    %zy = arith.mulf %z, %y : f64
    %xs = arith.mulf %x, %s : f64
    %ys = arith.mulf %y, %s : f64
    %zs = arith.mulf %z, %s : f64
    // R(0, 0) = x * x + (1 - x * x) * c
    %omxx = arith.subf %one, %xx : f64
    %t00 = arith.mulf %omxx, %c : f64
    %r00 = arith.addf %xx, %t00 : f64
    memref.store %r00, %R[%c0, %c0] : memref<3x3xf64>
    // R(0, 1) = x * y * (1 - c) - z * s
    %t01 = arith.mulf %xy, %omc : f64
    %r01 = arith.subf %t01, %zs : f64
    memref.store %r01, %R[%c0, %c1] : memref<3x3xf64>
    // R(0, 2) = x * z * (1 - c) + y * s
    %t02 = arith.mulf %xz, %omc : f64
    %r02 = arith.addf %t02, %ys : f64
    memref.store %r02, %R[%c0, %c2] : memref<3x3xf64>
    // R(1, 0) = x * y * (1 - c) + z * s
    %r10 = arith.addf %t01, %zs : f64
    memref.store %r10, %R[%c1, %c0] : memref<3x3xf64>
    // R(1, 1) = y * y + (1 - y * y) * c
    %omyy = arith.subf %one, %yy : f64
    %t11 = arith.mulf %omyy, %c : f64
    %r11 = arith.addf %yy, %t11 : f64
    memref.store %r11, %R[%c1, %c1] : memref<3x3xf64>
    // R(1, 2) = y * z * (1 - c) - x * s
    %t12 = arith.mulf %yz, %omc : f64
    %r12 = arith.subf %t12, %xs : f64
    memref.store %r12, %R[%c1, %c2] : memref<3x3xf64>
    // R(2, 0) = x * z * (1 - c) - y * s
    %r20 = arith.subf %t02, %ys : f64
    memref.store %r20, %R[%c2, %c0] : memref<3x3xf64>
    // R(2, 1) = z * y * (1 - c) + x * s
    %t21 = arith.mulf %zy, %omc : f64
    %r21 = arith.addf %t21, %xs : f64
    memref.store %r21, %R[%c2, %c1] : memref<3x3xf64>
    // R(2, 2) = z * z + (1 - z * z) * c
    %omzz = arith.subf %one, %zz : f64
    %t22 = arith.mulf %omzz, %c : f64
    %r22 = arith.addf %zz, %t22 : f64
    memref.store %r22, %R[%c2, %c2] : memref<3x3xf64>
  }
  return
}

// void apply_global_transform(const LightMatrix<T>& pose_params,
//                             LightMatrix<T>* positions)
func.func private @apply_global_transform(%pose_params: memref<?x3xf64>,
                                          %positions: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %R = memref.alloca() : memref<3x3xf64>
  %col0 = memref.subview %pose_params[%c0, 0] [1, 3] [1, 1] : memref<?x3xf64> to !v3
  func.call @angle_axis_to_rotation_matrix(%col0, %R) : (!v3, memref<3x3xf64>) -> ()
  // R.scale_col(i, pose_params(i, 1))
  scf.for %i = %c0 to %c3 step %c1 {
    %scale = memref.load %pose_params[%c1, %i] : memref<?x3xf64>
    scf.for %j = %c0 to %c3 step %c1 {
      %r = memref.load %R[%j, %i] : memref<3x3xf64>
      %rs = arith.mulf %r, %scale : f64
      memref.store %rs, %R[%j, %i] : memref<3x3xf64>
    }
  }
  %nverts = memref.dim %positions, %c0 : memref<?x3xf64>
  %tmp = memref.alloc(%nverts) : memref<?x3xf64>
  func.call @mat_mult_3n(%R, %positions, %tmp)
      : (memref<3x3xf64>, memref<?x3xf64>, memref<?x3xf64>) -> ()
  scf.for %j = %c0 to %nverts step %c1 {
    scf.for %i = %c0 to %c3 step %c1 {
      %t = memref.load %tmp[%j, %i] : memref<?x3xf64>
      %tr = memref.load %pose_params[%c2, %i] : memref<?x3xf64>
      %p = arith.addf %t, %tr : f64
      memref.store %p, %positions[%j, %i] : memref<?x3xf64>
    }
  }
  memref.dealloc %tmp : memref<?x3xf64>
  return
}

// void relatives_to_absolutes(const vector<LightMatrix<T>>& relatives,
//                             const vector<int>& parents,
//                             vector<LightMatrix<T>>* pabsolutes)
func.func private @relatives_to_absolutes(%relatives: memref<?x4x4xf64>,
                                          %parents: memref<?xi32>,
                                          %absolutes: memref<?x4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %minus1 = arith.constant -1 : i32
  %nbones = memref.dim %parents, %c0 : memref<?xi32>
  scf.for %i = %c0 to %nbones step %c1 {
    %parent32 = memref.load %parents[%i] : memref<?xi32>
    %root = arith.cmpi eq, %parent32, %minus1 : i32
    %rel = memref.subview %relatives[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    %abs = memref.subview %absolutes[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    scf.if %root {
      // absolutes[i] = relatives[i]
      scf.for %r = %c0 to %c4 step %c1 {
        scf.for %c = %c0 to %c4 step %c1 {
          %v = memref.load %rel[%r, %c] : !m4
          memref.store %v, %abs[%r, %c] : !m4
        }
      }
    } else {
      %parent = arith.index_cast %parent32 : i32 to index
      %pabs = memref.subview %absolutes[%parent, 0, 0] [1, 4, 4] [1, 1, 1]
          : memref<?x4x4xf64> to !m4
      func.call @mat_mult_4(%pabs, %rel, %abs) : (!m4, !m4, !m4) -> ()
    }
  }
  return
}

// void euler_angles_to_rotation_matrix(const T* xzy, LightMatrix<T>* pR)
func.func private @euler_angles_to_rotation_matrix(%xzy: !v3, %R: memref<3x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Rx = memref.alloca() : memref<3x3xf64>
  %Ry = memref.alloca() : memref<3x3xf64>
  %Rz = memref.alloca() : memref<3x3xf64>
  %tmp = memref.alloca() : memref<3x3xf64>
  %tx = memref.load %xzy[%c0] : !v3
  %ty = memref.load %xzy[%c2] : !v3
  %tz = memref.load %xzy[%c1] : !v3
  func.call @set_identity_3(%Rx) : (memref<3x3xf64>) -> ()
  %cx = math.cos %tx : f64
  memref.store %cx, %Rx[%c1, %c1] : memref<3x3xf64>
  %sx = math.sin %tx : f64
  memref.store %sx, %Rx[%c2, %c1] : memref<3x3xf64>
  %nsx = arith.negf %sx : f64
  memref.store %nsx, %Rx[%c1, %c2] : memref<3x3xf64>
  memref.store %cx, %Rx[%c2, %c2] : memref<3x3xf64>
  func.call @set_identity_3(%Ry) : (memref<3x3xf64>) -> ()
  %cy = math.cos %ty : f64
  memref.store %cy, %Ry[%c0, %c0] : memref<3x3xf64>
  %sy = math.sin %ty : f64
  memref.store %sy, %Ry[%c0, %c2] : memref<3x3xf64>
  %nsy = arith.negf %sy : f64
  memref.store %nsy, %Ry[%c2, %c0] : memref<3x3xf64>
  memref.store %cy, %Ry[%c2, %c2] : memref<3x3xf64>
  func.call @set_identity_3(%Rz) : (memref<3x3xf64>) -> ()
  %cz = math.cos %tz : f64
  memref.store %cz, %Rz[%c0, %c0] : memref<3x3xf64>
  %sz = math.sin %tz : f64
  memref.store %sz, %Rz[%c1, %c0] : memref<3x3xf64>
  %nsz = arith.negf %sz : f64
  memref.store %nsz, %Rz[%c0, %c1] : memref<3x3xf64>
  memref.store %cz, %Rz[%c1, %c1] : memref<3x3xf64>
  func.call @mat_mult_3(%Rz, %Ry, %tmp)
      : (memref<3x3xf64>, memref<3x3xf64>, memref<3x3xf64>) -> ()
  func.call @mat_mult_3(%tmp, %Rx, %R)
      : (memref<3x3xf64>, memref<3x3xf64>, memref<3x3xf64>) -> ()
  return
}

// void get_posed_relatives(const ModelLightMatrix& model,
//                          const LightMatrix<T>& pose_params,
//                          vector<LightMatrix<T>>* prelatives)
func.func private @get_posed_relatives(%base_relatives: memref<?x4x4xf64>,
                                       %pose_params: memref<?x3xf64>,
                                       %relatives: memref<?x4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %tr = memref.alloca() : memref<4x4xf64>
  %R = memref.alloca() : memref<3x3xf64>
  %trv = memref.cast %tr : memref<4x4xf64> to !m4
  %nbones = memref.dim %base_relatives, %c0 : memref<?x4x4xf64>
  %offset = arith.constant 3 : index
  scf.for %i = %c0 to %nbones step %c1 {
    func.call @set_identity_4(%tr) : (memref<4x4xf64>) -> ()
    %col = arith.addi %i, %offset : index
    %xzy = memref.subview %pose_params[%col, 0] [1, 3] [1, 1] : memref<?x3xf64> to !v3
    func.call @euler_angles_to_rotation_matrix(%xzy, %R) : (!v3, memref<3x3xf64>) -> ()
    // tr.set_block(0, 0, R)
    scf.for %ic = %c0 to %c3 step %c1 {
      scf.for %ir = %c0 to %c3 step %c1 {
        %v = memref.load %R[%ir, %ic] : memref<3x3xf64>
        memref.store %v, %tr[%ir, %ic] : memref<4x4xf64>
      }
    }
    %base = memref.subview %base_relatives[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    %rel = memref.subview %relatives[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    func.call @mat_mult_4(%base, %trv, %rel) : (!m4, !m4, !m4) -> ()
  }
  return
}

// void get_skinned_vertex_positions(const ModelLightMatrix& model,
//                                   const LightMatrix<T>& pose_params,
//                                   LightMatrix<T>* ppositions,
//                                   bool apply_global)
// (positions: V x 3, [vertex][coordinate], allocated by the caller)
func.func private @get_skinned_vertex_positions(
    %parents: memref<?xi32>, %base_relatives: memref<?x4x4xf64>,
    %inverse_base_absolutes: memref<?x4x4xf64>,
    %base_positions: memref<?x4xf64>, %weights: memref<?x?xf64>,
    %is_mirrored: i64, %pose_params: memref<?x3xf64>,
    %positions: memref<?x3xf64>, %apply_global: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %minus1 = arith.constant -1.0 : f64
  %false = arith.constant 0 : i64
  %nbones = memref.dim %parents, %c0 : memref<?xi32>
  %nverts = memref.dim %base_positions, %c0 : memref<?x4xf64>
  %relatives = memref.alloc(%nbones) : memref<?x4x4xf64>
  %absolutes = memref.alloc(%nbones) : memref<?x4x4xf64>
  %transforms = memref.alloc(%nbones) : memref<?x4x4xf64>
  func.call @get_posed_relatives(%base_relatives, %pose_params, %relatives)
      : (memref<?x4x4xf64>, memref<?x3xf64>, memref<?x4x4xf64>) -> ()
  func.call @relatives_to_absolutes(%relatives, %parents, %absolutes)
      : (memref<?x4x4xf64>, memref<?xi32>, memref<?x4x4xf64>) -> ()

  // Get bone transforms.
  scf.for %i = %c0 to %nbones step %c1 {
    %abs = memref.subview %absolutes[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    %iba = memref.subview %inverse_base_absolutes[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    %tf = memref.subview %transforms[%i, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    func.call @mat_mult_4(%abs, %iba, %tf) : (!m4, !m4, !m4) -> ()
  }

  // Transform vertices by necessary transforms. + apply skinning
  // positions.fill(0.)
  scf.for %v = %c0 to %nverts step %c1 {
    scf.for %i = %c0 to %c3 step %c1 {
      memref.store %zero, %positions[%v, %i] : memref<?x3xf64>
    }
  }
  %curr_positions = memref.alloc(%nverts) : memref<?x4xf64>
  scf.for %i_bone = %c0 to %nbones step %c1 {
    %tf = memref.subview %transforms[%i_bone, 0, 0] [1, 4, 4] [1, 1, 1]
        : memref<?x4x4xf64> to !m4
    func.call @mat_mult_4n(%tf, %base_positions, %curr_positions)
        : (!m4, memref<?x4xf64>, memref<?x4xf64>) -> ()
    scf.for %i_vert = %c0 to %nverts step %c1 {
      scf.for %i = %c0 to %c3 step %c1 {
        %cp = memref.load %curr_positions[%i_vert, %i] : memref<?x4xf64>
        %w = memref.load %weights[%i_vert, %i_bone] : memref<?x?xf64>
        %change = arith.mulf %cp, %w : f64
        %p = memref.load %positions[%i_vert, %i] : memref<?x3xf64>
        %pc = arith.addf %p, %change : f64
        memref.store %pc, %positions[%i_vert, %i] : memref<?x3xf64>
      }
    }
  }

  // if (model.is_mirrored) positions.scale_row(0, -1)
  %mirrored = arith.cmpi ne, %is_mirrored, %false : i64
  scf.if %mirrored {
    scf.for %j = %c0 to %nverts step %c1 {
      %p = memref.load %positions[%j, %c0] : memref<?x3xf64>
      %ps = arith.mulf %p, %minus1 : f64
      memref.store %ps, %positions[%j, %c0] : memref<?x3xf64>
    }
  }

  scf.if %apply_global {
    func.call @apply_global_transform(%pose_params, %positions)
        : (memref<?x3xf64>, memref<?x3xf64>) -> ()
  }
  memref.dealloc %curr_positions : memref<?x4xf64>
  memref.dealloc %relatives : memref<?x4x4xf64>
  memref.dealloc %absolutes : memref<?x4x4xf64>
  memref.dealloc %transforms : memref<?x4x4xf64>
  return
}

// void to_pose_params(const T* theta, const vector<string>& bone_names,
//                     LightMatrix<T>* ppose_params)
// (pose_params: (B + 3) x 3, [column][row], allocated by the caller)
func.func private @to_pose_params(%theta: memref<26xf64>, %pose_params: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %ncols = memref.dim %pose_params, %c0 : memref<?x3xf64>
  // pose_params.fill(0.)
  scf.for %c = %c0 to %ncols step %c1 {
    scf.for %r = %c0 to %c3 step %c1 {
      memref.store %zero, %pose_params[%c, %r] : memref<?x3xf64>
    }
  }
  // set_col(0, &theta[0]); set_col(1, 1.); set_col(2, &theta[3])
  scf.for %r = %c0 to %c3 step %c1 {
    %t = memref.load %theta[%r] : memref<26xf64>
    memref.store %t, %pose_params[%c0, %r] : memref<?x3xf64>
  }
  scf.for %r = %c0 to %c3 step %c1 {
    memref.store %one, %pose_params[%c1, %r] : memref<?x3xf64>
  }
  scf.for %r = %c0 to %c3 step %c1 {
    %r3 = arith.addi %r, %c3 : index
    %t = memref.load %theta[%r3] : memref<26xf64>
    memref.store %t, %pose_params[%c2, %r] : memref<?x3xf64>
  }
  // int i_theta = 6, i_pose_params = 5, n_fingers = 5
  %n_fingers = arith.constant 5 : index
  %fin:2 = scf.for %i_finger = %c0 to %n_fingers step %c1
      iter_args(%i_theta0 = %c6, %i_pp0 = %c5) -> (index, index) {
    %in:2 = scf.for %i = %c2 to %c5 step %c1
        iter_args(%i_theta = %i_theta0, %i_pp = %i_pp0) -> (index, index) {
      // pose_params(0, i_pose_params) = theta[i_theta++]
      %t0 = memref.load %theta[%i_theta] : memref<26xf64>
      memref.store %t0, %pose_params[%i_pp, %c0] : memref<?x3xf64>
      %i_theta1 = arith.addi %i_theta, %c1 : index
      %first = arith.cmpi eq, %i, %c2 : index
      %i_theta2 = scf.if %first -> index {
        // pose_params(1, i_pose_params) = theta[i_theta++]
        %t1 = memref.load %theta[%i_theta1] : memref<26xf64>
        memref.store %t1, %pose_params[%i_pp, %c1] : memref<?x3xf64>
        %n = arith.addi %i_theta1, %c1 : index
        scf.yield %n : index
      } else {
        scf.yield %i_theta1 : index
      }
      %i_pp1 = arith.addi %i_pp, %c1 : index
      scf.yield %i_theta2, %i_pp1 : index, index
    }
    %i_pp2 = arith.addi %in#1, %c1 : index
    scf.yield %in#0, %i_pp2 : index, index
  }
  return
}

// void objective(const T* theta, const DataLightMatrix* data, T* err)
// (the simple variant)
func.func private @objective_simple(
    %theta: memref<26xf64>, %parents: memref<?xi32>,
    %base_relatives: memref<?x4x4xf64>,
    %inverse_base_absolutes: memref<?x4x4xf64>,
    %base_positions: memref<?x4xf64>, %weights: memref<?x?xf64>,
    %is_mirrored: i64, %correspondences: memref<?xi32>,
    %points: memref<?x3xf64>, %err: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %true = arith.constant true
  %nbones = memref.dim %parents, %c0 : memref<?xi32>
  %ncols = arith.addi %nbones, %c3 : index
  %pose_params = memref.alloc(%ncols) : memref<?x3xf64>
  func.call @to_pose_params(%theta, %pose_params) : (memref<26xf64>, memref<?x3xf64>) -> ()
  %nverts = memref.dim %base_positions, %c0 : memref<?x4xf64>
  %vertex_positions = memref.alloc(%nverts) : memref<?x3xf64>
  func.call @get_skinned_vertex_positions(%parents, %base_relatives,
      %inverse_base_absolutes, %base_positions, %weights, %is_mirrored,
      %pose_params, %vertex_positions, %true)
      : (memref<?xi32>, memref<?x4x4xf64>, memref<?x4x4xf64>, memref<?x4xf64>,
         memref<?x?xf64>, i64, memref<?x3xf64>, memref<?x3xf64>, i1) -> ()
  %n = memref.dim %correspondences, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %corr32 = memref.load %correspondences[%i] : memref<?xi32>
    %corr = arith.index_cast %corr32 : i32 to index
    scf.for %j = %c0 to %c3 step %c1 {
      %pt = memref.load %points[%i, %j] : memref<?x3xf64>
      %vp = memref.load %vertex_positions[%corr, %j] : memref<?x3xf64>
      %e = arith.subf %pt, %vp : f64
      memref.store %e, %err[%i, %j] : memref<?x3xf64>
    }
  }
  memref.dealloc %pose_params : memref<?x3xf64>
  memref.dealloc %vertex_positions : memref<?x3xf64>
  return
}

// void objective(const T* theta, const T* us, const DataLightMatrix* data,
//                T* err)
// (the complicated variant)
func.func private @objective_complicated(
    %theta: memref<26xf64>, %us: memref<?x2xf64>, %parents: memref<?xi32>,
    %base_relatives: memref<?x4x4xf64>,
    %inverse_base_absolutes: memref<?x4x4xf64>,
    %base_positions: memref<?x4xf64>, %weights: memref<?x?xf64>,
    %triangles: memref<?x3xi32>, %is_mirrored: i64,
    %correspondences: memref<?xi32>, %points: memref<?x3xf64>,
    %err: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %true = arith.constant true
  %nbones = memref.dim %parents, %c0 : memref<?xi32>
  %ncols = arith.addi %nbones, %c3 : index
  %pose_params = memref.alloc(%ncols) : memref<?x3xf64>
  func.call @to_pose_params(%theta, %pose_params) : (memref<26xf64>, memref<?x3xf64>) -> ()
  %nverts = memref.dim %base_positions, %c0 : memref<?x4xf64>
  %vertex_positions = memref.alloc(%nverts) : memref<?x3xf64>
  func.call @get_skinned_vertex_positions(%parents, %base_relatives,
      %inverse_base_absolutes, %base_positions, %weights, %is_mirrored,
      %pose_params, %vertex_positions, %true)
      : (memref<?xi32>, memref<?x4x4xf64>, memref<?x4x4xf64>, memref<?x4xf64>,
         memref<?x?xf64>, i64, memref<?x3xf64>, memref<?x3xf64>, i1) -> ()
  %n = memref.dim %correspondences, %c0 : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %corr32 = memref.load %correspondences[%i] : memref<?xi32>
    %corr = arith.index_cast %corr32 : i32 to index
    %v0_32 = memref.load %triangles[%corr, %c0] : memref<?x3xi32>
    %v1_32 = memref.load %triangles[%corr, %c1] : memref<?x3xi32>
    %v2_32 = memref.load %triangles[%corr, %c2] : memref<?x3xi32>
    %v0 = arith.index_cast %v0_32 : i32 to index
    %v1 = arith.index_cast %v1_32 : i32 to index
    %v2 = arith.index_cast %v2_32 : i32 to index
    %u0 = memref.load %us[%i, %c0] : memref<?x2xf64>
    %u1 = memref.load %us[%i, %c1] : memref<?x2xf64>
    scf.for %j = %c0 to %c3 step %c1 {
      // u[0] * vp(j, verts[0]) + u[1] * vp(j, verts[1])
      //   + (1. - u[0] - u[1]) * vp(j, verts[2])
      %p0 = memref.load %vertex_positions[%v0, %j] : memref<?x3xf64>
      %p1 = memref.load %vertex_positions[%v1, %j] : memref<?x3xf64>
      %p2 = memref.load %vertex_positions[%v2, %j] : memref<?x3xf64>
      %a = arith.mulf %u0, %p0 : f64
      %b = arith.mulf %u1, %p1 : f64
      %ab = arith.addf %a, %b : f64
      %w0 = arith.subf %one, %u0 : f64
      %w = arith.subf %w0, %u1 : f64
      %c = arith.mulf %w, %p2 : f64
      %hand_point_coord = arith.addf %ab, %c : f64
      %pt = memref.load %points[%i, %j] : memref<?x3xf64>
      %e = arith.subf %pt, %hand_point_coord : f64
      memref.store %e, %err[%i, %j] : memref<?x3xf64>
    }
  }
  memref.dealloc %pose_params : memref<?x3xf64>
  memref.dealloc %vertex_positions : memref<?x3xf64>
  return
}

// ht::Objective::compute: complicated when us has rows.
func.func @ht_objective(%theta: memref<26xf64>, %us: memref<?x2xf64>,
                        %parents: memref<?xi32>,
                        %base_relatives: memref<?x4x4xf64>,
                        %inverse_base_absolutes: memref<?x4x4xf64>,
                        %base_positions: memref<?x4xf64>,
                        %weights: memref<?x?xf64>,
                        %triangles: memref<?x3xi32>, %is_mirrored: i64,
                        %correspondences: memref<?xi32>,
                        %points: memref<?x3xf64>, %err: memref<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %nus = memref.dim %us, %c0 : memref<?x2xf64>
  %complicated = arith.cmpi ne, %nus, %c0 : index
  scf.if %complicated {
    func.call @objective_complicated(%theta, %us, %parents, %base_relatives,
        %inverse_base_absolutes, %base_positions, %weights, %triangles,
        %is_mirrored, %correspondences, %points, %err)
        : (memref<26xf64>, memref<?x2xf64>, memref<?xi32>, memref<?x4x4xf64>,
           memref<?x4x4xf64>, memref<?x4xf64>, memref<?x?xf64>,
           memref<?x3xi32>, i64, memref<?xi32>, memref<?x3xf64>,
           memref<?x3xf64>) -> ()
  } else {
    func.call @objective_simple(%theta, %parents, %base_relatives,
        %inverse_base_absolutes, %base_positions, %weights, %is_mirrored,
        %correspondences, %points, %err)
        : (memref<26xf64>, memref<?xi32>, memref<?x4x4xf64>,
           memref<?x4x4xf64>, memref<?x4xf64>, memref<?x?xf64>, i64,
           memref<?xi32>, memref<?x3xf64>, memref<?x3xf64>) -> ()
  }
  return
}

func.func @ht_jacobian(%theta: memref<26xf64>, %us: memref<?x2xf64>,
                       %parents: memref<?xi32>,
                       %base_relatives: memref<?x4x4xf64>,
                       %inverse_base_absolutes: memref<?x4x4xf64>,
                       %base_positions: memref<?x4xf64>,
                       %weights: memref<?x?xf64>,
                       %triangles: memref<?x3xi32>, %is_mirrored: i64,
                       %correspondences: memref<?xi32>,
                       %points: memref<?x3xf64>, %jac: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c26 = arith.constant 26 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %correspondences, %c0 : memref<?xi32>
  %nus = memref.dim %us, %c0 : memref<?x2xf64>
  %complicated = arith.cmpi ne, %nus, %c0 : index
  %err = memref.alloc(%n) : memref<?x3xf64>
  scf.if %complicated {
    %d_theta = memref.alloc() : memref<26x26xf64>
    %d_err = memref.alloc(%n) : memref<26x?x3xf64>
    scf.for %d = %c0 to %c26 step %c1 {
      scf.for %k = %c0 to %c26 step %c1 {
        %eq = arith.cmpi eq, %d, %k : index
        %v = arith.select %eq, %one, %zero : f64
        memref.store %v, %d_theta[%d, %k] : memref<26x26xf64>
      }
    }
    moon.jvp @objective_complicated(%theta, %us, %parents, %base_relatives,
        %inverse_base_absolutes, %base_positions, %weights, %triangles,
        %is_mirrored, %correspondences, %points, %err, %d_theta, %d_err)
        args [dup, const, const, const, const, const, const, const, const,
              const, const, dup_noneed] width 26
        : (memref<26xf64>, memref<?x2xf64>, memref<?xi32>, memref<?x4x4xf64>,
           memref<?x4x4xf64>, memref<?x4xf64>, memref<?x?xf64>,
           memref<?x3xi32>, i64, memref<?xi32>, memref<?x3xf64>,
           memref<?x3xf64>, memref<26x26xf64>, memref<26x?x3xf64>) -> ()
    %d_us = memref.alloc(%n) : memref<2x?x2xf64>
    %d_err2 = memref.alloc(%n) : memref<2x?x3xf64>
    scf.for %d = %c0 to %c2 step %c1 {
      scf.for %i = %c0 to %n step %c1 {
        scf.for %k = %c0 to %c2 step %c1 {
          %eq = arith.cmpi eq, %d, %k : index
          %v = arith.select %eq, %one, %zero : f64
          memref.store %v, %d_us[%d, %i, %k] : memref<2x?x2xf64>
        }
      }
    }
    moon.jvp @objective_complicated(%theta, %us, %parents, %base_relatives,
        %inverse_base_absolutes, %base_positions, %weights, %triangles,
        %is_mirrored, %correspondences, %points, %err, %d_us, %d_err2)
        args [const, dup, const, const, const, const, const, const, const,
              const, const, dup_noneed] width 2
        : (memref<26xf64>, memref<?x2xf64>, memref<?xi32>, memref<?x4x4xf64>,
           memref<?x4x4xf64>, memref<?x4xf64>, memref<?x?xf64>,
           memref<?x3xi32>, i64, memref<?xi32>, memref<?x3xf64>,
           memref<?x3xf64>, memref<2x?x2xf64>, memref<2x?x3xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %row0 = arith.muli %i, %c3 : index
      scf.for %j = %c0 to %c3 step %c1 {
        %row = arith.addi %row0, %j : index
        scf.for %d = %c0 to %c2 step %c1 {
          %v = memref.load %d_err2[%d, %i, %j] : memref<2x?x3xf64>
          memref.store %v, %jac[%row, %d] : memref<?x?xf64>
        }
        scf.for %d = %c0 to %c26 step %c1 {
          %v = memref.load %d_err[%d, %i, %j] : memref<26x?x3xf64>
          %d2 = arith.addi %d, %c2 : index
          memref.store %v, %jac[%row, %d2] : memref<?x?xf64>
        }
      }
    }
    memref.dealloc %d_theta : memref<26x26xf64>
    memref.dealloc %d_err : memref<26x?x3xf64>
    memref.dealloc %d_us : memref<2x?x2xf64>
    memref.dealloc %d_err2 : memref<2x?x3xf64>
  } else {
    // Direction d is theta[d].
    %d_theta = memref.alloc() : memref<26x26xf64>
    %d_err = memref.alloc(%n) : memref<26x?x3xf64>
    scf.for %d = %c0 to %c26 step %c1 {
      scf.for %k = %c0 to %c26 step %c1 {
        %eq = arith.cmpi eq, %d, %k : index
        %v = arith.select %eq, %one, %zero : f64
        memref.store %v, %d_theta[%d, %k] : memref<26x26xf64>
      }
    }
    moon.jvp @objective_simple(%theta, %parents, %base_relatives,
        %inverse_base_absolutes, %base_positions, %weights, %is_mirrored,
        %correspondences, %points, %err, %d_theta, %d_err)
        args [dup, const, const, const, const, const, const, const, const,
              dup_noneed] width 26
        : (memref<26xf64>, memref<?xi32>, memref<?x4x4xf64>,
           memref<?x4x4xf64>, memref<?x4xf64>, memref<?x?xf64>, i64,
           memref<?xi32>, memref<?x3xf64>, memref<?x3xf64>,
           memref<26x26xf64>, memref<26x?x3xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %row0 = arith.muli %i, %c3 : index
      scf.for %j = %c0 to %c3 step %c1 {
        %row = arith.addi %row0, %j : index
        scf.for %d = %c0 to %c26 step %c1 {
          %v = memref.load %d_err[%d, %i, %j] : memref<26x?x3xf64>
          memref.store %v, %jac[%row, %d] : memref<?x?xf64>
        }
      }
    }
    memref.dealloc %d_theta : memref<26x26xf64>
    memref.dealloc %d_err : memref<26x?x3xf64>
  }
  memref.dealloc %err : memref<?x3xf64>
  return
}
