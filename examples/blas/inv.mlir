// The inverse through LAPACK: getrf factors A = P L U in place, getri
// overwrites the factors with A^-1. `inv` inverts its argument in place;
// `inv_weighted`, sum(W .* A^-1), is a scalar of the inverse for the
// derivative commands (its gradient in A is -A^-T W A^-T).
//
//   moonc run  examples/blas/inv.mlir --entry inv --args '[[[1, 2], [3, 4]]]'
//   moonc grad examples/blas/inv.mlir --entry inv_weighted \
//     --args '[[[1, 2], [3, 4]], [[1, 0], [0, 1]]]'
!m = memref<?x?xf64, strided<[?, ?], offset: ?>>
!p = memref<?xi32, strided<[?], offset: ?>>
func.func private @moonrt_dgetrf(!m, !p) -> i32
func.func private @moonrt_dgetri(!m, !p) -> i32

func.func @inv(%a: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %ipiv = memref.alloc(%n) : memref<?xi32>
  %am = memref.cast %a : memref<?x?xf64> to !m
  %pv = memref.cast %ipiv : memref<?xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%am, %pv) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetri(%am, %pv) : (!m, !p) -> i32
  memref.dealloc %ipiv : memref<?xi32>
  return
}

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
func.func @inv_weighted(%a: memref<?x?xf64>, %w: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?x?xf64>
  %b = memref.alloc(%n, %n) : memref<?x?xf64>
  memref.copy %a, %b : memref<?x?xf64> to memref<?x?xf64>
  %ipiv = memref.alloc(%n) : memref<?xi32>
  %bm = memref.cast %b : memref<?x?xf64> to !m
  %pv = memref.cast %ipiv : memref<?xi32> to !p
  %i1 = func.call @moonrt_dgetrf(%bm, %pv) : (!m, !p) -> i32
  %i2 = func.call @moonrt_dgetri(%bm, %pv) : (!m, !p) -> i32
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%w, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%acc : memref<f64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %p = arith.mulf %x, %y : f64
    %s = arith.addf %o, %p : f64
    linalg.yield %s : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %b : memref<?x?xf64>
  memref.dealloc %ipiv : memref<?xi32>
  return %r : f64
}
