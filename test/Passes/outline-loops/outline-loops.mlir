// RUN: moonc-opt %s --moon-outline-loops=min-loops=2 --split-input-file | FileCheck %s
// RUN: moonc-opt %s --moon-outline-loops --split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: moonc-opt %s --moon-outline-loops=min-loops=2 -o %t.mlir
// RUN: moonc run %t.mlir --entry f --args '[[1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 0, 0, 0, 0]]' | FileCheck %s --check-prefix=EXEC

// Each top-level loop nest becomes a call of a function of its own; the
// values it uses become arguments, constants are copied in, its results
// the function's results.
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[A:.*]]: memref<8xf32>, %[[B:.*]]: memref<8xf32>) -> f32
// CHECK-NOT: scf.for
// CHECK: call @f__loop0(%[[A]], %[[B]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK: %[[S:.*]] = call @f__loop1(%[[B]]) : (memref<8xf32>) -> f32
// CHECK: return %[[S]] : f32
// CHECK-LABEL: func.func private @f__loop1(
// CHECK-SAME: %[[B1:.*]]: memref<8xf32>) -> f32 attributes {passthrough = ["noinline"]}
// CHECK: %[[Z:.*]] = arith.constant 0.0
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Z]]) -> (f32)
// CHECK: memref.load %[[B1]]
// CHECK-LABEL: func.func private @f__loop0(
// CHECK-SAME: %[[A0:.*]]: memref<8xf32>, %[[B0:.*]]: memref<8xf32>) attributes {passthrough = ["noinline"]}
// CHECK: %[[TWO:.*]] = arith.constant 2.0
// CHECK: scf.for
// CHECK: memref.load %[[A0]]
// CHECK: arith.mulf %{{.*}}, %[[TWO]]
// CHECK: memref.store %{{.*}}, %[[B0]]

// With the default threshold (64 loop nests), two loops stay where they are.
// DEFAULT-LABEL: func.func @f(
// DEFAULT: scf.for
// DEFAULT: scf.for
// DEFAULT-NOT: func.func private

// Executed outlined: b = 2 a; the sum of b = 2 * 36
// EXEC: {"results": [72.0], "args": {{\[\[}}1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], [2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0]]}
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %a[%i] : memref<8xf32>
    %w = arith.mulf %v, %two : f32
    memref.store %w, %b[%i] : memref<8xf32>
  }
  %s = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %b[%i] : memref<8xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  return %s : f32
}
