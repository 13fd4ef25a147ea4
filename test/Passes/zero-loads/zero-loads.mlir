// RUN: moonc-opt --moon-zero-loads %s | FileCheck %s
// RUN: moonc-opt --moon-zero-loads %s | moonc-opt --moon-cpu-pipeline > /dev/null

// The reverse sweep's pattern (gmm's adjoint of Qxcentered): every
// iteration adds into the zeroed scratch adjoint %b, reads it, and zeroes
// it again counting down. The outer loop keeps %b zero, so the adding
// loop's load reads zero on every iteration; the zeroing loop's load reads
// what the adding loop stored and stays.
// CHECK-LABEL: func.func @scratch_adjoint(
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[Z]], %[[V]] : f64
// CHECK-NEXT: memref.store %[[S]], %[[B:.*]][%{{.*}}] : memref<?xf64>
// CHECK: scf.for
// CHECK: memref.load %[[B]]
// CHECK: memref.store %{{.*}}, %[[B]]
func.func @scratch_adjoint(%x: memref<?xf64>, %dx: memref<?xf64>, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %b = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%z : f64) outs(%b : memref<?xf64>)
  scf.for %k = %c0 to %m step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %x[%i] : memref<?xf64>
      %o = memref.load %b[%i] : memref<?xf64>
      %s = arith.addf %o, %v : f64
      memref.store %s, %b[%i] : memref<?xf64>
    }
    scf.for %r = %c0 to %n step %c1 {
      %last = arith.subi %n, %c1 : index
      %i = arith.subi %last, %r : index
      %v = memref.load %b[%i] : memref<?xf64>
      memref.store %z, %b[%i] : memref<?xf64>
      %d = memref.load %dx[%i] : memref<?xf64>
      %s = arith.addf %d, %v : f64
      memref.store %s, %dx[%i] : memref<?xf64>
    } {moon.reverse}
  }
  memref.dealloc %b : memref<?xf64>
  return
}

// Zeroed by a loop of stores (a fill after convert-linalg-to-loops) and
// read at a shifted index, counting down: the first access of each element
// is the load, which reads zero. A second loop over the same elements reads
// the first loop's stores and keeps its load, and so does a load at a
// constant index inside a loop (iterations after the first read the
// store of the one before).
// CHECK-LABEL: func.func @first_access(
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[B:.*]][
// CHECK: scf.for
// CHECK-NOT: memref.load %[[B]]
// CHECK: memref.store
// CHECK: scf.for
// CHECK: memref.load %[[B]]
// CHECK: scf.for
// CHECK: memref.load %[[B]]
func.func @first_access(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f64
  %b = memref.alloca(%n) : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %b[%i] : memref<?xf64>
  }
  %n1 = arith.subi %n, %c1 : index
  scf.for %r = %c0 to %n1 step %c1 {
    %last = arith.subi %n1, %c1 : index
    %i = arith.subi %last, %r : index
    %j = arith.addi %i, %c1 : index
    %v = memref.load %x[%i] : memref<?xf64>
    %o = memref.load %b[%j] : memref<?xf64>
    %s = arith.addf %o, %v : f64
    memref.store %s, %b[%j] : memref<?xf64>
  }
  scf.for %i = %c0 to %n1 step %c1 {
    %o = memref.load %b[%i] : memref<?xf64>
    %s = arith.addf %o, %o : f64
    memref.store %s, %b[%i] : memref<?xf64>
  }
  scf.for %i = %c0 to %n step %c1 {
    %o = memref.load %b[%c2] : memref<?xf64>
    %v = memref.load %x[%i] : memref<?xf64>
    %s = arith.addf %o, %v : f64
    memref.store %s, %b[%c2] : memref<?xf64>
  }
  %r = memref.load %b[%c0] : memref<?xf64>
  return %r : f64
}

// Left alone: a buffer filled with -0.0 (not +0.0), one passed to a call
// (the pass cannot follow it), one whose element is stored before it is
// loaded, one zeroed over part of its elements only, an outer loop that
// does not zero the buffer again (its adding loop's load reads zero on the
// first iteration only), and a loop that adds into one element (its load
// reads the store of the iteration before).
// CHECK-LABEL: func.func @kept(
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK-NOT: arith.constant 0.000000e+00 : f64
// CHECK: return
func.func private @use(memref<?xf64>)
func.func @kept(%x: memref<?xf64>, %n: index, %m: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %one = arith.constant 1.0 : f64
  %a = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%nz : f64) outs(%a : memref<?xf64>)
  %va = memref.load %a[%c0] : memref<?xf64>
  %b = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%z : f64) outs(%b : memref<?xf64>)
  func.call @use(%b) : (memref<?xf64>) -> ()
  %vb = memref.load %b[%c0] : memref<?xf64>
  %c = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%z : f64) outs(%c : memref<?xf64>)
  memref.store %one, %c[%c1] : memref<?xf64>
  %vc = memref.load %c[%c0] : memref<?xf64>
  %d = memref.alloc(%n) : memref<?xf64>
  scf.for %i = %c0 to %m step %c1 {
    memref.store %z, %d[%i] : memref<?xf64>
  }
  %vd = memref.load %d[%c0] : memref<?xf64>
  %e = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%z : f64) outs(%e : memref<?xf64>)
  scf.for %k = %c0 to %m step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %o = memref.load %e[%i] : memref<?xf64>
      %s = arith.addf %o, %one : f64
      memref.store %s, %e[%i] : memref<?xf64>
    }
  }
  %f = memref.alloc(%n) : memref<?xf64>
  linalg.fill ins(%z : f64) outs(%f : memref<?xf64>)
  scf.for %i = %c0 to %n step %c1 {
    %o = memref.load %f[%c0] : memref<?xf64>
    %v = memref.load %x[%i] : memref<?xf64>
    %s = arith.addf %o, %v : f64
    memref.store %s, %f[%c0] : memref<?xf64>
  }
  %s1 = arith.addf %va, %vb : f64
  %s2 = arith.addf %s1, %vc : f64
  %s3 = arith.addf %s2, %vd : f64
  memref.dealloc %a : memref<?xf64>
  memref.dealloc %b : memref<?xf64>
  memref.dealloc %c : memref<?xf64>
  memref.dealloc %d : memref<?xf64>
  memref.dealloc %e : memref<?xf64>
  memref.dealloc %f : memref<?xf64>
  return %s3 : f64
}
