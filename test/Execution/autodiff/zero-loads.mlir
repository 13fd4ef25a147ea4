// --moon-zero-loads (docs/passes.md) in moon-cpu-pipeline, on a gradient
// whose reverse sweep adds into the zeroed adjoint of a scratch row: each
// row of x goes through t[j] = w[j] x[i][j], then t[j] += x[i][j - 1] (an
// update in place, so reverse mode cannot reread t as an expression), then
// a sum of squares of t. The loop is checkpointed; t's adjoint is zero at
// the start of each row's reverse (moon.zero_shadows), so the load of the
// loop that adds the sum's derivative into it becomes 0.
//
// RUN: env MOONC_LOG=moonc_passes=debug moonc grad %s --entry rows --args '[[[1, 2], [3, -1]], [0.5, 2]]' 2>&1 | FileCheck %s
// CHECK: loads of zero elements replaced {{.*}}replaced{{.*}}1
// CHECK: {"value": 28.5, "gradient": {{\[}}{{\[}}[10.5, 20.0], [3.5, 4.0]], [10.0, 18.0]]}
// RUN: moonc check %s --entry rows --args '[[[1, 2, -0.5], [3, -1, 0.25], [0.5, 0.5, 2]], [0.5, 2, -1]]' | FileCheck %s --check-prefix=CHECK-PASS
// CHECK-PASS: check: PASS

func.func @rows(%x: memref<?x?xf64>, %w: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?x?xf64>
  %d = memref.dim %x, %c1 : memref<?x?xf64>
  %t = memref.alloc(%d) : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    scf.for %j = %c0 to %d step %c1 {
      %wj = memref.load %w[%j] : memref<?xf64>
      %xij = memref.load %x[%i, %j] : memref<?x?xf64>
      %p = arith.mulf %wj, %xij : f64
      memref.store %p, %t[%j] : memref<?xf64>
    }
    scf.for %j = %c1 to %d step %c1 {
      %jm = arith.subi %j, %c1 : index
      %prev = memref.load %x[%i, %jm] : memref<?x?xf64>
      %tj = memref.load %t[%j] : memref<?xf64>
      %u = arith.addf %tj, %prev : f64
      memref.store %u, %t[%j] : memref<?xf64>
    }
    %s = scf.for %j = %c0 to %d step %c1 iter_args(%a = %acc) -> f64 {
      %v = memref.load %t[%j] : memref<?xf64>
      %sq = arith.mulf %v, %v : f64
      %b = arith.addf %a, %sq : f64
      scf.yield %b : f64
    }
    scf.yield %s : f64
  }
  memref.dealloc %t : memref<?xf64>
  return %r : f64
}
