// RUN: moonc-opt --moon-tile-reverse-loops %s | FileCheck %s
// RUN: moonc-opt --moon-tile-reverse-loops=points=4 %s | FileCheck %s --check-prefix=FOUR
// RUN: moonc-opt --moon-tile-reverse-loops=points=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-cpu-pipeline %s | moonc-opt > /dev/null

// The reverse sweep of `for ix: { for k: h[k] = w[ix] * k;
// for k: for j: dl[k][j] += h[k] * x[ix][j] }` as reverse mode writes
// it (GradBench gmm's points and components): P fills the handoff %h,
// zeroed before the loop; I reads and zeroes one element of it, and adds
// into row %ik of the argument %dl, which it only accumulates into.
// CHECK-LABEL: func.func @points(
// CHECK-SAME: %[[X:[^:]*]]: memref<?x?xf64>, %[[W:[^:]*]]: memref<?xf64>, %[[DL:[^:]*]]: memref<?x?xf64>, %[[N:[^:]*]]: index, %[[K:[^:]*]]: index)
// CHECK: %[[H:.*]] = memref.alloc(%[[K]]) : memref<?xf64>
// The rows of %dl one inner iteration adds into: 8 bytes times its
// columns, against min-row-bytes.
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[BYTES:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: %[[TAKEN:.*]] = arith.cmpi uge, %[[BYTES]], %c4096
// CHECK: scf.if %[[TAKEN]] {
// CHECK: %[[BLOCKS:.*]] = arith.ceildivsi %[[N]], %[[B:c16[_0-9]*]] : index
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}) : memref<16x?xf64>
// CHECK: scf.for %[[BLK:[^ ]*]] = %c0 to %[[BLOCKS]] step %c1 {
// CHECK: %[[START:.*]] = arith.muli %[[BLK]], %[[B]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[N]], %[[START]] : index
// CHECK: %[[COUNT:.*]] = arith.minsi %[[LEFT]], %[[B]] : index
// CHECK: scf.for %[[P:[^ ]*]] = %{{.*}} to %[[COUNT]] step %{{.*}} {
// CHECK: %[[R:.*]] = arith.addi %[[START]], %[[P]] : index
// CHECK: arith.subi %{{.*}}, %[[R]] : index
// CHECK: memref.store %{{.*}}, %[[COPY]][%[[P]], %{{.*}}] : memref<16x?xf64>
// CHECK: } {moon.reverse}
// CHECK: scf.for %[[S:[^ ]*]] = %c0 to %[[K]] step %c1 {
// CHECK: scf.for %[[P2:[^ ]*]] = %{{.*}} to %[[COUNT]] step %{{.*}} {
// CHECK: %[[R2:.*]] = arith.addi %[[START]], %[[P2]] : index
// CHECK: %[[IX:.*]] = arith.subi %{{.*}}, %[[R2]] : index
// CHECK: memref.load %[[COPY]][%[[P2]], %{{.*}}] : memref<16x?xf64>
// CHECK: memref.store %cst, %[[COPY]][%[[P2]], %{{.*}}] : memref<16x?xf64>
// CHECK: memref.subview %[[DL]]
// CHECK: memref.load %[[X]][%[[IX]], %{{.*}}]
// CHECK: } {moon.reverse}
// CHECK: } {moon.reverse}
// CHECK: } {moon.reverse}
// CHECK: memref.dealloc %[[COPY]] : memref<16x?xf64>
// CHECK: } else {
// CHECK: scf.for
// CHECK-NOT: memref<16x?xf64>
// CHECK: memref.load %[[H]]
// CHECK: } {moon.reverse}
// CHECK: }
// CHECK: memref.dealloc %[[H]] : memref<?xf64>
// FOUR-LABEL: func.func @points(
// FOUR: memref.alloc(%{{.*}}) : memref<4x?xf64>
// OFF-LABEL: func.func @points(
// OFF-NOT: scf.if
// OFF-NOT: ceildivsi
// OFF: return
func.func @points(%x: memref<?x?xf64>, %w: memref<?xf64>, %dl: memref<?x?xf64>,
                  %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %cols = memref.dim %dl, %c1 : memref<?x?xf64>
  %h = memref.alloc(%k) : memref<?xf64>
  scf.for %i = %c0 to %k step %c1 {
    memref.store %z, %h[%i] : memref<?xf64>
  }
  scf.for %t = %c0 to %n step %c1 {
    %nm = arith.subi %n, %c1 : index
    %ix = arith.subi %nm, %t : index
    %wv = memref.load %w[%ix] : memref<?xf64>
    scf.for %j = %c0 to %k step %c1 {
      %km = arith.subi %k, %c1 : index
      %jj = arith.subi %km, %j : index
      %ji = arith.index_cast %jj : index to i64
      %jf = arith.sitofp %ji : i64 to f64
      %v = arith.mulf %wv, %jf : f64
      memref.store %v, %h[%jj] : memref<?xf64>
    } {moon.reverse}
    scf.for %s = %c0 to %k step %c1 {
      %km = arith.subi %k, %c1 : index
      %ik = arith.subi %km, %s : index
      %d = memref.load %h[%ik] : memref<?xf64>
      memref.store %z, %h[%ik] : memref<?xf64>
      %row = memref.subview %dl[%ik, 0] [1, %cols] [1, 1]
          : memref<?x?xf64> to memref<?xf64, strided<[1], offset: ?>>
      scf.for %j = %c0 to %cols step %c1 {
        %xv = memref.load %x[%ix, %j] : memref<?x?xf64>
        %p = arith.mulf %d, %xv : f64
        %o = memref.load %row[%j] : memref<?xf64, strided<[1], offset: ?>>
        %a = arith.addf %o, %p : f64
        memref.store %a, %row[%j] : memref<?xf64, strided<[1], offset: ?>>
      } {moon.reverse}
    } {moon.reverse}
  } {moon.reverse}
  memref.dealloc %h : memref<?xf64>
  return
}

