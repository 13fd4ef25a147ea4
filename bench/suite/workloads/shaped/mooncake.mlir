// Mooncake.jl's `kron_sum`, `broadcast_sin_cos_exp` and `simple_mlp`
// (bench/run_benchmarks.jl), HAND-SHAPED: written so that moonc runs them
// faster than their plain forms (no Kronecker product or broadcast stored,
// kron_sum's sum reassociated, relu as max, the products as explicit gemm
// calls).
// The suite reports the plain forms (bench/suite/workloads/mooncake.mlir);
// these are separate, labelled rows (`<name>_shaped`).

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

// sum(kron(x, y)) for x: p x q, y: r x s (Mooncake's kron_sum: 20 x 20 and
// 40 x 40): every product x[i,j] * y[k,l] of the (p r) x (q s) Kronecker
// product, summed as it is formed (the product is not stored). y is read
// as one vector of r s elements (it is contiguous), and the sum is
// `fastmath<reassoc>` (as XLA reassociates its sums), so that it vectorizes.
func.func @kron_sum(%x: memref<?x?xf64>, %y: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.dim %x, %c0 : memref<?x?xf64>
  %q = memref.dim %x, %c1 : memref<?x?xf64>
  %yf = memref.collapse_shape %y [[0, 1]] : memref<?x?xf64> into memref<?xf64>
  %rs = memref.dim %yf, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %t0 = scf.for %i = %c0 to %p step %c1 iter_args(%a0 = %z) -> f64 {
    %t1 = scf.for %j = %c0 to %q step %c1 iter_args(%a1 = %a0) -> f64 {
      %xv = memref.load %x[%i, %j] : memref<?x?xf64>
      %t2 = scf.for %k = %c0 to %rs step %c1 iter_args(%a2 = %a1) -> f64 {
        %yv = memref.load %yf[%k] : memref<?xf64>
        %m = arith.mulf %xv, %yv : f64
        %a = arith.addf %a2, %m fastmath<reassoc> : f64
        scf.yield %a : f64
      }
      scf.yield %t2 : f64
    }
    scf.yield %t1 : f64
  }
  return %t0 : f64
}

// sum(sin.(cos.(exp.(x)))) over a 10 x 10 matrix, the broadcast fused into
// the sum as nested loops (Mooncake's broadcast_sin_cos_exp).
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

// Mooncake's simple_mlp(W2, W1, Y, X) = sum(abs2, Y - W2 * relu(W1 * X)),
// relu(v) = v * (0 <= v), here max(v, 0) (the same value and derivative
// away from 0): W2: o x h, W1: h x d, Y: o x b, X: d x b (in the suite
// 128 x 256, 256 x 128, 128 x 70, 128 x 70). The two products are moonrt's
// gemm (OpenBLAS), relu and the loss linalg (as bench/blas/mlp.mlir, whose
// arguments come in another order).
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
func.func @simple_mlp(%w2: memref<?x?xf64>, %w1: memref<?x?xf64>, %y: memref<?x?xf64>, %x: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = memref.dim %w1, %c0 : memref<?x?xf64>
  %b = memref.dim %x, %c1 : memref<?x?xf64>
  %o = memref.dim %w2, %c0 : memref<?x?xf64>
  %n = arith.constant 0 : i32
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %hidden = memref.alloc(%h, %b) : memref<?x?xf64>
  %out = memref.alloc(%o, %b) : memref<?x?xf64>
  %w1m = memref.cast %w1 : memref<?x?xf64> to !m
  %xm = memref.cast %x : memref<?x?xf64> to !m
  %w2m = memref.cast %w2 : memref<?x?xf64> to !m
  %hm = memref.cast %hidden : memref<?x?xf64> to !m
  %om = memref.cast %out : memref<?x?xf64> to !m
  func.call @moonrt_dgemm(%n, %n, %one, %w1m, %xm, %zero, %hm) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%hidden : memref<?x?xf64>) {
  ^bb0(%v: f64):
    %r = arith.maximumf %v, %zero : f64
    linalg.yield %r : f64
  }
  func.call @moonrt_dgemm(%n, %n, %one, %w2m, %hm, %zero, %om) : (i32, i32, f64, !m, !m, f64, !m) -> ()
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y, %out : memref<?x?xf64>, memref<?x?xf64>) outs(%acc : memref<f64>) {
  ^bb0(%t: f64, %p: f64, %a: f64):
    %d = arith.subf %t, %p : f64
    %sq = arith.mulf %d, %d : f64
    %s = arith.addf %a, %sq : f64
    linalg.yield %s : f64
  }
  memref.dealloc %hidden : memref<?x?xf64>
  memref.dealloc %out : memref<?x?xf64>
  %loss = memref.load %acc[] : memref<f64>
  return %loss : f64
}
