// moon-gpu-pipeline rejects, at the op, what it cannot put on the GPU: f64
// transcendental math without libdevice (it would be an unresolved __nv_exp
// in the PTX) and reductions other than sums.
// RUN: moonc-opt --moon-gpu-pipeline %s --split-input-file --verify-diagnostics

#map = affine_map<(d0) -> (d0)>
func.func @exp_f64(%x: memref<?xf64>, %y: memref<?xf64>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    // expected-error @+1 {{math.exp on f64 in a GPU kernel needs libdevice: pass libdevice=PATH}}
    %e = math.exp %a : f64
    linalg.yield %e : f64
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
#scalar = affine_map<(d0) -> ()>
func.func @max(%x: memref<?xf32>, %s: memref<f32>) {
  // expected-error @+1 {{unsupported reduction on the GPU: expected sums}}
  linalg.generic {indexing_maps = [#id, #scalar], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @row_products(%x: memref<?x?xf32>, %s: memref<?xf32>) {
  // expected-error @+1 {{unsupported reduction on the GPU: expected sums}}
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.mulf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}
