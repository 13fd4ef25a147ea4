// Private functions get internal linkage in LLVM, so LLVM may inline one
// into its only caller and drop it (with external linkage @fact would stay
// defined); public ones stay external.
// RUN: moonc compile %s -o %t.ll --emit llvm
// RUN: FileCheck %s < %t.ll
// CHECK-NOT: define {{.*}}@fact(
// CHECK: define double @entry(
// CHECK-NOT: define {{.*}}@fact(
func.func private @fact(%n: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %small = arith.cmpi sle, %n, %c1 : i64
  %r = scf.if %small -> i64 {
    scf.yield %c1 : i64
  } else {
    %m = arith.subi %n, %c1 : i64
    %f = func.call @fact(%m) : (i64) -> i64
    %p = arith.muli %n, %f : i64
    scf.yield %p : i64
  }
  return %r : i64
}
func.func @entry(%n: i64) -> f64 {
  %f = func.call @fact(%n) : (i64) -> i64
  %d = arith.sitofp %f : i64 to f64
  return %d : f64
}
