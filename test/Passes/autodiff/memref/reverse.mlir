// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// FileCheck sees the general path (--moon-ndual-max-width=0); the fused
// N-wide dual path has its own tests in ../ndual/.

// load: dA[i] += dv (shadow load, addf, shadow store). Nothing writes the
// argument and the sum's seed is the cotangent argument, so the reverse of
// each iteration runs at its end, on its values: no tape, one loop.
// CHECK-LABEL: func.func private @sum_vjp_dc_a(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index, %[[DA:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: f64) -> f64
// CHECK-NOT: {{memref.alloc[ (]}}
// CHECK: scf.for %[[I:[^ ]*]] = %{{.*}} iter_args(%[[ACC:[^ ]*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: %[[SIN:.*]] = math.sin %[[V]] : f64
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[ACC]], %[[SIN]] : f64
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[V]] : f64
// CHECK-NEXT: %[[DV:.*]] = arith.mulf %[[S]], %[[COS]] : f64
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[DA]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DV]] : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[DA]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: scf.yield %[[T]] : f64
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @sum(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    %s = math.sin %v : f64
    %t = arith.addf %acc, %s : f64
    scf.yield %t : f64
  }
  return %r : f64
}
func.func @caller(%a: memref<?xf64>, %da: memref<?xf64>, %n: index, %s: f64) -> f64 {
  %r = moon.vjp @sum(%a, %n, %da, %s) : (memref<?xf64>, index, memref<?xf64>, f64) -> f64
  return %r : f64
}

// -----

// store: dv = dB[i], dB[i] = 0. B is written, and memref arguments may
// alias, so the load from A is taped (never reloaded in the reverse loop).
// CHECK-LABEL: func.func private @sq_vjp_dd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[B:[^:]*]]: memref<4xf64>, %[[DA:[^:]*]]: memref<4xf64>, %[[DB:[^:]*]]: memref<4xf64>)
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[K:.*]] = arith.divui
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[I]]] : memref<4xf64>
// CHECK: memref.store %{{.*}}, %[[B]][%[[I]]] : memref<4xf64>
// CHECK: memref.store %[[V]], %[[TAPE]][%[[K]]] : memref<?xf64>
// CHECK: scf.for %[[R:[^ ]*]] =
// CHECK: %[[RK:.*]] = arith.subi %{{.*}}, %[[R]] : index
// CHECK: %[[RI:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NOT: memref.load %[[A]]
// CHECK: %[[V2:.*]] = memref.load %[[TAPE]][%[[RK]]] : memref<?xf64>
// CHECK-NEXT: %[[DM:.*]] = memref.load %[[DB]][%[[RI]]] : memref<4xf64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: memref.store %[[Z]], %[[DB]][%[[RI]]] : memref<4xf64>
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[DM]], %[[V2]] : f64
// CHECK-NEXT: %[[Q:.*]] = arith.mulf %[[V2]], %[[DM]] : f64
// CHECK-NEXT: %[[DV:.*]] = arith.addf %[[P]], %[[Q]] : f64
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[DA]][%[[RI]]] : memref<4xf64>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DV]] : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[DA]][%[[RI]]] : memref<4xf64>
// CHECK: memref.dealloc %[[TAPE]]
func.func @sq(%a: memref<4xf64>, %b: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %v : f64
    memref.store %m, %b[%i] : memref<4xf64>
  }
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<4xf64>, %da: memref<4xf64>, %db: memref<4xf64>) {
  moon.vjp @sq(%a, %b, %da, %db) : (memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> ()
  return
}

// -----

// In-place update of a `dup` argument: the old A[i] is taped before it is
// overwritten; the store's reverse zeroes dA[i] and the load's reverse adds
// x * dA[i] back into it.
// CHECK-LABEL: func.func private @scale_vjp_da_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[X:[^:]*]]: f64, %[[DA:[^:]*]]: memref<4xf64>) -> f64
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[A]][%{{.*}}] : memref<4xf64>
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<4xf64>
// CHECK-NEXT: memref.store %[[V]], %[[TAPE]][%{{.*}}] : memref<?xf64>
// CHECK: scf.for
// CHECK: %[[V2:.*]] = memref.load %[[TAPE]]
// CHECK-NEXT: %[[DM:.*]] = memref.load %[[DA]][%[[I:.*]]] : memref<4xf64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: memref.store %[[Z]], %[[DA]][%[[I]]] : memref<4xf64>
// CHECK-NEXT: %[[DV:.*]] = arith.mulf %[[DM]], %[[X]] : f64
// CHECK-NEXT: %[[DX:.*]] = arith.mulf %[[V2]], %[[DM]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[DA]][%[[I]]] : memref<4xf64>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DV]] : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[DA]][%[[I]]] : memref<4xf64>
func.func @scale(%a: memref<4xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %x : f64
    memref.store %m, %a[%i] : memref<4xf64>
  }
  return
}
func.func @caller(%a: memref<4xf64>, %da: memref<4xf64>, %x: f64) -> f64 {
  %r = moon.vjp @scale(%a, %x, %da) : (memref<4xf64>, f64, memref<4xf64>) -> f64
  return %r : f64
}

