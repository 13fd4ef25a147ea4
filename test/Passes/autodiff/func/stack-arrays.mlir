// RUN: moonc-opt %s --moon-autodiff | FileCheck %s
// RUN: moonc check %s --entry rotate --args '[[0.3,-0.2,0.5],[1.0,2.0,-1.5],[0,0,0]]' --wrt 0,1,2 | FileCheck %s --check-prefix=CHECKED

// A 3-vector kept in a local array and filled and read in loops of 3, as
// C code writes it (GradBench's ba, stack_arrays.rs): the loops are
// unrolled and SROA and mem2reg turn the array into values, so neither
// the derivative functions nor their tangents (width 3 here) touch a
// stack array.
// CHECK-LABEL: func.func private @rotate_vjp_ddd_(
// CHECK-NOT: memref.alloca
// CHECK: return
// CHECK-LABEL: func.func private @rotate_jvp_ddd__w3(
// CHECK-NOT: memref.alloca
// CHECK-NOT: scf.for
// CHECK: return
// CHECKED: check: PASS

!v3 = memref<3xf64, strided<[1], offset: ?>>

// out = pt * cos(|rot|) + (rot x pt) (w in a local array, w = rot * 2).
func.func private @cross(%a: !v3, %b: !v3, %out: !v3) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a0 = memref.load %a[%c0] : !v3
  %a1 = memref.load %a[%c1] : !v3
  %a2 = memref.load %a[%c2] : !v3
  %b0 = memref.load %b[%c0] : !v3
  %b1 = memref.load %b[%c1] : !v3
  %b2 = memref.load %b[%c2] : !v3
  %p0 = arith.mulf %a1, %b2 : f64
  %q0 = arith.mulf %a2, %b1 : f64
  %r0 = arith.subf %p0, %q0 : f64
  %p1 = arith.mulf %a2, %b0 : f64
  %q1 = arith.mulf %a0, %b2 : f64
  %r1 = arith.subf %p1, %q1 : f64
  %p2 = arith.mulf %a0, %b1 : f64
  %q2 = arith.mulf %a1, %b0 : f64
  %r2 = arith.subf %p2, %q2 : f64
  memref.store %r0, %out[%c0] : !v3
  memref.store %r1, %out[%c1] : !v3
  memref.store %r2, %out[%c2] : !v3
  return
}

func.func @rotate(%rot: memref<3xf64>, %pt: memref<3xf64>, %res: memref<3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f64
  %w = memref.alloca() : memref<3xf64>
  %wxp = memref.alloca() : memref<3xf64>
  scf.for %i = %c0 to %c3 step %c1 {
    %r = memref.load %rot[%i] : memref<3xf64>
    %wi = arith.mulf %r, %two : f64
    memref.store %wi, %w[%i] : memref<3xf64>
  }
  %wv = memref.cast %w : memref<3xf64> to !v3
  %pv = memref.cast %pt : memref<3xf64> to !v3
  %xv = memref.cast %wxp : memref<3xf64> to !v3
  func.call @cross(%wv, %pv, %xv) : (!v3, !v3, !v3) -> ()
  %sq = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %two) -> f64 {
    %wi = memref.load %w[%i] : memref<3xf64>
    %s = arith.mulf %wi, %wi : f64
    %a = arith.addf %acc, %s : f64
    scf.yield %a : f64
  }
  %c = math.cos %sq : f64
  scf.for %i = %c0 to %c3 step %c1 {
    %p = memref.load %pt[%i] : memref<3xf64>
    %x = memref.load %wxp[%i] : memref<3xf64>
    %pc = arith.mulf %p, %c : f64
    %r = arith.addf %pc, %x : f64
    memref.store %r, %res[%i] : memref<3xf64>
  }
  return
}

func.func @jvp3(%rot: memref<3xf64>, %pt: memref<3xf64>, %res: memref<3xf64>,
                %drot: memref<3x3xf64>, %dpt: memref<3x3xf64>, %dres: memref<3x3xf64>) {
  moon.jvp @rotate(%rot, %pt, %res, %drot, %dpt, %dres) width 3
      : (memref<3xf64>, memref<3xf64>, memref<3xf64>, memref<3x3xf64>, memref<3x3xf64>, memref<3x3xf64>) -> ()
  return
}
func.func @vjp(%rot: memref<3xf64>, %pt: memref<3xf64>, %res: memref<3xf64>,
               %drot: memref<3xf64>, %dpt: memref<3xf64>, %dres: memref<3xf64>) {
  moon.vjp @rotate(%rot, %pt, %res, %drot, %dpt, %dres)
      : (memref<3xf64>, memref<3xf64>, memref<3xf64>, memref<3xf64>, memref<3xf64>, memref<3xf64>) -> ()
  return
}
