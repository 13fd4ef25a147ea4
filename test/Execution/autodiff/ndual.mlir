// The fused N-wide dual path of reverse mode (see docs/ndual.md) and its
// fallbacks, checked numerically by `moonc check` on both paths: the
// default (fused where it qualifies) and the general path alone
// (--moon-ndual-max-width=0). test/Passes/autodiff/ndual/ shows which
// path each loop takes.
//
// RUN: moonc check %s --entry sum_sin_cos_exp --args '[[0.3, -0.7, 1.1, 0.2, -1.4]]' | FileCheck %s
// RUN: moonc check %s --entry sum_sin_cos_exp --args '[[0.3, -0.7, 1.1, 0.2, -1.4]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry map_sin_cos_exp | FileCheck %s
// RUN: moonc check %s --entry map_sin_cos_exp --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry broadcast_scale | FileCheck %s
// RUN: moonc check %s --entry broadcast_scale --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry broadcast_loop --args '[[0.5, -1.5, 2.0, 0.25], 0.7, [0, 0, 0, 0]]' | FileCheck %s
// RUN: moonc check %s --entry broadcast_loop --args '[[0.5, -1.5, 2.0, 0.25], 0.7, [0, 0, 0, 0]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry lse --args '[[0.3, -0.7, 2.1, 0.2, -1.4, 2.1, 0.9]]' | FileCheck %s
// RUN: moonc check %s --entry lse --args '[[0.3, -0.7, 2.1, 0.2, -1.4, 2.1, 0.9]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry llsq --args '[[0.2, -0.4, 0.6], 9]' | FileCheck %s
// RUN: moonc check %s --entry llsq --args '[[0.2, -0.4, 0.6], 9]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry two_input_loss --args '[[0.5, -1.5, 2.0], [0.1, 0.2, -0.3]]' | FileCheck %s
// RUN: moonc check %s --entry two_input_loss --args '[[0.5, -1.5, 2.0], [0.1, 0.2, -0.3]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry min_of_squares --args '[[0.5, -1.5, 0.35, 2.0, -0.3]]' | FileCheck %s
// RUN: moonc check %s --entry min_of_squares --args '[[0.5, -1.5, 0.35, 2.0, -0.3]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry integer_counter --args '[[0.5, -1.5, 2.0]]' | FileCheck %s
// RUN: moonc check %s --entry max_reduction --args '[[0.5, -1.5, 2.0, 0.7], [0, 0, 0, 0]]' | FileCheck %s
// RUN: moonc check %s --entry prefix_sum --args '[[0.5, -1.5, 2.0, 0.7], [0, 0, 0, 0]]' | FileCheck %s
// RUN: moonc check %s --entry in_place --args '[[0.5, -1.5, 2.0, 0.7]]' | FileCheck %s
// RUN: moonc check %s --entry in_place --args '[[0.5, -1.5, 2.0, 0.7]]' --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc check %s --entry generic_in_place --args '[[0.5, -1.5, 2.0, 0.7], 0.3]' | FileCheck %s
// RUN: moonc check %s --entry dot_tanh --args '[[0.5, -1.5, 2.0, 0.7], [0.1, 0.2, -0.3, 0.4]]' | FileCheck %s
// RUN: moonc check %s --entry dot_tanh --args '[[0.5, -1.5, 2.0, 0.7], [0.1, 0.2, -0.3, 0.4]]' --moon-ndual-max-width=0 | FileCheck %s
// CHECK: check: PASS

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
#id1 = affine_map<(i) -> (i)>
#s1 = affine_map<(i) -> ()>

// sum(sin.(x) .* cos.(x) .* exp.(x)): a loop that sums (fused)
func.func @sum_sin_cos_exp(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = math.sin %v : f64
    %b = math.cos %v : f64
    %c = math.exp %v : f64
    %ab = arith.mulf %a, %b : f64
    %t = arith.mulf %ab, %c : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// sum(map(sin . cos . exp, x)) over 4x3: a linalg map into a scratch
// buffer (fused) and a linalg sum (fused)
func.func @map_sin_cos_exp(%x: memref<4x3xf64>) -> f64 {
  %t = memref.alloc() : memref<4x3xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x3xf64>) outs(%t : memref<4x3xf64>) {
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
      ins(%t : memref<4x3xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %a: f64):
    %n = arith.addf %a, %v : f64
    linalg.yield %n : f64
  }
  memref.dealloc %t : memref<4x3xf64>
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}

