// Math: vectorized libmvec loops agree with libm to a few ulps; functions
// whose naive lowering loses precision (expm1, log1p) are exact near 0.
// RUN: moonc run %s --entry near_zero --args '[1e-10]' | FileCheck %s --check-prefix=ZERO
// ZERO: {"results": [1.00000000005e-10, 9.999999999500001e-11, 1e-10], "args": [null]}
// RUN: moonc run %s --entry apply --args '[[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 6.5, 7.0, 7.5, 8.0]]' | FileCheck %s --check-prefix=VEC
// VEC: {"results": [3.31316266731554{{[0-9]*}}], "args":

func.func @near_zero(%x: f64) -> (f64, f64, f64) {
  %a = math.expm1 %x : f64
  %b = math.log1p %x : f64
  %c = math.tanh %x : f64
  return %a, %b, %c : f64, f64, f64
}

// sum(tanh(sin(x)) + log(1 + exp(-x)) * cos(x)) over 17 elements: long
// enough for vector bodies of every width plus a scalar remainder.
func.func @apply(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %zero = arith.constant 0.0 : f64
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = math.sin %v : f64
    %t = math.tanh %s : f64
    %m = arith.negf %v : f64
    %e = math.exp %m : f64
    %l = math.log1p %e : f64
    %c = math.cos %v : f64
    %p = arith.mulf %l, %c : f64
    %q = arith.addf %t, %p : f64
    %next = arith.addf %acc, %q : f64
    scf.yield %next : f64
  }
  return %sum : f64
}
