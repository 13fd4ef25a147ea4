// RUN: moonc-opt %s --split-input-file --moon-autodiff=inline-max-ops=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff=inline-max-ops=0 | moonc-opt --split-input-file > /dev/null

// (Calls are not inlined here: `inline-max-ops=0`; see reverse-inline.mlir.)
// A call of a differentiated function uses a split pair, one per
// activities: @g_fwd_… (the primal code, taping on moonrt's tape) in the
// forward sweep and @g_rev_… (the reverse sweep, popping it) in the
// reverse sweep, in reverse call order.
// CHECK-LABEL: func.func private @sq_fwd_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64) -> f64
// CHECK: %[[E:.*]] = math.exp %[[X]] : f64
// CHECK: %[[Y:.*]] = arith.mulf %[[E]], %[[X]] : f64
// CHECK-NEXT: call @moonrt_tape_push_f64(%[[E]]) : (f64) -> ()
// CHECK-NEXT: return %[[Y]] : f64
// CHECK-LABEL: func.func private @sq_rev_a_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK-NEXT: %[[E:.*]] = call @moonrt_tape_pop_f64() : () -> f64
// CHECK-NOT: math.exp
// CHECK: %[[DE:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK: %[[DX1:.*]] = arith.mulf %[[E]], %[[S]] : f64
// CHECK: %[[DX2:.*]] = arith.mulf %[[DE]], %[[E]] : f64
// CHECK: %[[DX:.*]] = arith.addf %[[DX1]], %[[DX2]] : f64
// CHECK-NEXT: return %[[DX]] : f64
// CHECK-LABEL: func.func private @outer_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK-NEXT: %[[A:.*]] = call @sq_fwd_a_a(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[B:.*]] = call @sq_fwd_a_a(%[[A]]) : (f64) -> f64
// CHECK-NEXT: %[[DA:.*]] = call @sq_rev_a_a(%[[A]], %[[S]]) : (f64, f64) -> f64
// CHECK-NEXT: %[[DX:.*]] = call @sq_rev_a_a(%[[X]], %[[DA]]) : (f64, f64) -> f64
// CHECK-NEXT: return %[[DX]] : f64
func.func private @sq(%x: f64) -> f64 {
  %e = math.exp %x : f64
  %y = arith.mulf %e, %x : f64
  return %y : f64
}
func.func @outer(%x: f64) -> f64 {
  %a = func.call @sq(%x) : (f64) -> f64
  %b = func.call @sq(%a) : (f64) -> f64
  return %b : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @outer(%x) : (f64) -> f64
  return %r : f64
}

// -----

// A memref argument of a call is passed as `dup` with its shadow; the
// reverse function accumulates into the shadow.
// CHECK-LABEL: func.func private @total_rev_dc_a(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index, %[[DA:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: f64)
// CHECK: scf.for
// CHECK: %[[E:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK: memref.store %{{.*}}, %[[DA]][%{{.*}}] : memref<?xf64>
// CHECK-LABEL: func.func private @outer_vjp_dca_n(
// CHECK-SAME: %[[A:[^:]*]]: memref<?xf64>, %[[N:[^:]*]]: index, %[[X:[^:]*]]: f64, %[[DA:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: f64) -> f64
// CHECK-NEXT: %[[T:.*]] = call @total_fwd_dc_a(%[[A]], %[[N]]) : (memref<?xf64>, index) -> f64
// CHECK-NEXT: %[[DT:.*]] = arith.mulf %[[S]], %[[X]] : f64
// CHECK-NEXT: %[[DX:.*]] = arith.mulf %[[T]], %[[S]] : f64
// CHECK-NEXT: call @total_rev_dc_a(%[[A]], %[[N]], %[[DA]], %[[DT]]) : (memref<?xf64>, index, memref<?xf64>, f64) -> ()
// CHECK-NEXT: return %[[DX]] : f64
func.func private @total(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %t = arith.addf %acc, %e : f64
    scf.yield %t : f64
  }
  return %r : f64
}
func.func @outer(%a: memref<?xf64>, %n: index, %x: f64) -> f64 {
  %t = func.call @total(%a, %n) : (memref<?xf64>, index) -> f64
  %m = arith.mulf %t, %x : f64
  return %m : f64
}
func.func @caller(%a: memref<?xf64>, %da: memref<?xf64>, %n: index, %x: f64) -> f64 {
  %r = moon.grad @outer(%a, %n, %x, %da) args [dup, const, active] : (memref<?xf64>, index, f64, memref<?xf64>) -> f64
  return %r : f64
}

// -----

