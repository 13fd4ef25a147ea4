// Workloads of the fused-elementwise issue (see README.md): Mooncake's
// broadcast_sin_cos_exp, map_sin_cos_exp and sum_sin_1000, GradBench's lse
// and llsq. `moonc bench` times each and its value and gradient.

// sum(sin(cos(exp(x)))) over a 10x10 matrix (Mooncake's broadcast_sin_cos_exp)
func.func @broadcast_sin_cos_exp(%x: memref<10x10xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %c10 step %c1 iter_args(%acc = %z) -> f64 {
    %r = scf.for %j = %c0 to %c10 step %c1 iter_args(%a = %acc) -> f64 {
      %v = memref.load %x[%i, %j] : memref<10x10xf64>
      %e = math.exp %v : f64
      %c = math.cos %e : f64
      %t = math.sin %c : f64
      %n = arith.addf %a, %t : f64
      scf.yield %n : f64
    }
    scf.yield %r : f64
  }
  return %s : f64
}
// sum(sin(x)), n = 1000 (Mooncake's sum_sin_1000)
func.func @sum_sin_1000(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %t = math.sin %v : f64
    %a = arith.addf %acc, %t : f64
    scf.yield %a : f64
  }
  return %s : f64
}
// log-sum-exp with the max shifted out; the sum may be reassociated (as
// XLA does), so that it vectorizes
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e fastmath<reassoc> : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
// sum(map(sin . cos . exp, x)) over a 10x10 matrix: a linalg map into a
// temporary, then a linalg sum (Mooncake's map_sin_cos_exp).
#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
func.func @map_sin_cos_exp(%x: memref<10x10xf64>) -> f64 {
  %t = memref.alloc() : memref<10x10xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<10x10xf64>) outs(%t : memref<10x10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    %s = math.sin %c : f64
    linalg.yield %s : f64
  }
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%t : memref<10x10xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %a: f64):
    %n = arith.addf %a, %v : f64
    linalg.yield %n : f64
  }
  memref.dealloc %t : memref<10x10xf64>
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}
// GradBench llsq: 1/2 sum_i (sign(t_i) - sum_j x_j t_i^j)^2, t_i = -1 + 2i/(n-1)
func.func @llsq(%x: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %mone = arith.constant -1.0 : f64
  %two = arith.constant 2.0 : f64
  %half = arith.constant 0.5 : f64
  %n1 = arith.subi %n, %c1 : index
  %n1i = arith.index_cast %n1 : index to i64
  %n1f = arith.sitofp %n1i : i64 to f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %i2 = arith.mulf %if, %two : f64
    %q = arith.divf %i2, %n1f : f64
    %t = arith.addf %mone, %q : f64
    %pos = arith.cmpf ogt, %t, %z : f64
    %neg = arith.cmpf olt, %t, %z : f64
    %s1 = arith.select %neg, %mone, %z : f64
    %sg = arith.select %pos, %one, %s1 : f64
    %in:2 = scf.for %j = %c0 to %m step %c1 iter_args(%sum = %sg, %mul = %one) -> (f64, f64) {
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %xj, %mul : f64
      %d = arith.subf %sum, %p : f64
      %mt = arith.mulf %mul, %t : f64
      scf.yield %d, %mt : f64, f64
    }
    %sq = arith.mulf %in#0, %in#0 : f64
    %a = arith.addf %acc, %sq : f64
    scf.yield %a : f64
  }
  %r = arith.mulf %s, %half : f64
  return %r : f64
}
