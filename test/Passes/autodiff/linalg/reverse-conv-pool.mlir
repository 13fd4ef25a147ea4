// RUN: moonc-opt %s --split-input-file --moon-autodiff --moon-ndual-max-width=0 | FileCheck %s
// RUN: moonc-opt %s --split-input-file --moon-autodiff | moonc-opt --split-input-file > /dev/null
// Reverse mode of convolutions, poolings and max/min reductions: inputs
// read through maps that are not projected permutations, and outputs
// selected into. (The fused N-wide dual path falls back on all of them.)

// A strided, dilated convolution: the input's adjoint cannot be a
// generic's output (`d2 * 2 + d4 * 2`), so a loop nest over the iteration
// space accumulates it, each iteration a rank-0 generic on 0-d views at
// the loops' indices; the filter's map is a projected permutation, so its
// adjoint stays a generic that reads the input through its strided map.
// CHECK-DAG: #[[MX:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d2 * 2 + d4 * 2)>
// CHECK-DAG: #[[MW:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d3, d4)>
// CHECK-DAG: #[[MO:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>
// CHECK-DAG: #[[IX:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2 * 2 + d4 * 2)>
// CHECK-LABEL: func.func private @conv_vjp_ddd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<1x2x9xf64>, %[[W:[^:]*]]: memref<3x2x3xf64>, %[[O:[^:]*]]: memref<1x3x3xf64>, %[[DX:[^:]*]]: memref<1x2x9xf64>, %[[DW:[^:]*]]: memref<3x2x3xf64>, %[[DO:[^:]*]]: memref<1x3x3xf64>)
// CHECK-NOT: linalg.conv_1d_ncw_fcw
// CHECK: %[[X0:.*]] = memref.alloc() : memref<1x2x9xf64>
// CHECK: %[[W0:.*]] = memref.alloc() : memref<3x2x3xf64>
// CHECK: linalg.generic {indexing_maps = [#[[MX]], #[[MW]], #[[MO]]], iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[O]] : memref<1x3x3xf64>)
// CHECK: scf.for %[[N:[^ ]*]] =
// CHECK-NEXT: scf.for %[[F:[^ ]*]] =
// CHECK-NEXT: scf.for %[[OW:[^ ]*]] =
// CHECK-NEXT: scf.for %[[C:[^ ]*]] =
// CHECK-NEXT: scf.for %[[K:[^ ]*]] =
// CHECK-NEXT: %[[I:.*]] = affine.apply #[[IX]](%[[N]], %[[F]], %[[OW]], %[[C]], %[[K]])
// CHECK-NEXT: memref.subview %[[X0]][%[[N]], %[[C]], %[[I]]] [1, 1, 1] [1, 1, 1]
// CHECK-NEXT: %[[WV:.*]] = memref.subview %[[W0]][%[[F]], %[[C]], %[[K]]] [1, 1, 1] [1, 1, 1] : memref<3x2x3xf64> to memref<f64, strided<[], offset: ?>>
// CHECK-NEXT: %[[DOV:.*]] = memref.subview %[[DO]][%[[N]], %[[F]], %[[OW]]]
// CHECK-NEXT: %[[DXV:.*]] = memref.subview %[[DX]][%[[N]], %[[C]], %[[I]]]
// CHECK-NEXT: linalg.generic {{{.*}} iterator_types = []} ins(%{{.*}}, %[[WV]], %[[DOV]] : {{.*}}) outs(%[[DXV]] : memref<f64, strided<[], offset: ?>>)
// CHECK-NEXT: ^bb0(%{{.*}}: f64, %[[WE:.*]]: f64, %[[DOE:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[DOE]], %[[WE]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] fastmath<reassoc> : f64
// CHECK-NEXT: linalg.yield %[[S]] : f64
// CHECK: linalg.generic {indexing_maps = [#[[MX]], #[[MW]], #[[MO]], #[[MW]]], iterator_types = ["reduction", "parallel", "reduction", "parallel", "parallel"]} ins(%[[X0]], %[[W0]], %[[DO]] : {{.*}}) outs(%[[DW]] : memref<3x2x3xf64>)
// CHECK-NEXT: ^bb0(%[[XE:.*]]: f64, %{{.*}}: f64, %[[DOE2:.*]]: f64, %[[ACC2:.*]]: f64):
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[XE]], %[[DOE2]] : f64
// CHECK-NEXT: arith.addf %[[ACC2]], %[[P2]] fastmath<reassoc> : f64
// CHECK: return

func.func @conv(%x: memref<1x2x9xf64>, %w: memref<3x2x3xf64>, %o: memref<1x3x3xf64>) {
  linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%x, %w : memref<1x2x9xf64>, memref<3x2x3xf64>) outs(%o : memref<1x3x3xf64>)
  return
}
func.func @caller(%x: memref<1x2x9xf64>, %w: memref<3x2x3xf64>, %o: memref<1x3x3xf64>, %dx: memref<1x2x9xf64>, %dw: memref<3x2x3xf64>, %do: memref<1x3x3xf64>) {
  moon.vjp @conv(%x, %w, %o, %dx, %dw, %do) : (memref<1x2x9xf64>, memref<3x2x3xf64>, memref<1x3x3xf64>, memref<1x2x9xf64>, memref<3x2x3xf64>, memref<1x3x3xf64>) -> ()
  return
}

