// RUN: moonc-opt %s --moon-ndual-max-width=0 --moon-autodiff | FileCheck %s
// RUN: moonc check %s --entry shift --moon-ndual-max-width=0 | FileCheck %s --check-prefix=NUMERIC
// RUN: moonc check %s --entry shift | FileCheck %s --check-prefix=NUMERIC
// NUMERIC-NOT: FAIL
// NUMERIC: check: PASS

// An elementwise generic that overwrites its own input (a softmax's step
// on its scores: each row minus its max), reversed by the generic rules
// (`--moon-ndual-max-width=0` turns the fused path off): the input's old
// contents are saved, the broadcast input's adjoint (a sum over the row,
// reassociable) is taken first from the output's adjoint, then the
// input's adjoint replaces the output's in place. The output's adjoint
// is neither copied nor zeroed.
#row = affine_map<(i, j) -> (i, j)>
#max = affine_map<(i, j) -> (i)>
func.func @shift(%x: memref<4x8xf64>, %m: memref<4xf64>) {
  linalg.generic {indexing_maps = [#row, #max, #row], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<4x8xf64>, memref<4xf64>) outs(%x : memref<4x8xf64>) {
  ^bb0(%v: f64, %k: f64, %o: f64):
    %d = arith.subf %v, %k : f64
    %e = math.exp %d : f64
    linalg.yield %e : f64
  }
  return
}
func.func @g(%x: memref<4x8xf64>, %dx: memref<4x8xf64>, %m: memref<4xf64>, %dm: memref<4xf64>) {
  moon.vjp @shift(%x, %m, %dx, %dm) : (memref<4x8xf64>, memref<4xf64>, memref<4x8xf64>, memref<4xf64>) -> ()
  return
}
// CHECK-LABEL: func.func private @shift_vjp_dd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<4x8xf64>, %[[M:[^:]*]]: memref<4xf64>, %[[DX:[^:]*]]: memref<4x8xf64>, %[[DM:[^:]*]]: memref<4xf64>)
// CHECK: %[[OLD:.*]] = memref.alloc() : memref<4x8xf64>
// CHECK-NEXT: memref.copy %[[X]], %[[OLD]]
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[M]] : {{.*}}) outs(%[[X]] : memref<4x8xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[OLD]], %{{.*}}, %[[DX]] : {{.*}}) outs(%[[DM]] : memref<4xf64>)
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[OLD]], %{{.*}}, %[[DX]] : {{.*}}) outs(%[[DX]] : memref<4x8xf64>)
// CHECK-NOT: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: memref.copy %[[DX]]
// CHECK-NOT: linalg.fill
// CHECK: return