// Recursion: the split pair calls itself. The forward function pushes
// sin(x) after its recursive call, the reverse one pops it before its
// recursive call (LIFO) and recomputes n - 1; the adjoint function of the
// entry point tapes in a buffer and calls the pair.
// CHECK-LABEL: func.func private @rec_fwd_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32) -> f64
// CHECK: %[[C:.*]] = arith.cmpi sle, %[[N]], %{{.*}} : i32
// CHECK-NEXT: %{{.*}} = scf.if %[[C]] -> (f64) {
// CHECK: } else {
// CHECK: %[[SIN:.*]] = math.sin %[[X]] : f64
// CHECK-NEXT: %[[Y:.*]] = func.call @rec_fwd_ac_a(%[[SIN]], %{{.*}}) : (f64, i32) -> f64
// CHECK-NEXT: func.call @moonrt_tape_push_f64(%[[SIN]]) : (f64) -> ()
// CHECK-NEXT: scf.yield %[[Y]] : f64
// CHECK-LABEL: func.func private @rec_rev_ac_a(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[S:[^:]*]]: f64) -> f64
// CHECK: %[[DXS:.*]] = memref.alloca() : memref<f64>
// CHECK: %[[C:.*]] = arith.cmpi sle, %[[N]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[C]] {
// CHECK-NEXT: %[[O1:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK-NEXT: %[[N1:.*]] = arith.addf %[[O1]], %[[S]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[N1]], %[[DXS]][] : memref<f64>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P:.*]] = func.call @moonrt_tape_pop_f64() : () -> f64
// CHECK: %[[M:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK-NEXT: %[[D:.*]] = func.call @rec_rev_ac_a(%[[P]], %[[M]], %[[S]]) : (f64, i32, f64) -> f64
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[X]] : f64
// CHECK-NEXT: %[[DX:.*]] = arith.mulf %[[D]], %[[COS]] : f64
// CHECK-NEXT: %[[O2:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK-NEXT: %[[N2:.*]] = arith.addf %[[O2]], %[[DX]] fastmath<reassoc> : f64
// CHECK-NEXT: memref.store %[[N2]], %[[DXS]][] : memref<f64>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = memref.load %[[DXS]][] : memref<f64>
// CHECK: return %[[R]] : f64
// CHECK-LABEL: func.func private @rec_vjp_ac_n(
// CHECK: %[[TAPE:.*]] = memref.alloc() : memref<f64>
// CHECK: scf.if
// CHECK: %[[SIN:.*]] = math.sin
// CHECK-NEXT: func.call @rec_fwd_ac_a(%[[SIN]], %{{.*}})
// CHECK-NEXT: memref.store %[[SIN]], %[[TAPE]][] : memref<f64>
// CHECK: scf.if
// CHECK: } else {
// CHECK-NEXT: %[[SIN2:.*]] = memref.load %[[TAPE]][] : memref<f64>
// CHECK: func.call @rec_rev_ac_a(%[[SIN2]], %{{.*}}, %{{.*}})
// CHECK: memref.dealloc %[[TAPE]] : memref<f64>
func.func @rec(%x: f64, %n: i32) -> f64 {
  %c0 = arith.constant 0 : i32
  %c = arith.cmpi sle, %n, %c0 : i32
  %r = scf.if %c -> f64 {
    scf.yield %x : f64
  } else {
    %one = arith.constant 1 : i32
    %m = arith.subi %n, %one : i32
    %s = math.sin %x : f64
    %y = func.call @rec(%s, %m) : (f64, i32) -> f64
    scf.yield %y : f64
  }
  return %r : f64
}
func.func @caller(%x: f64) -> f64 {
  %n = arith.constant 3 : i32
  %r = moon.grad @rec(%x, %n) args [active, const] : (f64, i32) -> f64
  return %r : f64
}

// -----

// A function with a custom rule is not differentiated through: the
// forward sweep calls it as is, the reverse sweep calls its vjp function
// with the arguments and the result's adjoint, and takes the argument's
// adjoint from its results.
// CHECK-LABEL: func.func private @user_vjp_a_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> f64
// CHECK-NEXT: %[[Y:.*]] = call @softplus(%[[X]]) : (f64) -> f64
// CHECK-NEXT: %[[A:.*]] = arith.mulf %[[S]], %[[Y]] : f64
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[Y]], %[[S]] : f64
// CHECK-NEXT: %[[DY:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK-NEXT: %[[R:.*]]:2 = call @softplus_vjp(%[[X]], %[[DY]]) : (f64, f64) -> (f64, f64)
// CHECK-NEXT: return %[[R]]#1 : f64
// CHECK-NOT: softplus_fwd
// CHECK-NOT: softplus_rev
func.func private @softplus(%x: f64) -> f64 {
  %e = math.exp %x : f64
  %l = math.log1p %e : f64
  return %l : f64
}
func.func private @softplus_vjp(%x: f64, %s: f64) -> (f64, f64) {
  %e = math.exp %x : f64
  %l = math.log1p %e : f64
  %one = arith.constant 1.0 : f64
  %e1 = arith.addf %e, %one : f64
  %sig = arith.divf %e, %e1 : f64
  %d = arith.mulf %s, %sig : f64
  return %l, %d : f64, f64
}
moon.custom_rule @softplus vjp @softplus_vjp
func.func @user(%x: f64) -> f64 {
  %y = func.call @softplus(%x) : (f64) -> f64
  %z = arith.mulf %y, %y : f64
  return %z : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @user(%x) : (f64) -> f64
  return %r : f64
}

