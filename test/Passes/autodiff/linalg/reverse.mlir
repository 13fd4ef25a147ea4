// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// FileCheck sees the general path (--moon-ndual-max-width=0); the fused
// N-wide dual path has its own tests in ../ndual/.

// linalg.matmul is generalized, then reversed: one generic per active
// input over the same (i, j, k) space, reducing over the dimension its map
// leaves out: dA[i, k] += dC[i, j] * B[k, j] (reduction over j) and
// dB[k, j] += A[i, k] * dC[i, j] (reduction over i). The output is
// accumulated into (C += A B), so dC is kept. The inputs are snapshotted
// before the primal generic since memref arguments may alias the output.
// CHECK-DAG: #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func private @mm_vjp_ddd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4x8xf64>, %[[B:[^:]*]]: memref<8x2xf64>, %[[C:[^:]*]]: memref<4x2xf64>, %[[DA:[^:]*]]: memref<4x8xf64>, %[[DB:[^:]*]]: memref<8x2xf64>, %[[DC:[^:]*]]: memref<4x2xf64>)
// CHECK-NOT: linalg.matmul
// CHECK: %[[A0:.*]] = memref.alloc() : memref<4x8xf64>
// CHECK-NEXT: memref.copy %[[A]], %[[A0]]
// CHECK-NEXT: %[[B0:.*]] = memref.alloc() : memref<8x2xf64>
// CHECK-NEXT: memref.copy %[[B]], %[[B0]]
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : memref<4x2xf64>)
// CHECK: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]], #[[MA]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[A0]], %[[B0]], %[[DC]] : {{.*}}) outs(%[[DA]] : memref<4x8xf64>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f64, %[[BV:.*]]: f64, %[[DCV:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[DCV]], %[[BV]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[OUT]], %[[P]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[S]] : f64
// CHECK: linalg.generic {indexing_maps = [#[[MA]], #[[MB]], #[[MC]], #[[MB]]], iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[A0]], %[[B0]], %[[DC]] : {{.*}}) outs(%[[DB]] : memref<8x2xf64>) {
// CHECK-NEXT: ^bb0(%[[AV:.*]]: f64, %{{.*}}: f64, %[[DCV2:.*]]: f64, %[[OUT2:.*]]: f64):
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[AV]], %[[DCV2]] : f64
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[OUT2]], %[[P2]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[S2]] : f64
// CHECK-NOT: linalg.fill
// CHECK: memref.dealloc %[[A0]]
// CHECK-NEXT: memref.dealloc %[[B0]]
// CHECK-NEXT: return
func.func @mm(%a: memref<4x8xf64>, %b: memref<8x2xf64>, %c: memref<4x2xf64>) {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x2xf64>) outs(%c : memref<4x2xf64>)
  return
}
func.func @caller(%a: memref<4x8xf64>, %b: memref<8x2xf64>, %c: memref<4x2xf64>, %da: memref<4x8xf64>, %db: memref<8x2xf64>, %dc: memref<4x2xf64>) {
  moon.vjp @mm(%a, %b, %c, %da, %db, %dc) : (memref<4x8xf64>, memref<8x2xf64>, memref<4x2xf64>, memref<4x8xf64>, memref<8x2xf64>, memref<4x2xf64>) -> ()
  return
}

// -----

