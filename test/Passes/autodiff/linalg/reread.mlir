// RUN: moonc-opt %s --moon-ndual-max-width=0 --moon-autodiff | FileCheck %s
// RUN: moonc check %s --entry square_then_scale --moon-ndual-max-width=0 | FileCheck %s --check-prefix=NUMERIC
// RUN: moonc check %s --entry square_then_scale | FileCheck %s --check-prefix=NUMERIC
// NUMERIC: check: PASS

// A buffer the function allocates, written by one generic and read by the
// next, which nothing writes afterwards: the reverse sweep reads it where
// it is (its deallocation waits for the end of the sweep) instead of a
// copy taken before the reading generic.
#id = affine_map<(i) -> (i)>
func.func @square_then_scale(%x: memref<8xf64>, %y: memref<8xf64>) {
  %t = memref.alloc() : memref<8xf64>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<8xf64>) outs(%t : memref<8xf64>) {
  ^bb0(%v: f64, %o: f64):
    %s = arith.mulf %v, %v : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : memref<8xf64>) outs(%y : memref<8xf64>) {
  ^bb0(%v: f64, %o: f64):
    %e = math.sin %v : f64
    linalg.yield %e : f64
  }
  memref.dealloc %t : memref<8xf64>
  return
}
func.func @g(%x: memref<8xf64>, %y: memref<8xf64>, %dx: memref<8xf64>, %dy: memref<8xf64>) {
  moon.vjp @square_then_scale(%x, %y, %dx, %dy) : (memref<8xf64>, memref<8xf64>, memref<8xf64>, memref<8xf64>) -> ()
  return
}
// CHECK-LABEL: func.func private @square_then_scale_vjp_dd_(
// CHECK: %[[T:.*]] = memref.alloc() : memref<8xf64>
// CHECK-NOT: memref.copy %[[T]]
// CHECK: linalg.generic {{.*}} ins(%[[T]] : memref<8xf64>) outs(%{{.*}} : memref<8xf64>)
// CHECK-NOT: memref.dealloc %[[T]]
// CHECK: linalg.generic {{.*}} ins(%[[T]], %{{.*}} : memref<8xf64>, memref<8xf64>)
// CHECK: memref.dealloc %[[T]]
// CHECK: return
