// --moon-tile-reverse-loops (docs/passes.md) in moon-cpu-pipeline, on
// the gradient of a mixture written plainly: for each of n points, the
// dot product of each of k rows of l (600 columns: 4800 bytes, past
// min-row-bytes) with the point, then log sum exp over the rows. The
// reverse sweep over points is tiled: the adjoint of the dot products
// (a handoff, one copy per point of a block) and the rows of l's adjoint
// (its own rows per component) let 16 points run per component. 37 points
// end in a partial block. The gradient is the untiled one, to the bit.
//
// RUN: env MOONC_LOG=moonc_passes=debug moonc grad %s --entry mix --args '[[0.05, -0.03, 0.02], 37, 600]' --wrt 0 2>&1 | FileCheck %s
// CHECK: reverse loop nests tiled {{.*}}tiled{{.*}}1
// CHECK: {"value": 162.98989243270466, "gradient": {{\[}}[1912.9108409519058, -1965.249139999349, 34.506297623657176], null, null]}
// RUN: moonc check %s --entry mix --args '[[0.05, -0.03, 0.02], 37, 600]' --wrt 0 | FileCheck %s --check-prefix=PASS
// RUN: moonc check %s --entry mix --args '[[0.05, -0.03, 0.02, 0.01], 5, 700]' --wrt 0 | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

func.func @mix(%a: memref<?xf64>, %n: index, %r: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %k = memref.dim %a, %c0 : memref<?xf64>
  %l = memref.alloc(%k, %r) : memref<?x?xf64>
  %x = memref.alloc(%n, %r) : memref<?x?xf64>
  scf.for %ik = %c0 to %k step %c1 {
    %av = memref.load %a[%ik] : memref<?xf64>
    scf.for %j = %c0 to %r step %c1 {
      %s = arith.addi %ik, %j : index
      %si = arith.index_cast %s : index to i64
      %sf = arith.sitofp %si : i64 to f64
      %f = arith.constant 0.013 : f64
      %t = arith.mulf %sf, %f : f64
      %w = math.sin %t : f64
      %v = arith.mulf %av, %w : f64
      memref.store %v, %l[%ik, %j] : memref<?x?xf64>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %r step %c1 {
      %s = arith.muli %i, %r : index
      %s2 = arith.addi %s, %j : index
      %si = arith.index_cast %s2 : index to i64
      %sf = arith.sitofp %si : i64 to f64
      %f = arith.constant 0.0071 : f64
      %t = arith.mulf %sf, %f : f64
      %w = math.cos %t : f64
      memref.store %w, %x[%i, %j] : memref<?x?xf64>
    }
  }
  %mt = memref.alloc(%k) : memref<?xf64>
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    scf.for %ik = %c0 to %k step %c1 {
      %dot = scf.for %j = %c0 to %r step %c1 iter_args(%d = %z) -> f64 {
        %lv = memref.load %l[%ik, %j] : memref<?x?xf64>
        %xv = memref.load %x[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %lv, %xv : f64
        %d2 = arith.addf %d, %p : f64
        scf.yield %d2 : f64
      }
      memref.store %dot, %mt[%ik] : memref<?xf64>
    }
    %se = scf.for %ik = %c0 to %k step %c1 iter_args(%s = %z) -> f64 {
      %v = memref.load %mt[%ik] : memref<?xf64>
      %e = math.exp %v : f64
      %s2 = arith.addf %s, %e : f64
      scf.yield %s2 : f64
    }
    %lg = math.log %se : f64
    %acc2 = arith.addf %acc, %lg : f64
    scf.yield %acc2 : f64
  }
  memref.dealloc %mt : memref<?xf64>
  memref.dealloc %x : memref<?x?xf64>
  memref.dealloc %l : memref<?x?xf64>
  return %total : f64
}
