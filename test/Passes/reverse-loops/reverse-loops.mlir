// RUN: moonc-opt --moon-reverse-loops %s | FileCheck %s
// RUN: moonc-opt --moon-reverse-loops=no-unroll=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-reverse-loops %s | moonc-opt --moon-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: #[[NOUNROLL:[a-z_0-9]*]] = #llvm.loop_unroll<disable = true>
// CHECK-DAG: #[[NOVEC:[a-z_0-9]*]] = #llvm.loop_vectorize<disable = true>
// CHECK-DAG: #[[ANNOTATION:[a-z_0-9]*]] = #llvm.loop_annotation<unroll = #[[NOUNROLL]]>
// CHECK-DAG: #[[BOTH:[a-z_0-9]*]] = #llvm.loop_annotation<vectorize = #[[NOVEC]], unroll = #[[NOUNROLL]]>
// OFF-NOT: loop_unroll<disable

// A reverse loop over a run-time range is marked; the forward loop beside
// it and a reverse loop of constant bounds are not.
// CHECK-LABEL: func.func @marked(
// CHECK: scf.for
// CHECK: } {loop_annotation = #[[ANNOTATION]], moon.reverse}
// CHECK: scf.for
// CHECK: }{{$}}
// CHECK: scf.for
// CHECK: } {moon.reverse}
// The mark reaches the loop's back edge in the LLVM dialect.
// LLVM-LABEL: llvm.func @marked(
// LLVM: llvm.br {{.*}} {loop_annotation = #
func.func @marked(%x: memref<?xf64>, %dx: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %d = memref.load %dx[%i] : memref<?xf64>
    %p = arith.mulf %a, %two : f64
    %s = arith.addf %d, %p : f64
    memref.store %s, %dx[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    memref.store %two, %x[%i] : memref<?xf64>
  }
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %two, %dx[%i] : memref<?xf64>
  } {moon.reverse}
  return
}

// A loop that moon-blocked-loops marked keeps its mark and gains the
// unroll setting; one already told how to unroll is left alone.
// CHECK-LABEL: func.func @annotated(
// CHECK: } {loop_annotation = #[[BOTH]], moon.reverse}
// CHECK: } {loop_annotation = #{{.*}}, moon.reverse}
func.func @annotated(%x: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    memref.store %two, %x[%i] : memref<?xf64>
  } {loop_annotation = #llvm.loop_annotation<vectorize = <disable = true>>, moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    memref.store %two, %x[%i] : memref<?xf64>
  } {loop_annotation = #llvm.loop_annotation<unroll = <count = 4>>, moon.reverse}
  return
}
