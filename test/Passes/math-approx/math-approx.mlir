// moon-math-approx: f32 transcendental math becomes polynomials, and floor,
// ceil, fabs and sqrt NVVM intrinsics; f64 exp is left for libdevice, an
// error.
// RUN: moonc-opt --moon-math-approx %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @exp_sqrt(
// CHECK-NOT: math.exp
// CHECK-NOT: math.floor
// CHECK: llvm.call_intrinsic "llvm.nvvm.floor.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// CHECK-NOT: math.
// CHECK: return
func.func @exp_sqrt(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %s = math.sqrt %e : f32
  return %s : f32
}

// -----

func.func @exp_f64(%x: f64) -> f64 {
  // expected-error @+1 {{math.exp on f64 in a GPU kernel needs libdevice: pass libdevice=PATH (moonc: --libdevice PATH)}}
  %e = math.exp %x : f64
  return %e : f64
}
