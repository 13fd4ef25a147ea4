// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-remarks --verify-diagnostics > /dev/null
// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=1 --moon-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=NARROW
// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 --moon-remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF

// Which loops reverse mode fuses with N-wide duals and why the others take
// the general path, as remarks (--moon-remarks).

// A sum of a two-input element function whose adjoint is an argument of
// the function: fused, the adjoints accumulated in the loop itself.
// NARROW: general reverse path: its element function has 2 differentiable inputs, more than --moon-ndual-max-width=1
// OFF: general reverse path: its element function has 2 differentiable inputs, more than --moon-ndual-max-width=0
func.func @loss(%p: memref<?xf64>, %y: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %p, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  // expected-remark @+1 {{fused: value and 2 partials in one sweep (N-wide duals), adjoints accumulated in the loop}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %a = memref.load %p[%i] : memref<?xf64>
    %b = memref.load %y[%i] : memref<?xf64>
    %d = arith.subf %a, %b : f64
    %t = arith.mulf %d, %d : f64
    %r = arith.addf %acc, %t : f64
    scf.yield %r : f64
  }
  return %s : f64
}
func.func @g(%p: memref<?xf64>, %y: memref<?xf64>, %dp: memref<?xf64>, %dy: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @loss(%p, %y, %dp, %dy) : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}

// -----

// lse: the max loop is a selection, the sum loop fused (N = 2: x[i] and
// the max, a loop-invariant scalar).
func.func @lse(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %z = arith.constant 0.0 : f64
  // expected-remark @+1 {{max/min selection: the adjoint goes to the selected element, found again by a scan; its 1 partials by N-wide duals}}
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ninf) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %a = arith.maximumf %acc, %v : f64
    scf.yield %a : f64
  }
  // expected-remark @+1 {{fused: value and 2 partials in one sweep (N-wide duals)}}
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %d = arith.subf %v, %m : f64
    %e = math.exp %d : f64
    %a = arith.addf %acc, %e : f64
    scf.yield %a : f64
  }
  %l = math.log %s : f64
  %r = arith.addf %l, %m : f64
  return %r : f64
}
func.func @g(%x: memref<?xf64>, %dx: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @lse(%x, %dx) : (memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}

// -----

// A linalg map into a scratch buffer and a linalg sum: both fused.
#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>
func.func @map_sum(%x: memref<10x10xf64>) -> f64 {
  %t = memref.alloc() : memref<10x10xf64>
  // expected-remark @+1 {{fused: value and 1 partials in one sweep (N-wide duals)}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<10x10xf64>) outs(%t : memref<10x10xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.exp %v : f64
    %c = math.cos %e : f64
    linalg.yield %c : f64
  }
  %acc = memref.alloca() : memref<f64>
  %z = arith.constant 0.0 : f64
  memref.store %z, %acc[] : memref<f64>
  // expected-remark @+1 {{fused: value and 1 partials in one sweep (N-wide duals)}}
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%t : memref<10x10xf64>) outs(%acc : memref<f64>) {
  ^bb0(%v: f64, %a: f64):
    %n = arith.addf %a, %v : f64
    linalg.yield %n : f64
  }
  memref.dealloc %t : memref<10x10xf64>
  %r = memref.load %acc[] : memref<f64>
  return %r : f64
}
func.func @g(%x: memref<10x10xf64>, %dx: memref<10x10xf64>) -> f64 {
  %r = moon.value_and_grad @map_sum(%x, %dx) : (memref<10x10xf64>, memref<10x10xf64>) -> f64
  return %r : f64
}

// -----

