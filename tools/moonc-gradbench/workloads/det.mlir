// GradBench `det` (evals/det): the determinant of an ell x ell matrix by
// expansion in minors, written as GradBench's reference C++ writes it
// (cpp/gradbench/evals/det.hpp, from cmpad's det_of_minor): recursive, the
// minor represented by two linked lists of the rows and columns it keeps
// (r[i]: the row after row i, r[n]: the first; c likewise), updated in
// place before each sub-minor and restored after it; an ordered sum with
// alternating signs.
//
// func.func @det(%A: memref<?xf64>, %ell: index) -> f64
//   %A: GradBench's `A` (ell * ell numbers, row-major), as is; %ell: its
//   `ell`. Returns det(A) (GradBench's `primal`); the gradient with respect
//   to %A (argument 0) is GradBench's `gradient` (ell * ell numbers,
//   row-major).

// The determinant of the m x m minor of the n x n matrix A whose rows are
// r[n], r[r[n]], ... and columns c[n], c[c[n]], ...; leaves r and c as it
// found them.
func.func private @det_of_minor(%A: memref<?xf64>, %n: index, %m: index,
                                %r: memref<?xindex>, %c: memref<?xindex>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %R0 = memref.load %r[%n] : memref<?xindex>
  %C0 = memref.load %c[%n] : memref<?xindex>
  %row = arith.muli %R0, %n : index
  %leaf = arith.cmpi eq, %m, %c1 : index
  %det = scf.if %leaf -> f64 {
    %k = arith.addi %row, %C0 : index
    %a = memref.load %A[%k] : memref<?xf64>
    scf.yield %a : f64
  } else {
    // Remove the minor's row 0 from all its sub-minors.
    %R1 = memref.load %r[%R0] : memref<?xindex>
    memref.store %R1, %r[%n] : memref<?xindex>
    %m1 = arith.subi %m, %c1 : index
    %true = arith.constant true
    // For each column j of the minor: detM += (-1)^j M[0, j] det(S_j),
    // S_j the minor without row 0 and column j. Cj1: the entry of c that
    // points at column j.
    %sum:4 = scf.for %j = %c0 to %m step %c1
        iter_args(%detM = %zero, %plus = %true, %Cj1 = %n, %Cj = %C0) -> (f64, i1, index, index) {
      %k = arith.addi %row, %Cj : index
      %M0j = memref.load %A[%k] : memref<?xf64>
      // Remove column j, take the sub-minor's determinant, restore it.
      %next = memref.load %c[%Cj] : memref<?xindex>
      memref.store %next, %c[%Cj1] : memref<?xindex>
      %detS = func.call @det_of_minor(%A, %n, %m1, %r, %c)
          : (memref<?xf64>, index, index, memref<?xindex>, memref<?xindex>) -> f64
      memref.store %Cj, %c[%Cj1] : memref<?xindex>
      %term = arith.mulf %M0j, %detS : f64
      %new = scf.if %plus -> f64 {
        %s = arith.addf %detM, %term : f64
        scf.yield %s : f64
      } else {
        %s = arith.subf %detM, %term : f64
        scf.yield %s : f64
      }
      %minus = arith.xori %plus, %true : i1
      scf.yield %new, %minus, %Cj, %next : f64, i1, index, index
    }
    // Restore row 0.
    memref.store %R0, %r[%n] : memref<?xindex>
    scf.yield %sum#0 : f64
  }
  return %det : f64
}

func.func @det(%A: memref<?xf64>, %ell: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = arith.addi %ell, %c1 : index
  %r = memref.alloc(%size) : memref<?xindex>
  %c = memref.alloc(%size) : memref<?xindex>
  scf.for %i = %c0 to %ell step %c1 {
    %i1 = arith.addi %i, %c1 : index
    memref.store %i1, %r[%i] : memref<?xindex>
    memref.store %i1, %c[%i] : memref<?xindex>
  }
  memref.store %c0, %r[%ell] : memref<?xindex>
  memref.store %c0, %c[%ell] : memref<?xindex>
  %d = func.call @det_of_minor(%A, %ell, %ell, %r, %c)
      : (memref<?xf64>, index, index, memref<?xindex>, memref<?xindex>) -> f64
  memref.dealloc %r : memref<?xindex>
  memref.dealloc %c : memref<?xindex>
  return %d : f64
}
