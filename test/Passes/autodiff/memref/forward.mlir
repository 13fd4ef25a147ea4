// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// dup memrefs come with shadows: loads read them, stores write them,
// views view them, copies copy them; a scratch buffer gets a zero-filled
// shadow of the same shape, freed with it. Shape queries have no tangent.
// CHECK-LABEL: func.func private @update_jvp_dd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[B:[^:]*]]: memref<4xf64>, %[[DA:[^:]*]]: memref<?xf64>, %[[DB:[^:]*]]: memref<4xf64>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[DT:.*]] = memref.alloc() : memref<4xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[DT]] : memref<4xf64>)
// CHECK: memref.copy %[[B]], %[[T]]
// CHECK: memref.copy %[[DB]], %[[DT]]
// CHECK: %[[V:.*]] = memref.subview %[[A]][1] [2] [1]
// CHECK: %[[DV:.*]] = memref.subview %[[DA]][1] [2] [1]
// CHECK: scf.for %[[I:.*]] =
// CHECK: %[[X:.*]] = memref.load %[[T]][%[[I]]]
// CHECK: %[[DX:.*]] = memref.load %[[DT]][%[[I]]]
// CHECK: %[[Y:.*]] = memref.load %[[V]][%[[I]]]
// CHECK: %[[DY:.*]] = memref.load %[[DV]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[V]][%[[I]]]
// CHECK: memref.store %{{.*}}, %[[DV]][%[[I]]]
// CHECK: memref.dealloc %[[T]]
// CHECK: memref.dealloc %[[DT]]
func.func @update(%a: memref<?xf64>, %b: memref<4xf64>) {
  %t = memref.alloc() : memref<4xf64>
  memref.copy %b, %t : memref<4xf64> to memref<4xf64>
  %v = memref.subview %a[1] [2] [1] : memref<?xf64> to memref<2xf64, strided<[1], offset: 1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %x = memref.load %t[%i] : memref<4xf64>
    %y = memref.load %v[%i] : memref<2xf64, strided<[1], offset: 1>>
    %p = arith.mulf %x, %y : f64
    memref.store %p, %v[%i] : memref<2xf64, strided<[1], offset: 1>>
  }
  memref.dealloc %t : memref<4xf64>
  return
}
func.func @caller(%a: memref<?xf64>, %b: memref<4xf64>, %da: memref<?xf64>, %db: memref<4xf64>) {
  moon.jvp @update(%a, %b, %da, %db) : (memref<?xf64>, memref<4xf64>, memref<?xf64>, memref<4xf64>) -> ()
  return
}

// -----

// Storing an active scalar into a local buffer activates the buffer; a
// constant stored into an active buffer stores a zero tangent.
// CHECK-LABEL: func.func private @scratch_jvp_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[DX:[^:]*]]: f64)
// CHECK: %[[S:.*]] = memref.alloca() : memref<2xf64>
// CHECK: %[[DS:.*]] = memref.alloca() : memref<2xf64>
// CHECK: memref.store %[[X]], %[[S]][%{{.*}}]
// CHECK: memref.store %[[DX]], %[[DS]][%{{.*}}]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: memref.store %{{.*}}, %[[DS]][%{{.*}}]
func.func @scratch(%x: f64) -> f64 {
  %s = memref.alloca() : memref<2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %x, %s[%c0] : memref<2xf64>
  %k = arith.constant 3.0 : f64
  memref.store %k, %s[%c1] : memref<2xf64>
  %a = memref.load %s[%c0] : memref<2xf64>
  %b = memref.load %s[%c1] : memref<2xf64>
  %p = arith.mulf %a, %b : f64
  return %p : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @scratch(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Vector mode with memrefs: shadows get a leading dimension of N
// directions, read and written as vector<Nxf64> along it.
// CHECK-LABEL: func.func private @sum_jvp_d_n_w8(
// CHECK-SAME: %[[A:[^:]*]]: memref<16xf64>, %[[DA:[^:]*]]: memref<8x16xf64, strided<[?, ?], offset: ?>>) -> vector<8xf64>
// CHECK: scf.for %[[I:[^ ]*]] = {{.*}} -> (f64, vector<8xf64>)
// CHECK: vector.transfer_read %[[DA]][%{{.*}}, %[[I]]], %{{.*}} {in_bounds = [true], permutation_map = #{{.*}}} : memref<8x16xf64, strided<[?, ?], offset: ?>>, vector<8xf64>
// CHECK: scf.yield %{{.*}}, %{{.*}} : f64, vector<8xf64>
// CHECK-LABEL: func.func @caller(
// CHECK: %[[CAST:.*]] = memref.cast %{{.*}} : memref<8x16xf64> to memref<8x16xf64, strided<[?, ?], offset: ?>>
// CHECK: call @sum_jvp_d_n_w8(%{{.*}}, %[[CAST]])
func.func @sum(%a: memref<16xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %a[%i] : memref<16xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %s = arith.addf %acc, %c : f64
    scf.yield %s : f64
  }
  return %r : f64
}
func.func @caller(%a: memref<16xf64>, %da: memref<8x16xf64>) -> vector<8xf64> {
  %r = moon.jvp @sum(%a, %da) results [active_noneed] width 8 : (memref<16xf64>, memref<8x16xf64>) -> vector<8xf64>
  return %r : vector<8xf64>
}