// A map that stores, with a captured scalar broadcast: fused (partials
// stored; the reverse multiplies them by the stored elements' adjoints).
func.func @scale(%x: memref<?xf64>, %s: f64, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  // expected-remark @+1 {{fused: value and 2 partials in one sweep (N-wide duals)}}
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %s, %v : f64
    %e = math.exp %p : f64
    memref.store %e, %y[%i] : memref<?xf64>
  }
  return
}
func.func @g(%x: memref<?xf64>, %s: f64, %y: memref<?xf64>, %dx: memref<?xf64>, %dy: memref<?xf64>) -> f64 {
  %r = moon.vjp @scale(%x, %s, %y, %dx, %dy) : (memref<?xf64>, f64, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}

// -----

// Fallbacks: an integer carried value, a scan, a max by maxnumf, a
// gather, a cross-element dependence through memory, a nested loop.
func.func @fallbacks(%x: memref<?xf64>, %y: memref<?xf64>, %k: memref<?xindex>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %z = arith.constant 0.0 : f64
  %i0 = arith.constant 1 : i64
  // expected-remark @+1 {{general reverse path: it carries a non-float value (#1) from one iteration to the next}}
  %a:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z, %c = %i0) -> (f64, i64) {
    %v = memref.load %x[%i] : memref<?xf64>
    %cf = arith.sitofp %c : i64 to f64
    %t = arith.mulf %v, %cf : f64
    %r = arith.addf %acc, %t : f64
    %c2 = arith.addi %c, %c : i64
    scf.yield %r, %c2 : f64, i64
  }
  // expected-remark @+1 {{general reverse path: its carried value #0 is not a sum `acc + f` used only by the next iteration (a non-add reduction, a recurrence or a scan)}}
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %r = arith.addf %acc, %v : f64
    memref.store %r, %y[%i] : memref<?xf64>
    scf.yield %r : f64
  }
  // expected-remark @+1 {{general reverse path: its carried value #0 is not a sum `acc + f` used only by the next iteration (a non-add reduction, a recurrence or a scan)}}
  %m = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %r = arith.maxnumf %acc, %v : f64
    scf.yield %r : f64
  }
  // expected-remark @+1 {{general reverse path: its indices are computed from loaded values (a gather or scatter)}}
  %g = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %j = memref.load %k[%i] : memref<?xindex>
    %v = memref.load %x[%j] : memref<?xf64>
    %r = arith.addf %acc, %v : f64
    scf.yield %r : f64
  }
  // expected-remark @+1 {{general reverse path: it loads from a buffer it stores to at other indices (a cross-element dependence)}}
  scf.for %i = %c1 to %n step %c1 {
    %p = arith.subi %i, %c1 : index
    %u = memref.load %y[%p] : memref<?xf64>
    %v = memref.load %x[%i] : memref<?xf64>
    %r = arith.addf %u, %v : f64
    memref.store %r, %y[%i] : memref<?xf64>
  }
  // expected-remark @+1 {{general reverse path: its carried value #0 is not a sum `acc + f` used only by the next iteration (a non-add reduction, a recurrence or a scan)}}
  %o = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    // expected-remark @+1 {{general reverse path: it is inside a loop, branch or split call (partials would need a tape)}}
    %in = scf.for %j = %c0 to %n step %c1 iter_args(%a2 = %acc) -> f64 {
      %v = memref.load %x[%j] : memref<?xf64>
      %r = arith.addf %a2, %v : f64
      scf.yield %r : f64
    }
    scf.yield %in : f64
  }
  %s1 = arith.addf %a#0, %b : f64
  %s2 = arith.addf %s1, %m : f64
  %s3 = arith.addf %s2, %g : f64
  %s4 = arith.addf %s3, %o : f64
  return %s4 : f64
}
func.func @g(%x: memref<?xf64>, %y: memref<?xf64>, %k: memref<?xindex>, %dx: memref<?xf64>, %dy: memref<?xf64>) -> f64 {
  %r = moon.value_and_grad @fallbacks(%x, %y, %k, %dx, %dy) : (memref<?xf64>, memref<?xf64>, memref<?xindex>, memref<?xf64>, memref<?xf64>) -> f64
  return %r : f64
}

// -----

// A map that reads its output's old contents (an update in place): the
// general path.
#id1 = affine_map<(i) -> (i)>
func.func @update(%x: memref<4xf64>, %y: memref<4xf64>) {
  // expected-remark @+1 {{general reverse path: it reads output #0 other than by adding to it (a non-add reduction or an update in place)}}
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : memref<4xf64>) outs(%y : memref<4xf64>) {
  ^bb0(%v: f64, %o: f64):
    %p = arith.mulf %v, %o : f64
    linalg.yield %p : f64
  }
  return
}
func.func @g(%x: memref<4xf64>, %y: memref<4xf64>, %dx: memref<4xf64>, %dy: memref<4xf64>) {
  moon.vjp @update(%x, %y, %dx, %dy) : (memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> ()
  return
}