// -----

// A buffer allocated in the function gets a zeroed shadow in the reverse
// sweep, freed where the reverse reaches its allocation.
// CHECK-LABEL: func.func private @local_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[M:.*]] = memref.alloc() : memref<2xf64>
// CHECK: memref.dealloc %[[M]] : memref<2xf64>
// CHECK-NEXT: %[[DM:.*]] = memref.alloc() : memref<2xf64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: linalg.fill ins(%[[Z]] : f64) outs(%[[DM]] : memref<2xf64>)
// CHECK: memref.store %{{.*}}, %[[DM]][%{{.*}}] : memref<2xf64>
// CHECK: %[[DS:.*]] = memref.load %[[DM]][%{{.*}}] : memref<2xf64>
// CHECK: %[[COS:.*]] = math.cos %[[X]] : f64
// CHECK-NEXT: arith.mulf %[[DS]], %[[COS]] : f64
// CHECK: memref.dealloc %[[DM]] : memref<2xf64>
// CHECK-NEXT: return
func.func @local(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<2xf64>
  %s = math.sin %x : f64
  memref.store %s, %m[%c0] : memref<2xf64>
  %v = memref.load %m[%c0] : memref<2xf64>
  %w = arith.mulf %v, %x : f64
  memref.dealloc %m : memref<2xf64>
  return %w : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @local(%x) : (f64) -> f64
  return %r : f64
}

// -----

// memref.copy A -> B: dA += dB (a generic), then dB = 0.
// CHECK-LABEL: func.func private @copy_vjp_dd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[B:[^:]*]]: memref<4xf64>, %[[DA:[^:]*]]: memref<4xf64>, %[[DB:[^:]*]]: memref<4xf64>)
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[DB]] : memref<4xf64>) outs(%[[DA]] : memref<4xf64>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[IN]], %[[OUT]] : f64
// CHECK-NEXT: linalg.yield %[[SUM]] : f64
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: linalg.fill ins(%[[Z]] : f64) outs(%[[DB]] : memref<4xf64>)
// CHECK-NEXT: return
func.func @copy(%a: memref<4xf64>, %b: memref<4xf64>) {
  memref.copy %a, %b : memref<4xf64> to memref<4xf64>
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<4xf64>, %da: memref<4xf64>, %db: memref<4xf64>) {
  moon.vjp @copy(%a, %b, %da, %db) : (memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> ()
  return
}

// -----

// memref.copy B -> B changes nothing: no adjoint code at all.
// CHECK-LABEL: func.func private @self_copy_vjp_d_(
// CHECK-SAME: %[[B:[^:]*]]: memref<4xf64>, %[[DB:[^:]*]]: memref<4xf64>)
// CHECK-NEXT: memref.copy %[[B]], %[[B]]
// CHECK-NEXT: return
func.func @self_copy(%b: memref<4xf64>) {
  memref.copy %b, %b : memref<4xf64> to memref<4xf64>
  return
}
func.func @self_copy_caller(%b: memref<4xf64>, %db: memref<4xf64>) {
  moon.vjp @self_copy(%b, %db) : (memref<4xf64>, memref<4xf64>) -> ()
  return
}

// -----

// A view of an argument: its shadow is the same view of the shadow, on
// the same induction variable (here in the forward loop, which runs the
// reverse of each iteration at its end).
// CHECK-LABEL: func.func private @view_vjp_dc_n(
// CHECK-SAME: %[[A:[^:]*]]: memref<8xf64>, %[[N:[^:]*]]: index, %[[DA:[^:]*]]: memref<8xf64>, %[[S:[^:]*]]: f64)
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK: %[[DV:.*]] = memref.subview %[[DA]][%[[I]]] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: ?>>
// CHECK: %[[OLD:.*]] = memref.load %[[DV]][%{{.*}}]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK-NEXT: memref.store %[[NEW]], %[[DV]][%{{.*}}]
func.func @view(%a: memref<8xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.subview %a[%i] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: ?>>
    %e = memref.load %v[%c1] : memref<4xf64, strided<[1], offset: ?>>
    %t = arith.mulf %e, %e : f64
    %s = arith.addf %acc, %t : f64
    scf.yield %s : f64
  }
  return %r : f64
}
func.func @caller(%a: memref<8xf64>, %da: memref<8xf64>, %n: index) {
  moon.grad @view(%a, %n, %da) : (memref<8xf64>, index, memref<8xf64>) -> ()
  return
}

