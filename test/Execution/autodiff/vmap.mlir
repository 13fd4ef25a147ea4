// moon.vmap (a loop over the batch around the inlined body) and its
// composition with differentiation.
//
// A value-dependent branch, batched and called per element, gives the same
// (sin(0.5) * 3 ends in ...609 or ...6088, one ulp apart, by the CPU's
// sin):
// RUN: moonc run %s --entry batched --args '[[0.5, -1.0, 2.0, -0.25, 0.0], 3.0]' | FileCheck %s --check-prefix=BRANCH
// RUN: moonc run %s --entry looped --args '[[0.5, -1.0, 2.0, -0.25, 0.0], 3.0, [0, 0, 0, 0, 0]]' | FileCheck %s --check-prefix=LOOPED
// BRANCH: {"results": {{\[\[}}1.43827661581260{{9|88}}, 1.0, 2.727892280477045, 0.0625, 0.0]],
// LOOPED: "args": [{{.*}}, null, [1.43827661581260{{9|88}}, 1.0, 2.727892280477045, 0.0625, 0.0]]}
// The same in cf form (several blocks: an scf.execute_region), with the
// weights batched too:
// RUN: moonc run %s --entry absw_batched --args '[[1.5, -2.0, 0.0, -0.5], [2.0, 3.0, 4.0, 5.0]]' | FileCheck %s --check-prefix=CF
// CF: {"results": {{\[\[}}3.0, 6.0, 0.0, 2.5]],
// Mutation of a batched buffer, batched along axis 0 and along axis 1:
// RUN: moonc run %s --entry mut_rows --args '[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0.5, 1.5, 2.5]]' | FileCheck %s --check-prefix=ROWS
// ROWS: {"results": {{\[\[}}4.5, 17.5, 38.5]], "args": {{\[\[\[}}2.5, 2.0], [13.5, 4.0], [32.5, 6.0]], [0.5, 1.5, 2.5]]}
// RUN: moonc run %s --entry mut_cols --args '[[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]], [0.5, 1.5, 2.5]]' | FileCheck %s --check-prefix=COLS
// COLS: {"results": {{\[\[}}4.5, 17.5, 38.5]], "args": {{\[\[\[}}2.5, 13.5, 32.5], [2.0, 4.0, 6.0]], [0.5, 1.5, 2.5]]}
//
// vmap(grad): per-example gradients equal `moonc grad` of each example
// (0.0478.., 0.0956..; 0.9897.., -0.9897..; 1.5051.., 0.7525..):
// RUN: moonc run %s --entry per_example --args '[0.7, -0.2, [0.5, -1.0, 2.0], [0.1, 0.3, -0.4]]' | FileCheck %s --check-prefix=PER
// RUN: moonc grad %s --entry loss --args '[0.7, -0.2, 0.5, 0.1]' | FileCheck %s --check-prefix=G0
// RUN: moonc grad %s --entry loss --args '[0.7, -0.2, 2.0, -0.4]' | FileCheck %s --check-prefix=G2
// PER: {"results": {{\[\[}}0.04780141114600658, 0.9897061541959773, 1.5051572942084013], [0.09560282229201315, -0.9897061541959773, 0.7525786471042006]],
// G0: "gradient": [0.04780141114600658, 0.09560282229201315,
// G2: "gradient": [1.5051572942084013, 0.7525786471042006,
// vmap(jvp): d loss / dx per example (the third gradient entries):
// RUN: moonc run %s --entry vmap_jvp --args '[0.7, -0.2, [0.5, -1.0, 2.0], [0.1, 0.3, -0.4]]' | FileCheck %s --check-prefix=VJVP
// VJVP: {"results": {{\[\[}}0.0669219756044092, -0.69279430793718{{[0-9]*}}, 0.5268050529729404]],
// vmap(vjp): c (x cos x + sin x) at (0.5, 1) and (1, 2):
// RUN: moonc run %s --entry vmap_vjp --args '[[0.5, 1.0], [1.0, 2.0]]' | FileCheck %s --check-prefix=VVJP
// VVJP: {"results": {{\[\[}}0.9182168195493894, 2.7635465813520725]],
// jvp(vmap) and grad(vmap): d/dw of the summed batched losses is the sum
// of the per-example gradients in w (2.5426648595503...):
// RUN: moonc run %s --entry jvp_total --args '[0.7, -0.2, [0.5, -1.0, 2.0], [0.1, 0.3, -0.4]]' | FileCheck %s --check-prefix=TOTAL
// RUN: moonc run %s --entry grad_total --args '[0.7, -0.2, [0.5, -1.0, 2.0], [0.1, 0.3, -0.4]]' | FileCheck %s --check-prefix=TOTAL
// TOTAL: {"results": [2.5426648595503{{[0-9]*}}],
// Jacobians by vmap(jvp) over the basis directions (columns) and vmap(vjp)
// over the basis cotangents (rows), as `moonc jacobian` gives them:
// RUN: moonc run %s --entry jacobian_fwd --args '[2.0, 3.0, 0.5, [1, 0, 0], [0, 1, 0], [0, 0, 1]]' | FileCheck %s --check-prefix=JFWD
// RUN: moonc run %s --entry jacobian_rev --args '[2.0, 3.0, 0.5, [1, 0], [0, 1]]' | FileCheck %s --check-prefix=JREV
// RUN: moonc jacobian %s --entry two --args '[2.0, 3.0, 0.5]' | FileCheck %s --check-prefix=JAC
// JFWD: {"results": {{\[\[}}3.0, 2.0, 0.8775825618903728], [0.25, 0.0, 2.0]],
// JREV: {"results": {{\[\[}}3.0, 0.25], [2.0, 0.0], [0.8775825618903728, 2.0]],
// JAC: "jacobian": {{\[\[}}3.0, 2.0, 0.8775825618903728], [0.25, 0.0, 2.0]]}
// Both modes against finite differences and each other, through vmap:
// RUN: moonc check %s --entry total --args '[0.7, -0.2, [0.5, -1.0, 2.0], [0.1, 0.3, -0.4]]' | FileCheck %s --check-prefix=PASS
// RUN: moonc check %s --entry mut_rows --args '[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [0.5, 1.5, 2.5]]' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS

