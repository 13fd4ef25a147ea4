// Forward mode through memory: in-place updates of arguments (their
// shadows are checked too), alloc'd and alloca'd scratch buffers, memref.copy
// (from active and from inactive sources), views (subview, cast,
// collapse_shape, expand_shape, reinterpret_cast, transpose) that alias
// their source, dim, dynamic shapes, and f32 buffers.
//
// RUN: moonc check %s --entry inplace_update | FileCheck %s --check-prefix=INPLACE_UPDATE
// INPLACE_UPDATE: check: PASS
// RUN: moonc check %s --entry overwrite_constant | FileCheck %s --check-prefix=OVERWRITE_CONSTANT
// OVERWRITE_CONSTANT: check: PASS
// RUN: moonc check %s --entry scratch_alloc | FileCheck %s --check-prefix=SCRATCH_ALLOC
// SCRATCH_ALLOC: check: PASS
// RUN: moonc check %s --entry alloca_state | FileCheck %s --check-prefix=ALLOCA_STATE
// ALLOCA_STATE: check: PASS
// RUN: moonc check %s --entry alloc_in_loop | FileCheck %s --check-prefix=ALLOC_IN_LOOP
// ALLOC_IN_LOOP: check: PASS
// RUN: moonc check %s --entry copy_between_args | FileCheck %s --check-prefix=COPY_BETWEEN_ARGS
// COPY_BETWEEN_ARGS: check: PASS
// RUN: moonc check %s --entry self_copy | FileCheck %s --check-prefix=SELF_COPY
// SELF_COPY: check: PASS
// RUN: moonc check %s --entry copy_from_constant | FileCheck %s --check-prefix=COPY_FROM_CONSTANT
// COPY_FROM_CONSTANT: check: PASS
// RUN: moonc check %s --entry subview_block | FileCheck %s --check-prefix=SUBVIEW_BLOCK
// SUBVIEW_BLOCK: check: PASS
// RUN: moonc check %s --entry cast_and_dim | FileCheck %s --check-prefix=CAST_AND_DIM
// CAST_AND_DIM: check: PASS
// RUN: moonc check %s --entry collapse_expand | FileCheck %s --check-prefix=COLLAPSE_EXPAND
// COLLAPSE_EXPAND: check: PASS
// RUN: moonc check %s --entry reinterpret | FileCheck %s --check-prefix=REINTERPRET
// REINTERPRET: check: PASS
// RUN: moonc check %s --entry dynamic_norm --args '[[0.3, -1.2, 2.0, 0.7, 1.1], 1.5]' | FileCheck %s --check-prefix=DYNAMIC_NORM
// DYNAMIC_NORM: check: PASS
// RUN: moonc check %s --entry dynamic_2d --args '[[[0.5, 1.0, 1.5], [2.0, -0.5, 0.25]], [[1.0, 2.0], [0.5, -1.0], [0.3, 0.7]]]' | FileCheck %s --check-prefix=DYNAMIC_2D
// DYNAMIC_2D: check: PASS
// RUN: moonc check %s --entry aliasing_views | FileCheck %s --check-prefix=ALIASING_VIEWS
// ALIASING_VIEWS: check: PASS
// RUN: moonc check %s --entry copy_into_subview | FileCheck %s --check-prefix=COPY_INTO_SUBVIEW
// COPY_INTO_SUBVIEW: check: PASS
// RUN: moonc check %s --entry f32_memref | FileCheck %s --check-prefix=F32_MEMREF
// F32_MEMREF: check: PASS
// RUN: moonc check %s --entry expand_dynamic --args '[[0.5, 1.0, 1.5, 2.0, 0.3, 0.2], 0.9]' | FileCheck %s --check-prefix=EXPAND_DYNAMIC
// EXPAND_DYNAMIC: check: PASS

// a[i] <- a[i] * s + sin(a[i]) in place; a's shadow must be updated.
func.func @inplace_update(%a: memref<4xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %m = arith.mulf %v, %s : f64
    %sn = math.sin %v : f64
    %n = arith.addf %m, %sn : f64
    memref.store %n, %a[%i] : memref<4xf64>
  }
  return
}

// Stores of constants overwrite active elements (their tangents become 0);
// other elements are updated from the overwritten ones' old values.
func.func @overwrite_constant(%a: memref<3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = arith.constant 0.5 : f64
  %v0 = memref.load %a[%c0] : memref<3xf64>
  memref.store %k, %a[%c0] : memref<3xf64>
  %v1 = memref.load %a[%c1] : memref<3xf64>
  %p = arith.mulf %v0, %v1 : f64
  %q = arith.mulf %p, %x : f64
  memref.store %q, %a[%c1] : memref<3xf64>
  %w = memref.load %a[%c0] : memref<3xf64>
  %v2 = memref.load %a[%c2] : memref<3xf64>
  %r = arith.addf %w, %v2 : f64
  %s = arith.mulf %r, %x : f64
  return %s : f64
}

