// Loop checkpointing (docs/autodiff.md, "Checkpointing"): moonc check on
// every schedule the budget picks, and gradients equal to the taped loop's
// (to 1e-12: derivative sums may be added in another order). @heat
// updates a state in place through a temporary and carries an energy;
// @grid has a two-dimensional state, a loop from 1 by 2 and the state read
// after the loop; @ode is GradBench's ode as its reference writes it (a
// helper per right-hand side, inlined before reversal); @tri zeroes its
// state at the start of every iteration, so a segment saves nothing (an
// empty checkpoint list once built a bad attribute).
//
// Budget 0: never checkpoint. Budget 1: segments of ceil(sqrt(n C / T))
// iterations (s = 2: one iteration; 9: three, three segments; 10: three,
// the last segment one iteration). Budget 3000 with s = 50: segments of
// max(3000 / 2T, ...) = 13 iterations; with s = 9 the tape (1008 bytes)
// fits and the loop is not checkpointed.
// RUN: moonc --moon-tape-budget 0 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],9]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],2]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],9]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],10]' | FileCheck %s
// RUN: moonc --moon-tape-budget 3000 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],50]' | FileCheck %s
// RUN: moonc --moon-tape-budget 3000 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],9]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry grid --args '[[[0.1,0.2,0.3,0.4],[0.5,0.6,0.7,0.8],[0.3,0.2,0.1,0.0]],8]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' | FileCheck %s
// RUN: moonc check %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 check %s --entry tri --args '[[[1.0,2.0,3.0],[4.0,5.0,6.0]],[0.5,0.25,0.125]]' | FileCheck %s
//
// Levels (--moon-checkpoint-levels N): budget 1 cannot be met by one level,
// so each segment is run in segments again, up to N levels (heat at s = 9:
// segments of ceil((81 C / T)^(1/3)) = 4 iterations, each in segments of
// ceil(sqrt(4 C / T)) = 2; the last, one iteration, in one).
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],9]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],2]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 3 check %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],50]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 check %s --entry grid --args '[[[0.1,0.2,0.3,0.4],[0.5,0.6,0.7,0.8],[0.3,0.2,0.1,0.0]],8]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 3 check %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' | FileCheck %s
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 check %s --entry tri --args '[[[1.0,2.0,3.0],[4.0,5.0,6.0]],[0.5,0.25,0.125]]' | FileCheck %s
// CHECK: vjp tape: ok
// CHECK: check: PASS
//
// The peak tape of heat at s = 200 (the checkpoints of every level plus
// the last level's tape) falls with each level: 20 checkpoints and
// segments of 10 iterations; 8 + 7 and segments of 4; 5 + 4 + 3 and 2.
// RUN: moonc --moon-tape-budget 1 bench %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],200]' --time-ms 1 | FileCheck %s --check-prefix=PEAK1
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 bench %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],200]' --time-ms 1 | FileCheck %s --check-prefix=PEAK2
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 3 bench %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],200]' --time-ms 1 | FileCheck %s --check-prefix=PEAK3
// PEAK1: "tape_peak_bytes": 3520
// PEAK2: "tape_peak_bytes": 1856
// PEAK3: "tape_peak_bytes": 1568
//
// RUN: moonc --moon-tape-budget 0 grad %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],10]' > %t.taped
// RUN: moonc --moon-tape-budget 1 grad %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],10]' > %t.checkpointed
// RUN: %python %S/Inputs/same_json.py %t.taped %t.checkpointed
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 3 grad %s --entry heat --args '[[0.1,0.2,0.3,0.4,0.5,0.6,0.7],10]' > %t.levels
// RUN: %python %S/Inputs/same_json.py %t.taped %t.levels
// RUN: moonc --moon-tape-budget 0 grad %s --entry grid --args '[[[0.1,0.2,0.3,0.4],[0.5,0.6,0.7,0.8],[0.3,0.2,0.1,0.0]],8]' > %t.taped
// RUN: moonc --moon-tape-budget 1 grad %s --entry grid --args '[[[0.1,0.2,0.3,0.4],[0.5,0.6,0.7,0.8],[0.3,0.2,0.1,0.0]],8]' > %t.checkpointed
// RUN: %python %S/Inputs/same_json.py %t.taped %t.checkpointed
// RUN: moonc --moon-tape-budget 0 grad %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' > %t.taped
// RUN: moonc --moon-tape-budget 1 grad %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' > %t.checkpointed
// RUN: %python %S/Inputs/same_json.py %t.taped %t.checkpointed
// RUN: moonc --moon-tape-budget 1 --moon-checkpoint-levels 2 grad %s --entry ode --args '[[1.1,0.9,1.2,0.8,1.05],30]' > %t.levels
// RUN: %python %S/Inputs/same_json.py %t.taped %t.levels

