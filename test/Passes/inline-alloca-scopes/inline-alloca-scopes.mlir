// RUN: moonc-opt --moon-inline-alloca-scopes %s | FileCheck %s

// A scope without allocas gives way to its body; its result is the value
// its body returns.
// CHECK-LABEL: func.func @plain(
// CHECK-NOT: memref.alloca_scope
// CHECK: %[[S:.*]] = arith.addf
// CHECK: return %[[S]]
func.func @plain(%a: f64) -> f64 {
  %r = memref.alloca_scope -> (f64) {
    %s = arith.addf %a, %a : f64
    memref.alloca_scope.return %s : f64
  }
  return %r : f64
}

// A scope holding an alloca (at any depth) stays: it frees that memory.
// CHECK-LABEL: func.func @with_alloca(
// CHECK: memref.alloca_scope
// CHECK: memref.alloca()
func.func @with_alloca(%a: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.alloca_scope {
    scf.for %i = %c0 to %n step %c1 {
      %m = memref.alloca() : memref<f64>
      memref.store %a, %m[] : memref<f64>
    }
  }
  return
}
