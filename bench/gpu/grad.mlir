// The GPU benchmark's programs (bench/gpu/README.md), written plainly:
// - @sce: sum_i cos(exp(x_i)), and @sce_vg its value and gradient;
// - @bcast: sum_ij cos(exp(x_j) w_ij), x broadcast over the rows of w (a
//   fused broadcast reduction), and @bcast_vg its value and gradients.
// The gradients are asked for as new values (moon.overwrite_shadows), as
// JAX's value_and_grad returns them: the shadows' old contents are ignored.
#id = affine_map<(i) -> (i)>
#all = affine_map<(i) -> ()>
#id2 = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#all2 = affine_map<(i, j) -> ()>

func.func @sce(%x: memref<?xf32>) -> f32 {
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

func.func @sce_vg(%x: memref<?xf32>, %dx: memref<?xf32>) -> f32 {
  %one = arith.constant 1.0 : f32
  %r = moon.vjp @sce(%x, %dx, %one) {moon.overwrite_shadows}
      : (memref<?xf32>, memref<?xf32>, f32) -> f32
  return %r : f32
}

func.func @bcast(%x: memref<?xf32>, %w: memref<?x?xf32>) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %acc[] : memref<f32>
  linalg.generic {indexing_maps = [#col, #id2, #all2], iterator_types = ["reduction", "reduction"]}
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

func.func @bcast_vg(%x: memref<?xf32>, %w: memref<?x?xf32>, %dx: memref<?xf32>, %dw: memref<?x?xf32>) -> f32 {
  %one = arith.constant 1.0 : f32
  %r = moon.vjp @bcast(%x, %w, %dx, %dw, %one) {moon.overwrite_shadows}
      : (memref<?xf32>, memref<?x?xf32>, memref<?xf32>, memref<?x?xf32>, f32) -> f32
  return %r : f32
}
