// `moonc check`: determinism, the JVP's primal, the JVP against central
// finite differences in 3 random directions, and (later) the dot-product
// test; one line per check, then PASS or FAIL; exit status 1 on FAIL.

// A function that passes, on random inputs drawn from --seed (default 0):
// its outputs are the result and the final contents of %m. (Its plain
// version runs two of the sines through libmvec, its JVP through libm: the
// primal check allows 4 ulp.)
// RUN: moonc check %s --entry smooth | FileCheck %s --check-prefix=SMOOTH
// SMOOTH:      check @smooth: 4 float inputs, 4 float outputs
// SMOOTH-NEXT:   inputs (drawn with seed 0): [1.3833108082136425, [0.93152799704851, 0.5264337715925977, 1.4708819781538285]]
// SMOOTH-NEXT:   determinism: ok: two plain calls agree bit for bit
// SMOOTH-NEXT:   primal: ok: the JVP computes the plain call's results and memref contents (to 4 ulp)
// SMOOTH-NEXT:   jvp vs finite differences, direction 1: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   jvp vs finite differences, direction 2: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   jvp vs finite differences, direction 3: ok: relative error {{[0-9.]+e-[0-9]+}} at h = 1e-{{[0-9]}}
// SMOOTH-NEXT:   dot product (forward vs reverse): skipped: reverse mode is not available yet
// SMOOTH-NEXT: check: PASS (5 checks)

// Another seed draws other inputs; --args gives them.
// RUN: moonc check %s --entry smooth --seed 7 | FileCheck %s --check-prefix=SEED
// SEED: inputs (drawn with seed 7): [{{[0-9.]+}}, [{{[0-9., ]+}}]]
// SEED-NOT: 1.3833108082136425
// SEED: check: PASS (5 checks)
// RUN: moonc check %s --entry smooth --args '[0.5, [1, 2, 3]]' | FileCheck %s --check-prefix=GIVEN
// GIVEN: inputs (from --args): [0.5, [1.0, 2.0, 3.0]]
// GIVEN: check: PASS (5 checks)
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
// F32: check: PASS (5 checks)
func.func @smooth32(%x: f32, %y: f32) -> f32 {
  %p = arith.mulf %x, %y : f32
  %t = math.tanh %p : f32
  %r = arith.divf %t, %y : f32
  return %r : f32
}

// A wrong derivative: the custom rule says d(x*x) = x dx, not 2x dx.
// Finite differences catch it; the primal is right.
// RUN: bash -c 'moonc check %s --entry sq > %t.sq.out 2> %t.sq.err; test $? -eq 1'
// RUN: FileCheck %s --check-prefix=WRONG < %t.sq.out
// RUN: FileCheck %s --check-prefix=WRONG-ERR < %t.sq.err
// WRONG:      check @sq: 1 float input, 1 float output
// WRONG:        determinism: ok
// WRONG-NEXT:   primal: ok
// WRONG-NEXT:   jvp vs finite differences, direction 1: FAIL: relative error 5.0e-1 at h = {{.*}} (the best step), beyond rtol 1e-6 and atol 1e-9; |jvp| = {{.*}}, |finite difference| = {{.*}}
// WRONG-NEXT:   jvp vs finite differences, direction 2: FAIL
// WRONG-NEXT:   jvp vs finite differences, direction 3: FAIL
// WRONG-NEXT:   dot product (forward vs reverse): skipped
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
// RUN: bash -c 'moonc check %s --entry shifted > %t.shifted.out; test $? -eq 1'
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
// RUN: bash -c 'moonc check %s --entry counted > %t.counted.out; test $? -eq 1'
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

// Without float inputs there is nothing to differentiate.
// RUN: moonc check %s --entry ints --args '[3]' | FileCheck %s --check-prefix=INTS
// INTS: check @ints: 0 float inputs, 0 float outputs
// INTS: jvp vs finite differences, direction 1: skipped: @ints has no float inputs
// INTS-NEXT: dot product
// INTS-NEXT: check: PASS (2 checks)
func.func @ints(%n: i32) -> i32 {
  %r = arith.muli %n, %n : i32
  return %r : i32
}

// A wrong shadow: the rule for m *= s forgets the ds term of dm. Only the
// memref's final contents show it, so check compares the shadows too.
// RUN: bash -c 'moonc check %s --entry scale_in_place > %t.scale.out; test $? -eq 1'
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