// -----

// A function of two float scalars with only a custom jvp: reverse mode
// keeps the primal call and, in the reverse sweep, calls the jvp once per
// active argument with a unit tangent, multiplying the tangent it returns
// by the result's adjoint.
// CHECK-LABEL: func.func private @use_vjp_aa_n(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[S:[^:]*]]: f64) -> (f64, f64)
// CHECK: %[[P:.*]] = call @hyp(%[[X]], %[[Y]]) : (f64, f64) -> f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %{{.*}}:2 = call @hyp_jvp(%[[X]], %[[Y]], %[[ONE]], %[[ZERO]]) : (f64, f64, f64, f64) -> (f64, f64)
// CHECK: %{{.*}}:2 = call @hyp_jvp(%[[X]], %[[Y]], %{{.*}}, %{{.*}}) : (f64, f64, f64, f64) -> (f64, f64)
// CHECK: return
func.func private @hyp(%x: f64, %y: f64) -> f64 {
  %xx = arith.mulf %x, %x : f64
  %yy = arith.mulf %y, %y : f64
  %s = arith.addf %xx, %yy : f64
  %r = math.sqrt %s : f64
  return %r : f64
}
func.func private @hyp_jvp(%x: f64, %y: f64, %dx: f64, %dy: f64) -> (f64, f64) {
  %r = func.call @hyp(%x, %y) : (f64, f64) -> f64
  %a = arith.mulf %x, %dx : f64
  %b = arith.mulf %y, %dy : f64
  %n = arith.addf %a, %b : f64
  %d = arith.divf %n, %r : f64
  return %r, %d : f64, f64
}
moon.custom_rule @hyp jvp @hyp_jvp
func.func @use(%x: f64, %y: f64) -> f64 {
  %r = func.call @hyp(%x, %y) : (f64, f64) -> f64
  return %r : f64
}
func.func @caller(%x: f64, %y: f64) -> (f64, f64) {
  %g:2 = moon.grad @use(%x, %y) : (f64, f64) -> (f64, f64)
  return %g#0, %g#1 : f64, f64
}

// -----

// A helper that returns a view of its argument: the caller's shadow of the
// returned memref is the same view of the argument's shadow.
// CHECK-LABEL: func.func private @write_row_vjp_da_(
// CHECK-SAME: %[[M:[^:]*]]: memref<3x3xf64>, %[[X:[^:]*]]: f64, %[[DM:[^:]*]]: memref<3x3xf64>) -> f64
// CHECK: call @row_of_fwd_{{.*}}(%[[M]], %{{.*}})
// CHECK: %[[DR:.*]] = memref.subview %[[DM]][%{{.*}}, 0] [1, 3] [1, 1]
// CHECK: memref.load %[[DR]]
func.func private @row_of(%m: memref<3x3xf64>, %i: index) -> memref<3xf64, strided<[1], offset: ?>> {
  %s = memref.subview %m[%i, 0] [1, 3] [1, 1] : memref<3x3xf64> to memref<3xf64, strided<[1], offset: ?>>
  return %s : memref<3xf64, strided<[1], offset: ?>>
}
func.func @write_row(%m: memref<3x3xf64>, %x: f64) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = func.call @row_of(%m, %c1) : (memref<3x3xf64>, index) -> memref<3xf64, strided<[1], offset: ?>>
  %v = memref.load %r[%c2] : memref<3xf64, strided<[1], offset: ?>>
  %p = arith.mulf %v, %x : f64
  memref.store %p, %r[%c2] : memref<3xf64, strided<[1], offset: ?>>
  return
}
func.func @caller(%m: memref<3x3xf64>, %dm: memref<3x3xf64>, %x: f64) -> f64 {
  %r = moon.vjp @write_row(%m, %x, %dm) : (memref<3x3xf64>, f64, memref<3x3xf64>) -> f64
  return %r : f64
}
