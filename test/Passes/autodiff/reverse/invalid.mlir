// Reverse mode reports located errors and never leaves a silent zero.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --moon-autodiff

func.func @f(%x: vector<4xf64>) -> f64 {
  // expected-error @+1 {{no derivative rule for `vector.reduction`; attach a custom rule (moon.custom_rule)}}
  %0 = vector.reduction <add>, %x : vector<4xf64> into f64
  return %0 : f64
}
func.func @caller(%x: vector<4xf64>) -> vector<4xf64> {
  %r = moon.grad @f(%x) : (vector<4xf64>) -> vector<4xf64>
  return %r : vector<4xf64>
}

// -----

// An unregistered operation with an active operand.
func.func @f(%x: f64) -> f64 {
  // expected-error @+1 {{no derivative rule for `test.unknown`; attach a custom rule (moon.custom_rule)}}
  %0 = "test.unknown"(%x) : (f64) -> f64
  return %0 : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @f(%x) : (f64) -> f64
  return %r : f64
}

// -----

// The same operation on inactive values needs no rule.
func.func @f(%x: f64, %y: f64) -> f64 {
  %0 = "test.unknown"(%y) : (f64) -> f64
  %1 = arith.mulf %x, %0 : f64
  return %1 : f64
}
func.func @caller(%x: f64, %y: f64) -> f64 {
  %r = moon.grad @f(%x, %y) args [active, const] : (f64, f64) -> f64
  return %r : f64
}

// -----

// scf.parallel with a reduction is not reversed yet.
func.func @f(%a: memref<4xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f64
  // expected-error @+1 {{reverse mode cannot differentiate scf.parallel with reductions yet; use scf.for}}
  %r = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%z) -> f64 {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %x : f64
    scf.reduce(%m : f64) {
    ^bb0(%l: f64, %r: f64):
      %s = arith.addf %l, %r : f64
      scf.reduce.return %s : f64
    }
  }
  return %r : f64
}
func.func @caller(%a: memref<4xf64>, %da: memref<4xf64>, %x: f64, %s: f64) -> f64 {
  %r:2 = moon.vjp @f(%a, %x, %da, %s) : (memref<4xf64>, f64, memref<4xf64>, f64) -> (f64, f64)
  return %r#1 : f64
}

// -----

func.func private @ext(f64) -> f64
func.func @f(%x: f64) -> f64 {
  // expected-error @+1 {{cannot differentiate @ext: it is only declared; give its body or attach a custom rule (moon.custom_rule)}}
  %y = func.call @ext(%x) : (f64) -> f64
  return %y : f64
}
func.func @caller(%x: f64) -> f64 {
  %r = moon.grad @f(%x) : (f64) -> f64
  return %r : f64
}

// -----

// A store of an active value into a `const` memref.
func.func @f(%x: f64, %out: memref<f64>) {
  // expected-error @+1 {{this memref receives derivatives but has no shadow: pass it as `dup` (or allocate it inside the differentiated function)}}
  memref.store %x, %out[] : memref<f64>
  return
}
func.func @caller(%x: f64, %out: memref<f64>) -> f64 {
  %r = moon.vjp @f(%x, %out) args [active, const] : (f64, memref<f64>) -> f64
  return %r : f64
}

// -----

// Only scalars go on a tape.
func.func @f(%x: vector<4xf64>, %n: index) -> vector<4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{reverse mode cannot save a value of type vector<4xf64> for the reverse sweep}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> vector<4xf64> {
    %e = math.exp %acc : vector<4xf64>
    %m = arith.mulf %e, %e : vector<4xf64>
    scf.yield %m : vector<4xf64>
  }
  return %r : vector<4xf64>
}
func.func @caller(%x: vector<4xf64>, %n: index, %s: vector<4xf64>) -> vector<4xf64> {
  %r = moon.vjp @f(%x, %n, %s) results [active_noneed] : (vector<4xf64>, index, vector<4xf64>) -> vector<4xf64>
  return %r : vector<4xf64>
}

// -----

// A reduction whose output is read other than by `out + f(ins)` (a product).
#id = affine_map<(d0) -> (d0)>
#sc = affine_map<(d0) -> ()>
func.func @f(%a: memref<4xf64>, %b: memref<f64>) {
  // expected-error @+1 {{reverse mode supports a linalg.generic whose body reads an output only when each output element is visited once (all iterators parallel) or the output is accumulated into (`out + f(ins)`)}}
  linalg.generic {indexing_maps = [#id, #sc], iterator_types = ["reduction"]}
      ins(%a : memref<4xf64>) outs(%b : memref<f64>) {
  ^bb0(%in: f64, %out: f64):
    %m = arith.mulf %in, %out : f64
    linalg.yield %m : f64
  }
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<f64>, %da: memref<4xf64>, %db: memref<f64>) {
  moon.vjp @f(%a, %b, %da, %db) : (memref<4xf64>, memref<f64>, memref<4xf64>, memref<f64>) -> ()
  return
}

// -----

// A custom vjp only serves the default activities.
func.func private @softplus(%x: f64, %k: f64) -> f64 {
  %e = math.exp %x : f64
  return %e : f64
}
func.func private @softplus_vjp(%x: f64, %k: f64, %s: f64) -> (f64, f64, f64)
moon.custom_rule @softplus vjp @softplus_vjp
func.func @caller(%x: f64, %k: f64) -> f64 {
  // expected-error @+1 {{@softplus has a custom rule, which only serves the default activities at width 1}}
  %r = moon.grad @softplus(%x, %k) args [active, const] : (f64, f64) -> f64
  return %r : f64
}
