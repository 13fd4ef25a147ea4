// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s --check-prefix=NO-MARKS
// The reverse loops' marks for shadows that are set (`moon.covers`) do not
// outlive differentiation.
// NO-MARKS-NOT: moon.covers

// The IR of the fused N-wide dual path (see docs/ndual.md).

// A linalg map: the forward sweep's generic also writes the partial
// d exp(x)/dx into a buffer (counted as tape); the reverse is one generic
// that multiplies it by the output's adjoint into the input's. x and y
// are arguments (they may alias), so the output's adjoint is copied and
// zeroed first.
#id = affine_map<(i) -> (i)>
func.func @map(%x: memref<8xf64>, %y: memref<8xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<8xf64>) outs(%y : memref<8xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.exp %v : f64
    linalg.yield %e : f64
  }
  return
}
func.func @g(%x: memref<8xf64>, %y: memref<8xf64>, %dx: memref<8xf64>, %dy: memref<8xf64>) {
  moon.vjp @map(%x, %y, %dx, %dy) : (memref<8xf64>, memref<8xf64>, memref<8xf64>, memref<8xf64>) -> ()
  return
}
// CHECK-LABEL: func.func private @map_vjp_dd_
// CHECK: %[[P:.*]] = memref.alloc({{.*}}) : memref<?xf64>
// CHECK: call @moonrt_tape_note_alloc
// CHECK: linalg.generic {{.*}} ins(%arg0 : memref<8xf64>) outs(%arg1, %[[P]] : memref<8xf64>, memref<?xf64>)
// CHECK: %[[E:.*]] = math.exp
// CHECK: %[[D:.*]] = arith.mulf {{.*}}, %[[E]]
// CHECK: linalg.yield %[[E]], %[[D]]
// CHECK: memref.copy %arg3, %[[COPY:.*]] :
// CHECK: linalg.fill {{.*}} outs(%arg3 : memref<8xf64>)
// CHECK: linalg.generic {{.*}} ins(%[[COPY]], %[[P]] : memref<8xf64>, memref<?xf64>) outs(%arg2 : memref<8xf64>)
// CHECK-NEXT: ^bb0(%[[DY:.*]]: f64, %[[PI:.*]]: f64, %[[DX:.*]]: f64):
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[DY]], %[[PI]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[DX]], %[[T]]
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[COPY]]
// CHECK-NEXT: memref.dealloc %[[P]]
// CHECK-NEXT: call @moonrt_tape_note_free
// CHECK-NEXT: return

// -----

// The same map in place (one buffer as input and output, as a ReLU
// updates its activations): the input's adjoint replaces the output's,
// element by element, in one generic; no copy of the seed, no zero fill.
#id = affine_map<(i) -> (i)>
func.func @map_in_place(%x: memref<8xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<8xf64>) outs(%x : memref<8xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.exp %v : f64
    linalg.yield %e : f64
  }
  return
}
func.func @g(%x: memref<8xf64>, %dx: memref<8xf64>) {
  moon.vjp @map_in_place(%x, %dx) : (memref<8xf64>, memref<8xf64>) -> ()
  return
}
// CHECK-LABEL: func.func private @map_in_place_vjp_d_
// CHECK: %[[P:.*]] = memref.alloc({{.*}}) : memref<?xf64>
// CHECK: linalg.generic {{.*}} ins(%arg0 : memref<8xf64>) outs(%arg0, %[[P]] : memref<8xf64>, memref<?xf64>)
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%arg1, %[[P]] : memref<8xf64>, memref<?xf64>) outs(%arg1 : memref<8xf64>)
// CHECK-NEXT: ^bb0(%[[DY:.*]]: f64, %[[PI:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[T:.*]] = arith.mulf %[[DY]], %[[PI]]
// CHECK-NEXT: linalg.yield %[[T]]
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[P]]

// -----

// A loop summing f(x[i], s) whose sum's adjoint is known only after it
// (through log): the partial d f/dx[i] is stored per iteration, the one
// with respect to the invariant s summed in the loop, free to reassociate
// (the order of that sum is the derivative's, not the program's: an
// ordered one kept LLVM from vectorizing the forward loop); the reverse
// loop (backwards) only multiplies and adds.
func.func @sum(%x: memref<?xf64>, %s: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %s : f64
    %e = math.exp %p : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %r : f64
  return %l : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>, %s: f64) -> (f64, f64) {
  %r:2 = moon.value_and_grad @sum(%x, %s, %dx) : (memref<?xf64>, f64, memref<?xf64>) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
// CHECK-LABEL: func.func private @sum_vjp_da_a
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[P:.*]] = memref.alloc({{.*}}) : memref<?xf64>
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args
// CHECK: %[[K:.*]] = arith.divui
// CHECK: %[[E:.*]] = math.exp
// CHECK: %[[OLD:.*]] = memref.load %[[CELL]][]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} fastmath<reassoc> : f64
// CHECK: memref.store %[[NEW]], %[[CELL]][]
// CHECK: memref.store {{.*}}, %[[P]][%[[K]]]
// CHECK: %[[SBAR:.*]] = arith.divf %arg3, %{{.*}} : f64
// CHECK: scf.for
// CHECK: %[[PK:.*]] = memref.load %[[P]]
// CHECK: arith.mulf %[[SBAR]], %[[PK]]
// CHECK: memref.store {{.*}}, %arg2
// CHECK-NOT: math.exp
// CHECK: memref.load %[[CELL]][]
// CHECK: arith.mulf %[[SBAR]]

