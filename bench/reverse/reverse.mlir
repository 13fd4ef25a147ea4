// Reverse-mode benchmarks (see README.md): `moonc bench` times each
// function (primal_ns) and its value and gradient (grad_ns) in one process.

// sum(cos(exp(x)))
func.func @sum_cos_exp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %a = arith.addf %acc, %c : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// sum(5x)
func.func @sum_5x(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %five = arith.constant 5.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %m = arith.mulf %v, %five : f64
    %a = arith.addf %acc, %m : f64
    scf.yield %a : f64
  }
  return %s : f64
}

// A while loop summing x (Mooncake's `_sum_1000`).
func.func @while_sum(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %a2 = arith.addf %a, %v : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}

// A while loop summing sin(x) (Mooncake's `_sum_sin_1000`).
func.func @while_sum_sin(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r:2 = scf.while (%i = %c0, %acc = %z) : (index, f64) -> (index, f64) {
    %c = arith.cmpi slt, %i, %n : index
    scf.condition(%c) %i, %acc : index, f64
  } do {
  ^bb0(%j: index, %a: f64):
    %v = memref.load %x[%j] : memref<?xf64>
    %s = math.sin %v : f64
    %a2 = arith.addf %a, %s : f64
    %j2 = arith.addi %j, %c1 : index
    scf.yield %j2, %a2 : index, f64
  }
  return %r#1 : f64
}

// 500 steps of x = sin(x).
func.func @sin_loop(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 500 : index
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> f64 {
    %b = math.sin %a : f64
    scf.yield %b : f64
  }
  return %s : f64
}