// -----

// A buffer the function writes is read back by the reverse sweep, not
// taped, when every write to it comes before the top-level operation that
// loads it: here t is filled by the first loop and only read by the
// second, so the reverse of the second loop loads t[i] again. Its
// deallocation moves to the end of the reverse sweep. (exp(x[i]), which
// the first loop's reverse needs, is still taped.)
// CHECK-LABEL: func.func private @reread_vjp_d_a(
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[T]][
// CHECK: memref.store %{{.*}}, %[[TAPE]][
// CHECK: scf.for
// CHECK: memref.load %[[T]][
// CHECK-NOT: memref.dealloc %[[T]]
// CHECK: scf.for
// CHECK: %[[I:.*]] = arith.addi
// CHECK-NEXT: %[[V:.*]] = memref.load %[[T]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: arith.mulf %{{.*}}, %[[V]] : f64
// CHECK: scf.for
// CHECK: memref.load %[[TAPE]]
// CHECK: memref.dealloc %[[T]] : memref<?xf64>
// CHECK-NOT: memref.store {{.*}} %[[T]]
// CHECK: return
func.func @reread(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %t[%i] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  memref.dealloc %t : memref<?xf64>
  %r = arith.mulf %s, %s : f64
  return %r : f64
}
func.func @caller(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @reread(%x, %dx, %one) args [dup] : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

// -----

// The same buffer written again after the loop that reads it: the reverse
// sweep would see the later contents, so the load is taped (the exp keeps
// it from being recomputed as the filling loop computes it; the filling
// loop tapes its exp).
// CHECK-LABEL: func.func private @rewritten_vjp_d_a(
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: math.exp
// CHECK: %[[TAPE:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load %[[T]][
// CHECK: memref.store %[[V]], %[[TAPE]][
// CHECK: memref.dealloc %[[T]] : memref<?xf64>
// CHECK-NOT: memref.load %[[T]][
// CHECK: return
func.func @rewritten(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %t[%i] : memref<?xf64>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %t[%i] : memref<?xf64>
    %sq = arith.mulf %v, %v : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %t[%i] : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  %r = arith.mulf %s, %s : f64
  return %r : f64
}
func.func @caller(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %r = moon.vjp @rewritten(%x, %dx, %one) args [dup] : (memref<?xf64>, memref<?xf64>, f64) -> f64
  return %r : f64
}

// -----

// An in-place update `a[i] += x[i] * 2`: the reverse of its store reads
// da[i] and zeroes it, and the reverse of its load adds da[i] back with
// `nsz` (rules/memref.rs), which lets LLVM fold 0 + da[i] and leave da
// alone; the other accumulation (into dx) is a plain addf.
// CHECK-LABEL: func.func private @update_vjp_dd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[X:[^:]*]]: memref<?xf64>, %[[DA:[^:]*]]: memref<?xf64>, %[[DX:[^:]*]]: memref<?xf64>)
// CHECK: %[[G:.*]] = memref.load %[[DA]][%[[I:.*]]] : memref<?xf64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: memref.store %[[Z]], %[[DA]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: %[[OLD:.*]] = memref.load %[[DA]][%[[I]]] : memref<?xf64>
// CHECK-NEXT: arith.addf %[[OLD]], %[[G]] fastmath<nsz> : f64
// CHECK: %[[OLDX:.*]] = memref.load %[[DX]][
// CHECK-NEXT: arith.addf %[[OLDX]], %{{.*}} : f64
func.func @update(%a: memref<?xf64>, %x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n = memref.dim %a, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf64>
    %v = arith.mulf %xi, %two : f64
    %ai = memref.load %a[%i] : memref<?xf64>
    %s = arith.addf %ai, %v : f64
    memref.store %s, %a[%i] : memref<?xf64>
  }
  return
}
func.func @update_caller(%a: memref<?xf64>, %x: memref<?xf64>, %da: memref<?xf64>, %dx: memref<?xf64>) {
  moon.vjp @update(%a, %x, %da, %dx) args [dup, dup] : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  return
}
