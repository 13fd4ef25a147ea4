// Found by the fuzzer (tools/fuzz): the sum of squares of a buffer that is
// only filled. A pass of moon-cpu-pipeline leaves the sum's generic without
// an input to size its loops, which the verifier rejects; with the
// verifier off between passes, the next pass crashed instead.
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#all4 = affine_map<(d0, d1, d2, d3) -> ()>
func.func @f(%x: memref<1x2x4x4xf64>) -> f64 {
  %zero = arith.constant 0.0 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %o = memref.alloc() : memref<1x2x2x2xf64>
  linalg.fill ins(%ninf : f64) outs(%o : memref<1x2x2x2xf64>)
  %acc = memref.alloca() : memref<f64>
  memref.store %zero, %acc[] : memref<f64>
  linalg.generic {indexing_maps = [#id4, #all4], iterator_types = ["reduction", "reduction", "reduction", "reduction"]} ins(%o : memref<1x2x2x2xf64>) outs(%acc : memref<f64>) {
  ^bb0(%a: f64, %s: f64):
    %sq = arith.mulf %a, %a : f64
    %t = arith.addf %s, %sq : f64
    linalg.yield %t : f64
  }
  %r = memref.load %acc[] : memref<f64>
  memref.dealloc %o : memref<1x2x2x2xf64>
  return %r : f64
}
