// GradBench's `saddle`, printed by nested.py (saddle); do not edit.

// f(x, y) = (x1^2 + x2^2) - (y1^2 + y2^2): x minimizes, y maximizes.
func.func @saddle_f(%x1: f64, %x2: f64, %y1: f64, %y2: f64) -> f64 {
  %a = arith.mulf %x1, %x1 : f64
  %b = arith.mulf %x2, %x2 : f64
  %c = arith.mulf %y1, %y1 : f64
  %d = arith.mulf %y2, %y2 : f64
  %ab = arith.addf %a, %b : f64
  %cd = arith.addf %c, %d : f64
  %r = arith.subf %ab, %cd : f64
  return %r : f64
}
// -f, minimized over y (x captured) to maximize f.
func.func @saddle_neg_f(%x1: f64, %x2: f64, %y1: f64, %y2: f64) -> f64 {
  %v = func.call @saddle_f(%x1, %x2, %y1, %y2) : (f64, f64, f64, f64) -> f64
  %n = arith.negf %v : f64
  return %n : f64
}


func.func @saddle_neg_f_grad_F(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @saddle_neg_f(%cap0, %cap1, %x0, %x1, %one, %zero) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  %d1 = moon.jvp @saddle_neg_f(%cap0, %cap1, %x0, %x1, %zero, %one) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  return %d0, %d1 : f64, f64
}

