// RUN: moonc-opt %s --split-input-file --moon-inline-tape | FileCheck %s
// A second run changes nothing (the internal functions' calls of moonrt
// are their slow paths).
// RUN: moonc-opt %s --split-input-file --moon-inline-tape | moonc-opt --split-input-file --moon-inline-tape | FileCheck %s

// Each push and pop of the default tape goes through the thread's cursor,
// fetched once at the start of the function, and once at the start of a
// parallel loop's body (its iterations may run on other threads); the
// internal pushes and pops and moonrt's declarations are added once.
// CHECK-LABEL: func.func @sweep(
// CHECK-NEXT: %[[CUR:.*]] = call @moonrt_tape_cursor() : () -> !llvm.ptr
// CHECK: scf.for
// CHECK: func.call @moon_tape_push_f64(%[[CUR]], %{{.*}}) : (!llvm.ptr, f64) -> ()
// CHECK: func.call @moon_tape_push_i64(%[[CUR]], %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK: scf.parallel
// CHECK-NEXT: %[[MINE:.*]] = func.call @moonrt_tape_cursor() : () -> !llvm.ptr
// CHECK: func.call @moon_tape_push_f64(%[[MINE]], %{{.*}})
// CHECK: func.call @moon_tape_pop_f64(%[[MINE]]) : (!llvm.ptr) -> f64
// CHECK: scf.for
// CHECK: %{{.*}} = func.call @moon_tape_pop_i64(%[[CUR]]) : (!llvm.ptr) -> i64
// CHECK: %{{.*}} = func.call @moon_tape_pop_f64(%[[CUR]]) : (!llvm.ptr) -> f64
// CHECK-NOT: call @moonrt_tape_p
// CHECK-LABEL: func.func private @moon_tape_push_f64(
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>}
// CHECK: llvm.icmp "eq"
// CHECK: scf.if
// CHECK: func.call @moonrt_tape_push_f64(
// CHECK: llvm.store
// CHECK-LABEL: func.func private @moon_tape_pop_f64(
// CHECK: llvm.icmp "ugt"
// CHECK: func.func private @moonrt_tape_cursor() -> !llvm.ptr
func.func private @moonrt_tape_push_f64(f64)
func.func private @moonrt_tape_pop_f64() -> f64
func.func private @moonrt_tape_push_i64(i64)
func.func private @moonrt_tape_pop_i64() -> i64
func.func @sweep(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
    %k = arith.index_cast %i : index to i64
    func.call @moonrt_tape_push_i64(%k) : (i64) -> ()
  }
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
    %y = func.call @moonrt_tape_pop_f64() : () -> f64
    scf.reduce
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f64 {
    %k = func.call @moonrt_tape_pop_i64() : () -> i64
    %v = func.call @moonrt_tape_pop_f64() : () -> f64
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// -----

// moonrt's declarations that the internal functions call are added when
// the module lacks them.
// CHECK-LABEL: func.func @push_only(
// CHECK: call @moon_tape_push_f64(
// CHECK-DAG: func.func private @moonrt_tape_pop_f64() -> f64
// CHECK-DAG: func.func private @moonrt_tape_push_i64(i64)
// CHECK-DAG: func.func private @moonrt_tape_pop_i64() -> i64
// CHECK-DAG: func.func private @moonrt_tape_cursor() -> !llvm.ptr
func.func private @moonrt_tape_push_f64(f64)
func.func @push_only(%x: f64) {
  func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
  return
}

// -----

// A module without tape calls is left as it is.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: moon_tape
// CHECK-NOT: moonrt_tape_cursor
func.func @plain(%x: f64) -> f64 {
  return %x : f64
}
