// `moonc check`: determinism, the JVP's primal, the JVP against central
// finite differences in 3 random directions, the VJP's primal, the VJP's
// use of moonrt's tape, and the dot-product test between forward and
// reverse mode; one line per check, then PASS or FAIL; exit status 1 on
// FAIL. `--mode forward` and `--mode reverse` check one mode (reverse mode
// checks the VJP against finite differences instead of the JVP).

// A function that passes, on random inputs drawn from --seed (default 0):
// its outputs are the result and the final contents of %m. (Its plain
// version runs two of the sines through libmvec, its JVP through libm: the
// primal checks allow 4 ulp.)
// RUN: moonc check %s --entry smooth | FileCheck %s --check-prefix=SMOOTH
// RUN: moonc check %s --entry smooth --mode both | FileCheck %s --check-prefix=SMOOTH
// SMOOTH:      check @smooth: 4 float inputs, 4 float outputs
// SMOOTH-NEXT:   inputs (drawn with seed 0): [1.3833108082136425, [0.93152799704851, 0.5264337715925977, 1.4708819781538285]]
// SMOOTH-NEXT:   determinism: ok: two plain calls agree bit for bit
// SMOOTH-NEXT:   primal: ok: the JVP computes the plain call's results and memref contents (to 4 ulp)
// SMOOTH-NEXT:   jvp vs finite differences, direction 1: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   jvp vs finite differences, direction 2: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   jvp vs finite differences, direction 3: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   vjp primal: ok: the VJP computes the plain call's results and memref contents (to 4 ulp)
// SMOOTH-NEXT:   vjp tape: ok: every VJP popped all it pushed, with no error (peak {{[0-9]+}} bytes)
// SMOOTH-NEXT:   dot product (forward vs reverse): ok: <ybar, J xdot> = <J^T ybar, xdot> for 3 random pairs, relative error {{[0-9.]+e-?[0-9]+}} at worst (rtol 1e-9)
// SMOOTH-NEXT: check: PASS (8 checks)

// One mode at a time. Forward mode reports as it did before reverse mode
// existed; reverse mode checks the VJP against finite differences.
// RUN: moonc check %s --entry smooth --mode forward | FileCheck %s --check-prefix=FORWARD
// FORWARD:      determinism: ok
// FORWARD-NEXT: primal: ok
// FORWARD-NEXT: jvp vs finite differences, direction 1: ok
// FORWARD-NEXT: jvp vs finite differences, direction 2: ok
// FORWARD-NEXT: jvp vs finite differences, direction 3: ok
// FORWARD-NEXT: dot product (forward vs reverse): skipped: --mode forward checks forward mode only
// FORWARD-NEXT: check: PASS (5 checks)
// RUN: moonc check %s --entry smooth --mode reverse | FileCheck %s --check-prefix=REVERSE
// REVERSE:      determinism: ok
// REVERSE-NEXT: vjp primal: ok
// REVERSE-NEXT: vjp tape: ok
// REVERSE-NEXT: vjp vs finite differences, direction 1: ok: relative error {{[0-9.]+e-?[0-9]+}} at h = 1e-{{[0-9]}}
// REVERSE-NEXT: vjp vs finite differences, direction 2: ok
// REVERSE-NEXT: vjp vs finite differences, direction 3: ok
// REVERSE-NEXT: dot product (forward vs reverse): skipped: --mode reverse checks reverse mode only
// REVERSE-NEXT: check: PASS (6 checks)

