// Moon and upstream passes run as flags and inside --pass-pipeline, and
// --mlir-print-ir-after-all shows each step.
// RUN: moonc-opt %s --moon-grad-to-vjp --canonicalize | FileCheck %s
// RUN: moonc-opt %s --pass-pipeline='builtin.module(moon-grad-to-vjp,func.func(canonicalize))' | FileCheck %s
// RUN: moonc-opt %s --moon-grad-to-vjp --canonicalize --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=DUMP

func.func private @f(f64) -> f64

// CHECK-LABEL: func.func @caller(
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[G:.*]] = moon.vjp @f(%arg0, %[[ONE]]) results [active_noneed]
// CHECK: return %[[G]]
func.func @caller(%x: f64) -> f64 {
  %unused = arith.addf %x, %x : f64
  %0 = moon.grad @f(%x) : (f64) -> f64
  return %0 : f64
}

// DUMP: // -----// IR Dump After {{.*}}(moon-grad-to-vjp) //----- //
// DUMP: moon.vjp
// DUMP: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// DUMP-NOT: arith.addf