// -----

// A dot product w . x with x constant, whose sum's adjoint is known only
// after the loop: the partial with respect to w[i] is x[i], memory the
// call never writes, so the reverse loop loads it again; no tape.
func.func @dot(%w: memref<?xf64>, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %w, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = memref.load %w[%i] : memref<?xf64>
    %b = memref.load %x[%i] : memref<?xf64>
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %acc, %m : f64
    scf.yield %s : f64
  }
  %t = math.tanh %r : f64
  return %t : f64
}
func.func @h(%w: memref<?xf64>, %dw: memref<?xf64>, %x: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @dot(%w, %x, %dw) args [dup, const]
      : (memref<?xf64>, memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @dot_vjp_dc_a
// CHECK-NOT: memref.alloc
// CHECK-NOT: moonrt_tape_note_alloc
// CHECK: scf.for
// CHECK-NOT: memref.store
// CHECK: scf.yield
// CHECK: math.tanh
// CHECK: scf.for %{{.*}} {
// CHECK: %[[XI:.*]] = memref.load %arg1[
// CHECK: arith.mulf %{{.*}}, %[[XI]]
// CHECK: memref.store {{.*}}, %arg2[
// CHECK: return

// -----

// A sum whose adjoint is an argument, in a function that writes no
// memory: the adjoints are accumulated by the forward loop itself, and
// nothing is stored.
func.func @direct(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.sin %v : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @direct(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @direct_vjp_d_a
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args
// CHECK: math.sin
// CHECK: math.cos
// CHECK: %[[T:.*]] = arith.mulf %arg2, %{{.*}} : f64
// CHECK: %[[OLD:.*]] = memref.load %arg1[%[[I]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[T]]
// CHECK: memref.store %[[NEW]], %arg1[%[[I]]]
// CHECK: scf.yield
// CHECK-NOT: scf.for
// CHECK: return

// -----

// A max selection, then a loop over the same elements (GradBench's lse):
// the later loop finds the selected element as it goes, in a cell it
// picks the first equal element's index into; the scan after the reverse
// sweep only covers what that loop's range leaves out of the max loop's
// (and everything when an element outside it came first).
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @lse(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @lse_vjp_d_a
// CHECK: %[[M:.*]] = scf.for {{.*}} {
// CHECK: arith.maximumf
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<index>
// CHECK: memref.store %[[DIM:.*]], %[[CELL]][]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[DIM]] step
// CHECK: math.exp
// CHECK: %[[V:.*]] = memref.load %arg0[%[[I]]]
// CHECK: %[[HIT:.*]] = arith.cmpf oeq, %[[V]], %[[M]]
// CHECK: %[[CAND:.*]] = arith.select %[[HIT]], %[[I]], %[[DIM]]
// CHECK: %[[BEST:.*]] = memref.load %[[CELL]][]
// CHECK: %[[NEXT:.*]] = arith.minsi %[[BEST]], %[[CAND]]
// CHECK: memref.store %[[NEXT]], %[[CELL]][]
// CHECK: scf.yield
// CHECK: memref.load %[[CELL]][]
// CHECK: arith.cmpi ult
// CHECK: scf.for {{.*}} -> (index)
// CHECK: arith.cmpf oeq
// CHECK: arith.minsi
// CHECK: scf.for {{.*}} -> (index)
// CHECK-NOT: scf.for
// CHECK: return

// -----

// The same with the sum marked `fastmath<reassoc>`: that loop vectorizes
// its sum and is not waiting on it, so the scan stays after the reverse
// sweep (finding the element in the loop measured slower there).
func.func @lse_reassoc(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %x0 = memref.load %x[%c0] : memref<?xf64>
  %m = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %x0) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e fastmath<reassoc> : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @lse_reassoc(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}
// CHECK-LABEL: func.func private @lse_reassoc_vjp_d_a
// CHECK-NOT: memref<index>
// CHECK: math.exp
// CHECK: scf.for {{.*}} -> (index)
// CHECK: arith.cmpf oeq
// CHECK: arith.minsi
// CHECK-NOT: scf.for
// CHECK: return
