// moon-fuse-partials: the generic that stores partials into a buffer and
// the later generic that applies them become one generic; a zero fill of
// the shadow before it is folded into a plain store.
// RUN: moonc-opt --moon-fuse-partials %s | FileCheck %s
// What reverse mode makes of sum(cos(exp(x))) fuses the same way:
// RUN: moonc-opt --moon-autodiff --moon-fuse-partials %s | FileCheck %s --check-prefix=AD

#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
#id2 = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all2 = affine_map<(i, j) -> ()>

// The partials' buffer goes; the scalar adjoint's cell, written between
// the two generics, moves above; the load of the sum stays after.
// CHECK-LABEL: func.func @applied(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?xf32>, %[[DX:[a-z0-9_]+]]: memref<?xf32>, %[[SEED:[a-z0-9_]+]]: f32)
// CHECK-NOT: memref.alloc(
// CHECK: %[[SUMCELL:.*]] = memref.alloca() : memref<f32>
// CHECK: memref.dim
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<f32>
// CHECK: memref.store %[[SEED]], %[[CELL]][]
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[X]], %[[CELL]] : memref<?xf32>, memref<f32>) outs(%[[SUMCELL]], %[[DX]] : memref<f32>, memref<?xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %[[S:.*]]: f32, %[[ACC:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK:   %[[E:.*]] = math.exp %[[IN]]
// CHECK:   %[[SUM:.*]] = arith.addf %[[ACC]]
// CHECK:   %[[P:.*]] = arith.mulf
// CHECK:   %[[G:.*]] = arith.mulf %[[S]], %[[P]]
// CHECK:   %[[NEW:.*]] = arith.addf %[[OUT]], %[[G]]
// CHECK:   linalg.yield %[[SUM]], %[[NEW]]
// CHECK: memref.load
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @applied(%x: memref<?xf32>, %dx: memref<?xf32>, %seed: f32) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %p = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc, %p : memref<f32>, memref<?xf32>) {
  ^bb0(%a: f32, %o: f32, %unused: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    %s = arith.addf %o, %c : f32
    %sin = math.sin %e : f32
    %d = arith.mulf %e, %sin : f32
    linalg.yield %s, %d : f32, f32
  }
  %r = memref.load %acc[] : memref<f32>
  %cell = memref.alloca() : memref<f32>
  memref.store %seed, %cell[] : memref<f32>
  linalg.generic {indexing_maps = [#all, #id, #id], iterator_types = ["parallel"]}
      ins(%cell, %p : memref<f32>, memref<?xf32>) outs(%dx : memref<?xf32>) {
  ^bb0(%s: f32, %pi: f32, %out: f32):
    %g = arith.mulf %s, %pi : f32
    %u = arith.addf %out, %g : f32
    linalg.yield %u : f32
  }
  memref.dealloc %p : memref<?xf32>
  return %r : f32
}

// A shadow filled with zero just before is stored, not added into.
// CHECK-LABEL: func.func @overwritten(
// CHECK-SAME: %[[X:[a-z0-9_]+]]: memref<?xf32>, %[[DX:[a-z0-9_]+]]: memref<?xf32>
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// CHECK-NOT: %[[OUT]]
// CHECK:   %[[G:.*]] = arith.mulf
// CHECK:   linalg.yield %{{.*}}, %[[G]]
func.func @overwritten(%x: memref<?xf32>, %dx: memref<?xf32>, %seed: f32) -> f32 {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%dx : memref<?xf32>)
  %acc = memref.alloca() : memref<f32>
  memref.store %zero, %acc[] : memref<f32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %p = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc, %p : memref<f32>, memref<?xf32>) {
  ^bb0(%a: f32, %o: f32, %unused: f32):
    %e = math.exp %a : f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s, %e : f32, f32
  }
  %r = memref.load %acc[] : memref<f32>
  %cell = memref.alloca() : memref<f32>
  memref.store %seed, %cell[] : memref<f32>
  linalg.generic {indexing_maps = [#all, #id, #id], iterator_types = ["parallel"]}
      ins(%cell, %p : memref<f32>, memref<?xf32>) outs(%dx : memref<?xf32>) {
  ^bb0(%s: f32, %pi: f32, %out: f32):
    %g = arith.mulf %s, %pi : f32
    %u = arith.addf %out, %g : f32
    linalg.yield %u : f32
  }
  memref.dealloc %p : memref<?xf32>
  return %r : f32
}

// Kept: the partials are summed over the rows (a broadcast input's
// adjoint), not applied element by element.
// CHECK-LABEL: func.func @summed(
// CHECK: memref.alloc(
// CHECK: linalg.generic
// CHECK: linalg.generic
func.func @summed(%x: memref<?xf32>, %w: memref<?x?xf32>, %dx: memref<?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %w, %c0 : memref<?x?xf32>
  %n = memref.dim %w, %c1 : memref<?x?xf32>
  %p = memref.alloc(%m, %n) : memref<?x?xf32>
  linalg.generic {indexing_maps = [#col, #id2, #all2, #id2], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : memref<?xf32>, memref<?x?xf32>) outs(%acc, %p : memref<f32>, memref<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %unused: f32):
    %e = arith.mulf %a, %b : f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s, %b : f32, f32
  }
  linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%p : memref<?x?xf32>) outs(%dx : memref<?xf32>) {
  ^bb0(%pi: f32, %out: f32):
    %u = arith.addf %out, %pi : f32
    linalg.yield %u : f32
  }
  memref.dealloc %p : memref<?x?xf32>
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}

// Kept: between the two, a store into the shadow of a value the first
// generic computed can go neither above it nor after the second.
// CHECK-LABEL: func.func @blocked(
// CHECK: memref.alloc(
// CHECK: linalg.generic
// CHECK: memref.store
// CHECK: linalg.generic
func.func @blocked(%x: memref<?xf32>, %dx: memref<?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %p = memref.alloc(%n) : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc, %p : memref<f32>, memref<?xf32>) {
  ^bb0(%a: f32, %o: f32, %unused: f32):
    %e = math.exp %a : f32
    %s = arith.addf %o, %e : f32
    linalg.yield %s, %e : f32, f32
  }
  %r = memref.load %acc[] : memref<f32>
  memref.store %r, %dx[%c0] : memref<?xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%p : memref<?xf32>) outs(%dx : memref<?xf32>) {
  ^bb0(%pi: f32, %out: f32):
    %u = arith.addf %out, %pi : f32
    linalg.yield %u : f32
  }
  memref.dealloc %p : memref<?xf32>
  return %r : f32
}

// AD-LABEL: func.func private @sce_vjp_d_a_o(
// AD-NOT: linalg.fill ins(%{{.*}}) outs(%arg1
// AD-NOT: memref.alloc(
// AD: linalg.generic {{.*}} ins(%arg0, %{{.*}} : memref<?xf32>, memref<f32>) outs(%{{.*}}, %arg1 : memref<f32>, memref<?xf32>)
// AD-NOT: linalg.generic
// AD: return
func.func @sce(%x: memref<?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}
func.func @sce_vg(%x: memref<?xf32>, %dx: memref<?xf32>) -> f32 {
  %one = arith.constant 1.0 : f32
  %r = moon.vjp @sce(%x, %dx, %one) {moon.overwrite_shadows} : (memref<?xf32>, memref<?xf32>, f32) -> f32
  return %r : f32
}
