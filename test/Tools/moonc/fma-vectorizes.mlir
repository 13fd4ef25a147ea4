// math.fma reaches LLVM as the llvm.fma intrinsic (moon-math-before-libm),
// so the loop vectorizes (a libm `fma` call would stay scalar).
// RUN: moonc compile %s -o %t.ll --emit llvm
// RUN: FileCheck %s < %t.ll
// RUN: moonc run %s --entry fma_sum --args '[[1.0, 2.0, 3.0]]' | FileCheck %s --check-prefix=VALUE
// CHECK: call <{{[0-9]+}} x double> @llvm.fma.v{{[0-9]+}}f64(
// CHECK-NOT: @fma(
// VALUE: {"results": [15.5]
func.func @fma_sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %h = arith.constant 0.5 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %f = math.fma %v, %v, %h : f64
    %a = arith.addf %acc, %f : f64
    scf.yield %a : f64
  }
  return %s : f64
}