func.func @saddle_argmax_y_F(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_neg_f(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_neg_f_grad_F(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_neg_f(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_neg_f_grad_F(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// max over y of f(x, y), from y = s
func.func @saddle_max_y_F(%s1: f64, %s2: f64, %x1: f64, %x2: f64) -> f64 {
  %y:2 = func.call @saddle_argmax_y_F(%x1, %x2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %v = func.call @saddle_f(%x1, %x2, %y#0, %y#1) : (f64, f64, f64, f64) -> f64
  return %v : f64
}

func.func @saddle_neg_f_grad_R(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %g:2 = moon.grad @saddle_neg_f(%cap0, %cap1, %x0, %x1) args [const, const, active, active] : (f64, f64, f64, f64) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}

func.func @saddle_argmax_y_R(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_neg_f(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_neg_f_grad_R(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_neg_f(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_neg_f_grad_R(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// max over y of f(x, y), from y = s
func.func @saddle_max_y_R(%s1: f64, %s2: f64, %x1: f64, %x2: f64) -> f64 {
  %y:2 = func.call @saddle_argmax_y_R(%x1, %x2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %v = func.call @saddle_f(%x1, %x2, %y#0, %y#1) : (f64, f64, f64, f64) -> f64
  return %v : f64
}

func.func @saddle_max_y_F_grad_F(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @saddle_max_y_F(%cap0, %cap1, %x0, %x1, %one, %zero) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  %d1 = moon.jvp @saddle_max_y_F(%cap0, %cap1, %x0, %x1, %zero, %one) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  return %d0, %d1 : f64, f64
}

func.func @saddle_argmin_x_ff(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_max_y_F(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_max_y_F_grad_F(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_max_y_F(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_max_y_F_grad_F(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// GradBench saddle, outer gradients by F, inner by F; the
// final argmax takes the outer mode's gradient, as the eval asks.
func.func @saddle_ff(%s1: f64, %s2: f64) -> (f64, f64, f64, f64) {
  %x:2 = func.call @saddle_argmin_x_ff(%s1, %s2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %y:2 = func.call @saddle_argmax_y_F(%x#0, %x#1, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  return %x#0, %x#1, %y#0, %y#1 : f64, f64, f64, f64
}

func.func @saddle_max_y_R_grad_F(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %d0 = moon.jvp @saddle_max_y_R(%cap0, %cap1, %x0, %x1, %one, %zero) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  %d1 = moon.jvp @saddle_max_y_R(%cap0, %cap1, %x0, %x1, %zero, %one) args [const, const, active, active] results [active_noneed] : (f64, f64, f64, f64, f64, f64) -> f64
  return %d0, %d1 : f64, f64
}

func.func @saddle_argmin_x_fr(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_max_y_R(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_max_y_R_grad_F(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_max_y_R(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_max_y_R_grad_F(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// GradBench saddle, outer gradients by F, inner by R; the
// final argmax takes the outer mode's gradient, as the eval asks.
func.func @saddle_fr(%s1: f64, %s2: f64) -> (f64, f64, f64, f64) {
  %x:2 = func.call @saddle_argmin_x_fr(%s1, %s2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %y:2 = func.call @saddle_argmax_y_F(%x#0, %x#1, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  return %x#0, %x#1, %y#0, %y#1 : f64, f64, f64, f64
}

func.func @saddle_max_y_F_grad_R(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %g:2 = moon.grad @saddle_max_y_F(%cap0, %cap1, %x0, %x1) args [const, const, active, active] : (f64, f64, f64, f64) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}

func.func @saddle_argmin_x_rf(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_max_y_F(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_max_y_F_grad_R(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_max_y_F(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_max_y_F_grad_R(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// GradBench saddle, outer gradients by R, inner by F; the
// final argmax takes the outer mode's gradient, as the eval asks.
func.func @saddle_rf(%s1: f64, %s2: f64) -> (f64, f64, f64, f64) {
  %x:2 = func.call @saddle_argmin_x_rf(%s1, %s2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %y:2 = func.call @saddle_argmax_y_R(%x#0, %x#1, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  return %x#0, %x#1, %y#0, %y#1 : f64, f64, f64, f64
}

func.func @saddle_max_y_R_grad_R(%cap0: f64, %cap1: f64, %x0: f64, %x1: f64) -> (f64, f64) {
  %g:2 = moon.grad @saddle_max_y_R(%cap0, %cap1, %x0, %x1) args [const, const, active, active] : (f64, f64, f64, f64) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}

func.func @saddle_argmin_x_rr(%cap0: f64, %cap1: f64, %x0_0: f64, %x0_1: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %tol = arith.constant 1.0e-5 : f64
  %eta0 = arith.constant 1.0e-5 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %true = arith.constant true
  %false = arith.constant false
  %f0 = func.call @saddle_max_y_R(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> f64
  %ginit:2 = func.call @saddle_max_y_R_grad_R(%cap0, %cap1, %x0_0, %x0_1) : (f64, f64, f64, f64) -> (f64, f64)
  %r:7 = scf.while (%x0 = %x0_0, %x1 = %x0_1, %fx = %f0, %g0 = %ginit#0, %g1 = %ginit#1, %eta = %eta0, %i = %c0) : (f64, f64, f64, f64, f64, f64, index) -> (f64, f64, f64, f64, f64, f64, index) {
    %gg0 = arith.mulf %g0, %g0 : f64
    %gg1 = arith.mulf %g1, %g1 : f64
    %gs1 = arith.addf %gg0, %gg1 : f64
    %mag = math.sqrt %gs1 : f64
    %small = arith.cmpf ole, %mag, %tol : f64
    %n:8 = scf.if %small -> (i1, f64, f64, f64, f64, f64, f64, index) {
      scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
    } else {
      %ten = arith.cmpi eq, %i, %c10 : index
      %m:8 = scf.if %ten -> (i1, f64, f64, f64, f64, f64, f64, index) {
        %eta2 = arith.mulf %eta, %two : f64
        scf.yield %false, %x0, %x1, %fx, %g0, %g1, %eta2, %c0 : i1, f64, f64, f64, f64, f64, f64, index
      } else {
        %s0 = arith.mulf %eta, %g0 : f64
        %xp0 = arith.subf %x0, %s0 : f64
        %d0 = arith.subf %x0, %xp0 : f64
        %dd0 = arith.mulf %d0, %d0 : f64
        %s1 = arith.mulf %eta, %g1 : f64
        %xp1 = arith.subf %x1, %s1 : f64
        %d1 = arith.subf %x1, %xp1 : f64
        %dd1 = arith.mulf %d1, %d1 : f64
        %ds1 = arith.addf %dd0, %dd1 : f64
        %dist = math.sqrt %ds1 : f64
        %near = arith.cmpf ole, %dist, %tol : f64
        %o:8 = scf.if %near -> (i1, f64, f64, f64, f64, f64, f64, index) {
          scf.yield %true, %x0, %x1, %fx, %g0, %g1, %eta, %i : i1, f64, f64, f64, f64, f64, f64, index
        } else {
          %fxp = func.call @saddle_max_y_R(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> f64
          %better = arith.cmpf olt, %fxp, %fx : f64
          %p:8 = scf.if %better -> (i1, f64, f64, f64, f64, f64, f64, index) {
            %gq:2 = func.call @saddle_max_y_R_grad_R(%cap0, %cap1, %xp0, %xp1) : (f64, f64, f64, f64) -> (f64, f64)
            %i1 = arith.addi %i, %c1 : index
            scf.yield %false, %xp0, %xp1, %fxp, %gq#0, %gq#1, %eta, %i1 : i1, f64, f64, f64, f64, f64, f64, index
          } else {
            %etah = arith.mulf %eta, %half : f64
            scf.yield %false, %x0, %x1, %fx, %g0, %g1, %etah, %c0 : i1, f64, f64, f64, f64, f64, f64, index
          }
          scf.yield %p#0, %p#1, %p#2, %p#3, %p#4, %p#5, %p#6, %p#7 : i1, f64, f64, f64, f64, f64, f64, index
        }
        scf.yield %o#0, %o#1, %o#2, %o#3, %o#4, %o#5, %o#6, %o#7 : i1, f64, f64, f64, f64, f64, f64, index
      }
      scf.yield %m#0, %m#1, %m#2, %m#3, %m#4, %m#5, %m#6, %m#7 : i1, f64, f64, f64, f64, f64, f64, index
    }
    %go = arith.xori %n#0, %true : i1
    scf.condition(%go) %n#1, %n#2, %n#3, %n#4, %n#5, %n#6, %n#7 : f64, f64, f64, f64, f64, f64, index
  } do {
  ^bb0(%x0: f64, %x1: f64, %fx: f64, %g0: f64, %g1: f64, %eta: f64, %i: index):
    scf.yield %x0, %x1, %fx, %g0, %g1, %eta, %i : f64, f64, f64, f64, f64, f64, index
  }
  return %r#0, %r#1 : f64, f64
}

// GradBench saddle, outer gradients by R, inner by R; the
// final argmax takes the outer mode's gradient, as the eval asks.
func.func @saddle_rr(%s1: f64, %s2: f64) -> (f64, f64, f64, f64) {
  %x:2 = func.call @saddle_argmin_x_rr(%s1, %s2, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  %y:2 = func.call @saddle_argmax_y_R(%x#0, %x#1, %s1, %s2) : (f64, f64, f64, f64) -> (f64, f64)
  return %x#0, %x#1, %y#0, %y#1 : f64, f64, f64, f64
}
