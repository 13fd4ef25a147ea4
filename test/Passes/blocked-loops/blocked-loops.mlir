// RUN: moonc-opt --moon-blocked-loops=min-offsets=4 %s | FileCheck %s
// RUN: moonc-opt --moon-blocked-loops %s | FileCheck %s --check-prefix=DEFAULT
// RUN: moonc-opt --moon-blocked-loops=min-offsets=4 %s | moonc-opt --moon-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: #[[DISABLE:.*]] = #llvm.loop_vectorize<disable = true>
// CHECK-DAG: #[[NOVEC:[a-z_0-9]*]] = #llvm.loop_annotation<vectorize = #[[DISABLE]]>
// CHECK-DAG: #[[NOUNROLL:[a-z_0-9]*]] = #llvm.loop_annotation<unroll = 

// A body over 4 adjacent elements from %i (%i + 0, ..., %i + 3) is a block:
// its loop is marked. The default, 16 offsets, leaves it alone.
// CHECK-LABEL: func.func @block(
// CHECK: scf.for
// CHECK: } {loop_annotation = #[[NOVEC]]}
// DEFAULT-LABEL: func.func @block(
// DEFAULT-NOT: loop_annotation
// DEFAULT-LABEL: func.func @tape(
// The annotation reaches the loop's back edge in the LLVM dialect.
// LLVM-LABEL: llvm.func @block(
// LLVM: llvm.br {{.*}} {loop_annotation = #
func.func @block(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %n step %c4 {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %c2, %i : index
    %i3 = arith.addi %i, %c3 : index
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %x[%i1] : memref<?xf64>
    %c = memref.load %x[%i2] : memref<?xf64>
    %d = memref.load %x[%i3] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    %t = arith.addf %c, %d : f64
    memref.store %s, %y[%i] : memref<?xf64>
    memref.store %t, %y[%i1] : memref<?xf64>
  }
  return
}

// Constant offsets in another position, from the same other indices (a
// tape record per iteration), count too; inside an scf.if as well.
// CHECK-LABEL: func.func @tape(
// CHECK: scf.for
// CHECK: } {loop_annotation = #[[NOVEC]]}
func.func @tape(%t: memref<?x4xf64>, %y: memref<?xf64>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %j = %c0 to %n step %c1 {
    scf.if %p {
      %a = memref.load %t[%j, %c0] : memref<?x4xf64>
      %b = memref.load %t[%j, %c1] : memref<?x4xf64>
      %c = memref.load %t[%j, %c2] : memref<?x4xf64>
      %d = memref.load %t[%j, %c3] : memref<?x4xf64>
      %s = arith.addf %a, %b : f64
      %u = arith.addf %c, %d : f64
      %v = arith.addf %s, %u : f64
      memref.store %v, %y[%j] : memref<?xf64>
    }
  }
  return
}

// Four elements at offsets from different bases, or of different buffers,
// are no block.
// CHECK-LABEL: func.func @scattered(
// CHECK-NOT: loop_annotation
// CHECK: return
func.func @scattered(%x: memref<?xf64>, %y: memref<?xf64>, %z: memref<?xf64>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %m : index
    %i1 = arith.addi %i, %c1 : index
    %k1 = arith.addi %k, %c1 : index
    %a = memref.load %x[%i] : memref<?xf64>
    %b = memref.load %x[%k1] : memref<?xf64>
    %c = memref.load %y[%i1] : memref<?xf64>
    %d = memref.load %z[%k] : memref<?xf64>
    %s = arith.addf %a, %b : f64
    %t = arith.addf %c, %d : f64
    %u = arith.addf %s, %t : f64
    memref.store %u, %x[%i] : memref<?xf64>
  }
  return
}

// Only the loop whose own body holds the block is marked, not the loop
// around it; a loop that has an annotation keeps it.
// CHECK-LABEL: func.func @nested(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: } {loop_annotation = #[[NOVEC]]}
// CHECK-NEXT: }
// CHECK-NOT: loop_annotation
// CHECK: } {loop_annotation = #[[NOUNROLL]]}
func.func @nested(%x: memref<?x4xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %z = arith.constant 0.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      memref.store %z, %x[%j, %c0] : memref<?x4xf64>
      memref.store %z, %x[%j, %c1] : memref<?x4xf64>
      memref.store %z, %x[%j, %c2] : memref<?x4xf64>
      memref.store %z, %x[%j, %c3] : memref<?x4xf64>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %z, %x[%i, %c0] : memref<?x4xf64>
    memref.store %z, %x[%i, %c1] : memref<?x4xf64>
    memref.store %z, %x[%i, %c2] : memref<?x4xf64>
    memref.store %z, %x[%i, %c3] : memref<?x4xf64>
  } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>}
  return
}
