// moon-math-before-libm, which moon-cpu-pipeline runs just before
// convert-math-to-libm: that pass fails on every math op libm has no
// function for and calls a nonexistent `rsqrt`, so these ops are lowered
// first; the others are left for libm. The first RUN line runs the pass
// alone; the second (CPU) checks what its output becomes in
// moon-cpu-pipeline.
// RUN: moonc-opt %s --split-input-file --moon-math-before-libm | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-cpu-pipeline | FileCheck %s --check-prefix=CPU

// rsqrt is 1 / sqrt(x); the transcendental ops libm has stay math ops.
// CHECK-LABEL: func.func @rsqrt_and_libm(
// CHECK-SAME: %[[X:[^:]*]]: f64
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f64)
// CHECK: %[[S:.*]] = llvm.intr.sqrt(%[[X]])
// CHECK: %[[R:.*]] = llvm.fdiv %[[ONE]], %[[S]]
// CHECK: %[[E:.*]] = math.erfc %[[R]] : f64
// CHECK: return %[[E]]
// CPU-LABEL: llvm.func @rsqrt_and_libm(
// CPU-NOT: rsqrt
// CPU: llvm.intr.sqrt
// CPU: llvm.fdiv
// CPU: llvm.call @erfc(
func.func @rsqrt_and_libm(%x: f64) -> f64 {
  %r = math.rsqrt %x : f64
  %e = math.erfc %r : f64
  return %e : f64
}

// -----

// copysign, fma and the integer ops become LLVM intrinsics.
// CHECK-LABEL: func.func @intrinsics(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[N:[^:]*]]: i32
// CHECK-DAG: llvm.intr.copysign(%[[X]], %[[Y]]) : (f32, f32) -> f32
// CHECK-DAG: llvm.intr.fma(%[[X]], %[[Y]], %[[X]]) : (f32, f32, f32) -> f32
// CHECK-DAG: "llvm.intr.abs"(%[[N]]) <{is_int_min_poison = false}>
// CHECK-DAG: "llvm.intr.ctlz"(%[[N]]) <{is_zero_poison = false}>
// CHECK-DAG: "llvm.intr.cttz"(%[[N]]) <{is_zero_poison = false}>
// CHECK-DAG: llvm.intr.ctpop(%[[N]])
// CHECK-NOT: math.
// CHECK: return
// CPU-LABEL: llvm.func @intrinsics(
// CPU: llvm.intr.copysign
// CPU: llvm.intr.fma
// CPU-NOT: @fmaf
func.func @intrinsics(%x: f32, %y: f32, %n: i32) -> (f32, f32, i32, i32, i32, i32) {
  %c = math.copysign %x, %y : f32
  %f = math.fma %x, %y, %x : f32
  %a = math.absi %n : i32
  %l = math.ctlz %n : i32
  %t = math.cttz %n : i32
  %p = math.ctpop %n : i32
  return %c, %f, %a, %l, %t, %p : f32, f32, i32, i32, i32, i32
}

// -----

// The classification tests: isnan and isfinite are LLVM's is.fpclass (NaN:
// bits 0 and 1; finite: normal, subnormal and zero of either sign); isinf
// compares |x| with +inf, isnormal checks smallest normal <= |x| < +inf.
// CHECK-LABEL: func.func @classify(
// CHECK-SAME: %[[X:[^:]*]]: f64
// CHECK-DAG: "llvm.intr.is.fpclass"(%[[X]]) <{bit = 3 : i32}>
// CHECK-DAG: "llvm.intr.is.fpclass"(%[[X]]) <{bit = 504 : i32}>
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK-DAG: %[[MIN:.*]] = arith.constant 2.2250738585072014E-308 : f64
// CHECK-DAG: %[[A1:.*]] = math.absf %[[X]] : f64
// CHECK-DAG: arith.cmpf oeq, %[[A1]], %[[INF]] : f64
// CHECK-DAG: %[[A2:.*]] = math.absf %[[X]] : f64
// CHECK-DAG: %[[GE:.*]] = arith.cmpf oge, %[[A2]], %[[MIN]] : f64
// CHECK-DAG: %[[LT:.*]] = arith.cmpf olt, %[[A2]], %{{.*}} : f64
// CHECK-DAG: arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NOT: math.is
// CHECK: return
func.func @classify(%x: f64) -> (i1, i1, i1, i1) {
  %nan = math.isnan %x : f64
  %finite = math.isfinite %x : f64
  %inf = math.isinf %x : f64
  %normal = math.isnormal %x : f64
  return %nan, %finite, %inf, %normal : i1, i1, i1, i1
}

