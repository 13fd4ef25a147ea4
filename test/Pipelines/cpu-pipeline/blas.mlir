// moon-cpu-pipeline hands linalg products of at least --moon-blas-min-flops
// multiply-adds to moonrt's BLAS (moon-linalg-to-blas, before linalg
// becomes loops), through the C interface; 0 turns that off, and smaller
// products become loops.
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --moon-blas-min-flops=100000 --moon-cpu-pipeline %s | FileCheck %s --check-prefix=HIGH
// RUN: moonc-opt --moon-blas-min-flops=0 --moon-cpu-pipeline %s | FileCheck %s --check-prefix=OFF

// CHECK-NOT: {{(scf|cf|memref|arith|linalg|func)\.}}
// CHECK-LABEL: llvm.func @big(
// CHECK: llvm.call @moonrt_dgemm(
// CHECK-LABEL: llvm.func @small(
// CHECK-NOT: llvm.call
// CHECK: llvm.fmul
// CHECK-LABEL: llvm.func private @moonrt_dgemm(
// CHECK: llvm.call @_mlir_ciface_moonrt_dgemm(
// CHECK: llvm.func @_mlir_ciface_moonrt_dgemm(i32, i32, f64, !llvm.ptr, !llvm.ptr, f64, !llvm.ptr)
// HIGH-NOT: moonrt
// OFF-NOT: moonrt
func.func @big(%a: memref<64x32xf64>, %b: memref<32x16xf64>, %c: memref<64x16xf64>) {
  linalg.matmul ins(%a, %b : memref<64x32xf64>, memref<32x16xf64>) outs(%c : memref<64x16xf64>)
  return
}
func.func @small(%a: memref<4x8xf64>, %b: memref<8x2xf64>, %c: memref<4x2xf64>) {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x2xf64>) outs(%c : memref<4x2xf64>)
  return
}
