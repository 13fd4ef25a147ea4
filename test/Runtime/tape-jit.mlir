// Compiled code reaches moonrt's default tape by name: the JIT resolves
// the moonrt_tape_* functions (moonrt::jit_symbols). A loop pushes 1000
// f64, f32 and i64 values, a second loop pops them in reverse, and the
// function returns the f64 it popped last, the sums of what it popped (so
// every value came back), the tape's bytes in use afterwards, its peak
// (1000 * 20 bytes plus a noted 4096-byte allocation), and the value a pop
// of the empty tape returns. That pop reports an error, which fails the
// run after its results are printed.
// RUN: not moonc run %s 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// CHECK: {"results": [0.5, 500000.0, 499500.0, -499500, 0, 24096, 0.0], "args": []}
// ERR: moonc: error: @tape reported an error: moonrt_tape_pop_f64: the tape is empty

func.func private @moonrt_tape_push_f64(f64)
func.func private @moonrt_tape_pop_f64() -> f64
func.func private @moonrt_tape_push_f32(f32)
func.func private @moonrt_tape_pop_f32() -> f32
func.func private @moonrt_tape_push_i64(i64)
func.func private @moonrt_tape_pop_i64() -> i64
func.func private @moonrt_tape_note_alloc(i64)
func.func private @moonrt_tape_note_free(i64)
func.func private @moonrt_tape_peak_bytes() -> i64
func.func private @moonrt_tape_reset_peak()
func.func private @moonrt_tape_bytes_in_use() -> i64

func.func @tape() -> (f64, f64, f32, i64, i64, i64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1000 : index
  %half = arith.constant 0.5 : f64
  %zero = arith.constant 0.0 : f64
  %zero32 = arith.constant 0.0 : f32
  %zeroi = arith.constant 0 : i64
  %bytes = arith.constant 4096 : i64
  func.call @moonrt_tape_reset_peak() : () -> ()
  func.call @moonrt_tape_note_alloc(%bytes) : (i64) -> ()
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %x = arith.addf %f, %half : f64
    %x32 = arith.sitofp %ii : i64 to f32
    %neg = arith.subi %zeroi, %ii : i64
    func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
    func.call @moonrt_tape_push_f32(%x32) : (f32) -> ()
    func.call @moonrt_tape_push_i64(%neg) : (i64) -> ()
  }
  func.call @moonrt_tape_note_free(%bytes) : (i64) -> ()
  %s:4 = scf.for %i = %c0 to %n step %c1
      iter_args(%sx = %zero, %s32 = %zero32, %si = %zeroi, %last = %zero) -> (f64, f32, i64, f64) {
    %k = func.call @moonrt_tape_pop_i64() : () -> i64
    %y = func.call @moonrt_tape_pop_f32() : () -> f32
    %x = func.call @moonrt_tape_pop_f64() : () -> f64
    %nx = arith.addf %sx, %x : f64
    %ny = arith.addf %s32, %y : f32
    %nk = arith.addi %si, %k : i64
    scf.yield %nx, %ny, %nk, %x : f64, f32, i64, f64
  }
  %top = func.call @moonrt_tape_pop_f64() : () -> f64
  %in_use = func.call @moonrt_tape_bytes_in_use() : () -> i64
  %peak = func.call @moonrt_tape_peak_bytes() : () -> i64
  return %s#3, %s#0, %s#1, %s#2, %in_use, %peak, %top : f64, f64, f32, i64, i64, i64, f64
}