// A heat-like update in place, with a temporary overwritten each step, a
// carried energy, and a nonlinear term.
func.func @heat(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %c = arith.constant 0.1 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %u = memref.alloc(%n) : memref<?xf64>
  %tmp = memref.alloc(%n) : memref<?xf64>
  memref.copy %x, %u : memref<?xf64> to memref<?xf64>
  %nm1 = arith.subi %n, %c1 : index
  %e = scf.for %t = %c0 to %s step %c1 iter_args(%acc = %z) -> f64 {
    %u0 = memref.load %u[%c0] : memref<?xf64>
    memref.store %u0, %tmp[%c0] : memref<?xf64>
    scf.for %i = %c1 to %n step %c1 {
      %im = arith.subi %i, %c1 : index
      %a = memref.load %u[%im] : memref<?xf64>
      %b = memref.load %u[%i] : memref<?xf64>
      %d = arith.subf %a, %b : f64
      %p = arith.mulf %d, %b : f64
      memref.store %p, %tmp[%i] : memref<?xf64>
    }
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %u[%i] : memref<?xf64>
      %b = memref.load %tmp[%i] : memref<?xf64>
      %q = arith.mulf %c, %b : f64
      %v = arith.addf %a, %q : f64
      %w = math.sin %v : f64
      memref.store %w, %u[%i] : memref<?xf64>
    }
    %l = memref.load %u[%nm1] : memref<?xf64>
    %f = memref.load %u[%c0] : memref<?xf64>
    %m = arith.mulf %l, %f : f64
    %acc2 = arith.addf %acc, %m : f64
    scf.yield %acc2 : f64
  }
  %r = memref.load %u[%nm1] : memref<?xf64>
  %out = arith.addf %r, %e : f64
  memref.dealloc %u : memref<?xf64>
  memref.dealloc %tmp : memref<?xf64>
  return %out : f64
}

// A two-dimensional state, a loop from 1 by 2, and a state buffer read
// after the loop.
func.func @grid(%x: memref<3x?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %n = memref.dim %x, %c1 : memref<3x?xf64>
  %g = memref.alloc(%n) : memref<3x?xf64>
  memref.copy %x, %g : memref<3x?xf64> to memref<3x?xf64>
  scf.for %t = %c1 to %s step %c2 {
    scf.for %r = %c0 to %c3 step %c1 {
      %rn = arith.addi %r, %c1 : index
      %r2 = arith.remui %rn, %c3 : index
      scf.for %i = %c0 to %n step %c1 {
        %a = memref.load %g[%r, %i] : memref<3x?xf64>
        %b = memref.load %g[%r2, %i] : memref<3x?xf64>
        %p = arith.mulf %a, %b : f64
        %q = math.tanh %p : f64
        %v = arith.addf %a, %q : f64
        memref.store %v, %g[%r, %i] : memref<3x?xf64>
      }
    }
  }
  %z = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = memref.load %g[%c2, %i] : memref<3x?xf64>
    %acc2 = arith.addf %acc, %a : f64
    scf.yield %acc2 : f64
  }
  memref.dealloc %g : memref<3x?xf64>
  return %sum : f64
}
func.func private @ode_fun(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %x0 = memref.load %x[%c0] : memref<?xf64>
  memref.store %x0, %z[%c0] : memref<?xf64>
  scf.for %i = %c1 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %im1 = arith.subi %i, %c1 : index
    %yi = memref.load %y[%im1] : memref<?xf64>
    %p = arith.mulf %xi, %yi : f64
    memref.store %p, %z[%i] : memref<?xf64>
  }
  return
}

