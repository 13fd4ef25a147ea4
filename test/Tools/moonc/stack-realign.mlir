// Every function moonc compiles realigns its stack frame to what its spill
// slots need ("stackrealign"), so vectors spilled around libmvec calls do
// not straddle cache lines when the caller's stack is only 16-byte aligned.
// RUN: moonc compile %s -o %t.ll --emit llvm
// RUN: FileCheck %s < %t.ll
// CHECK: define {{.*}}@sum_exp({{.*}} #[[ATTRS:[0-9]+]]
// CHECK: attributes #[[ATTRS]] = {{{.*}}"stackrealign"
func.func @sum_exp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  return %s : f64
}