// -----

// Max pooling: the reverse sweep recomputes the output (y) from saved
// copies of the input and the output's old contents (the window, freed in
// the forward sweep, has a stand-in of its shape); the output's adjoint
// becomes that of the old contents (where they were selected) and the
// remainder r the rest; a loop nest in iteration order gives each
// window's first element equal to y what remains of its adjoint.
// CHECK-DAG: #[[PX:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[PWIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[PO:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func private @pool_vjp_dd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<1x1x4x4xf64>, %[[O:[^:]*]]: memref<1x1x2x2xf64>, %[[DX:[^:]*]]: memref<1x1x4x4xf64>, %[[DO:[^:]*]]: memref<1x1x2x2xf64>)
// CHECK: %[[WIN:.*]] = memref.alloc() : memref<2x2xf64>
// CHECK: %[[X0:.*]] = memref.alloc() : memref<1x1x4x4xf64>
// CHECK-NEXT: memref.copy %[[X]], %[[X0]]
// CHECK-NEXT: %[[STANDIN:.*]] = memref.alloc() : memref<2x2xf64>
// CHECK-NEXT: %[[OLD:.*]] = memref.alloc() : memref<1x1x2x2xf64>
// CHECK-NEXT: memref.copy %[[O]], %[[OLD]]
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[PX]], #[[PWIN]], #[[PO]]], {{.*}}} ins(%[[X]], %[[WIN]] : {{.*}}) outs(%[[O]] : {{.*}})
// CHECK: arith.maximumf
// CHECK: memref.dealloc %[[WIN]]
// CHECK-NEXT: %[[Y:.*]] = memref.alloc() : memref<1x1x2x2xf64>
// CHECK-NEXT: memref.copy %[[OLD]], %[[Y]]
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[PX]], #[[PWIN]], #[[PO]]], {{.*}}} ins(%[[X0]], %[[STANDIN]] : {{.*}}) outs(%[[Y]] : {{.*}})
// CHECK: %[[R:.*]] = memref.alloc() : memref<1x1x2x2xf64>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[ID]]], {{.*}}} ins(%[[OLD]], %[[Y]], %[[DO]] : {{.*}}) outs(%[[R]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %[[D:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[EQ:.*]] = arith.cmpf oeq, %[[A]], %[[B]] : f64
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT: arith.select %[[EQ]], %[[Z]], %[[D]] : f64
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]], #[[ID]]], {{.*}}} ins(%[[OLD]], %[[Y]], %[[DO]] : {{.*}}) outs(%[[DO]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[A2:.*]]: f64, %[[B2:.*]]: f64, %[[D2:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: %[[EQ2:.*]] = arith.cmpf oeq, %[[A2]], %[[B2]] : f64
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.0
// CHECK-NEXT: arith.select %[[EQ2]], %[[D2]], %[[Z2]] : f64
// CHECK-COUNT-6: scf.for
// CHECK: %[[XV:.*]] = memref.subview %[[X0]]
// CHECK-NEXT: memref.subview %[[STANDIN]]
// CHECK-NEXT: %[[YV:.*]] = memref.subview %[[Y]]
// CHECK-NEXT: %[[DXV:.*]] = memref.subview %[[DX]]
// CHECK-NEXT: %[[RV:.*]] = memref.subview %[[R]]
// CHECK-NEXT: linalg.generic {{{.*}} iterator_types = []} ins(%[[XV]], %{{.*}}, %[[YV]] : {{.*}}) outs(%[[DXV]], %[[RV]] : {{.*}})
// CHECK-NEXT: ^bb0(%[[XE:.*]]: f64, %{{.*}}: f64, %[[YE:.*]]: f64, %[[ACC:.*]]: f64, %[[LEFT:.*]]: f64):
// CHECK-NEXT: %[[HIT:.*]] = arith.cmpf oeq, %[[XE]], %[[YE]] : f64
// CHECK-NEXT: %[[Z3:.*]] = arith.constant 0.0
// CHECK-NEXT: %[[GIVE:.*]] = arith.select %[[HIT]], %[[LEFT]], %[[Z3]] : f64
// CHECK-NEXT: %[[REST:.*]] = arith.select %[[HIT]], %[[Z3]], %[[LEFT]] : f64
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[GIVE]] : f64
// CHECK-NEXT: linalg.yield %[[SUM]], %[[REST]] : f64, f64
// CHECK: memref.dealloc %[[R]]
// CHECK-NEXT: memref.dealloc %[[Y]]
// CHECK: return

