// RUN: moonc-opt --moon-ascending-reverse-loops %s | FileCheck %s
// RUN: moonc-opt --moon-ascending-reverse-loops=ascending=0 %s | FileCheck %s --check-prefix=OFF
// RUN: moonc-opt --moon-cpu-pipeline %s | moonc-opt > /dev/null

// The reverse of `dl[c + j] += dout[j] * x; dx += dout[j] * l[c + j]`
// (GradBench gmm's triangle, one row): each iteration its own element of
// the buffers it writes (%dl at %c + %j, the scratch %dout at %j) and a
// reassociable sum into %acc; %l is an argument the function never
// writes. The induction variable's uses become n - 1 - %i, so the body's
// n - 1 - %i is %i again: the loop walks memory upwards.
// CHECK-LABEL: func.func @row(
// CHECK-SAME: %{{[^:]*}}: index, %[[N:[^:]*]]: index)
// CHECK: scf.for %[[I:[^ ]*]] = %c0 to %[[N]] step %c1 {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[N]], %[[ONE]] : index
// CHECK-NEXT: %[[FLIP:.*]] = arith.subi %[[LAST]], %[[I]] : index
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[N]], %c1 : index
// CHECK-NEXT: %{{.*}} = arith.subi %[[M]], %[[FLIP]] : index
// CHECK: } {moon.reverse}
// OFF-LABEL: func.func @row(
// OFF: scf.for %[[I:[^ ]*]] =
// OFF-NEXT: %[[M:.*]] = arith.subi
// OFF-NEXT: arith.subi %[[M]], %[[I]] : index
func.func @row(%l: memref<?xf64>, %dl: memref<?xf64>, %x: f64, %c: index, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %dout = memref.alloc(%n) : memref<?xf64>
  %acc = memref.alloca() : memref<f64>
  memref.store %z, %acc[] : memref<f64>
  scf.for %i = %c0 to %n step %c1 {
    %m = arith.subi %n, %c1 : index
    %j = arith.subi %m, %i : index
    %at = arith.addi %c, %j : index
    %d = memref.load %dout[%j] : memref<?xf64>
    memref.store %z, %dout[%j] : memref<?xf64>
    %lv = memref.load %l[%at] : memref<?xf64>
    %p = arith.mulf %d, %lv : f64
    %a = memref.load %acc[] : memref<f64>
    %s = arith.addf %a, %p fastmath<reassoc> : f64
    memref.store %s, %acc[] : memref<f64>
    %q = arith.mulf %d, %x : f64
    %o = memref.load %dl[%at] : memref<?xf64>
    %u = arith.addf %o, %q : f64
    memref.store %u, %dl[%at] : memref<?xf64>
  } {moon.reverse}
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %dout : memref<?xf64>
  return %r : f64
}

// Left as they are: a loop that reads the element the next iteration
// writes (%b[j] from %b[j + 1]); a sum without reassoc; a loop writing an
// argument beside another argument the function writes (they may
// overlap); a forward loop.
// CHECK-LABEL: func.func @kept(
// CHECK: scf.for %[[A:[^ ]*]] =
// CHECK-NEXT: arith.addi %[[A]], %c1 : index
// CHECK: scf.for %[[B:[^ ]*]] =
// CHECK-NEXT: memref.load %{{.*}}[%[[B]]]
// CHECK: scf.for %[[C:[^ ]*]] =
// CHECK-NEXT: memref.load %{{.*}}[%[[C]]]
// CHECK: scf.for %[[D:[^ ]*]] =
// CHECK-NEXT: memref.load %{{.*}}[%[[D]]]
// CHECK: return
func.func @kept(%a: memref<?xf64>, %w: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %b = memref.alloc(%n) : memref<?xf64>
  %acc = memref.alloca() : memref<f64>
  %nm1 = arith.subi %n, %c1 : index
  scf.for %i = %c0 to %nm1 step %c1 {
    %j1 = arith.addi %i, %c1 : index
    %v = memref.load %b[%j1] : memref<?xf64>
    memref.store %v, %b[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xf64>
    %s0 = memref.load %acc[] : memref<f64>
    %s = arith.addf %s0, %v : f64
    memref.store %s, %acc[] : memref<f64>
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %w[%i] : memref<?xf64>
    memref.store %v, %a[%i] : memref<?xf64>
  } {moon.reverse}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %b[%i] : memref<?xf64>
    memref.store %v, %w[%i] : memref<?xf64>
  }
  memref.dealloc %b : memref<?xf64>
  return
}
