// moon-convert-to-llvm: arith (with arith-expand's ceildivsi), math, memref
// (aligned_alloc), index, cf (with cf.assert), ub and func reach the LLVM
// dialect in one pass, and the casts between them are gone. Function bodies
// are converted on every MLIR thread first, then the functions themselves:
// the output is the same with threads and without.
// RUN: moonc-opt %s --split-input-file --moon-convert-to-llvm | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-convert-to-llvm --mlir-disable-threading | FileCheck %s

// CHECK-DAG: llvm.func @abort()
// CHECK-DAG: llvm.func @free(!llvm.ptr)
// CHECK-DAG: llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr
// CHECK-DAG: llvm.mlir.global private constant @assert_msg_0
// CHECK-DAG: llvm.func @helper(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64) -> f64
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[BASE:[^:]*]]: !llvm.ptr, %[[DATA:[^:]*]]: !llvm.ptr, {{.*}}, %[[I:[^:]*]]: i64, %[[N:[^:]*]]: i64) -> !llvm.struct<(f64, i64)>
// CHECK-NOT: unrealized_conversion_cast
// CHECK: %[[P:.*]] = llvm.getelementptr inbounds|nuw %{{.*}}[%[[I]]]
// CHECK: %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> f64
// CHECK: %[[S:.*]] = llvm.intr.sqrt(%[[V]]) : (f64) -> f64
// CHECK: %[[H:.*]] = llvm.call @helper(
// CHECK: %[[W:.*]] = llvm.fadd %[[S]], %[[H]] : f64
// CHECK: llvm.sdiv %[[N]],
// CHECK: %[[Q:.*]] = llvm.select
// CHECK: %[[B:.*]] = llvm.call @aligned_alloc(
// CHECK: llvm.store %[[W]],
// CHECK: llvm.call @free(
// CHECK: llvm.cond_br
// CHECK: llvm.return
// CHECK: llvm.call @puts(
// CHECK: llvm.call @abort()
// CHECK-NOT: unrealized_conversion_cast
func.func private @helper(%x: memref<?xf64>, %i: index) -> f64

func.func @f(%x: memref<?xf64>, %i: index, %n: i64) -> (f64, i64) {
  %v = memref.load %x[%i] : memref<?xf64>
  %s = math.sqrt %v : f64
  %h = func.call @helper(%x, %i) : (memref<?xf64>, index) -> f64
  %w = arith.addf %s, %h : f64
  %c3 = arith.constant 3 : i64
  %q = arith.ceildivsi %n, %c3 : i64
  %b = memref.alloc(%i) : memref<?xf64>
  memref.store %w, %b[%i] : memref<?xf64>
  memref.dealloc %b : memref<?xf64>
  %ok = arith.cmpi sge, %n, %c3 : i64
  cf.assert %ok, "n is at least 3"
  return %w, %q : f64, i64
}

// -----

// Many functions that allocate share one declaration of aligned_alloc;
// index and ub ops are lowered with the rest, and calls between the
// functions see the converted signatures.
// CHECK-COUNT-1: llvm.func @aligned_alloc(
// CHECK-NOT: llvm.func @aligned_alloc(
// CHECK-LABEL: llvm.func @g0(
// CHECK: llvm.mlir.poison : i64
// CHECK: llvm.add
// CHECK-LABEL: llvm.func @g1(
// CHECK: llvm.call @g0(
// CHECK-LABEL: llvm.func @g2(
// CHECK: llvm.call @g1(
func.func @g0(%n: index) -> index {
  %b = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %p = ub.poison : index
  %s = index.add %n, %p
  return %s : index
}
func.func @g1(%n: index) -> index {
  %b = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = func.call @g0(%n) : (index) -> index
  return %r : index
}
func.func @g2(%n: index) -> index {
  %b = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %r = func.call @g1(%n) : (index) -> index
  return %r : index
}