// Another seed draws other inputs; --args gives them.
// RUN: moonc check %s --entry smooth --seed 7 | FileCheck %s --check-prefix=SEED
// SEED: inputs (drawn with seed 7): [{{[0-9.]+}}, [{{[0-9., ]+}}]]
// SEED-NOT: 1.3833108082136425
// SEED: check: PASS (8 checks)
// RUN: moonc check %s --entry smooth --args '[0.5, [1, 2, 3]]' | FileCheck %s --check-prefix=GIVEN
// GIVEN: inputs (from --args): [0.5, [1.0, 2.0, 3.0]]
// GIVEN: check: PASS (8 checks)
// --wrt: the inputs are the arguments listed; a memref left out is no
// output. Leaving out a memref the function stores differentiated values
// into is an error (it would need a shadow), with a note.
// RUN: moonc check %s --entry smooth --wrt 1 | FileCheck %s --check-prefix=WRT
// WRT: check @smooth: 3 float inputs (--wrt 1), 4 float outputs
// WRT: check: PASS (8 checks)
// RUN: moonc check %s --entry smooth32 --wrt 1 --mode reverse | FileCheck %s --check-prefix=WRT32
// WRT32: check @smooth32: 1 float input (--wrt 1), 1 float output
// WRT32-NEXT: inputs (drawn with seed 0): [1.3833108, 0.931528]
// WRT32: check: PASS (6 checks)
// RUN: not moonc check %s --entry smooth --wrt 0 2>&1 | FileCheck %s --check-prefix=WRT-OUT
// WRT-OUT: check.mlir:{{[0-9]+}}:10: error: this memref receives derivatives but has no shadow
// WRT-OUT-NEXT: note: the arguments --wrt leaves out are constants, without shadows: list every argument the function writes differentiated values into
func.func @smooth(%x: f64, %m: memref<3xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %m[%i] : memref<3xf64>
    %xv = arith.mulf %x, %v : f64
    %e = math.exp %xv : f64
    %sin = math.sin %v : f64
    %w = arith.mulf %sin, %x : f64
    memref.store %w, %m[%i] : memref<3xf64>
    %next = arith.addf %acc, %e : f64
    scf.yield %next : f64
  }
  return %s : f64
}

// f32 uses coarser steps and tolerances.
// RUN: moonc check %s --entry smooth32 | FileCheck %s --check-prefix=F32
// F32: check @smooth32: 2 float inputs, 1 float output
// F32: direction 1: ok: relative error {{[0-9.]+e-[0-9]+}} at h = {{1e-1|3e-2|1e-2|3e-3}}
// F32: dot product (forward vs reverse): ok: {{.*}} (rtol 1e-3)
// F32: check: PASS (8 checks)
func.func @smooth32(%x: f32, %y: f32) -> f32 {
  %p = arith.mulf %x, %y : f32
  %t = math.tanh %p : f32
  %r = arith.divf %t, %y : f32
  return %r : f32
}

