// GradBench's `particle`, printed by nested.py (particle); do not edit.

// The potential at x of charges at (10, 10 - w) and (10, 0).
func.func @particle_p(%w: f64, %x0: f64, %x1: f64) -> f64 {
  %ten = arith.constant 10.0 : f64
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %cy = arith.subf %ten, %w : f64
  %a0 = arith.subf %x0, %ten : f64
  %a1 = arith.subf %x1, %cy : f64
  %a00 = arith.mulf %a0, %a0 : f64
  %a11 = arith.mulf %a1, %a1 : f64
  %as = arith.addf %a00, %a11 : f64
  %ad = math.sqrt %as : f64
  %ai = arith.divf %one, %ad : f64
  %b1 = arith.subf %x1, %zero : f64
  %b11 = arith.mulf %b1, %b1 : f64
  %bs = arith.addf %a00, %b11 : f64
  %bd = math.sqrt %bs : f64
  %bi = arith.divf %one, %bd : f64
  %p = arith.addf %ai, %bi : f64
  return %p : f64
}


func.func @particle_grad_p_F(%cap0: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @particle_p(%cap0, %x0, %x1, %one, %zero) args [const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64) -> f64
  %d1 = moon.jvp @particle_p(%cap0, %x0, %x1, %zero, %one) args [const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64) -> f64
  return %d0, %d1 : f64, f64
}

// The squared x at which the particle, charged and under the pull of
// the two charges, reaches the ground (Euler steps of 0.1).
func.func @particle_euler_F(%w: f64) -> f64 {
  %x00 = arith.constant 0.0 : f64
  %x01 = arith.constant 8.0 : f64
  %v00 = arith.constant 0.75 : f64
  %v01 = arith.constant 0.0 : f64
  %dt = arith.constant 0.1 : f64
  %zero = arith.constant 0.0 : f64
  %s:4 = scf.while (%x0 = %x00, %x1 = %x01, %v0 = %v00, %v1 = %v01) : (f64, f64, f64, f64) -> (f64, f64, f64, f64) {
    %g:2 = func.call @particle_grad_p_F(%w, %x0, %x1) : (f64, f64, f64) -> (f64, f64)
    %m0 = arith.mulf %dt, %v0 : f64
    %m1 = arith.mulf %dt, %v1 : f64
    %n0 = arith.addf %x0, %m0 : f64
    %n1 = arith.addf %x1, %m1 : f64
    %up = arith.cmpf ogt, %n1, %zero : f64
    %t0 = arith.mulf %dt, %g#0 : f64
    %t1 = arith.mulf %dt, %g#1 : f64
    %u0 = arith.subf %v0, %t0 : f64
    %u1 = arith.subf %v1, %t1 : f64
    %r0 = arith.select %up, %n0, %x0 : f64
    %r1 = arith.select %up, %n1, %x1 : f64
    %q0 = arith.select %up, %u0, %v0 : f64
    %q1 = arith.select %up, %u1, %v1 : f64
    scf.condition(%up) %r0, %r1, %q0, %q1 : f64, f64, f64, f64
  } do {
  ^bb0(%a0: f64, %a1: f64, %b0: f64, %b1: f64):
    scf.yield %a0, %a1, %b0, %b1 : f64, f64, f64, f64
  }
  %neg = arith.negf %s#1 : f64
  %tf = arith.divf %neg, %s#3 : f64
  %dx = arith.mulf %tf, %s#2 : f64
  %xf = arith.addf %s#0, %dx : f64
  %sq = arith.mulf %xf, %xf : f64
  return %sq : f64
}

func.func @particle_grad_p_R(%cap0: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %g:2 = moon.grad @particle_p(%cap0, %x0, %x1) args [const, active, active] : (f64, f64, f64) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}

