// The MLP loss of the BLAS issue: sum((Y - W2 relu(W1 X)).^2), the two
// products by moonrt's gemm (OpenBLAS), relu and the loss by linalg.
// W1: h x d, X: d x b, W2: o x h, Y: o x b (all sizes dynamic).
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dgemm(i32, i32, f64, !m, !m, f64, !m)
#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
func.func @mlp(%w1: memref<?x?xf64>, %x: memref<?x?xf64>, %w2: memref<?x?xf64>, %y: memref<?x?xf64>) -> f64 {
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
