// RUN: moonc-opt %s --split-input-file --moon-autodiff=parallel-reverse=1 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s --check-prefix=SEQ

// y[i] = sin(x[i]) * x[i]: each iteration owns x[i] and y[i], so the
// reverse is an scf.parallel with plain loads and stores into the shadows,
// and the forward sweep stays an scf.parallel that tapes by iteration.
// CHECK-LABEL: func.func private @map_vjp_dd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<?xf32>, %[[Y:[^:]*]]: memref<?xf32>, %[[DX:[^:]*]]: memref<?xf32>, %[[DY:[^:]*]]: memref<?xf32>)
// CHECK-NOT: scf.for
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: math.sin
// CHECK: memref.store %{{.*}}, %[[TAPE]][
// CHECK: scf.reduce
// CHECK: scf.parallel (%[[K:.*]]) =
// CHECK-NOT: memref.atomic_rmw
// CHECK: memref.load %[[DY]][%[[J:.*]]]
// CHECK: memref.store %{{.*}}, %[[DY]][%[[J]]]
// CHECK: math.cos
// CHECK: %[[OLD:.*]] = memref.load %[[DX]][%[[J]]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]]
// CHECK: memref.store %[[NEW]], %[[DX]][%[[J]]]
// CHECK-NEXT: scf.reduce
// CHECK-NOT: scf.for
// CHECK: return
// SEQ-LABEL: func.func private @map_vjp_dd_(
// SEQ-NOT: scf.parallel
// SEQ-NOT: memref.atomic_rmw
// SEQ: scf.for
// SEQ: scf.for
// SEQ-NOT: memref.atomic_rmw
// SEQ: return
func.func @map(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf32>
    %s = math.sin %v : f32
    %p = arith.mulf %s, %v : f32
    memref.store %p, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func @g(%x: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dy: memref<?xf32>) {
  moon.vjp @map(%x, %y, %dx, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// y[i] = x[i] * w[i mod k] * w[0]: iterations share elements of w, so
// dw gets atomic adds (both of them); dx[i] is owned, added to plainly.
// CHECK-LABEL: func.func private @scale_vjp_ddd_(
// CHECK-SAME: %[[DX:[^:]*]]: memref<?xf32>, %[[DW:[^:]*]]: memref<?xf32>, %[[DY:[^:]*]]: memref<?xf32>)
// CHECK: scf.parallel
// CHECK: scf.reduce
// CHECK: scf.parallel
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[DW]][%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK: memref.atomic_rmw addf %{{.*}}, %[[DW]][%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK-NOT: memref.atomic_rmw
// CHECK: %[[OLD:.*]] = memref.load %[[DX]][
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]]
// CHECK: memref.store %[[NEW]], %[[DX]][
// CHECK: scf.reduce
// CHECK: return
// SEQ-LABEL: func.func private @scale_vjp_ddd_(
// SEQ-NOT: scf.parallel
// SEQ-NOT: memref.atomic_rmw
// SEQ: return
func.func @scale(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %k = memref.dim %w, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %j = arith.remui %i, %k : index
    %v = memref.load %x[%i] : memref<?xf32>
    %u = memref.load %w[%j] : memref<?xf32>
    %b = memref.load %w[%c0] : memref<?xf32>
    %p = arith.mulf %v, %u : f32
    %q = arith.mulf %p, %b : f32
    memref.store %q, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func @g(%x: memref<?xf32>, %w: memref<?xf32>, %y: memref<?xf32>, %dx: memref<?xf32>, %dw: memref<?xf32>, %dy: memref<?xf32>) {
  moon.vjp @scale(%x, %w, %y, %dx, %dw, %dy) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  return
}

// -----

// A scalar with an adjoint used inside the loop would need an adjoint slot
// shared by all iterations: this nest keeps the sequential reverse.
// CHECK-LABEL: func.func private @scalar_vjp_da_(
// CHECK-NOT: scf.parallel
// CHECK-NOT: moon.parallel_nest
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK-NOT: scf.parallel
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @scalar(%y: memref<4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %s = math.sin %x : f64
    memref.store %s, %y[%i] : memref<4xf64>
    scf.reduce
  }
  return
}
func.func @h(%y: memref<4xf64>, %dy: memref<4xf64>, %x: f64) -> f64 {
  %r = moon.vjp @scalar(%y, %x, %dy) : (memref<4xf64>, f64, memref<4xf64>) -> f64
  return %r : f64
}
