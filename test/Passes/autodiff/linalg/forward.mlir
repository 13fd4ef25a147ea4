// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null

// A generic's tangent is a generic run before the primal one: it reads the
// primal inputs and outputs and the active inputs' shadows, writes the
// active outputs' shadows, and yields only tangents.
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func private @dot_exp_jvp_dcd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<4xf64>, %[[B:[^:]*]]: memref<4xf64>, %[[S:[^:]*]]: memref<f64>, %[[DA:[^:]*]]: memref<4xf64>, %[[DS:[^:]*]]: memref<f64>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ALL]], #[[ID]], #[[ALL]]], iterator_types = ["reduction"]} ins(%[[A]], %[[B]], %[[S]], %[[DA]] : {{.*}}) outs(%[[DS]] : memref<f64>) {
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[ACC:.*]]: f64, %[[DX:.*]]: f64, %[[DACC:.*]]: f64):
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK: %[[DP:.*]] = arith.mulf %[[DX]], %[[Y]]
// CHECK: %[[E:.*]] = math.exp %[[P]]
// CHECK: %[[DE:.*]] = arith.mulf %[[DP]], %[[E]]
// CHECK: %[[D:.*]] = arith.addf %[[DACC]], %[[DE]]
// CHECK: linalg.yield %[[D]] : f64
// CHECK: linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[S]] : memref<f64>)
func.func @dot_exp(%a: memref<4xf64>, %b: memref<4xf64>, %s: memref<f64>) {
  linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%a, %b : memref<4xf64>, memref<4xf64>) outs(%s : memref<f64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %e = math.exp %p : f64
    %r = arith.addf %acc, %e : f64
    linalg.yield %r : f64
  }
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<4xf64>, %s: memref<f64>, %da: memref<4xf64>, %ds: memref<f64>) {
  moon.jvp @dot_exp(%a, %b, %s, %da, %ds) args [dup, const, dup] : (memref<4xf64>, memref<4xf64>, memref<f64>, memref<4xf64>, memref<f64>) -> ()
  return
}

// -----

// At width N the tangent generic gets a leading parallel dimension over
// the directions; its body stays scalar.
#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
// CHECK-DAG: #[[P:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[DP:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[DQ:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func private @dot_jvp_dcd__w3(
// CHECK: linalg.generic {indexing_maps = [#[[P]], #[[P]], #[[Q]], #[[DP]], #[[DQ]]], iterator_types = ["parallel", "reduction"]}
// CHECK: ^bb0(%{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64, %{{.*}}: f64):
func.func @dot(%a: memref<4xf64>, %b: memref<4xf64>, %s: memref<f64>) {
  linalg.generic {indexing_maps = [#id, #id, #all], iterator_types = ["reduction"]}
      ins(%a, %b : memref<4xf64>, memref<4xf64>) outs(%s : memref<f64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %p = arith.mulf %x, %y : f64
    %r = arith.addf %acc, %p : f64
    linalg.yield %r : f64
  }
  return
}
func.func @caller(%a: memref<4xf64>, %b: memref<4xf64>, %s: memref<f64>, %da: memref<3x4xf64>, %ds: memref<3xf64>) {
  moon.jvp @dot(%a, %b, %s, %da, %ds) args [dup, const, dup] width 3 : (memref<4xf64>, memref<4xf64>, memref<f64>, memref<3x4xf64>, memref<3xf64>) -> ()
  return
}

// -----

// Named contractions are bilinear: dC += dA·B + A·dB, as two more of the
// same operation. fill, copy and transpose act on shadows.
// CHECK-LABEL: func.func private @named_jvp_ddddd_(
// CHECK-SAME: %[[A:[^:]*]]: memref<3x4xf64>, %[[B:[^:]*]]: memref<4x5xf64>, %[[C:[^:]*]]: memref<3x5xf64>, %[[T:[^:]*]]: memref<5x3xf64>, %[[K:[^:]*]]: memref<5x3xf64>, %[[DA:[^:]*]]: memref<3x4xf64>, %[[DB:[^:]*]]: memref<4x5xf64>, %[[DC:[^:]*]]: memref<3x5xf64>, %[[DT:[^:]*]]: memref<5x3xf64>, %[[DK:[^:]*]]: memref<5x3xf64>)
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[C]] : memref<3x5xf64>)
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[DC]] : memref<3x5xf64>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : memref<3x5xf64>)
// CHECK: linalg.matmul ins(%[[DA]], %[[B]] : {{.*}}) outs(%[[DC]] : memref<3x5xf64>)
// CHECK: linalg.matmul ins(%[[A]], %[[DB]] : {{.*}}) outs(%[[DC]] : memref<3x5xf64>)
// CHECK: linalg.transpose ins(%[[C]] : memref<3x5xf64>) outs(%[[T]] : memref<5x3xf64>) permutation = [1, 0]
// CHECK: linalg.transpose ins(%[[DC]] : memref<3x5xf64>) outs(%[[DT]] : memref<5x3xf64>) permutation = [1, 0]
// CHECK: linalg.copy ins(%[[T]] : memref<5x3xf64>) outs(%[[K]] : memref<5x3xf64>)
// CHECK: linalg.copy ins(%[[DT]] : memref<5x3xf64>) outs(%[[DK]] : memref<5x3xf64>)
func.func @named(%a: memref<3x4xf64>, %b: memref<4x5xf64>, %c: memref<3x5xf64>, %t: memref<5x3xf64>, %k: memref<5x3xf64>) {
  %zero = arith.constant 0.0 : f64
  linalg.fill ins(%zero : f64) outs(%c : memref<3x5xf64>)
  linalg.matmul ins(%a, %b : memref<3x4xf64>, memref<4x5xf64>) outs(%c : memref<3x5xf64>)
  linalg.transpose ins(%c : memref<3x5xf64>) outs(%t : memref<5x3xf64>) permutation = [1, 0]
  linalg.copy ins(%t : memref<5x3xf64>) outs(%k : memref<5x3xf64>)
  return
}
func.func @caller(%a: memref<3x4xf64>, %b: memref<4x5xf64>, %c: memref<3x5xf64>, %t: memref<5x3xf64>, %k: memref<5x3xf64>, %da: memref<3x4xf64>, %db: memref<4x5xf64>, %dc: memref<3x5xf64>, %dt: memref<5x3xf64>, %dk: memref<5x3xf64>) {
  moon.jvp @named(%a, %b, %c, %t, %k, %da, %db, %dc, %dt, %dk) : (memref<3x4xf64>, memref<4x5xf64>, memref<3x5xf64>, memref<5x3xf64>, memref<5x3xf64>, memref<3x4xf64>, memref<4x5xf64>, memref<3x5xf64>, memref<5x3xf64>, memref<5x3xf64>) -> ()
  return
}
