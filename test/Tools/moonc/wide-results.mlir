// A function of more than 16 scalar results returns them through memory
// its caller allocates (moonc-codegen's wide_results): LLVM's code
// generation and SCCP are quadratic in the width of a returned struct
// (3,000 doubles took 15 s to compile). A wrapper that returns another
// function's results passes its own memory on and copies nothing.
// RUN: moonc compile %s -o %t.ll --emit llvm
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// IR-NOT: ret { double
// IR: define internal {{.*}}void @parts(double {{[^,]*}}, ptr noalias
// IR-LABEL: define internal {{.*}}void @forward(
// IR-NOT: load
// IR-NOT: store
// IR: call {{.*}}void @parts(
// IR-NOT: load
// IR-NOT: store
// IR: ret void
// RUN: moonc run %s --entry sum --args '[2.0]' | FileCheck %s --check-prefix=SUM
// SUM: "results": [420.0]
// RUN: moonc run %s --entry all --args '[0.5]' | FileCheck %s --check-prefix=ALL
// ALL: "results": [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0, 8.5, 9.0, 9.5, 10.0]

func.func private @parts(%x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 1.0 : f64
  %r0 = arith.mulf %x, %c0 : f64
  %c1 = arith.constant 2.0 : f64
  %r1 = arith.mulf %x, %c1 : f64
  %c2 = arith.constant 3.0 : f64
  %r2 = arith.mulf %x, %c2 : f64
  %c3 = arith.constant 4.0 : f64
  %r3 = arith.mulf %x, %c3 : f64
  %c4 = arith.constant 5.0 : f64
  %r4 = arith.mulf %x, %c4 : f64
  %c5 = arith.constant 6.0 : f64
  %r5 = arith.mulf %x, %c5 : f64
  %c6 = arith.constant 7.0 : f64
  %r6 = arith.mulf %x, %c6 : f64
  %c7 = arith.constant 8.0 : f64
  %r7 = arith.mulf %x, %c7 : f64
  %c8 = arith.constant 9.0 : f64
  %r8 = arith.mulf %x, %c8 : f64
  %c9 = arith.constant 10.0 : f64
  %r9 = arith.mulf %x, %c9 : f64
  %c10 = arith.constant 11.0 : f64
  %r10 = arith.mulf %x, %c10 : f64
  %c11 = arith.constant 12.0 : f64
  %r11 = arith.mulf %x, %c11 : f64
  %c12 = arith.constant 13.0 : f64
  %r12 = arith.mulf %x, %c12 : f64
  %c13 = arith.constant 14.0 : f64
  %r13 = arith.mulf %x, %c13 : f64
  %c14 = arith.constant 15.0 : f64
  %r14 = arith.mulf %x, %c14 : f64
  %c15 = arith.constant 16.0 : f64
  %r15 = arith.mulf %x, %c15 : f64
  %c16 = arith.constant 17.0 : f64
  %r16 = arith.mulf %x, %c16 : f64
  %c17 = arith.constant 18.0 : f64
  %r17 = arith.mulf %x, %c17 : f64
  %c18 = arith.constant 19.0 : f64
  %r18 = arith.mulf %x, %c18 : f64
  %c19 = arith.constant 20.0 : f64
  %r19 = arith.mulf %x, %c19 : f64
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18, %r19 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}

func.func private @forward(%x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) attributes {passthrough = ["noinline"]} {
  %r:20 = func.call @parts(%x) : (f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}

func.func @sum(%x: f64) -> f64 {
  %r:20 = func.call @forward(%x) : (f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
  %s0 = arith.addf %r#0, %r#1 : f64
  %s1 = arith.addf %s0, %r#2 : f64
  %s2 = arith.addf %s1, %r#3 : f64
  %s3 = arith.addf %s2, %r#4 : f64
  %s4 = arith.addf %s3, %r#5 : f64
  %s5 = arith.addf %s4, %r#6 : f64
  %s6 = arith.addf %s5, %r#7 : f64
  %s7 = arith.addf %s6, %r#8 : f64
  %s8 = arith.addf %s7, %r#9 : f64
  %s9 = arith.addf %s8, %r#10 : f64
  %s10 = arith.addf %s9, %r#11 : f64
  %s11 = arith.addf %s10, %r#12 : f64
  %s12 = arith.addf %s11, %r#13 : f64
  %s13 = arith.addf %s12, %r#14 : f64
  %s14 = arith.addf %s13, %r#15 : f64
  %s15 = arith.addf %s14, %r#16 : f64
  %s16 = arith.addf %s15, %r#17 : f64
  %s17 = arith.addf %s16, %r#18 : f64
  %s18 = arith.addf %s17, %r#19 : f64
  return %s18 : f64
}

func.func @all(%x: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) {
  %r:20 = func.call @forward(%x) : (f64) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8, %r#9, %r#10, %r#11, %r#12, %r#13, %r#14, %r#15, %r#16, %r#17, %r#18, %r#19 : f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64
}
