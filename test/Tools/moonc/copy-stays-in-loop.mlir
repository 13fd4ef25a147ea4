// A loop that sums x[i] * y[i - 1] and also copies y[i - 1] into a fresh
// buffer t[i - 1] (as reverse mode's taping loops tape what they load)
// stays one loop: moonc turns off LLVM's loop-idiom memcpy formation
// (-disable-loop-idiom-memcpy, compiler/moonc-codegen/src/target.rs),
// which would otherwise move the copy into a memcpy call that reads y again.
// RUN: moonc compile %s -o %t.ll --emit llvm
// RUN: FileCheck %s < %t.ll
// RUN: moonc run %s --entry stage --args '[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]' | FileCheck %s --check-prefix=VALUE
// CHECK-LABEL: define {{.*}}@stage(
// CHECK-NOT: memcpy
// CHECK: ret double
// VALUE: {"results": [32.0]
func.func @stage(%x: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  %d = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %im1 = arith.subi %i, %c1 : index
    %xi = memref.load %x[%i] : memref<?xf64>
    %yi = memref.load %y[%im1] : memref<?xf64>
    %p = arith.mulf %xi, %yi : f64
    memref.store %yi, %t[%im1] : memref<?xf64>
    %a = arith.addf %acc, %p : f64
    scf.yield %a : f64
  }
  %m = arith.subi %n, %c1 : index
  %s = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %d) -> f64 {
    %v = memref.load %t[%i] : memref<?xf64>
    %a = arith.addf %acc, %v : f64
    scf.yield %a : f64
  }
  memref.dealloc %t : memref<?xf64>
  return %s : f64
}
