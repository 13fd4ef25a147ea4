// What reverse and forward mode of linalg still reject, with located errors.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics --moon-autodiff

// A max reduction that also yields its argmax (two outputs): the
// selection is only recognized in a generic with one output.
#ij = affine_map<(d0, d1) -> (d0, d1)>
#i = affine_map<(d0, d1) -> (d0)>
func.func @argmax(%x: memref<3x4xf64>, %m: memref<3xf64>, %k: memref<3xindex>) {
  // expected-error @+1 {{reverse mode supports a max/min reduction only in a linalg.generic with one output}}
  linalg.generic {indexing_maps = [#ij, #i, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf64>) outs(%m, %k : memref<3xf64>, memref<3xindex>) {
  ^bb0(%v: f64, %acc: f64, %at: index):
    %j = linalg.index 1 : index
    %gt = arith.cmpf ogt, %v, %acc : f64
    %s = arith.select %gt, %v, %acc : f64
    %t = arith.select %gt, %j, %at : index
    linalg.yield %s, %t : f64, index
  }
  return
}
func.func @caller(%x: memref<3x4xf64>, %m: memref<3xf64>, %k: memref<3xindex>, %dx: memref<3x4xf64>, %dm: memref<3xf64>) {
  moon.vjp @argmax(%x, %m, %k, %dx, %dm) args [dup, dup, const] : (memref<3x4xf64>, memref<3xf64>, memref<3xindex>, memref<3x4xf64>, memref<3xf64>) -> ()
  return
}

// -----

// A product reduction reads its output other than by adding or selecting.
#ij = affine_map<(d0, d1) -> (d0, d1)>
#i = affine_map<(d0, d1) -> (d0)>
func.func @rowprod(%x: memref<3x4xf64>, %m: memref<3xf64>) {
  // expected-error @+1 {{reverse mode supports a linalg.generic whose body reads an output only when each output element is visited once (all iterators parallel) or the output is accumulated into (`out + f(ins)`), or when it is selected into (a max or min reduction)}}
  linalg.generic {indexing_maps = [#ij, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf64>) outs(%m : memref<3xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %p = arith.mulf %acc, %v : f64
    linalg.yield %p : f64
  }
  return
}
func.func @caller(%x: memref<3x4xf64>, %m: memref<3xf64>, %dx: memref<3x4xf64>, %dm: memref<3xf64>) {
  moon.vjp @rowprod(%x, %m, %dx, %dm) : (memref<3x4xf64>, memref<3xf64>, memref<3x4xf64>, memref<3xf64>) -> ()
  return
}

// -----

// Max pooling inside a loop: the reverse sweep would need the old
// contents of each iteration's output (a tape of buffers).
func.func @pools(%x: memref<4x1x1x4x4xf64>, %o: memref<1x1x2x2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %win = memref.alloc() : memref<2x2xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    %xi = memref.subview %x[%i, 0, 0, 0, 0] [1, 1, 1, 4, 4] [1, 1, 1, 1, 1] : memref<4x1x1x4x4xf64> to memref<1x1x4x4xf64, strided<[16, 16, 4, 1], offset: ?>>
    // expected-error @+1 {{reverse mode cannot yet save a buffer that is overwritten later for a linalg operation inside a loop, branch or called function}}
    linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%xi, %win : memref<1x1x4x4xf64, strided<[16, 16, 4, 1], offset: ?>>, memref<2x2xf64>) outs(%o : memref<1x1x2x2xf64>)
  }
  memref.dealloc %win : memref<2x2xf64>
  return
}
func.func @caller(%x: memref<4x1x1x4x4xf64>, %o: memref<1x1x2x2xf64>, %dx: memref<4x1x1x4x4xf64>, %do: memref<1x1x2x2xf64>) {
  moon.vjp @pools(%x, %o, %dx, %do) : (memref<4x1x1x4x4xf64>, memref<1x1x2x2xf64>, memref<4x1x1x4x4xf64>, memref<1x1x2x2xf64>) -> ()
  return
}

// -----

// Forward mode at width > 1 of a max reduction: the running primal value
// would be updated once per direction.
#ij = affine_map<(d0, d1) -> (d0, d1)>
#i = affine_map<(d0, d1) -> (d0)>
func.func @rowmax(%x: memref<3x4xf64>, %m: memref<3xf64>) {
  // expected-error @+1 {{at width > 1, a linalg.generic that reduces into an output it reads (a max or min reduction) is not supported yet}}
  linalg.generic {indexing_maps = [#ij, #i], iterator_types = ["parallel", "reduction"]} ins(%x : memref<3x4xf64>) outs(%m : memref<3xf64>) {
  ^bb0(%v: f64, %acc: f64):
    %s = arith.maximumf %acc, %v : f64
    linalg.yield %s : f64
  }
  return
}
func.func @caller(%x: memref<3x4xf64>, %m: memref<3xf64>, %dx: memref<2x3x4xf64>, %dm: memref<2x3xf64>) {
  moon.jvp @rowmax(%x, %m, %dx, %dm) width 2 : (memref<3x4xf64>, memref<3xf64>, memref<2x3x4xf64>, memref<2x3xf64>) -> ()
  return
}
