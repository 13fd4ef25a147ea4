// moonc compile --emit ptx reports what moon-gpu-pipeline rejects at the
// op in the user's file, with exit status 1 and no output file.
// RUN: not moonc compile %s --emit ptx -o %t.ptx 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx

// CHECK: invalid-moonc.mlir:[[@LINE+6]]:10: error: math.exp on f64 in a GPU kernel needs libdevice: pass libdevice=PATH (moonc: --libdevice PATH)
#map = affine_map<(d0) -> (d0)>
func.func @exp_f64(%x: memref<?xf64>, %y: memref<?xf64>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%x : memref<?xf64>) outs(%y : memref<?xf64>) {
  ^bb0(%a: f64, %b: f64):
    %e = math.exp %a : f64
    linalg.yield %e : f64
  }
  return
}
