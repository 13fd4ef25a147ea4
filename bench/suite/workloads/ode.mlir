// GradBench's `ode` eval (cmpad's an_ode): RK4 with s steps over [0, 2] of
//   y_0' = x_0,   y_i' = x_i * y_{i-1} (i > 0),   y(0) = 0,
// on an n-vector; GradBench's `gradient` is the gradient of the last element
// of the final state with respect to x.
//
// Signatures (GradBench's input {"x": double[n], "s": int}):
//
//   func.func @ode(%x: memref<?xf64>, %s: index) -> f64
//     %x: GradBench's `x` (n elements, n >= 1); %s: GradBench's `s` (s >= 1).
//     Returns the last element of the final state, y_{n-1}(2), whose gradient
//     with respect to %x (`moonc grad --wrt 0`) is GradBench's `gradient`
//     output. %s is an index, not differentiated.
//
//   func.func @ode_primal(%x: memref<?xf64>, %s: index, %out: memref<?xf64>)
//     %x, %s as above; %out: n elements, overwritten with the final state
//     y(2) (GradBench's `primal` output). Returns nothing.
//
// Each RK4 step is one loop over the elements: stage j at element i needs
// the state and stage j-1 at element i-1 only, so the loop carries them
// from the previous element (before element 0: state 1 and stages 0, which
// gives every stage x_0 there), and the state is updated in place.

func.func @ode(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %six = arith.constant 6.0 : f64
  %tf = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %y = memref.alloc(%n) : memref<?xf64>
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f64
  %h = arith.divf %tf, %sf : f64
  %h2 = arith.divf %h, %two : f64
  %h6 = arith.divf %h, %six : f64
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %y[%i] : memref<?xf64>
  }
  scf.for %t = %c0 to %s step %c1 {
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%yp = %one, %k1p = %zero, %k2p = %zero, %k3p = %zero) -> (f64, f64, f64, f64) {
      %xi = memref.load %x[%i] : memref<?xf64>
      %yi = memref.load %y[%i] : memref<?xf64>
      %k1 = arith.mulf %xi, %yp : f64
      %a2 = arith.mulf %h2, %k1p : f64
      %t2 = arith.addf %yp, %a2 : f64
      %k2 = arith.mulf %xi, %t2 : f64
      %a3 = arith.mulf %h2, %k2p : f64
      %t3 = arith.addf %yp, %a3 : f64
      %k3 = arith.mulf %xi, %t3 : f64
      %a4 = arith.mulf %h, %k3p : f64
      %t4 = arith.addf %yp, %a4 : f64
      %k4 = arith.mulf %xi, %t4 : f64
      %b2 = arith.mulf %two, %k2 : f64
      %b3 = arith.mulf %two, %k3 : f64
      %c23 = arith.addf %b2, %b3 : f64
      %c234 = arith.addf %c23, %k4 : f64
      %sum = arith.addf %k1, %c234 : f64
      %inc = arith.mulf %h6, %sum : f64
      %yn = arith.addf %yi, %inc : f64
      memref.store %yn, %y[%i] : memref<?xf64>
      scf.yield %yi, %k1, %k2, %k3 : f64, f64, f64, f64
    }
  }
  %last = arith.subi %n, %c1 : index
  %v = memref.load %y[%last] : memref<?xf64>
  memref.dealloc %y : memref<?xf64>
  return %v : f64
}

func.func @ode_primal(%x: memref<?xf64>, %s: index, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %six = arith.constant 6.0 : f64
  %tf = arith.constant 2.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f64
  %h = arith.divf %tf, %sf : f64
  %h2 = arith.divf %h, %two : f64
  %h6 = arith.divf %h, %six : f64
  scf.for %i = %c0 to %n step %c1 {
    memref.store %zero, %y[%i] : memref<?xf64>
  }
  scf.for %t = %c0 to %s step %c1 {
    %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%yp = %one, %k1p = %zero, %k2p = %zero, %k3p = %zero) -> (f64, f64, f64, f64) {
      %xi = memref.load %x[%i] : memref<?xf64>
      %yi = memref.load %y[%i] : memref<?xf64>
      %k1 = arith.mulf %xi, %yp : f64
      %a2 = arith.mulf %h2, %k1p : f64
      %t2 = arith.addf %yp, %a2 : f64
      %k2 = arith.mulf %xi, %t2 : f64
      %a3 = arith.mulf %h2, %k2p : f64
      %t3 = arith.addf %yp, %a3 : f64
      %k3 = arith.mulf %xi, %t3 : f64
      %a4 = arith.mulf %h, %k3p : f64
      %t4 = arith.addf %yp, %a4 : f64
      %k4 = arith.mulf %xi, %t4 : f64
      %b2 = arith.mulf %two, %k2 : f64
      %b3 = arith.mulf %two, %k3 : f64
      %c23 = arith.addf %b2, %b3 : f64
      %c234 = arith.addf %c23, %k4 : f64
      %sum = arith.addf %k1, %c234 : f64
      %inc = arith.mulf %h6, %sum : f64
      %yn = arith.addf %yi, %inc : f64
      memref.store %yn, %y[%i] : memref<?xf64>
      scf.yield %yi, %k1, %k2, %k3 : f64, f64, f64, f64
    }
  }
  return
}
