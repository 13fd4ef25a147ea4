// The Gaussian-process log marginal likelihood of the BLAS issue:
// -1/2 y^T K^-1 y - sum_i log L_ii - n/2 log(2 pi), K = L L^T by moonrt's
// potrf (Cholesky, LAPACK) and K^-1 y by potrs, on copies of K and y
// (the routines work in place).
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
func.func private @moonrt_dpotrf(i32, !m) -> i32
func.func private @moonrt_dpotrs(i32, !m, !m) -> i32
#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
func.func @gp(%k: memref<?x?xf64>, %y: memref<?x1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %k, %c0 : memref<?x?xf64>
  %l = memref.alloc(%n, %n) : memref<?x?xf64>
  memref.copy %k, %l : memref<?x?xf64> to memref<?x?xf64>
  %alpha = memref.alloc(%n) : memref<?x1xf64>
  memref.copy %y, %alpha : memref<?x1xf64> to memref<?x1xf64>
  %lm = memref.cast %l : memref<?x?xf64> to !m
  %am = memref.cast %alpha : memref<?x1xf64> to !m
  %lower = arith.constant 1 : i32
  %i1 = func.call @moonrt_dpotrf(%lower, %lm) : (i32, !m) -> i32
  %i2 = func.call @moonrt_dpotrs(%lower, %lm, %am) : (i32, !m, !m) -> i32
  // y^T alpha
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%y, %alpha : memref<?x1xf64>, memref<?x1xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  }
  %quad = memref.load %acc[] : memref<f64>
  // sum_i log L_ii
  %logdet = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z) -> f64 {
    %d = memref.load %l[%i, %i] : memref<?x?xf64>
    %g = math.log %d : f64
    %t = arith.addf %s, %g : f64
    scf.yield %t : f64
  }
  memref.dealloc %l : memref<?x?xf64>
  memref.dealloc %alpha : memref<?x1xf64>
  %half = arith.constant -0.5 : f64
  %nf0 = arith.index_cast %n : index to i64
  %nf = arith.sitofp %nf0 : i64 to f64
  %log2pi = arith.constant 1.8378770664093453 : f64
  %c = arith.mulf %nf, %log2pi : f64
  %q = arith.addf %quad, %c : f64
  %h = arith.mulf %half, %q : f64
  %r = arith.subf %h, %logdet : f64
  return %r : f64
}