// A wrong derivative: the custom rule says d(x*x) = x dx, not 2x dx.
// Finite differences catch it; the primal is right.
// RUN: bash -c 'moonc check %s --entry sq --mode forward > %t.sq.out 2> %t.sq.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=WRONG < %t.sq.out
// RUN: FileCheck %s --check-prefix=WRONG-ERR < %t.sq.err
// WRONG:      check @sq: 1 float input, 1 float output
// WRONG:        determinism: ok
// WRONG-NEXT:   primal: ok
// WRONG-NEXT:   jvp vs finite differences, direction 1: FAIL: relative error 5.0e-1 at h = {{.*}} (the best step), beyond rtol 1e-6 and atol 1e-9; |jvp| = {{.*}}, |finite difference| = {{.*}}
// WRONG-NEXT:   jvp vs finite differences, direction 2: FAIL
// WRONG-NEXT:   jvp vs finite differences, direction 3: FAIL
// WRONG-NEXT:   dot product (forward vs reverse): skipped: --mode forward checks forward mode only
// WRONG-NEXT: check: FAIL (3 of 5 checks failed)
// WRONG-ERR: moonc: error: @sq: 3 of 5 checks failed (the report is on stdout)
func.func @sq(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @sq_wrong_jvp(%x: f64, %dx: f64) -> (f64, f64) {
  %y = arith.mulf %x, %x : f64
  %dy = arith.mulf %x, %dx : f64
  return %y, %dy : f64, f64
}
moon.custom_rule @sq jvp @sq_wrong_jvp

// A rule whose primal is wrong (x*x + 1) but whose tangent is right.
// RUN: bash -c 'moonc check %s --entry shifted --mode forward > %t.shifted.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=PRIMAL < %t.shifted.out
// PRIMAL: determinism: ok
// PRIMAL-NEXT: primal: FAIL: result #0 is 1.91354879212068{{[0-9]*}} in a plain call and 2.91354879212068{{[0-9]*}} in the JVP (more than 4 ulp apart)
// PRIMAL-NEXT: direction 1: ok
// PRIMAL: check: FAIL (1 of 5 checks failed)
func.func @shifted(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @shifted_jvp(%x: f64, %dx: f64) -> (f64, f64) {
  %y = arith.mulf %x, %x : f64
  %one = arith.constant 1.0 : f64
  %y1 = arith.addf %y, %one : f64
  %two = arith.constant 2.0 : f64
  %tx = arith.mulf %two, %x : f64
  %dy = arith.mulf %tx, %dx : f64
  return %y1, %dy : f64, f64
}
moon.custom_rule @shifted jvp @shifted_jvp

// State kept between calls (a global counter) makes two calls differ.
// RUN: bash -c 'moonc check %s --entry counted --mode forward > %t.counted.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=STATE < %t.counted.out
// STATE: determinism: FAIL: result #0 is 2.3833108082136425 in the first plain call and {{.*}} in the second
memref.global "private" @counter : memref<f64> = dense<0.0>
func.func @counted(%x: f64) -> f64 {
  %g = memref.get_global @counter : memref<f64>
  %c = memref.load %g[] : memref<f64>
  %one = arith.constant 1.0 : f64
  %n = arith.addf %c, %one : f64
  memref.store %n, %g[] : memref<f64>
  %r = arith.addf %x, %n : f64
  return %r : f64
}

// Without float inputs there is nothing to differentiate (and no VJP is
// generated).
// RUN: moonc check %s --entry ints --args '[3]' | FileCheck %s --check-prefix=INTS
// INTS: check @ints: 0 float inputs, 0 float outputs
// INTS: jvp vs finite differences, direction 1: skipped: @ints has no float inputs
// INTS-NEXT: vjp primal: skipped: @ints has no float inputs
// INTS-NEXT: dot product (forward vs reverse): skipped: @ints has no float inputs
// INTS-NEXT: check: PASS (2 checks)
// RUN: moonc check %s --entry ints --args '[3]' --mode reverse | FileCheck %s --check-prefix=INTS-REVERSE
// INTS-REVERSE:      determinism: ok
// INTS-REVERSE-NEXT: vjp primal: skipped: @ints has no float inputs
// INTS-REVERSE-NEXT: dot product (forward vs reverse): skipped: @ints has no float inputs
// INTS-REVERSE-NEXT: check: PASS (1 check)
func.func @ints(%n: i32) -> i32 {
  %r = arith.muli %n, %n : i32
  return %r : i32
}

// A wrong shadow: the rule for m *= s forgets the ds term of dm. Only the
// memref's final contents show it, so check compares the shadows too.
// RUN: bash -c 'moonc check %s --entry scale_in_place --mode forward > %t.scale.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=SHADOW < %t.scale.out
// SHADOW: check @scale_in_place: 3 float inputs, 2 float outputs
// SHADOW: primal: ok
// SHADOW-NEXT: direction 1: FAIL
// SHADOW-NEXT: direction 2: FAIL
// SHADOW-NEXT: direction 3: FAIL
func.func @scale_in_place(%m: memref<2xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %m[%i] : memref<2xf64>
    %w = arith.mulf %v, %s : f64
    memref.store %w, %m[%i] : memref<2xf64>
  }
  return
}
func.func private @scale_in_place_jvp(%m: memref<2xf64>, %s: f64, %dm: memref<2xf64>, %ds: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %m[%i] : memref<2xf64>
    %dv = memref.load %dm[%i] : memref<2xf64>
    %w = arith.mulf %v, %s : f64
    %dw = arith.mulf %dv, %s : f64
    memref.store %w, %m[%i] : memref<2xf64>
    memref.store %dw, %dm[%i] : memref<2xf64>
  }
  return
}
moon.custom_rule @scale_in_place jvp @scale_in_place_jvp

// Without float outputs (an integer result, no memref of floats) nothing
// can be checked either.
// RUN: moonc check %s --entry floor_to_int | FileCheck %s --check-prefix=NOOUT
// NOOUT: check @floor_to_int: 1 float input, 0 float outputs
// NOOUT: vjp primal: skipped: @floor_to_int has no float outputs (float scalar results or memref-of-floats arguments)
// NOOUT: check: PASS (2 checks)
func.func @floor_to_int(%x: f64) -> i64 {
  %r = arith.fptosi %x : f64 to i64
  return %r : i64
}

