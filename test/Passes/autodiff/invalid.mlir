// Differentiation reports located errors and never leaves a silent zero.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-autodiff

func.func @f(%x: vector<4xf64>) -> f64 {
  // expected-error @+1 {{no derivative rule for `vector.reduction`; attach a custom rule (moon.custom_rule)}}
  %0 = vector.reduction <add>, %x : vector<4xf64> into f64
  return %0 : f64
}
func.func @caller(%x: vector<4xf64>, %dx: vector<4xf64>) -> (f64, f64) {
  %r:2 = moon.jvp @f(%x, %dx) : (vector<4xf64>, vector<4xf64>) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// A store of an active value into a memref without a shadow.
func.func @f(%x: f64, %out: memref<f64>) {
  // expected-error @+1 {{this memref receives derivatives but has no shadow: pass it as `dup` (or allocate it inside the differentiated function)}}
  memref.store %x, %out[] : memref<f64>
  return
}
func.func @caller(%x: f64, %out: memref<f64>, %dx: f64) {
  moon.jvp @f(%x, %out, %dx) args [active, const] : (f64, memref<f64>, f64) -> ()
  return
}

// -----

func.func private @ext(f64) -> f64
func.func @f(%x: f64) -> f64 {
  // expected-error @+1 {{cannot differentiate @ext: it is only declared; give its body or attach a custom rule (moon.custom_rule)}}
  %y = func.call @ext(%x) : (f64) -> f64
  return %y : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @f(%x, %dx) : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// An unknown operation with a region that uses an active value.
func.func @f(%x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<f64>
  // expected-error @+1 {{no derivative rule for `affine.for`; attach a custom rule (moon.custom_rule)}}
  affine.for %i = 0 to 4 {
    memref.store %x, %m[] : memref<f64>
  }
  %r = memref.load %m[] : memref<f64>
  return %r : f64
}
func.func @caller(%x: f64, %n: index, %dx: f64) -> (f64, f64) {
  %r:2 = moon.jvp @f(%x, %n, %dx) : (f64, index, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Reductions of scf.parallel are not differentiated yet.
func.func @f(%a: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  // expected-error @+1 {{active reductions of scf.parallel are not supported yet; reduce with scf.for}}
  %s = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%zero) -> f64 {
    %v = memref.load %a[%i] : memref<4xf64>
    scf.reduce(%v : f64) {
    ^bb0(%l: f64, %r: f64):
      %t = arith.addf %l, %r : f64
      scf.reduce.return %t : f64
    }
  }
  return %s : f64
}
func.func @caller(%a: memref<4xf64>, %da: memref<4xf64>) -> (f64, f64) {
  %r:2 = moon.jvp @f(%a, %da) : (memref<4xf64>, memref<4xf64>) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}

// -----

// Setting shadows is a reverse-mode request.
func.func @f(%x: f64) -> f64 {
  return %x : f64
}
func.func @caller(%x: f64, %dx: f64) -> (f64, f64) {
  // expected-error @+1 {{`moon.overwrite_shadows` is for `moon.vjp`: forward mode has no shadows to set}}
  %r:2 = moon.jvp @f(%x, %dx) {moon.overwrite_shadows} : (f64, f64) -> (f64, f64)
  return %r#0, %r#1 : f64, f64
}