// A heap scratch buffer: t[i] = exp(a[i]) / 2, then sum t[i] * a[3 - i].
func.func @scratch_alloc(%a: memref<4xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant 0.5 : f64
  %zero = arith.constant 0.0 : f64
  %t = memref.alloc() : memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %a[%i] : memref<4xf64>
    %e = math.exp %v : f64
    %h = arith.mulf %e, %half : f64
    memref.store %h, %t[%i] : memref<4xf64>
  }
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
    %j = arith.subi %c3, %i : index
    %u = memref.load %t[%i] : memref<4xf64>
    %w = memref.load %a[%j] : memref<4xf64>
    %p = arith.mulf %u, %w : f64
    %s = arith.addf %acc, %p : f64
    scf.yield %s : f64
  }
  memref.dealloc %t : memref<4xf64>
  return %r : f64
}

// State kept in a stack buffer instead of loop values: a two-variable
// recurrence over 10 steps.
func.func @alloca_state(%x: f64, %y: f64) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %h = arith.constant 0.1 : f64
  %st = memref.alloca() : memref<2xf64>
  memref.store %x, %st[%c0] : memref<2xf64>
  memref.store %y, %st[%c1] : memref<2xf64>
  scf.for %i = %c0 to %c10 step %c1 {
    %p = memref.load %st[%c0] : memref<2xf64>
    %q = memref.load %st[%c1] : memref<2xf64>
    %sq = math.sin %q : f64
    %dp = arith.mulf %h, %sq : f64
    %p2 = arith.addf %p, %dp : f64
    %cp = math.cos %p2 : f64
    %dq = arith.mulf %h, %cp : f64
    %q2 = arith.subf %q, %dq : f64
    memref.store %p2, %st[%c0] : memref<2xf64>
    memref.store %q2, %st[%c1] : memref<2xf64>
  }
  %rp = memref.load %st[%c0] : memref<2xf64>
  %rq = memref.load %st[%c1] : memref<2xf64>
  return %rp, %rq : f64, f64
}

// A buffer allocated, used and freed in every iteration of a loop.
func.func @alloc_in_loop(%a: memref<3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %t = memref.alloc() : memref<2xf64>
    %v = memref.load %a[%i] : memref<3xf64>
    %m = arith.mulf %v, %x : f64
    memref.store %m, %t[%c0] : memref<2xf64>
    %e = math.exp %m : f64
    memref.store %e, %t[%c1] : memref<2xf64>
    %p = memref.load %t[%c0] : memref<2xf64>
    %q = memref.load %t[%c1] : memref<2xf64>
    %pq = arith.mulf %p, %q : f64
    %s = arith.addf %acc, %pq : f64
    memref.dealloc %t : memref<2xf64>
    scf.yield %s : f64
  }
  return %r : f64
}

// memref.copy of a buffer onto itself between two updates of it: the
// copy changes nothing, so the derivative flows straight through.
func.func @self_copy(%a: memref<3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %a[%i] : memref<3xf64>
    %w = math.sin %v : f64
    memref.store %w, %a[%i] : memref<3xf64>
  }
  memref.copy %a, %a : memref<3xf64> to memref<3xf64>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %a[%i] : memref<3xf64>
    %w = arith.mulf %v, %v : f64
    memref.store %w, %a[%i] : memref<3xf64>
  }
  return
}

// memref.copy from one argument into another, then b[i] <- b[i] * a[i].
func.func @copy_between_args(%a: memref<3xf64>, %b: memref<3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %a[%i] : memref<3xf64>
    %w = math.sqrt %v : f64
    %u = arith.mulf %w, %two : f64
    memref.store %u, %a[%i] : memref<3xf64>
  }
  memref.copy %a, %b : memref<3xf64> to memref<3xf64>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = memref.load %b[%i] : memref<3xf64>
    %w = memref.load %a[%i] : memref<3xf64>
    %p = arith.mulf %v, %w : f64
    memref.store %p, %b[%i] : memref<3xf64>
  }
  return
}