// A generic that overwrites its output and captures an active scalar: the
// input's adjoint is a parallel generic recomputing the body; the scalar's
// is a full reduction into a 0-d cell. The input and output are arguments
// read and written at the same indices (a caller may pass one buffer
// twice), so the output's adjoint is copied before it is zeroed and the
// input's adjoint added.
#id = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func private @scale_vjp_dda_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[B:[^:]*]]: memref<4xf64>, %[[X:[^:]*]]: f64, %[[DA:[^:]*]]: memref<4xf64>, %[[DB:[^:]*]]: memref<4xf64>) -> f64
// CHECK: %[[A0:.*]] = memref.alloc() : memref<4xf64>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[A]] : memref<4xf64>) outs(%[[B]] : memref<4xf64>)
// CHECK: %[[SEED:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT: memref.copy %[[DB]], %[[SEED]]
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[DB]] : memref<4xf64>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ALL]], #[[ID]], #[[ID]]], iterator_types = ["parallel"]} ins(%[[A0]], %[[X]], %[[SEED]] : {{.*}}) outs(%[[DA]] : memref<4xf64>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %[[XV:.*]]: f64, %[[DY:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT: %[[DS:.*]] = arith.mulf %[[DY]], %[[XV]] : f64
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[IN]] : f64
// CHECK-NEXT: %[[DIN:.*]] = arith.mulf %[[DS]], %[[COS]] : f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[OUT]], %[[DIN]] : f64
// CHECK-NEXT: linalg.yield %[[SUM]] : f64
// CHECK: %[[CELL:.*]] = memref.alloca() : memref<f64>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: memref.store %[[ZERO]], %[[CELL]][] : memref<f64>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ALL]], #[[ID]], #[[ALL]]], iterator_types = ["reduction"]} ins(%[[A0]], %[[X]], %[[SEED]] : {{.*}}) outs(%[[CELL]] : memref<f64>) {
// CHECK: %[[SIN:.*]] = math.sin
// CHECK-NEXT: %[[DXV:.*]] = arith.mulf %[[SIN]], %{{.*}} : f64
// CHECK-NEXT: %[[SUM2:.*]] = arith.addf %{{.*}}, %[[DXV]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[SUM2]] : f64
// CHECK: %[[DX:.*]] = memref.load %[[CELL]][] : memref<f64>
// CHECK: memref.dealloc %[[SEED]]
// CHECK: return %[[DX]] : f64
func.func @scale(%a: memref<4xf64>, %b: memref<4xf64>, %x: f64) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf64>) outs(%b : memref<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %s = math.sin %in : f64
    %m = arith.mulf %s, %x : f64
    linalg.yield %m : f64
  }
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<4xf64>, %da: memref<4xf64>, %db: memref<4xf64>, %x: f64) -> f64 {
  %r = moon.vjp @scale(%a, %b, %x, %da, %db) : (memref<4xf64>, memref<4xf64>, f64, memref<4xf64>, memref<4xf64>) -> f64
  return %r : f64
}

// -----

// A generic whose body reads its output (c <- c * c + a, all parallel):
// the output's old contents are copied before it runs and become an input
// of the reverse generics; the output's adjoint is replaced by that of its
// old contents (no accumulation). a and c may be one buffer, so the
// output's adjoint is copied first and the input's adjoint added last.
#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func private @square_acc_vjp_dd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[C:[^:]*]]: memref<4xf64>, %[[DA:[^:]*]]: memref<4xf64>, %[[DC:[^:]*]]: memref<4xf64>)
// CHECK: memref.copy %[[C]], %[[OLD:[^ ]*]]
// CHECK-NEXT: linalg.generic
// CHECK: %[[SEED:.*]] = memref.alloc() : memref<4xf64>
// CHECK-NEXT: memref.copy %[[DC]], %[[SEED]]
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}}, %[[OLD]], %[[SEED]] : {{.*}}) outs(%[[DC]] : memref<4xf64>)
// CHECK-NEXT: ^bb0(%{{.*}}: f64, %[[O:.*]]: f64, %[[DY:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[D1:.*]] = arith.mulf %[[DY]], %[[O]]
// CHECK-NEXT: %[[D2:.*]] = arith.mulf %[[O]], %[[DY]]
// CHECK-NEXT: %[[D:.*]] = arith.addf %[[D1]], %[[D2]]
// CHECK-NEXT: linalg.yield %[[D]] : f64
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[OLD]], %[[SEED]] : {{.*}}) outs(%[[DA]] : memref<4xf64>)
// CHECK-NEXT: ^bb0(%{{.*}}: f64, %{{.*}}: f64, %[[DY2:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[DY2]]
// CHECK-NEXT: linalg.yield %[[S]] : f64
// CHECK: memref.dealloc %[[SEED]]
func.func @square_acc(%a: memref<4xf64>, %c: memref<4xf64>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf64>) outs(%c : memref<4xf64>) {
  ^bb0(%in: f64, %out: f64):
    %sq = arith.mulf %out, %out : f64
    %r = arith.addf %sq, %in : f64
    linalg.yield %r : f64
  }
  return
}
func.func @caller(%a: memref<4xf64>, %c: memref<4xf64>, %da: memref<4xf64>, %dc: memref<4xf64>) {
  moon.vjp @square_acc(%a, %c, %da, %dc) : (memref<4xf64>, memref<4xf64>, memref<4xf64>, memref<4xf64>) -> ()
  return
}
