// sum_ij cos(exp(x_j) w_ij): a reduction with the input x broadcast over
// the rows (test/Pipelines/gpu-pipeline/gradient.mlir).
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all = affine_map<(i, j) -> ()>
func.func @f(%x: memref<?xf32>, %w: memref<?x?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#col, #id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x, %w : memref<?xf32>, memref<?x?xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %e = math.exp %a : f32
    %p = arith.mulf %e, %b : f32
    %c = math.cos %p : f32
    %s = arith.addf %o, %c : f32
    linalg.yield %s : f32
  }
  %r = memref.load %acc[] : memref<f32>
  return %r : f32
}