// memref.copy of constants over an active argument: the old contents (and
// their tangents) are gone, then b[1] picks up x.
func.func @copy_from_constant(%b: memref<3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 0.25 : f64
  %v = memref.load %b[%c0] : memref<3xf64>
  %t = memref.alloc() : memref<3xf64>
  linalg.fill ins(%k : f64) outs(%t : memref<3xf64>)
  memref.copy %t, %b : memref<3xf64> to memref<3xf64>
  %w = memref.load %b[%c1] : memref<3xf64>
  %xw = arith.mulf %x, %w : f64
  %xx = arith.mulf %xw, %x : f64
  memref.store %xx, %b[%c1] : memref<3xf64>
  memref.dealloc %t : memref<3xf64>
  %r = arith.mulf %v, %x : f64
  return %r : f64
}

// The 2x2 block at (1, 1) of a 4x4 matrix scaled by x through a subview;
// the rest of the matrix is untouched; returns the sum of squares of
// column 2, read through a strided column view.
func.func @subview_block(%m: memref<4x4xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %sv = memref.subview %m[1, 1] [2, 2] [1, 1]
      : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1], offset: 5>>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %v = memref.load %sv[%i, %j] : memref<2x2xf64, strided<[4, 1], offset: 5>>
      %p = arith.mulf %v, %x : f64
      memref.store %p, %sv[%i, %j] : memref<2x2xf64, strided<[4, 1], offset: 5>>
    }
  }
  %col = memref.subview %m[0, 2] [4, 1] [1, 1]
      : memref<4x4xf64> to memref<4xf64, strided<[4], offset: 2>>
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %col[%i] : memref<4xf64, strided<[4], offset: 2>>
    %sq = arith.mulf %v, %v : f64
    %s = arith.addf %acc, %sq : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// A static memref cast to a dynamic one, its size read with memref.dim:
// sum of a[i] * exp(-i * x), also written back.
func.func @cast_and_dim(%a: memref<5xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %d = memref.cast %a : memref<5xf64> to memref<?xf64>
  %n = memref.dim %d, %c0 : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %ix = arith.mulf %fi, %x : f64
    %nx = arith.negf %ix : f64
    %e = math.exp %nx : f64
    %v = memref.load %d[%i] : memref<?xf64>
    %p = arith.mulf %v, %e : f64
    memref.store %p, %d[%i] : memref<?xf64>
    %s = arith.addf %acc, %p : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// A 2x3 matrix seen flat (collapse_shape) and a flat scratch buffer seen
// as 2x3 (expand_shape): t = reverse(flat(m))^2, then m += t * x.
func.func @collapse_expand(%m: memref<2x3xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %flat = memref.collapse_shape %m [[0, 1]] : memref<2x3xf64> into memref<6xf64>
  %t = memref.alloc() : memref<6xf64>
  scf.for %k = %c0 to %c6 step %c1 {
    %j = arith.subi %c5, %k : index
    %v = memref.load %flat[%j] : memref<6xf64>
    %sq = arith.mulf %v, %v : f64
    memref.store %sq, %t[%k] : memref<6xf64>
  }
  %t2 = memref.expand_shape %t [[0, 1]] output_shape [2, 3] : memref<6xf64> into memref<2x3xf64>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %u = memref.load %t2[%i, %j] : memref<2x3xf64>
      %w = memref.load %m[%i, %j] : memref<2x3xf64>
      %ux = arith.mulf %u, %x : f64
      %s = arith.addf %w, %ux : f64
      memref.store %s, %m[%i, %j] : memref<2x3xf64>
    }
  }
  memref.dealloc %t : memref<6xf64>
  return
}

// A flat buffer of 8 reinterpreted as the 2x3 matrix starting at element 1
// (row stride 4): each row is replaced by its softmax-like normalisation.
func.func @reinterpret(%a: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %v = memref.reinterpret_cast %a to offset: [1], sizes: [2, 3], strides: [4, 1]
      : memref<8xf64> to memref<2x3xf64, strided<[4, 1], offset: 1>>
  scf.for %i = %c0 to %c2 step %c1 {
    %s = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
      %x = memref.load %v[%i, %j] : memref<2x3xf64, strided<[4, 1], offset: 1>>
      %e = math.exp %x : f64
      %n = arith.addf %acc, %e : f64
      scf.yield %n : f64
    }
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %v[%i, %j] : memref<2x3xf64, strided<[4, 1], offset: 1>>
      %e = math.exp %x : f64
      %q = arith.divf %e, %s : f64
      memref.store %q, %v[%i, %j] : memref<2x3xf64, strided<[4, 1], offset: 1>>
    }
  }
  return
}

// A dynamically sized vector: sqrt(sum (a[i] * s)^2 + 1), a scaled in place.
func.func @dynamic_norm(%a: memref<?xf64>, %s: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  %n = memref.dim %a, %c0 : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %one) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.mulf %v, %s : f64
    memref.store %w, %a[%i] : memref<?xf64>
    %sq = arith.mulf %w, %w : f64
    %t = arith.addf %acc, %sq : f64
    scf.yield %t : f64
  }
  %q = math.sqrt %r : f64
  return %q : f64
}