// out = tanh.(x .* s) + s with the scalar s broadcast (generic, N = 2:
// the element of x and s)
func.func @broadcast_scale(%x: memref<5xf64>, %s: f64, %out: memref<5xf64>) {
  linalg.generic {indexing_maps = [#id1, #s1, #id1], iterator_types = ["parallel"]}
      ins(%x, %s : memref<5xf64>, f64) outs(%out : memref<5xf64>) {
  ^bb0(%v: f64, %k: f64, %o: f64):
    %p = arith.mulf %v, %k : f64
    %t = math.tanh %p : f64
    %r = arith.addf %t, %k : f64
    linalg.yield %r : f64
  }
  return
}

// y[i] = exp(s * x[i]) / (1 + x[i]^2), the scalar s captured by a loop
// that stores (fused: partials stored, reverse multiply-accumulate)
func.func @broadcast_loop(%x: memref<?xf64>, %s: f64, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %s, %v : f64
    %e = math.exp %p : f64
    %q = arith.mulf %v, %v : f64
    %d = arith.addf %one, %q : f64
    %r = arith.divf %e, %d : f64
    memref.store %r, %y[%i] : memref<?xf64>
  }
  return
}

// GradBench lse: log(sum(exp(x - max x))) + max x; the max loop is a
// selection (its adjoint goes to the first maximum: x has a tie), the sum
// loop is fused with N = 2 (x[i] and the max)
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

// GradBench llsq: 1/2 sum_i (sign(t_i) - sum_j x_j t_i^j)^2 (its element
// function reads every x_j: N = m, and its outer loop holds a loop: the
// general path)
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

// sum((p - y)^2 / (1 + y^2)) over two inputs (fused, N = 2, adjoints
// accumulated inside the loop)
func.func @two_input_loss(%p: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %p, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = memref.load %p[%i] : memref<?xf64>
    %b = memref.load %y[%i] : memref<?xf64>
    %d = arith.subf %a, %b : f64
    %d2 = arith.mulf %d, %d : f64
    %b2 = arith.mulf %b, %b : f64
    %w = arith.addf %one, %b2 : f64
    %t = arith.divf %d2, %w : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}

// min(x[i]^2 + 1): a min selection over a computed element (the minimum
// is unique)
func.func @min_of_squares(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %inf = arith.constant 0x7FF0000000000000 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %inf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %e = arith.addf %q, %one : f64
    %a = arith.minimumf %e, %acc : f64
    scf.yield %a : f64
  }
  return %m : f64
}

// Fallback: an integer counter carried beside the sum
func.func @integer_counter(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %k0 = arith.constant 1 : i64
  %s:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %k = %k0) -> (f64, i64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %kf = arith.sitofp %k : i64 to f64
    %t = arith.mulf %v, %kf : f64
    %e = math.sin %t : f64
    %r = arith.addf %acc, %e : f64
    %k2 = arith.addi %k, %k : i64
    scf.yield %r, %k2 : f64, i64
  }
  return %s#0 : f64
}

// Fallback: a max-reduction by maxnumf (selections are maximumf and
// minimumf only), of exp(x[i]) stored beside
func.func @max_reduction(%x: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %e = math.exp %v : f64
    memref.store %e, %y[%i] : memref<?xf64>
    %a = arith.maxnumf %acc, %e : f64
    scf.yield %a : f64
  }
  return %m : f64
}

// Fallback: a prefix sum (a running sum also stored: a scan)
func.func @prefix_sum(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %r = arith.addf %acc, %q : f64
    memref.store %r, %y[%i] : memref<?xf64>
    scf.yield %r : f64
  }
  return
}

// x[i] = sin(x[i]) * x[i] in place (fused: the store's buffer is loaded at
// the same index)
func.func @in_place(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = math.sin %v : f64
    %r = arith.mulf %s, %v : f64
    memref.store %r, %x[%i] : memref<?xf64>
  }
  return
}

// tanh(w . x): each partial is the other operand, loaded again in the
// reverse loop instead of stored.
func.func @dot_tanh(%w: memref<?xf64>, %x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %w, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = memref.load %w[%i] : memref<?xf64>
    %b = memref.load %x[%i] : memref<?xf64>
    %m = arith.mulf %a, %b : f64
    %s = arith.addf %acc, %m : f64
    scf.yield %s : f64
  }
  %t = math.tanh %r : f64
  return %t : f64
}

// An elementwise generic in place with a scalar operand: its reverse
// replaces the buffer's adjoint in place and sums the scalar's.
func.func @generic_in_place(%x: memref<4xf64>, %s: f64) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%x, %s : memref<4xf64>, f64) outs(%x : memref<4xf64>) {
  ^bb0(%v: f64, %k: f64, %o: f64):
    %p = arith.mulf %v, %k : f64
    %t = math.sin %p : f64
    linalg.yield %t : f64
  }
  return
}