// The squared x at which the particle, charged and under the pull of
// the two charges, reaches the ground (Euler steps of 0.1).
func.func @particle_euler_R(%w: f64) -> f64 {
  %x00 = arith.constant 0.0 : f64
  %x01 = arith.constant 8.0 : f64
  %v00 = arith.constant 0.75 : f64
  %v01 = arith.constant 0.0 : f64
  %dt = arith.constant 0.1 : f64
  %zero = arith.constant 0.0 : f64
  %s:4 = scf.while (%x0 = %x00, %x1 = %x01, %v0 = %v00, %v1 = %v01) : (f64, f64, f64, f64) -> (f64, f64, f64, f64) {
    %g:2 = func.call @particle_grad_p_R(%w, %x0, %x1) : (f64, f64, f64) -> (f64, f64)
    %m0 = arith.mulf %dt, %v0 : f64
    %m1 = arith.mulf %dt, %v1 : f64
    %n0 = arith.addf %x0, %m0 : f64
    %n1 = arith.addf %x1, %m1 : f64
    %up = arith.cmpf ogt, %n1, %zero : f64
    %t0 = arith.mulf %dt, %g#0 : f64
    %t1 = arith.mulf %dt, %g#1 : f64
    %u0 = arith.subf %v0, %t0 : f64
    %u1 = arith.subf %v1, %t1 : f64
    %r0 = arith.select %up, %n0, %x0 : f64
    %r1 = arith.select %up, %n1, %x1 : f64
    %q0 = arith.select %up, %u0, %v0 : f64
    %q1 = arith.select %up, %u1, %v1 : f64
    scf.condition(%up) %r0, %r1, %q0, %q1 : f64, f64, f64, f64
  } do {
  ^bb0(%a0: f64, %a1: f64, %b0: f64, %b1: f64):
    scf.yield %a0, %a1, %b0, %b1 : f64, f64, f64, f64
  }
  %neg = arith.negf %s#1 : f64
  %tf = arith.divf %neg, %s#3 : f64
  %dx = arith.mulf %tf, %s#2 : f64
  %xf = arith.addf %s#0, %dx : f64
  %sq = arith.mulf %xf, %xf : f64
  return %sq : f64
}

func.func @particle_euler_F_grad_F(%x0: f64) -> (f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @particle_euler_F(%x0, %one) args [active] results [active_noneed] : (f64, f64) -> f64
  return %d0 : f64
}

