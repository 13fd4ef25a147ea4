// moon-cpu-pipeline lowers every input dialect to the LLVM dialect: loops
// become branches, memrefs descriptor structs, math libm calls or LLVM
// intrinsics, linalg loops.
// RUN: moonc-opt --moon-cpu-pipeline %s | FileCheck %s
// RUN: moonc-opt --pass-pipeline='builtin.module(moon-cpu-pipeline)' %s | FileCheck %s

// CHECK-NOT: {{(scf|cf|memref|math|arith|linalg|vector|index|func)\.}}
// CHECK-DAG: llvm.func @tanh(f64) -> f64
// CHECK-DAG: llvm.func @expm1(f64) -> f64
// CHECK-DAG: llvm.func @malloc(i64) -> !llvm.ptr

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
// CHECK: llvm.call @malloc
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