func.func @f(%x: f64, %w: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %pos = arith.cmpf ogt, %x, %z : f64
  %r = scf.if %pos -> f64 {
    %s = math.sin %x : f64
    %t = arith.mulf %s, %w : f64
    scf.yield %t : f64
  } else {
    %q = arith.mulf %x, %x : f64
    scf.yield %q : f64
  }
  return %r : f64
}
func.func @batched(%xs: memref<?xf64>, %w: f64) -> memref<?xf64> {
  %ys = moon.vmap @f(%xs, %w) in_axes [0, none] out_axes [0] : (memref<?xf64>, f64) -> memref<?xf64>
  return %ys : memref<?xf64>
}
func.func @looped(%xs: memref<?xf64>, %w: f64, %ys: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %xs, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %xs[%i] : memref<?xf64>
    %y = func.call @f(%x, %w) : (f64, f64) -> f64
    memref.store %y, %ys[%i] : memref<?xf64>
  }
  return
}
// Mutation of a batched buffer: x[0] <- x[0] * x[1] + s, returns x[0] + x[1].
func.func @mut(%x: memref<2xf64>, %s: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.load %x[%c0] : memref<2xf64>
  %b = memref.load %x[%c1] : memref<2xf64>
  %p = arith.mulf %a, %b : f64
  %q = arith.addf %p, %s : f64
  memref.store %q, %x[%c0] : memref<2xf64>
  %r = arith.addf %q, %b : f64
  return %r : f64
}
func.func @mut_rows(%xs: memref<?x2xf64>, %ss: memref<?xf64>) -> memref<?xf64> {
  %r = moon.vmap @mut(%xs, %ss) : (memref<?x2xf64>, memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}
// Axis 1: columns of a 2x? buffer.
func.func @mut_cols(%xs: memref<2x?xf64>, %ss: memref<?xf64>) -> memref<?xf64> {
  %r = moon.vmap @mut(%xs, %ss) in_axes [1, 0] out_axes [0] : (memref<2x?xf64>, memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}
func.func @loss(%w: f64, %b: f64, %x: f64, %y: f64) -> f64 {
  %p = arith.mulf %w, %x : f64
  %q = arith.addf %p, %b : f64
  %t = math.tanh %q : f64
  %d = arith.subf %t, %y : f64
  %l = arith.mulf %d, %d : f64
  return %l : f64
}
// Gradient in (w, b) for one example.
func.func @grad_wb(%w: f64, %b: f64, %x: f64, %y: f64) -> (f64, f64) {
  %gw, %gb = moon.grad @loss(%w, %b, %x, %y) args [active, active, const, const] : (f64, f64, f64, f64) -> (f64, f64)
  return %gw, %gb : f64, f64
}
// Per-example gradients.
func.func @per_example(%w: f64, %b: f64, %xs: memref<?xf64>, %ys: memref<?xf64>) -> (memref<?xf64>, memref<?xf64>) {
  %gw, %gb = moon.vmap @grad_wb(%w, %b, %xs, %ys) in_axes [none, none, 0, 0] out_axes [0, 0]
      : (f64, f64, memref<?xf64>, memref<?xf64>) -> (memref<?xf64>, memref<?xf64>)
  return %gw, %gb : memref<?xf64>, memref<?xf64>
}
// d/dx of each loss: vmap(jvp)
func.func @dloss_dx(%w: f64, %b: f64, %x: f64, %y: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @loss(%w, %b, %x, %y, %one) args [const, const, active, const] results [active_noneed] : (f64, f64, f64, f64, f64) -> f64
  return %d : f64
}
func.func @vmap_jvp(%w: f64, %b: f64, %xs: memref<?xf64>, %ys: memref<?xf64>) -> memref<?xf64> {
  %d = moon.vmap @dloss_dx(%w, %b, %xs, %ys) in_axes [none, none, 0, 0] out_axes [0] : (f64, f64, memref<?xf64>, memref<?xf64>) -> memref<?xf64>
  return %d : memref<?xf64>
}
// Sum of the batched losses, differentiated in w: jvp(vmap f) and grad of it.
func.func @total(%w: f64, %b: f64, %xs: memref<?xf64>, %ys: memref<?xf64>) -> f64 {
  %ls = moon.vmap @loss(%w, %b, %xs, %ys) in_axes [none, none, 0, 0] out_axes [0] : (f64, f64, memref<?xf64>, memref<?xf64>) -> memref<?xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ls, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %l = memref.load %ls[%i] : memref<?xf64>
    %a = arith.addf %acc, %l : f64
    scf.yield %a : f64
  }
  memref.dealloc %ls : memref<?xf64>
  return %s : f64
}
func.func @jvp_total(%w: f64, %b: f64, %xs: memref<?xf64>, %ys: memref<?xf64>) -> f64 {
  %one = arith.constant 1.0 : f64
  %d = moon.jvp @total(%w, %b, %xs, %ys, %one) args [active, const, const, const] results [active_noneed] : (f64, f64, memref<?xf64>, memref<?xf64>, f64) -> f64
  return %d : f64
}
func.func @grad_total(%w: f64, %b: f64, %xs: memref<?xf64>, %ys: memref<?xf64>) -> f64 {
  %d = moon.grad @total(%w, %b, %xs, %ys) args [active, const, const, const] : (f64, f64, memref<?xf64>, memref<?xf64>) -> f64
  return %d : f64
}
// f in cf form: |x| via branches, times w
func.func @absw(%x: f64, %w: f64) -> f64 {
  %z = arith.constant 0.0 : f64
  %neg = arith.cmpf olt, %x, %z : f64
  cf.cond_br %neg, ^bb1, ^bb2(%x : f64)
^bb1:
  %n = arith.negf %x : f64
  cf.br ^bb2(%n : f64)
^bb2(%a: f64):
  %r = arith.mulf %a, %w : f64
  return %r : f64
}
func.func @absw_batched(%xs: memref<?xf64>, %ws: memref<?xf64>) -> memref<?xf64> {
  %r = moon.vmap @absw(%xs, %ws) : (memref<?xf64>, memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}
// vmap of a VJP: the pullback of loss at each example with cotangent c.
func.func @sq(%x: f64) -> f64 {
  %s = math.sin %x : f64
  %p = arith.mulf %s, %x : f64
  return %p : f64
}
func.func @pullback(%x: f64, %c: f64) -> f64 {
  %d = moon.vjp @sq(%x, %c) results [active_noneed] : (f64, f64) -> f64
  return %d : f64
}
func.func @vmap_vjp(%xs: memref<?xf64>, %cs: memref<?xf64>) -> memref<?xf64> {
  %r = moon.vmap @pullback(%xs, %cs) : (memref<?xf64>, memref<?xf64>) -> memref<?xf64>
  return %r : memref<?xf64>
}

// f(a, b, c) = (a b + sin c, a c^2)
func.func @two(%a: f64, %b: f64, %c: f64) -> (f64, f64) {
  %ab = arith.mulf %a, %b : f64
  %s = math.sin %c : f64
  %y1 = arith.addf %ab, %s : f64
  %c2 = arith.mulf %c, %c : f64
  %y2 = arith.mulf %a, %c2 : f64
  return %y1, %y2 : f64, f64
}
func.func @two_jvp(%a: f64, %b: f64, %c: f64, %da: f64, %db: f64, %dc: f64) -> (f64, f64) {
  %t1, %t2 = moon.jvp @two(%a, %b, %c, %da, %db, %dc) results [active_noneed, active_noneed]
      : (f64, f64, f64, f64, f64, f64) -> (f64, f64)
  return %t1, %t2 : f64, f64
}
func.func @two_vjp(%a: f64, %b: f64, %c: f64, %y1: f64, %y2: f64) -> (f64, f64, f64) {
  %ga, %gb, %gc = moon.vjp @two(%a, %b, %c, %y1, %y2) results [active_noneed, active_noneed]
      : (f64, f64, f64, f64, f64) -> (f64, f64, f64)
  return %ga, %gb, %gc : f64, f64, f64
}
// Jacobian columns: JVPs in the three basis directions, batched.
func.func @jacobian_fwd(%a: f64, %b: f64, %c: f64, %da: memref<3xf64>, %db: memref<3xf64>, %dc: memref<3xf64>) -> (memref<3xf64>, memref<3xf64>) {
  %r1, %r2 = moon.vmap @two_jvp(%a, %b, %c, %da, %db, %dc) in_axes [none, none, none, 0, 0, 0] out_axes [0, 0]
      : (f64, f64, f64, memref<3xf64>, memref<3xf64>, memref<3xf64>) -> (memref<3xf64>, memref<3xf64>)
  return %r1, %r2 : memref<3xf64>, memref<3xf64>
}
// Jacobian rows: VJPs with the two basis cotangents, batched.
func.func @jacobian_rev(%a: f64, %b: f64, %c: f64, %y1: memref<2xf64>, %y2: memref<2xf64>) -> (memref<2xf64>, memref<2xf64>, memref<2xf64>) {
  %ga, %gb, %gc = moon.vmap @two_vjp(%a, %b, %c, %y1, %y2) in_axes [none, none, none, 0, 0] out_axes [0, 0, 0]
      : (f64, f64, f64, memref<2xf64>, memref<2xf64>) -> (memref<2xf64>, memref<2xf64>, memref<2xf64>)
  return %ga, %gb, %gc : memref<2xf64>, memref<2xf64>, memref<2xf64>
}