func.func @ode(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %six = arith.constant 6.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %yf = memref.alloc(%n) : memref<?xf64>
  %k1 = memref.alloc(%n) : memref<?xf64>
  %k2 = memref.alloc(%n) : memref<?xf64>
  %k3 = memref.alloc(%n) : memref<?xf64>
  %k4 = memref.alloc(%n) : memref<?xf64>
  %yt = memref.alloc(%n) : memref<?xf64>
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f64
  %h = arith.divf %two, %sf : f64
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %yf[%i] : memref<?xf64>
  }
  scf.for %t = %c0 to %s step %c1 {
    func.call @ode_fun(%x, %yf, %k1) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %y = memref.load %yf[%i] : memref<?xf64>
      %k = memref.load %k1[%i] : memref<?xf64>
      %hk = arith.mulf %h, %k : f64
      %d = arith.divf %hk, %two : f64
      %v = arith.addf %y, %d : f64
      memref.store %v, %yt[%i] : memref<?xf64>
    }
    func.call @ode_fun(%x, %yt, %k2) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %y = memref.load %yf[%i] : memref<?xf64>
      %k = memref.load %k2[%i] : memref<?xf64>
      %hk = arith.mulf %h, %k : f64
      %d = arith.divf %hk, %two : f64
      %v = arith.addf %y, %d : f64
      memref.store %v, %yt[%i] : memref<?xf64>
    }
    func.call @ode_fun(%x, %yt, %k3) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %y = memref.load %yf[%i] : memref<?xf64>
      %k = memref.load %k3[%i] : memref<?xf64>
      %hk = arith.mulf %h, %k : f64
      %v = arith.addf %y, %hk : f64
      memref.store %v, %yt[%i] : memref<?xf64>
    }
    func.call @ode_fun(%x, %yt, %k4) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %k1[%i] : memref<?xf64>
      %b = memref.load %k2[%i] : memref<?xf64>
      %c = memref.load %k3[%i] : memref<?xf64>
      %d = memref.load %k4[%i] : memref<?xf64>
      %b2 = arith.mulf %two, %b : f64
      %c2 = arith.mulf %two, %c : f64
      %ab = arith.addf %a, %b2 : f64
      %abc = arith.addf %ab, %c2 : f64
      %abcd = arith.addf %abc, %d : f64
      %hs = arith.mulf %h, %abcd : f64
      %q = arith.divf %hs, %six : f64
      %y = memref.load %yf[%i] : memref<?xf64>
      %v = arith.addf %y, %q : f64
      memref.store %v, %yf[%i] : memref<?xf64>
    }
  }
  %last = arith.subi %n, %c1 : index
  %r = memref.load %yf[%last] : memref<?xf64>
  memref.dealloc %yf : memref<?xf64>
  memref.dealloc %k1 : memref<?xf64>
  memref.dealloc %k2 : memref<?xf64>
  memref.dealloc %k3 : memref<?xf64>
  memref.dealloc %k4 : memref<?xf64>
  memref.dealloc %yt : memref<?xf64>
  return %r : f64
}

func.func @tri(%l: memref<?x?xf64>, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f64
  %d = memref.dim %x, %c0 : memref<?xf64>
  %k = memref.dim %l, %c0 : memref<?x?xf64>
  %lsz = memref.dim %l, %c1 : memref<?x?xf64>
  %out = memref.alloc(%d) : memref<?xf64>
  %res = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %z) -> f64 {
  scf.for %i = %c0 to %d step %c1 {
    memref.store %z, %out[%i] : memref<?xf64>
  }
  %lrow = memref.subview %l[%p, 0] [1, %lsz] [1, 1] : memref<?x?xf64> to memref<?xf64, strided<[1], offset: ?>>
  scf.for %i = %c0 to %d step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %ii1 = arith.muli %i, %i1 : index
    %tri = arith.divui %ii1, %c2 : index
    %id = arith.muli %i, %d : index
    %off = arith.subi %id, %tri : index
    %xi = memref.load %x[%i] : memref<?xf64>
    scf.for %j = %i1 to %d step %c1 {
      %r = arith.subi %j, %i1 : index
      %li = arith.addi %off, %r : index
      %ov = memref.load %out[%j] : memref<?xf64>
      %lv = memref.load %l[%p, %li] : memref<?x?xf64>
      %pr = arith.mulf %lv, %xi : f64
      %s = arith.addf %ov, %pr : f64
      memref.store %s, %out[%j] : memref<?xf64>
    }
  }
  %r = scf.for %i = %c0 to %d step %c1 iter_args(%a = %acc) -> f64 {
    %v = memref.load %out[%i] : memref<?xf64>
    %v2 = arith.mulf %v, %v : f64
    %s = arith.addf %a, %v2 : f64
    scf.yield %s : f64
  }
  scf.yield %r : f64
  }
  memref.dealloc %out : memref<?xf64>
  return %res : f64
}
