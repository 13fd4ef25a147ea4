// RUN: moonc-opt --moon-short-update-loops %s | FileCheck %s
// RUN: moonc-opt --moon-short-update-loops=below=4 %s | FileCheck %s --check-prefix=BELOW
// RUN: moonc-opt --moon-short-update-loops=below=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: #[[NOVEC:[a-z_0-9]*]] = #llvm.loop_vectorize<disable = true>
// CHECK-DAG: #[[NOUNROLL:[a-z_0-9]*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[SCALAR:[a-z_0-9]*]] = #llvm.loop_annotation<vectorize = #[[NOVEC]], unroll = #[[NOUNROLL]]>
// OFF-NOT: scf.if
// OFF-NOT: loop_unroll

// GradBench gmm's Qtimesx: the triangular loop's inner loop updates `out`
// in place and is versioned on its trip count; the result it carries (the
// running index into `ltri`) comes out of the scf.if.
// CHECK-LABEL: func.func @qtimesx(
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[LI0:.*]] = {{.*}}) -> (index) {
// CHECK:   %[[I1:.*]] = arith.addi %[[I]]
// CHECK:   %[[SPAN:.*]] = arith.subi %[[D:.*]], %[[I1]] : index
// CHECK:   %[[C16:.*]] = arith.constant 16 : index
// CHECK:   %[[SHORT:.*]] = arith.cmpi slt, %[[SPAN]], %[[C16]] : index
// CHECK:   %[[R:.*]] = scf.if %[[SHORT]] -> (index) {
// CHECK:     %[[S:.*]] = scf.for %{{.*}} = %[[I1]] to %[[D]] {{.*}} iter_args(%{{.*}} = %[[LI0]]) -> (index) {
// CHECK:       memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK:       memref.store
// CHECK:     } {loop_annotation = #[[SCALAR]]}
// CHECK:     scf.yield %[[S]] : index
// CHECK:   } else {
// CHECK:     %[[V:.*]] = scf.for %{{.*}} = %[[I1]] to %[[D]] {{.*}} iter_args(%{{.*}} = %[[LI0]]) -> (index) {
// CHECK:       memref.store
// CHECK:     }{{$}}
// CHECK:     scf.yield %[[V]] : index
// CHECK:   }
// CHECK:   scf.yield %[[R]] : index
// BELOW-LABEL: func.func @qtimesx(
// BELOW: arith.constant 4 : index
// BELOW: arith.cmpi slt
// The scalar copy's annotation reaches its back edge in the LLVM dialect.
// LLVM-LABEL: llvm.func @qtimesx(
// LLVM: llvm.br {{.*}} {loop_annotation = #
func.func @qtimesx(%d: index, %ltri: memref<?xf64>, %x: memref<?xf64>,
                   %out: memref<?xf64>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = scf.for %i = %c0 to %d step %c1 iter_args(%li0 = %c0) -> index {
    %i1 = arith.addi %i, %c1 : index
    %li1 = scf.for %j = %i1 to %d step %c1 iter_args(%li = %li0) -> index {
      %ov = memref.load %out[%j] : memref<?xf64>
      %lv = memref.load %ltri[%li] : memref<?xf64>
      %xi = memref.load %x[%i] : memref<?xf64>
      %pr = arith.mulf %lv, %xi : f64
      %s = arith.addf %ov, %pr : f64
      memref.store %s, %out[%j] : memref<?xf64>
      %next = arith.addi %li, %c1 : index
      scf.yield %next : index
    }
    scf.yield %li1 : index
  }
  return %last : index
}

// Left alone: loops that update in place over the same range every time
// (at the top level, and inside a loop), a tile (both bounds move), a loop
// that only stores, one that loads another element than
// it stores, one whose updated element does not vary in the loop (a sum
// LLVM keeps in a register), one of constant bounds, a loop with a loop
// inside, a reverse sweep's loop and one moon-blocked-loops marked.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT: scf.if
// CHECK: return
func.func @left_alone(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %s = arith.addf %a, %two : f64
    memref.store %s, %x[%i] : memref<?xf64>
  }
  scf.for %k = %c0 to %n step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
    }
    %k8 = arith.addi %k, %c8 : index
    scf.for %i = %k to %k8 step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
    }
    scf.for %i = %k to %n step %c1 {
      memref.store %two, %x[%i] : memref<?xf64>
    }
    scf.for %i = %k to %n step %c1 {
      %i1 = arith.addi %i, %c1 : index
      %a = memref.load %x[%i1] : memref<?xf64>
      memref.store %a, %x[%i] : memref<?xf64>
    }
    scf.for %i = %k to %n step %c1 {
      %a = memref.load %y[%c0] : memref<?xf64>
      %b = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      memref.store %s, %y[%c0] : memref<?xf64>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
    }
    scf.for %i = %k to %n step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
      scf.for %j = %c0 to %n step %c1 {
        memref.store %two, %y[%j] : memref<?xf64>
      }
    }
    scf.for %i = %k to %n step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
    } {moon.reverse}
    scf.for %i = %k to %n step %c1 {
      %a = memref.load %x[%i] : memref<?xf64>
      %s = arith.addf %a, %two : f64
      memref.store %s, %x[%i] : memref<?xf64>
    } {loop_annotation = #llvm.loop_annotation<vectorize = <disable = true>>}
  }
  return
}