// -----

// sincos is a sin and a cos (libm calls, vectorized through libmvec like
// the others); clampf is MLIR's expansion of its definition,
// maximumf(minimumf(value, min), max).
// CHECK-LABEL: func.func @sincos_clampf(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[LO:[^:]*]]: f32, %[[HI:[^:]*]]: f32
// CHECK-DAG: %[[S:.*]] = math.sin %[[X]] : f32
// CHECK-DAG: %[[C:.*]] = math.cos %[[X]] : f32
// CHECK-DAG: %[[M:.*]] = arith.minimumf %[[X]], %[[LO]] : f32
// CHECK-DAG: %[[K:.*]] = arith.maximumf %[[M]], %[[HI]] : f32
// CHECK: return %[[S]], %[[C]], %[[K]]
// CPU-LABEL: llvm.func @sincos_clampf(
// CPU-DAG: llvm.call @sinf(
// CPU-DAG: llvm.call @cosf(
// CPU-DAG: llvm.intr.minimum
// CPU-DAG: llvm.intr.maximum
func.func @sincos_clampf(%x: f32, %lo: f32, %hi: f32) -> (f32, f32, f32) {
  %s, %c = math.sincos %x : f32
  %k = math.clampf %x to [%lo, %hi] : f32
  return %s, %c, %k : f32, f32, f32
}

// -----

// On n-D vectors, the ops convert-math-to-llvm takes only on 1-D vectors
// are applied to the flattened vector.
// CHECK-LABEL: func.func @vectors(
// CHECK-SAME: %[[X:[^:]*]]: vector<2x3xf32>, %[[N:[^:]*]]: vector<2x3xi64>
// CHECK-DAG: %[[FN:.*]] = vector.shape_cast %[[N]] : vector<2x3xi64> to vector<6xi64>
// CHECK-DAG: %[[A:.*]] = "llvm.intr.abs"(%[[FN]]) <{is_int_min_poison = false}> : (vector<6xi64>) -> vector<6xi64>
// CHECK-DAG: %[[RA:.*]] = vector.shape_cast %[[A]] : vector<6xi64> to vector<2x3xi64>
// CHECK-DAG: %[[FX:.*]] = vector.shape_cast %[[X]] : vector<2x3xf32> to vector<6xf32>
// CHECK-DAG: %[[NAN:.*]] = "llvm.intr.is.fpclass"(%[[FX]]) <{bit = 3 : i32}> : (vector<6xf32>) -> vector<6xi1>
// CHECK-DAG: %[[RN:.*]] = vector.shape_cast %[[NAN]] : vector<6xi1> to vector<2x3xi1>
// CHECK: return %[[RA]], %[[RN]]
// CPU-LABEL: llvm.func @vectors(
// CPU: llvm.intr.abs
// CPU: llvm.intr.is.fpclass
func.func @vectors(%x: vector<2x3xf32>, %n: vector<2x3xi64>) -> (vector<2x3xi64>, vector<2x3xi1>) {
  %a = math.absi %n : vector<2x3xi64>
  %nan = math.isnan %x : vector<2x3xf32>
  return %a, %nan : vector<2x3xi64>, vector<2x3xi1>
}