// Left as they are: the inner loop adds into row %ix of %dl, which each
// outer iteration shares between all its inner iterations; the inner loop
// writes %acc, which P reads; %h is not zero when the loop starts.
// CHECK-LABEL: func.func @kept(
// CHECK-NOT: ceildivsi
// CHECK: return
func.func @kept(%x: memref<?x?xf64>, %dl: memref<?x?xf64>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %cols = memref.dim %dl, %c1 : memref<?x?xf64>
  scf.for %t = %c0 to %n step %c1 {
    %nm = arith.subi %n, %c1 : index
    %ix = arith.subi %nm, %t : index
    scf.for %s = %c0 to %k step %c1 {
      scf.for %j = %c0 to %cols step %c1 {
        %xv = memref.load %x[%s, %j] : memref<?x?xf64>
        %o = memref.load %dl[%ix, %j] : memref<?x?xf64>
        %a = arith.addf %o, %xv : f64
        memref.store %a, %dl[%ix, %j] : memref<?x?xf64>
      } {moon.reverse}
    } {moon.reverse}
  } {moon.reverse}
  %acc = memref.alloc(%k) : memref<?xf64>
  scf.for %i = %c0 to %k step %c1 {
    memref.store %z, %acc[%i] : memref<?xf64>
  }
  scf.for %t = %c0 to %n step %c1 {
    %a0 = memref.load %acc[%c0] : memref<?xf64>
    %xv = memref.load %x[%t, %c0] : memref<?x?xf64>
    %sum = arith.addf %a0, %xv : f64
    memref.store %sum, %x[%t, %c0] : memref<?x?xf64>
    scf.for %s = %c0 to %k step %c1 {
      %o = memref.load %acc[%s] : memref<?xf64>
      %a = arith.addf %o, %sum : f64
      memref.store %a, %acc[%s] : memref<?xf64>
    } {moon.reverse}
  } {moon.reverse}
  %h = memref.alloc(%k) : memref<?xf64>
  scf.for %t = %c0 to %n step %c1 {
    %tv = arith.index_cast %t : index to i64
    %tf = arith.sitofp %tv : i64 to f64
    memref.store %tf, %h[%c0] : memref<?xf64>
    scf.for %s = %c0 to %k step %c1 {
      %d = memref.load %h[%s] : memref<?xf64>
      %o = memref.load %dl[%s, %c0] : memref<?x?xf64>
      %a = arith.addf %o, %d : f64
      memref.store %a, %dl[%s, %c0] : memref<?x?xf64>
    } {moon.reverse}
  } {moon.reverse}
  memref.dealloc %h : memref<?xf64>
  memref.dealloc %acc : memref<?xf64>
  return
}
