// Operations written in MLIR's generic form parse, verify and print in the
// custom form; `none` axes are stored as -1.
// RUN: moonc-opt %s | FileCheck %s

func.func private @loss2(f64, f64) -> f64
func.func private @row(tensor<4xf32>, f32) -> f32

// CHECK-LABEL: func.func @generic(
func.func @generic(%x: f64, %y: f64, %xs: tensor<8x4xf32>, %w: f32) {
  // CHECK: moon.grad @loss2(%{{.*}}, %{{.*}}) args [active, const] : (f64, f64) -> f64
  %0 = "moon.grad"(%x, %y) <{callee = @loss2, arg_activity = [#moon.activity<active>, #moon.activity<const>]}> : (f64, f64) -> f64
  // CHECK: moon.vjp @loss2(%{{.*}}, %{{.*}}, %{{.*}}) results [active_noneed] width 1 : (f64, f64, f64) -> (f64, f64)
  %1:2 = "moon.vjp"(%x, %y, %x) <{callee = @loss2, res_activity = [#moon.activity<active_noneed>], width = 1 : i64}> : (f64, f64, f64) -> (f64, f64)
  // CHECK: moon.vmap @row(%{{.*}}, %{{.*}}) in_axes [0, none] : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  %2 = "moon.vmap"(%xs, %w) <{callee = @row, in_axes = array<i64: 0, -1>}> : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  return
}

// CHECK: moon.custom_rule @loss2 vjp @loss2_vjp
"moon.custom_rule"() <{callee = @loss2, vjp = @loss2_vjp}> : () -> ()
func.func private @loss2_vjp(f64, f64, f64) -> (f64, f64, f64)