// Dynamic 2-D shapes: c = a * b for a ?x? times ?x? (sizes from dim),
// computed into a scratch buffer of dynamic size; returns sum(c .* c).
func.func @dynamic_2d(%a: memref<?x?xf64>, %b: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %k = memref.dim %a, %c1 : memref<?x?xf64>
  %n = memref.dim %b, %c1 : memref<?x?xf64>
  %c = memref.alloc(%m, %n) : memref<?x?xf64>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %zero) -> f64 {
        %x = memref.load %a[%i, %l] : memref<?x?xf64>
        %y = memref.load %b[%l, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %t = arith.addf %acc, %p : f64
        scf.yield %t : f64
      }
      memref.store %s, %c[%i, %j] : memref<?x?xf64>
    }
  }
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> f64 {
    %row = scf.for %j = %c0 to %n step %c1 iter_args(%acc2 = %acc) -> f64 {
      %v = memref.load %c[%i, %j] : memref<?x?xf64>
      %sq = arith.mulf %v, %v : f64
      %t = arith.addf %acc2, %sq : f64
      scf.yield %t : f64
    }
    scf.yield %row : f64
  }
  memref.dealloc %c : memref<?x?xf64>
  return %r : f64
}

// Two views of one buffer: writes through a row subview are read back
// through a transposed view and a column subview.
func.func @aliasing_views(%m: memref<3x3xf64>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %row = memref.subview %m[1, 0] [1, 3] [1, 1]
      : memref<3x3xf64> to memref<3xf64, strided<[1], offset: 3>>
  scf.for %j = %c0 to %c3 step %c1 {
    %v = memref.load %row[%j] : memref<3xf64, strided<[1], offset: 3>>
    %e = math.exp %x : f64
    %p = arith.mulf %v, %e : f64
    memref.store %p, %row[%j] : memref<3xf64, strided<[1], offset: 3>>
  }
  %t = memref.transpose %m (i, j) -> (j, i)
      : memref<3x3xf64> to memref<3x3xf64, strided<[1, 3]>>
  %col = memref.subview %m[0, 2] [3, 1] [1, 1]
      : memref<3x3xf64> to memref<3xf64, strided<[3], offset: 2>>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> f64 {
    %a = memref.load %t[%c0, %i] : memref<3x3xf64, strided<[1, 3]>>
    %b = memref.load %col[%i] : memref<3xf64, strided<[3], offset: 2>>
    %p = arith.mulf %a, %b : f64
    %s = arith.addf %acc, %p : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// memref.copy into a row subview of an argument, then an update elsewhere.
func.func @copy_into_subview(%m: memref<3x3xf64>, %v: memref<3xf64>, %x: f64) {
  %s = memref.subview %m[2, 0] [1, 3] [1, 1] : memref<3x3xf64> to memref<3xf64, strided<[1], offset: 6>>
  memref.copy %v, %s : memref<3xf64> to memref<3xf64, strided<[1], offset: 6>>
  %c0 = arith.constant 0 : index
  %w = memref.load %m[%c0, %c0] : memref<3x3xf64>
  %p = arith.mulf %w, %x : f64
  memref.store %p, %m[%c0, %c0] : memref<3x3xf64>
  return
}

// A f32 buffer updated from a f64 recurrence (extf/truncf on each element).
func.func @f32_memref(%a: memref<4xf32>, %x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> f64 {
    %v = memref.load %a[%i] : memref<4xf32>
    %vd = arith.extf %v : f32 to f64
    %p = arith.mulf %acc, %vd : f64
    %s = math.sin %p : f64
    %st = arith.truncf %s : f64 to f32
    memref.store %st, %a[%i] : memref<4xf32>
    scf.yield %s : f64
  }
  return %r : f64
}

// expand_shape of a dynamically sized vector into pairs (a ?x2 view).
func.func @expand_dynamic(%a: memref<?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %rows = arith.divui %n, %c2 : index
  %m = memref.expand_shape %a [[0, 1]] output_shape [%rows, 2] : memref<?xf64> into memref<?x2xf64>
  scf.for %i = %c0 to %rows step %c1 {
    %u = memref.load %m[%i, %c0] : memref<?x2xf64>
    %v = memref.load %m[%i, %c1] : memref<?x2xf64>
    %p = arith.mulf %u, %v : f64
    %q = arith.mulf %p, %x : f64
    memref.store %q, %m[%i, %c0] : memref<?x2xf64>
    %e = math.exp %u : f64
    memref.store %e, %m[%i, %c1] : memref<?x2xf64>
  }
  return
}
