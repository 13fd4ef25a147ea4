// RUN: moonc-opt --moon-uniform-buffers --split-input-file %s | FileCheck %s
// RUN: moonc-opt --moon-uniform-buffers --split-input-file %s | moonc-opt --split-input-file > /dev/null

// The adjoint of a summed temporary, as reverse mode writes it: zeroed,
// the sum's adjoint added to every element, read elementwise, zeroed
// again. The buffer goes; its reader takes the scalar.
// CHECK-LABEL: func.func @broadcast_adjoint(
// CHECK-SAME: %[[SEED:[^:]*]]: memref<f64>, %[[P:[^:]*]]: memref<10xf64>, %[[DX:[^:]*]]: memref<10xf64>
// CHECK-NOT: memref.alloc
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: %[[S:.*]] = memref.load %[[SEED]][]
// CHECK: %[[G:.*]] = arith.addf %[[ZERO]], %[[S]]
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel"]} ins(%[[P]] : memref<10xf64>) outs(%[[DX]] : memref<10xf64>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[G]], %[[IN]]
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[OUT]], %[[M]]
// CHECK-NEXT: linalg.yield %[[A]]
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.dealloc
// CHECK: return
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
func.func @broadcast_adjoint(%seed: memref<f64>, %p: memref<10xf64>, %dx: memref<10xf64>) {
  %zero = arith.constant 0.0 : f64
  %d = memref.alloc() : memref<10xf64>
  linalg.fill ins(%zero : f64) outs(%d : memref<10xf64>)
  linalg.generic {indexing_maps = [#all, #id], iterator_types = ["parallel"]}
      ins(%seed : memref<f64>) outs(%d : memref<10xf64>) {
  ^bb0(%s: f64, %o: f64):
    %a = arith.addf %o, %s : f64
    linalg.yield %a : f64
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%d, %p : memref<10xf64>, memref<10xf64>) outs(%dx : memref<10xf64>) {
  ^bb0(%g: f64, %q: f64, %o: f64):
    %m = arith.mulf %g, %q : f64
    %a = arith.addf %o, %m : f64
    linalg.yield %a : f64
  }
  linalg.fill ins(%zero : f64) outs(%d : memref<10xf64>)
  memref.dealloc %d : memref<10xf64>
  return
}

// -----

// Loads read the last value written; a generic may write a value computed
// from a scalar operand alone, and any element may be loaded.
// CHECK-LABEL: func.func @loads(
// CHECK-SAME: %[[A:[^:]*]]: f64, %[[B:[^:]*]]: f64, %{{.*}}: index
// CHECK-NOT: memref.alloc
// CHECK: %[[M:.*]] = arith.mulf %[[B]], %[[B]]
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[M]]
// CHECK-NEXT: return %[[A]], %[[S]]
#map2 = affine_map<(i, j) -> (j, i)>
func.func @loads(%a: f64, %b: f64, %i: index) -> (f64, f64) {
  %t = memref.alloca() : memref<3x4xf64>
  linalg.fill ins(%a : f64) outs(%t : memref<3x4xf64>)
  %x = memref.load %t[%i, %i] : memref<3x4xf64>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> ()>, #map2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%b : f64) outs(%t : memref<3x4xf64>) {
  ^bb0(%s: f64, %o: f64):
    %m = arith.mulf %s, %s : f64
    linalg.yield %m : f64
  }
  %y = memref.load %t[%i, %i] : memref<3x4xf64>
  %z = arith.addf %x, %y : f64
  return %x, %z : f64, f64
}

// -----

// Left alone: a read before any write.
// CHECK-LABEL: func.func @read_first(
// CHECK: memref.alloc()
// CHECK: linalg.fill
func.func @read_first(%a: f64, %i: index) -> f64 {
  %t = memref.alloc() : memref<4xf64>
  %x = memref.load %t[%i] : memref<4xf64>
  linalg.fill ins(%a : f64) outs(%t : memref<4xf64>)
  memref.dealloc %t : memref<4xf64>
  return %x : f64
}

// -----

// Left alone: the buffer escapes to a call, is written element by
// element, is written from a non-scalar input, or is used in a loop.
// CHECK-LABEL: func.func @escapes(
// CHECK: memref.alloc()
// CHECK-LABEL: func.func @stored(
// CHECK: memref.alloc()
// CHECK-LABEL: func.func @from_array(
// CHECK: memref.alloc()
// CHECK-LABEL: func.func @in_loop(
// CHECK: memref.alloc()
func.func private @use(memref<4xf64>)
func.func @escapes(%a: f64) {
  %t = memref.alloc() : memref<4xf64>
  linalg.fill ins(%a : f64) outs(%t : memref<4xf64>)
  func.call @use(%t) : (memref<4xf64>) -> ()
  memref.dealloc %t : memref<4xf64>
  return
}
func.func @stored(%a: f64, %i: index) -> f64 {
  %t = memref.alloc() : memref<4xf64>
  linalg.fill ins(%a : f64) outs(%t : memref<4xf64>)
  memref.store %a, %t[%i] : memref<4xf64>
  %x = memref.load %t[%i] : memref<4xf64>
  memref.dealloc %t : memref<4xf64>
  return %x : f64
}
func.func @from_array(%v: memref<4xf64>, %i: index) -> f64 {
  %t = memref.alloc() : memref<4xf64>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%v : memref<4xf64>) outs(%t : memref<4xf64>) {
  ^bb0(%s: f64, %o: f64):
    linalg.yield %s : f64
  }
  %x = memref.load %t[%i] : memref<4xf64>
  memref.dealloc %t : memref<4xf64>
  return %x : f64
}
func.func @in_loop(%a: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<4xf64>
  linalg.fill ins(%a : f64) outs(%t : memref<4xf64>)
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> f64 {
    %x = memref.load %t[%c0] : memref<4xf64>
    %y = arith.addf %acc, %x : f64
    scf.yield %y : f64
  }
  memref.dealloc %t : memref<4xf64>
  return %s : f64
}