// A wrong reverse rule: the custom VJP says d(x*x) = x dx. The JVP is
// right, so the dot-product test fails; in reverse mode alone finite
// differences catch it.
// RUN: bash -c 'moonc check %s --entry sq_rev > %t.sqrev.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=WRONG-VJP < %t.sqrev.out
// WRONG-VJP:      jvp vs finite differences, direction 3: ok
// WRONG-VJP-NEXT: vjp primal: ok
// WRONG-VJP-NEXT: vjp tape: ok
// WRONG-VJP-NEXT: dot product (forward vs reverse): FAIL: pair 1: <ybar, J xdot> = {{.*}} (forward) but <J^T ybar, xdot> = {{.*}} (reverse): relative error 5.0e-1, beyond rtol 1e-9
// WRONG-VJP-NEXT: check: FAIL (1 of 8 checks failed)
// RUN: bash -c 'moonc check %s --entry sq_rev --mode reverse > %t.sqrev2.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=WRONG-VJP-FD < %t.sqrev2.out
// WRONG-VJP-FD:      vjp vs finite differences, direction 1: FAIL: relative error 5.0e-1 at h = {{.*}} (the best step), beyond rtol 1e-6 and atol 1e-9; <xbar, d> = {{.*}}, <ybar, finite difference> = {{.*}}
// WRONG-VJP-FD-NEXT: vjp vs finite differences, direction 2: FAIL
// WRONG-VJP-FD-NEXT: vjp vs finite differences, direction 3: FAIL
// WRONG-VJP-FD:      check: FAIL (3 of 6 checks failed)
func.func @sq_rev(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @sq_rev_wrong_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  %y = arith.mulf %x, %x : f64
  %dx = arith.mulf %x, %dy : f64
  return %y, %dx : f64, f64
}
moon.custom_rule @sq_rev vjp @sq_rev_wrong_vjp

// A reverse rule whose primal is wrong (x*x + 1) but whose cotangent is
// right.
// RUN: bash -c 'moonc check %s --entry shifted_rev > %t.shiftedrev.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=VJP-PRIMAL < %t.shiftedrev.out
// VJP-PRIMAL: vjp primal: FAIL: result #0 is 1.91354879212068{{[0-9]*}} in a plain call and 2.91354879212068{{[0-9]*}} in the VJP (more than 4 ulp apart)
// VJP-PRIMAL-NEXT: vjp tape: ok
// VJP-PRIMAL-NEXT: dot product (forward vs reverse): ok
// VJP-PRIMAL: check: FAIL (1 of 8 checks failed)
func.func @shifted_rev(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @shifted_rev_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  %y = arith.mulf %x, %x : f64
  %one = arith.constant 1.0 : f64
  %y1 = arith.addf %y, %one : f64
  %two = arith.constant 2.0 : f64
  %tx = arith.mulf %two, %x : f64
  %dx = arith.mulf %tx, %dy : f64
  return %y1, %dx : f64, f64
}
moon.custom_rule @shifted_rev vjp @shifted_rev_vjp

// Reverse code must pop all it pushes on moonrt's tape, and report no
// error: a rule that leaves a value behind, and one that pops an empty
// tape, fail the tape check.
// RUN: bash -c 'moonc check %s --entry leaky > %t.leaky.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=LEAKY < %t.leaky.out
// LEAKY: vjp tape: FAIL: the VJP of @leaky left 8 bytes on moonrt's tape (it must pop all it pushes: a bug in the generated reverse code)
// LEAKY: check: FAIL (1 of 8 checks failed)
// RUN: bash -c 'moonc check %s --entry overpop > %t.overpop.out; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=OVERPOP < %t.overpop.out
// OVERPOP: vjp tape: FAIL: the VJP of @overpop reported an error: moonrt_tape_pop_f64: the tape is empty (popped more values of this type than were pushed)
// OVERPOP: check: FAIL (1 of 8 checks failed)
func.func private @moonrt_tape_push_f64(f64)
func.func private @moonrt_tape_pop_f64() -> f64
func.func @leaky(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @leaky_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  func.call @moonrt_tape_push_f64(%x) : (f64) -> ()
  %y = arith.mulf %x, %x : f64
  %two = arith.constant 2.0 : f64
  %tx = arith.mulf %two, %x : f64
  %dx = arith.mulf %tx, %dy : f64
  return %y, %dx : f64, f64
}
moon.custom_rule @leaky vjp @leaky_vjp
func.func @overpop(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @overpop_vjp(%x: f64, %dy: f64) -> (f64, f64) {
  %unused = func.call @moonrt_tape_pop_f64() : () -> f64
  %y = arith.mulf %x, %x : f64
  %two = arith.constant 2.0 : f64
  %tx = arith.mulf %two, %x : f64
  %dx = arith.mulf %tx, %dy : f64
  return %y, %dx : f64, f64
}
moon.custom_rule @overpop vjp @overpop_vjp
