// With --moon-parallel-min-trips, moon-cpu-pipeline makes independent loops
// OpenMP loops (moon-parallelize, convert-scf-to-openmp, the alloca scope
// inlined) and lowers their bodies to the LLVM dialect like any other code.
// RUN: moonc-opt --moon-parallel-min-trips=4096 --moon-cpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s --check-prefix=SERIAL

// CHECK-NOT: {{(scf|cf|memref|math|arith|func)\.}}
// CHECK-LABEL: llvm.func @scale(
// CHECK: llvm.mlir.constant(4096 : index)
// CHECK: omp.parallel {
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest
// CHECK: llvm.fmul
// CHECK: llvm.store
// CHECK: omp.yield
// SERIAL-NOT: omp.
func.func @scale(%x: memref<?xf64>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %a : f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}
