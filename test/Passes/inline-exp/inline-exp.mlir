// RUN: moonc-opt --moon-inline-exp %s | FileCheck %s
// RUN: moonc-opt --moon-inline-exp %s | moonc-opt > /dev/null

// An f64 exp in a loop becomes the kernel: the clamp, the reduction by
// ln 2 in fused multiply-adds, the polynomial, the scaling by 2^k.
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK: %[[V:.*]] = memref.load
// CHECK-NOT: math.exp
// CHECK: arith.cmpf ogt, %[[V]]
// CHECK: math.fma
// CHECK: arith.shli
// CHECK: arith.mulf
// CHECK-NEXT: %[[Y:.*]] = arith.mulf
// CHECK-NEXT: arith.addf %{{.*}}, %[[Y]]
// CHECK-NOT: math.exp
// CHECK: return
func.func @in_loop(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// Outside loops exp stays a libm call; f32 and vector exps stay too, and
// so does an exp in a loop that also takes a sine.
// CHECK-LABEL: func.func @left_alone(
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f32
// CHECK: math.exp %{{.*}} : vector<4xf64>
// CHECK: math.exp %{{.*}} : f64
// CHECK-NEXT: math.sin
func.func @left_alone(%a: f64, %b: f32, %v: vector<4xf64>, %n: index) -> (f64, f32, vector<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = math.exp %a : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%f = %b, %w = %v) -> (f32, vector<4xf64>) {
    %g = math.exp %f : f32
    %u = math.exp %w : vector<4xf64>
    scf.yield %g, %u : f32, vector<4xf64>
  }
  %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> f64 {
    %x = math.exp %acc : f64
    %s = math.sin %x : f64
    scf.yield %s : f64
  }
  return %t, %r#0, %r#1 : f64, f32, vector<4xf64>
}
