// RUN: moonc-opt %s --split-input-file --moon-autodiff | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// Forward mode of named convolutions and poolings: generalized in place
// (the generic takes the named operation's body), then differentiated as
// generics.

// A strided, dilated convolution: one tangent generic reads the inputs
// and their tangents through the convolution's maps (the primal runs after
// it, as for any generic).
// CHECK-DAG: #[[MX:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2 * 2 + d4 * 2)>
// CHECK-DAG: #[[MW:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d3, d4)>
// CHECK-DAG: #[[MO:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-LABEL: func.func private @conv_jvp_ddd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<1x2x9xf64>, %[[W:[^:]*]]: memref<3x2x3xf64>, %[[O:[^:]*]]: memref<1x3x3xf64>, %[[DX:[^:]*]]: memref<1x2x9xf64>, %[[DW:[^:]*]]: memref<3x2x3xf64>, %[[DO:[^:]*]]: memref<1x3x3xf64>)
// CHECK-NOT: linalg.conv_1d_ncw_fcw
// CHECK: linalg.generic {indexing_maps = [#[[MX]], #[[MW]], #[[MO]], #[[MX]], #[[MW]], #[[MO]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[W]], %[[O]], %[[DX]], %[[DW]] : {{.*}}) outs(%[[DO]] : memref<1x3x3xf64>)
// CHECK-NEXT: ^bb0(%[[XE:.*]]: f64, %[[WE:.*]]: f64, %{{.*}}: f64, %[[DXE:.*]]: f64, %[[DWE:.*]]: f64, %[[DOE:.*]]: f64):
// CHECK-NEXT: %[[A:.*]] = arith.mulf %[[DXE]], %[[WE]] : f64
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[XE]], %[[DWE]] : f64
// CHECK-NEXT: %[[AB:.*]] = arith.addf %[[A]], %[[B]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[DOE]], %[[AB]] : f64
// CHECK-NEXT: linalg.yield %[[S]] : f64
// CHECK: linalg.generic {indexing_maps = [#[[MX]], #[[MW]], #[[MO]]], {{.*}}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[O]] : memref<1x3x3xf64>)
// CHECK-NEXT: ^bb0(%[[XE2:.*]]: f64, %[[WE2:.*]]: f64, %[[OE2:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[XE2]], %[[WE2]] : f64
// CHECK-NEXT: arith.addf %[[OE2]], %[[P]] : f64
func.func @conv(%x: memref<1x2x9xf64>, %w: memref<3x2x3xf64>, %o: memref<1x3x3xf64>) {
  linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : memref<1x2x9xf64>, memref<3x2x3xf64>) outs(%o : memref<1x3x3xf64>)
  return
}
func.func @caller(%x: memref<1x2x9xf64>, %w: memref<3x2x3xf64>, %o: memref<1x3x3xf64>, %dx: memref<1x2x9xf64>, %dw: memref<3x2x3xf64>, %do: memref<1x3x3xf64>) {
  moon.jvp @conv(%x, %w, %o, %dx, %dw, %do) : (memref<1x2x9xf64>, memref<3x2x3xf64>, memref<1x3x3xf64>, memref<1x2x9xf64>, memref<3x2x3xf64>, memref<1x3x3xf64>) -> ()
  return
}

// -----

// Max pooling reduces into an output its body reads: one generic computes
// the running maximum and its tangent together (the tangent keeps the
// running one on ties: the first maximum, as in reverse mode).
// CHECK-DAG: #[[PX:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[PWIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[PO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func private @pool_jvp_dd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<1x1x4x4xf64>, %[[O:[^:]*]]: memref<1x1x2x2xf64>, %[[DX:[^:]*]]: memref<1x1x4x4xf64>, %[[DO:[^:]*]]: memref<1x1x2x2xf64>)
// CHECK: %[[WIN:.*]] = memref.alloc() : memref<2x2xf64>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[PX]], #[[PWIN]], #[[PX]], #[[PO]], #[[PO]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[WIN]], %[[DX]] : {{.*}}) outs(%[[O]], %[[DO]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[XE:.*]]: f64, %{{.*}}: f64, %[[DXE:.*]]: f64, %[[OE:.*]]: f64, %[[DOE:.*]]: f64):
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[OE]], %[[XE]] : f64
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpf oge, %[[OE]], %[[XE]] : f64
// CHECK-NEXT: %[[T:.*]] = arith.select %[[KEEP]], %[[DOE]], %[[DXE]] : f64
// CHECK-NEXT: linalg.yield %[[M]], %[[T]] : f64, f64
// CHECK-NOT: linalg.generic
// CHECK: memref.dealloc %[[WIN]]
func.func @pool(%x: memref<1x1x4x4xf64>, %o: memref<1x1x2x2xf64>) {
  %win = memref.alloc() : memref<2x2xf64>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %win : memref<1x1x4x4xf64>, memref<2x2xf64>) outs(%o : memref<1x1x2x2xf64>)
  memref.dealloc %win : memref<2x2xf64>
  return
}
func.func @caller(%x: memref<1x1x4x4xf64>, %o: memref<1x1x2x2xf64>, %dx: memref<1x1x4x4xf64>, %do: memref<1x1x2x2xf64>) {
  moon.jvp @pool(%x, %o, %dx, %do) : (memref<1x1x4x4xf64>, memref<1x1x2x2xf64>, memref<1x1x4x4xf64>, memref<1x1x2x2xf64>) -> ()
  return
}
