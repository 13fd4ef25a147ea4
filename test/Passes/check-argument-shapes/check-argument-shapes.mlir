// RUN: moonc-opt %s --moon-check-argument-shapes --split-input-file | FileCheck %s

// A loop over %a's elements reads %b at the same index: %b needs as many.
// The loop's two loads of %b give one check; %a itself needs none.
// CHECK-LABEL: func.func @dot(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[B:[^:]*]]: memref<?xf64>)
// CHECK: %[[NA:.*]] = memref.dim %[[A]], %{{.*}}
// CHECK: %[[NB:.*]] = memref.dim %[[B]], %{{.*}}
// CHECK: %[[OK:.*]] = arith.cmpi sge, %[[NB]], %[[NA]] : index
// CHECK: cf.assert %[[OK]], "@dot: argument 1 (from 0) has fewer elements in dimension 0 than argument 0 has in dimension 0, which bounds the loop at {{.*}}check-argument-shapes.mlir:18:8 that accesses it at {{.*}}check-argument-shapes.mlir:20:10"
// CHECK-NOT: cf.assert
// CHECK: scf.for
func.func @dot(%a: memref<?xf64>, %b: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %x = memref.load %a[%i] : memref<?xf64>
    %y = memref.load %b[%i] : memref<?xf64>
    %y2 = memref.load %b[%i] : memref<?xf64>
    %p = arith.mulf %x, %y : f64
    %q = arith.mulf %p, %y2 : f64
    %t = arith.addf %acc, %q : f64
    scf.yield %t : f64
  }
  return %s : f64
}

// -----

// Rows of %m against %v (dimension 0 bounds the loop, the store indexes
// %out's dimension 1), nested in a loop over %out's rows: one check for
// each of %m and %out. An index computed from the loop's (%i + 1) and a
// bound that is not an argument's dimension are not checked.
// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[V:[^:]*]]: memref<?xf64>, %[[M:[^:]*]]: memref<?x?xf64>, %[[OUT:[^:]*]]: memref<2x?xf64>)
// CHECK-DAG: cf.assert %{{.*}}, "@rows: argument 1 (from 0) has fewer elements in dimension 1 than argument 0 has in dimension 0
// CHECK-DAG: cf.assert %{{.*}}, "@rows: argument 2 (from 0) has fewer elements in dimension 1 than argument 0 has in dimension 0
// CHECK-NOT: cf.assert
// CHECK: scf.for
func.func @rows(%v: memref<?xf64>, %m: memref<?x?xf64>, %out: memref<2x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %v, %c0 : memref<?xf64>
  scf.for %r = %c0 to %c2 step %c1 {
    scf.for %i = %c0 to %n step %c1 {
      %x = memref.load %m[%r, %i] : memref<?x?xf64>
      %i1 = arith.addi %i, %c1 : index
      %y = memref.load %v[%i1] : memref<?xf64>
      %p = arith.mulf %x, %y : f64
      memref.store %p, %out[%r, %i] : memref<2x?xf64>
    }
  }
  return
}
