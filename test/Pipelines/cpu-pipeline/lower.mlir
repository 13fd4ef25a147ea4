// moon-cpu-pipeline lowers every input dialect to the LLVM dialect: loops
// become branches, memrefs descriptor structs, math libm calls or LLVM
// intrinsics, linalg loops.
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --pass-pipeline='builtin.module(moon-cpu-pipeline)' %s | FileCheck %s

// CHECK-NOT: {{(scf|cf|memref|math|arith|linalg|vector|index|func)\.}}
// CHECK-DAG: llvm.func @tanh(f64) -> f64
// CHECK-DAG: llvm.func @expm1(f64) -> f64
// CHECK-DAG: llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr

// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) -> f64
// CHECK: llvm.cond_br
// CHECK: llvm.call @tanh
// CHECK: llvm.call @expm1
// CHECK: llvm.call @sqrt
// CHECK: llvm.fadd
func.func @loop(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %t = math.tanh %v : f64
    %e = math.expm1 %t : f64
    %r = math.sqrt %e : f64
    %next = arith.addf %acc, %r : f64
    scf.yield %next : f64
  }
  return %sum : f64
}

// CHECK-LABEL: llvm.func @matmul(
// CHECK: llvm.fmul
// CHECK: llvm.fadd
// CHECK: llvm.store
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x4xf32>) outs(%c : memref<2x4xf32>)
  return
}

// CHECK-LABEL: llvm.func @views(
// CHECK: llvm.call @aligned_alloc
// CHECK: llvm.call @memrefCopy
func.func @views(%a: memref<4x4xf64>) -> memref<2x2xf64> {
  %s = memref.subview %a[1, 1][2, 2][1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1], offset: 5>>
  %t = memref.alloc() : memref<2x2xf64>
  memref.copy %s, %t : memref<2x2xf64, strided<[4, 1], offset: 5>> to memref<2x2xf64>
  %i = index.constant 0
  return %t : memref<2x2xf64>
}

// CHECK-LABEL: llvm.func @vectors(
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
func.func @vectors(%a: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0], %pad {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  %w = arith.mulf %v, %v : vector<4xf32>
  vector.transfer_write %w, %a[%c0] {in_bounds = [true]} : vector<4xf32>, memref<8xf32>
  return
}

// A loop over blocks of 16 adjacent elements is left to LLVM's SLP
// vectorizer (moon-blocked-loops): its back edge says not to vectorize it.
// CHECK-LABEL: llvm.func @blocked(
// CHECK: llvm.br {{.*}} {loop_annotation = #
func.func @blocked(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %one = arith.constant 1.0 : f64
  scf.for %i = %c0 to %n step %c16 {
    %c0_ = arith.constant 0 : index
    %i0 = arith.addi %i, %c0_ : index
    memref.store %one, %x[%i0] : memref<?xf64>
    %c1_ = arith.constant 1 : index
    %i1 = arith.addi %i, %c1_ : index
    memref.store %one, %x[%i1] : memref<?xf64>
    %c2_ = arith.constant 2 : index
    %i2 = arith.addi %i, %c2_ : index
    memref.store %one, %x[%i2] : memref<?xf64>
    %c3_ = arith.constant 3 : index
    %i3 = arith.addi %i, %c3_ : index
    memref.store %one, %x[%i3] : memref<?xf64>
    %c4_ = arith.constant 4 : index
    %i4 = arith.addi %i, %c4_ : index
    memref.store %one, %x[%i4] : memref<?xf64>
    %c5_ = arith.constant 5 : index
    %i5 = arith.addi %i, %c5_ : index
    memref.store %one, %x[%i5] : memref<?xf64>
    %c6_ = arith.constant 6 : index
    %i6 = arith.addi %i, %c6_ : index
    memref.store %one, %x[%i6] : memref<?xf64>
    %c7_ = arith.constant 7 : index
    %i7 = arith.addi %i, %c7_ : index
    memref.store %one, %x[%i7] : memref<?xf64>
    %c8_ = arith.constant 8 : index
    %i8 = arith.addi %i, %c8_ : index
    memref.store %one, %x[%i8] : memref<?xf64>
    %c9_ = arith.constant 9 : index
    %i9 = arith.addi %i, %c9_ : index
    memref.store %one, %x[%i9] : memref<?xf64>
    %c10_ = arith.constant 10 : index
    %i10 = arith.addi %i, %c10_ : index
    memref.store %one, %x[%i10] : memref<?xf64>
    %c11_ = arith.constant 11 : index
    %i11 = arith.addi %i, %c11_ : index
    memref.store %one, %x[%i11] : memref<?xf64>
    %c12_ = arith.constant 12 : index
    %i12 = arith.addi %i, %c12_ : index
    memref.store %one, %x[%i12] : memref<?xf64>
    %c13_ = arith.constant 13 : index
    %i13 = arith.addi %i, %c13_ : index
    memref.store %one, %x[%i13] : memref<?xf64>
    %c14_ = arith.constant 14 : index
    %i14 = arith.addi %i, %c14_ : index
    memref.store %one, %x[%i14] : memref<?xf64>
    %c15_ = arith.constant 15 : index
    %i15 = arith.addi %i, %c15_ : index
    memref.store %one, %x[%i15] : memref<?xf64>
  }
  return
}
