// moon-math-approx: f32 transcendental math becomes polynomials, floor,
// ceil, fabs and sqrt NVVM intrinsics, fma, copysign, round and roundeven
// LLVM intrinsics and absi arith (MLIR 22's convert-gpu-to-nvvm would call
// libdevice for all of these); f64 exp is left for libdevice, an error.
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

// CHECK-LABEL: func.func @native(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f32, %[[I:[^:]*]]: i32
// CHECK: llvm.call_intrinsic "llvm.fma.f64"(%[[X]], %[[X]], %[[X]])
// CHECK: llvm.call_intrinsic "llvm.copysign.f32"(%[[Y]], %[[Y]])
// CHECK: llvm.call_intrinsic "llvm.round.f32"(%[[Y]])
// CHECK: llvm.call_intrinsic "llvm.roundeven.f64"(%[[X]])
// CHECK: llvm.call_intrinsic "llvm.nvvm.fabs.f64"(%[[X]])
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[NEG:.*]] = arith.subi %[[ZERO]], %[[I]] : i32
// CHECK: arith.maxsi %[[I]], %[[NEG]] : i32
// CHECK: math.trunc %[[Y]] : f32
// CHECK: math.ctpop %[[I]] : i32
func.func @native(%x: f64, %y: f32, %i: i32) -> (f64, f32, f32, f64, f64, i32, f32, i32) {
  %a = math.fma %x, %x, %x : f64
  %b = math.copysign %y, %y : f32
  %c = math.round %y : f32
  %d = math.roundeven %x : f64
  %e = math.absf %x : f64
  %f = math.absi %i : i32
  %g = math.trunc %y : f32
  %h = math.ctpop %i : i32
  return %a, %b, %c, %d, %e, %f, %g, %h : f64, f32, f32, f64, f64, i32, f32, i32
}

// -----

func.func @exp_f64(%x: f64) -> f64 {
  // expected-error @+1 {{math.exp on f64 in a GPU kernel needs libdevice: pass libdevice=PATH (moonc: --libdevice PATH)}}
  %e = math.exp %x : f64
  return %e : f64
}
