// REQUIRES: x86_64
// RUN: moonc-opt --moon-flush-subnormals %s | FileCheck %s
// RUN: moonc-opt --moon-flush-subnormals=flush=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-cpu-pipeline %s | moonc-opt > /dev/null

// A reverse loop nest at the top of a function: the mode is read before
// it, flush-to-zero and denormals-are-zero (0x8040 = 32832) are set at
// the start of each outer iteration unless they are set already, and the
// mode is restored after it.
// CHECK-LABEL: func.func @nest(
// CHECK: %[[SAVED:.*]] = call @moon_fp_mode() : () -> i32
// CHECK: %[[FLAGS:.*]] = arith.constant 32832 : i32
// CHECK: %[[FLUSH:.*]] = arith.ori %[[SAVED]], %[[FLAGS]] : i32
// CHECK: scf.for
// CHECK-NEXT: call @moon_ensure_fp_mode(%[[FLUSH]]) : (i32) -> ()
// CHECK-NEXT: scf.for
// CHECK: } {moon.reverse}
// CHECK-NEXT: } {moon.reverse}
// CHECK-NEXT: call @moon_set_fp_mode(%[[SAVED]]) : (i32) -> ()
// CHECK-NEXT: return
// OFF-LABEL: func.func @nest(
// OFF-NOT: moon_fp_mode
// OFF: return
func.func @nest(%dl: memref<?x?xf64>, %x: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %xv = memref.load %x[%j] : memref<?xf64>
      %o = memref.load %dl[%i, %j] : memref<?x?xf64>
      %p = arith.mulf %o, %xv : f64
      memref.store %p, %dl[%i, %j] : memref<?x?xf64>
    } {moon.reverse}
  } {moon.reverse}
  return
}

// Left as they are: a reverse loop that holds no loop (a switch per call
// could cost more than the loop), a nest that calls a function (it could
// recompute primal values), and a loop of the forward sweep.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: moon_fp_mode
// CHECK: return
func.func private @g(f64) -> f64
func.func @kept(%x: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %v : f64
    memref.store %p, %x[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%j] : memref<?xf64>
      %p = func.call @g(%v) : (f64) -> f64
      %q = arith.mulf %p, %v : f64
      memref.store %q, %x[%j] : memref<?xf64>
    } {moon.reverse}
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %v, %v : f64
      memref.store %p, %x[%j] : memref<?xf64>
    }
  }
  return
}

// The switches, once per module, internal to it.
// CHECK: func.func private @moon_fp_mode() -> i32 attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: llvm.call_intrinsic "llvm.x86.sse.stmxcsr"
// CHECK: func.func private @moon_set_fp_mode(%{{.*}}: i32) attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: llvm.call_intrinsic "llvm.x86.sse.ldmxcsr"
// CHECK: func.func private @moon_ensure_fp_mode(%{{.*}}: i32) attributes {llvm.linkage = #llvm.linkage<internal>}