func.func @particle_argmin_ff(%x0_0: f64) -> (f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @particle_euler_F(%x0_0) : (f64) -> f64
  %ginit = func.call @particle_euler_F_grad_F(%x0_0) : (f64) -> f64
  %r:5 = scf.while (%x0 = %x0_0, %fx = %f0, %g0 = %ginit, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, index) -> (f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %mag = math.sqrt %gg0 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:6 = scf.if %small -> (i1, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:6 = scf.if %ten -> (i1, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %fx, %g0, %eta2, %c0 : i1, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %dist = math.sqrt %dd0 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:6 = scf.if %near -> (i1, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @particle_euler_F(%xp0) : (f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:6 = scf.if %better -> (i1, f64, f64, f64, f64, index) {
            %gq = func.call @particle_euler_F_grad_F(%xp0) : (f64) -> f64
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %fxp, %gq, %eta, %i1 : i1, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %fx, %g0, %etah, %c0 : i1, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5 : i1, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5 : i1, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5 : i1, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5 : f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %fx: f64, %g0: f64, %eta: f64, %i: index):
    scf.yield %x0, %fx, %g0, %eta, %i : f64, f64, f64, f64, index
  }
  return %r#0 : f64
}

// GradBench particle, outer gradients by F, inner by F.
func.func @particle_ff(%w0: f64) -> f64 {
  %w = func.call @particle_argmin_ff(%w0) : (f64) -> f64
  return %w : f64
}

func.func @particle_euler_R_grad_F(%x0: f64) -> (f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @particle_euler_R(%x0, %one) args [active] results [active_noneed] : (f64, f64) -> f64
  return %d0 : f64
}

func.func @particle_argmin_fr(%x0_0: f64) -> (f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @particle_euler_R(%x0_0) : (f64) -> f64
  %ginit = func.call @particle_euler_R_grad_F(%x0_0) : (f64) -> f64
  %r:5 = scf.while (%x0 = %x0_0, %fx = %f0, %g0 = %ginit, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, index) -> (f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %mag = math.sqrt %gg0 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:6 = scf.if %small -> (i1, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:6 = scf.if %ten -> (i1, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %fx, %g0, %eta2, %c0 : i1, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %dist = math.sqrt %dd0 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:6 = scf.if %near -> (i1, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @particle_euler_R(%xp0) : (f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:6 = scf.if %better -> (i1, f64, f64, f64, f64, index) {
            %gq = func.call @particle_euler_R_grad_F(%xp0) : (f64) -> f64
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %fxp, %gq, %eta, %i1 : i1, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %fx, %g0, %etah, %c0 : i1, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5 : i1, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5 : i1, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5 : i1, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5 : f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %fx: f64, %g0: f64, %eta: f64, %i: index):
    scf.yield %x0, %fx, %g0, %eta, %i : f64, f64, f64, f64, index
  }
  return %r#0 : f64
}

// GradBench particle, outer gradients by F, inner by R.
func.func @particle_fr(%w0: f64) -> f64 {
  %w = func.call @particle_argmin_fr(%w0) : (f64) -> f64
  return %w : f64
}

func.func @particle_euler_F_grad_R(%x0: f64) -> (f64) {
  %g = moon.grad @particle_euler_F(%x0) args [active] : (f64) -> f64
  return %g : f64
}

func.func @particle_argmin_rf(%x0_0: f64) -> (f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @particle_euler_F(%x0_0) : (f64) -> f64
  %ginit = func.call @particle_euler_F_grad_R(%x0_0) : (f64) -> f64
  %r:5 = scf.while (%x0 = %x0_0, %fx = %f0, %g0 = %ginit, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, index) -> (f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %mag = math.sqrt %gg0 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:6 = scf.if %small -> (i1, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:6 = scf.if %ten -> (i1, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %fx, %g0, %eta2, %c0 : i1, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %dist = math.sqrt %dd0 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:6 = scf.if %near -> (i1, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @particle_euler_F(%xp0) : (f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:6 = scf.if %better -> (i1, f64, f64, f64, f64, index) {
            %gq = func.call @particle_euler_F_grad_R(%xp0) : (f64) -> f64
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %fxp, %gq, %eta, %i1 : i1, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %fx, %g0, %etah, %c0 : i1, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5 : i1, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5 : i1, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5 : i1, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5 : f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %fx: f64, %g0: f64, %eta: f64, %i: index):
    scf.yield %x0, %fx, %g0, %eta, %i : f64, f64, f64, f64, index
  }
  return %r#0 : f64
}

// GradBench particle, outer gradients by R, inner by F.
func.func @particle_rf(%w0: f64) -> f64 {
  %w = func.call @particle_argmin_rf(%w0) : (f64) -> f64
  return %w : f64
}

func.func @particle_euler_R_grad_R(%x0: f64) -> (f64) {
  %g = moon.grad @particle_euler_R(%x0) args [active] : (f64) -> f64
  return %g : f64
}

func.func @particle_argmin_rr(%x0_0: f64) -> (f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @particle_euler_R(%x0_0) : (f64) -> f64
  %ginit = func.call @particle_euler_R_grad_R(%x0_0) : (f64) -> f64
  %r:5 = scf.while (%x0 = %x0_0, %fx = %f0, %g0 = %ginit, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, index) -> (f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %mag = math.sqrt %gg0 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:6 = scf.if %small -> (i1, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:6 = scf.if %ten -> (i1, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %fx, %g0, %eta2, %c0 : i1, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %dist = math.sqrt %dd0 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:6 = scf.if %near -> (i1, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %fx, %g0, %eta, %i : i1, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @particle_euler_R(%xp0) : (f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:6 = scf.if %better -> (i1, f64, f64, f64, f64, index) {
            %gq = func.call @particle_euler_R_grad_R(%xp0) : (f64) -> f64
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %fxp, %gq, %eta, %i1 : i1, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %fx, %g0, %etah, %c0 : i1, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5 : i1, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5 : i1, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5 : i1, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5 : f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %fx: f64, %g0: f64, %eta: f64, %i: index):
    scf.yield %x0, %fx, %g0, %eta, %i : f64, f64, f64, f64, index
  }
  return %r#0 : f64
}

// GradBench particle, outer gradients by R, inner by R.
func.func @particle_rr(%w0: f64) -> f64 {
  %w = func.call @particle_argmin_rr(%w0) : (f64) -> f64
  return %w : f64
}
