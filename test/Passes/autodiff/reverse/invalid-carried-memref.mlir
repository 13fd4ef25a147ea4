// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-autodiff
// Memrefs that reach a load through a loop result or an arith.select are
// not supported by reverse mode yet: the error is located at the
// operation that produces the buffer.

func.func @f(%a: memref<4xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{reverse mode cannot differentiate memrefs carried by a loop yet}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> memref<4xf64> {
    scf.yield %m : memref<4xf64>
  }
  %v = memref.load %r[%c0] : memref<4xf64>
  return %v : f64
}
func.func @caller(%a: memref<4xf64>, %n: index, %da: memref<4xf64>) {
  moon.grad @f(%a, %n, %da) : (memref<4xf64>, index, memref<4xf64>) -> ()
  return
}

// -----

func.func @f(%c: i1, %a: memref<4xf64>, %b: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{`arith.select` of active buffers cannot be differentiated yet}}
  %m = arith.select %c, %a, %b : memref<4xf64>
  %v = memref.load %m[%c0] : memref<4xf64>
  return %v : f64
}
func.func @caller(%c: i1, %a: memref<4xf64>, %b: memref<4xf64>, %da: memref<4xf64>, %db: memref<4xf64>) {
  moon.grad @f(%c, %a, %b, %da, %db) : (i1, memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> ()
  return
}

// -----

// (Called under a branch, @fresh is not inlined: at the top level it would
// be, and its buffer would be the caller's own.)
func.func private @fresh(%a: memref<4xf64>) -> memref<4xf64> {
  %b = memref.alloc() : memref<4xf64>
  memref.copy %a, %b : memref<4xf64> to memref<4xf64>
  return %b : memref<4xf64>
}
func.func @f(%a: memref<4xf64>, %c: i1) -> f64 {
  %c0 = arith.constant 0 : index
  %v = scf.if %c -> f64 {
    // expected-error @+1 {{reverse mode differentiates a memref returned by a call only when the callee returns views of its arguments}}
    %m = func.call @fresh(%a) : (memref<4xf64>) -> memref<4xf64>
    %l = memref.load %m[%c0] : memref<4xf64>
    scf.yield %l : f64
  } else {
    %z = arith.constant 0.0 : f64
    scf.yield %z : f64
  }
  return %v : f64
}
func.func @caller(%a: memref<4xf64>, %c: i1, %da: memref<4xf64>) {
  moon.grad @f(%a, %c, %da) : (memref<4xf64>, i1, memref<4xf64>) -> ()
  return
}
