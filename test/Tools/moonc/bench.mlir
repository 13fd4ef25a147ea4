// `moonc bench`: the primal's time, and for a function with exactly one
// float scalar result the value-and-gradient time through the VJP wrapper
// (grad_ns), its ratio to the primal's, and the peak bytes on moonrt's
// tape in one gradient call. Timings are not checked, only the report.

// RUN: moonc bench %s --entry sq --args '[1.5]' --time-ms 1 | FileCheck %s --check-prefix=GRAD
// GRAD: {"entry": "sq", "primal_ns": {{[0-9.]+}}, "primal_min_ns": {{[0-9.]+}}, "compile_ms": {{[0-9.]+}}, "samples": {{[0-9]+}}, "calls_per_sample": {{[0-9]+}}, "grad_ns": {{-?[0-9.]+}}, "ratio": {{-?[0-9.]+}}, "tape_peak_bytes": {{[0-9]+}}, "grad_compile_ms": {{[0-9.]+}}}{{$}}
func.func @sq(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}

// A memref argument: its shadow is zeroed before every gradient call
// (outside the timing).
// RUN: moonc bench %s --entry sum_sq --args '[[1.0, 2.0, 3.0]]' --time-ms 1 | FileCheck %s --check-prefix=MEMREF
// MEMREF: {"entry": "sum_sq", {{.*}}, "grad_ns": {{-?[0-9.]+}}, "ratio": {{-?[0-9.]+}}, "tape_peak_bytes": {{[0-9]+}}, "grad_compile_ms": {{[0-9.]+}}}{{$}}
func.func @sum_sq(%m: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %m[%i] : memref<?xf64>
    %vv = arith.mulf %v, %v : f64
    %next = arith.addf %acc, %vv : f64
    scf.yield %next : f64
  }
  return %s : f64
}

// The tape's peak counts 8 bytes per f64 or i64 and 4 per f32 pushed (this
// rule pushes one of each and pops them).
// RUN: moonc bench %s --entry taped --args '[1.5]' --time-ms 1 | FileCheck %s --check-prefix=TAPE
// TAPE: "tape_peak_bytes": 20, "grad_compile_ms": {{[0-9.]+}}}
func.func private @moonrt_tape_push_f64(f64)
func.func private @moonrt_tape_pop_f64() -> f64
func.func private @moonrt_tape_push_f32(f32)
func.func private @moonrt_tape_pop_f32() -> f32
func.func private @moonrt_tape_push_i64(i64)
func.func private @moonrt_tape_pop_i64() -> i64
func.func @taped(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @taped_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  %x32 = arith.truncf %x : f64 to f32
  %one = arith.constant 1 : i64
  func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
  func.call @moonrt_tape_push_f32(%x32) : (f32) -> ()
  func.call @moonrt_tape_push_i64(%one) : (i64) -> ()
  %y = arith.mulf %x, %x : f64
  %i = func.call @moonrt_tape_pop_i64() : () -> i64
  %f = func.call @moonrt_tape_pop_f32() : () -> f32
  %saved = func.call @moonrt_tape_pop_f64() : () -> f64
  %two = arith.constant 2.0 : f64
  %tx = arith.mulf %two, %saved : f64
  %dx = arith.mulf %tx, %dy : f64
  return %y, %dx : f64, f64
}
moon.custom_rule @taped vjp @taped_vjp

// --wrt times the gradient with respect to the arguments listed only (the
// others are constants).
// RUN: moonc bench %s --entry weighted --args '[[1.0, 2.0], [3.0, 4.0]]' --wrt 0 --time-ms 1 | FileCheck %s --check-prefix=WRT
// WRT: {"entry": "weighted", {{.*}}, "grad_ns": {{-?[0-9.]+}}, "ratio": {{-?[0-9.]+}}, "tape_peak_bytes": 0, "grad_compile_ms": {{[0-9.]+}}}{{$}}
func.func @weighted(%w: memref<2xf64>, %x: memref<2xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w0 = memref.load %w[%c0] : memref<2xf64>
  %w1 = memref.load %w[%c1] : memref<2xf64>
  %x0 = memref.load %x[%c0] : memref<2xf64>
  %x1 = memref.load %x[%c1] : memref<2xf64>
  %p0 = arith.mulf %w0, %x0 : f64
  %p1 = arith.mulf %w1, %x1 : f64
  %s = arith.addf %p0, %p1 : f64
  return %s : f64
}

// Other functions, and --primal-only, time the primal alone: no gradient
// keys (and no VJP is compiled).
// RUN: moonc bench %s --entry two --args '[1.5, 2.5]' --time-ms 1 | FileCheck %s --check-prefix=PRIMAL
// RUN: moonc bench %s --entry sq --args '[1.5]' --time-ms 1 --primal-only | FileCheck %s --check-prefix=PRIMAL
// PRIMAL: {"entry": "{{two|sq}}", "primal_ns": {{[0-9.]+}}, "primal_min_ns": {{[0-9.]+}}, "compile_ms": {{[0-9.]+}}, "samples": {{[0-9]+}}, "calls_per_sample": {{[0-9]+}}}{{$}}
func.func @two(%x: f64, %y: f64) -> (f64, f64) {
  return %y, %x : f64, f64
}

// A function calling moonrt's BLAS: the time per call inside it, for the
// primal and the gradient.
// RUN: moonc bench %s --entry dot --args '[[1.0, 2.0], [3.0, 4.0]]' --time-ms 1 | FileCheck %s --check-prefix=INBLAS
// INBLAS: {"entry": "dot", {{.*}}, "tape_peak_bytes": {{[0-9]+}}, "grad_compile_ms": {{[0-9.]+}}, "primal_blas_ns": {{[0-9.]+}}, "grad_blas_ns": {{[0-9.]+}}}{{$}}
// RUN: moonc bench %s --entry dot --args '[[1.0, 2.0], [3.0, 4.0]]' --time-ms 1 --primal-only | FileCheck %s --check-prefix=INBLAS-PRIMAL
// INBLAS-PRIMAL: "calls_per_sample": {{[0-9]+}}, "primal_blas_ns": {{[0-9.]+}}}{{$}}
!v = memref<?xf64, strided<[?], offset: ?>>
func.func private @moonrt_ddot(!v, !v) -> f64
func.func @dot(%x: memref<2xf64>, %y: memref<2xf64>) -> f64 {
  %xv = memref.cast %x : memref<2xf64> to !v
  %yv = memref.cast %y : memref<2xf64> to !v
  %d = func.call @moonrt_ddot(%xv, %yv) : (!v, !v) -> f64
  return %d : f64
}
