// RUN: moonc-opt %s --moon-autodiff --moon-tape-budget=0 | FileCheck %s
// RUN: moonc-opt %s --moon-autodiff=inline-max-ops=0 --moon-tape-budget=0 | FileCheck %s --check-prefix=SPLIT
// RUN: moonc check %s --entry f --args '[[0.5, 1.5, 2.0], 3]' | FileCheck %s --check-prefix=CHECKED

// Reverse mode inlines small helpers into the function it reverses
// (reverse/inline.rs): @rhs's loop runs inside the time loop of @f's
// adjoint, its load of the overwritten %y is taped in a buffer sized
// before the time loop (the helper's memref.dim, merged with the caller's
// by CSE, no longer hides the inner trip count), and x, never written, is
// read again rather than taped. @scratch allocates, and is called in a
// loop, so it keeps its split pair. With inline-max-ops=0 both calls keep
// split pairs, taping on moonrt's LIFO tape one call per value.
// CHECK-LABEL: func.func private @f_vjp_dc_n(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf64>
// CHECK: %[[Y:.*]] = memref.alloc(%[[N:.*]]) : memref<?xf64>
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// CHECK: scf.for
// CHECK: scf.for %[[I:[^ ]*]] = %{{.*}} to %[[N]] step
// CHECK: %[[A:.*]] = memref.load %[[X]][%[[I]]]
// CHECK: %[[B:.*]] = memref.load %[[Y]][%[[I]]]
// CHECK: memref.store %[[B]], %[[TAPE]]
// CHECK-NOT: rhs_fwd
// CHECK-NOT: moonrt_tape_push
// CHECK: call @scratch_fwd
// CHECK: call @scratch_rev
// CHECK-NOT: call @rhs
// CHECK: memref.load %[[X]]
// CHECK: return

// SPLIT-LABEL: func.func private @f_vjp_dc_n(
// SPLIT: call @rhs_fwd
// SPLIT: call @scratch_fwd
// SPLIT: call @scratch_rev
// SPLIT: call @rhs_rev

// CHECKED: check: PASS

func.func private @rhs(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %a, %b : f64
    memref.store %p, %z[%i] : memref<?xf64>
  }
  return
}
func.func private @scratch(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<1xf64>
  %a = memref.load %x[%c0] : memref<?xf64>
  %e = math.exp %a : f64
  memref.store %e, %t[%c0] : memref<1xf64>
  %r = memref.load %t[%c0] : memref<1xf64>
  memref.dealloc %t : memref<1xf64>
  return %r : f64
}
func.func @f(%x: memref<?xf64>, %s: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %y = memref.alloc(%n) : memref<?xf64>
  memref.copy %x, %y : memref<?xf64> to memref<?xf64>
  %z = arith.constant 0.0 : f64
  %acc = scf.for %t = %c0 to %s step %c1 iter_args(%a = %z) -> f64 {
    func.call @rhs(%x, %y, %y) : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
    %e = func.call @scratch(%y) : (memref<?xf64>) -> f64
    %a2 = arith.addf %a, %e : f64
    scf.yield %a2 : f64
  }
  %r = memref.load %y[%c0] : memref<?xf64>
  %q = arith.addf %r, %acc : f64
  memref.dealloc %y : memref<?xf64>
  return %q : f64
}
func.func @grad(%x: memref<?xf64>, %dx: memref<?xf64>, %s: index) {
  moon.grad @f(%x, %s, %dx) args [dup, const] : (memref<?xf64>, index, memref<?xf64>) -> ()
  return
}
