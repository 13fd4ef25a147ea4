// The determinant through LAPACK's LU factorization (moonrt_dgetrf): the
// product of U's diagonal, negated once per row interchange. moonc
// differentiates it through getrf's rule: the gradient is det(A) A^-T.
//
//   moonc run  examples/blas/det.mlir --args '[[[1, 2], [3, 4]]]'
//   moonc grad examples/blas/det.mlir --args '[[[1, 2], [3, 4]]]'
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dgetrf(!m, !p) -> i32

func.func @det(%a: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %lu = memref.alloc(%n, %n) : memref<?x?xf64>
  memref.copy %a, %lu : memref<?x?xf64> to memref<?x?xf64>
  %ipiv = memref.alloc(%n) : memref<?xi32>
  %lum = memref.cast %lu : memref<?x?xf64> to !m
  %pv = memref.cast %ipiv : memref<?xi32> to !p
  %info = func.call @moonrt_dgetrf(%lum, %pv) : (!m, !p) -> i32
  %one = arith.constant 1.0 : f64
  %one_i32 = arith.constant 1 : i32
  %det = scf.for %i = %c0 to %n step %c1 iter_args(%p = %one) -> f64 {
    %u = memref.load %lu[%i, %i] : memref<?x?xf64>
    // LAPACK's pivots are 1-based: row i was swapped unless ipiv[i] = i + 1.
    %piv = memref.load %ipiv[%i] : memref<?xi32>
    %i32 = arith.index_cast %i : index to i32
    %row = arith.addi %i32, %one_i32 : i32
    %swapped = arith.cmpi ne, %piv, %row : i32
    %minus = arith.negf %u : f64
    %factor = arith.select %swapped, %minus, %u : f64
    %q = arith.mulf %p, %factor : f64
    scf.yield %q : f64
  }
  memref.dealloc %lu : memref<?x?xf64>
  memref.dealloc %ipiv : memref<?xi32>
  return %det : f64
}
