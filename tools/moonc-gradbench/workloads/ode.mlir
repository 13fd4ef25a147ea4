// GradBench's `ode` eval (cmpad's an_ode): RK4 with s steps over [0, 2] of
//   y_0' = x_0,   y_i' = x_i * y_{i-1} (i > 0),   y(0) = 0,
// on an n-vector; GradBench's `gradient` is the gradient of the last element
// of the final state with respect to x.
//
// Written as GradBench's reference C++ writes it (cpp/gradbench/evals/
// ode.hpp): a helper for the right-hand side (`ode_fun`), called for each
// of the four stages into the buffers k1..k4, a temporary y_tmp rewritten
// before each stage, and the state updated in place; the objective calls
// the primal. Reverse mode inlines the helpers and checkpoints the time
// loop (docs/autodiff.md); the hand-blocked form the suite timed before is
// bench/suite/workloads/shaped/ode.mlir.
//
// Signatures (GradBench's input {"x": double[n], "s": int}):
//
//   func.func @ode(%x: memref<?xf64>, %s: index) -> f64
//     %x: GradBench's `x` (n elements, n >= 1); %s: GradBench's `s` (s >= 1).
//     Returns the last element of the final state, y_{n-1}(2), whose gradient
//     with respect to %x (`moonc grad --wrt 0`) is GradBench's `gradient`
//     output. %s is an index, not differentiated.
//
//   func.func @ode_primal(%x: memref<?xf64>, %s: index, %yf: memref<?xf64>)
//     %x, %s as above; %yf: n elements, overwritten with the final state
//     y(2) (GradBench's `primal` output). Returns nothing.

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

func.func @ode_primal(%x: memref<?xf64>, %s: index, %yf: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %six = arith.constant 6.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
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
  memref.dealloc %k1 : memref<?xf64>
  memref.dealloc %k2 : memref<?xf64>
  memref.dealloc %k3 : memref<?xf64>
  memref.dealloc %k4 : memref<?xf64>
  memref.dealloc %yt : memref<?xf64>
  return
}

func.func @ode(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %yf = memref.alloc(%n) : memref<?xf64>
  func.call @ode_primal(%x, %s, %yf) : (memref<?xf64>, index, memref<?xf64>) -> ()
  %last = arith.subi %n, %c1 : index
  %r = memref.load %yf[%last] : memref<?xf64>
  memref.dealloc %yf : memref<?xf64>
  return %r : f64
}
