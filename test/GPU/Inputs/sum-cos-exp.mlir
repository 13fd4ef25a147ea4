// sum_i cos(exp(x_i)) on f32: a 1-D sum (one kernel with a block reduction).
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
func.func @f(%x: memref<?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    %c = math.cos %e : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}