func.func @pool(%x: memref<1x1x4x4xf64>, %o: memref<1x1x2x2xf64>) {
  %win = memref.alloc() : memref<2x2xf64>
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %win : memref<1x1x4x4xf64>, memref<2x2xf64>) outs(%o : memref<1x1x2x2xf64>)
  memref.dealloc %win : memref<2x2xf64>
  return
}
func.func @caller(%x: memref<1x1x4x4xf64>, %o: memref<1x1x2x2xf64>, %dx: memref<1x1x4x4xf64>, %do: memref<1x1x2x2xf64>) {
  moon.vjp @pool(%x, %o, %dx, %do) : (memref<1x1x4x4xf64>, memref<1x1x2x2xf64>, memref<1x1x4x4xf64>, memref<1x1x2x2xf64>) -> ()
  return
}

// -----

// A generic reading its input through `d0 + d1` and its iteration index:
// in the loop nest, linalg.index becomes the loop's induction variable;
// in the weight's adjoint generic it stays.
// CHECK-DAG: #[[SUM:.*]] = affine_map<(d0, d1) -> (d0 + d1)>
// CHECK-LABEL: func.func private @indexed_vjp_ddd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<8xf64>, %[[W:[^:]*]]: memref<3xf64>, %[[O:[^:]*]]: memref<6xf64>, %[[DX:[^:]*]]: memref<8xf64>, %[[DW:[^:]*]]: memref<3xf64>, %[[DO:[^:]*]]: memref<6xf64>)
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK-NEXT: scf.for %[[K:[^ ]*]] =
// CHECK-NEXT: %[[IK:.*]] = affine.apply #[[SUM]](%[[I]], %[[K]])
// CHECK: %[[DXV:.*]] = memref.subview %[[DX]][%[[IK]]] [1] [1]
// CHECK-NEXT: linalg.generic {{{.*}} iterator_types = []} {{.*}} outs(%[[DXV]] : {{.*}})
// CHECK-NOT: linalg.index
// CHECK: arith.index_cast %[[K]] : index to i64
// CHECK: linalg.yield
// CHECK: linalg.generic {{.*}} outs(%[[DW]] : memref<3xf64>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.index 1 : index

#x = affine_map<(d0, d1) -> (d0 + d1)>
#w = affine_map<(d0, d1) -> (d1)>
#o = affine_map<(d0, d1) -> (d0)>
func.func @indexed(%x: memref<8xf64>, %w: memref<3xf64>, %o: memref<6xf64>) {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<8xf64>, memref<3xf64>) outs(%o : memref<6xf64>) {
  ^bb0(%a: f64, %b: f64, %c: f64):
    %k = linalg.index 1 : index
    %n = arith.index_cast %k : index to i64
    %f = arith.sitofp %n : i64 to f64
    %ab = arith.mulf %a, %b : f64
    %p = arith.mulf %ab, %f : f64
    %s = arith.addf %c, %p : f64
    linalg.yield %s : f64
  }
  return
}
func.func @caller(%x: memref<8xf64>, %w: memref<3xf64>, %o: memref<6xf64>, %dx: memref<8xf64>, %dw: memref<3xf64>, %do: memref<6xf64>) {
  moon.vjp @indexed(%x, %w, %o, %dx, %dw, %do) : (memref<8xf64>, memref<3xf64>, memref<6xf64>, memref<8xf64>, memref<3xf64>, memref<6xf64>) -> ()
  return
}

// -----

// A row maximum by cmpf + select, in f32: the same selection.
// CHECK-LABEL: func.func private @rowmax_vjp_dd_(
// CHECK-SAME: %[[X:[^:]*]]: memref<3x4xf32>, %[[M:[^:]*]]: memref<3xf32>, %[[DX:[^:]*]]: memref<3x4xf32>, %[[DM:[^:]*]]: memref<3xf32>)
// CHECK: arith.cmpf ogt
// CHECK: %[[Y:.*]] = memref.alloc() : memref<3xf32>
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: scf.for %[[I:[^ ]*]] =
// CHECK-NEXT: scf.for %[[J:[^ ]*]] =
// CHECK: %[[YV:.*]] = memref.subview %[[Y]][%[[I]]] [1] [1]
// CHECK-NEXT: %[[DXV:.*]] = memref.subview %[[DX]][%[[I]], %[[J]]] [1, 1] [1, 1]
// CHECK: ^bb0(%[[XE:.*]]: f32, %[[YE:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.cmpf oeq, %[[XE]], %[[YE]] : f32

#ij = affine_map<(d0, d1) -> (d0, d1)>
#i = affine_map<(d0, d1) -> (d0)>
func.func @rowmax(%x: memref<3x4xf32>, %m: memref<3xf32>) {
  linalg.generic {indexing_maps = [#ij, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf32>) outs(%m : memref<3xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %gt = arith.cmpf ogt, %v, %acc : f32
    %s = arith.select %gt, %v, %acc : f32
    linalg.yield %s : f32
  }
  return
}
func.func @caller(%x: memref<3x4xf32>, %m: memref<3xf32>, %dx: memref<3x4xf32>, %dm: memref<3xf32>) {
  moon.vjp @rowmax(%x, %m, %dx, %dm) : (memref<3x4xf32>, memref<3xf32>, memref<3x4xf32>, memref<3xf32>) -> ()
  return
}
