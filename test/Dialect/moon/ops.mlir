// Every moon operation and syntax variant round-trips: custom form, custom
// form printed and parsed again, and the generic form parsed back.
// RUN: moonc-opt %s | FileCheck %s
// RUN: moonc-opt %s | moonc-opt | FileCheck %s
// RUN: moonc-opt %s --mlir-print-op-generic | moonc-opt | FileCheck %s

func.func private @f(f64, i32) -> f64
func.func private @two(f64, f64) -> (f64, f64)
func.func private @loss2(f64, f64) -> f64
func.func private @buf(f32, memref<4xf32>) -> f32
func.func private @shaped(vector<4xf32>, tensor<?x3xf64>) -> tensor<?x3xf64>
func.func private @mem(memref<8xf64>) -> memref<8xf64>
func.func private @loss(f64, memref<?xf64>) -> f64

// CHECK-LABEL: func.func @jvp(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[N:[^:]*]]: i32, %[[DX:[^:]*]]: f64, %[[DXS:[^:]*]]: vector<4xf64>
func.func @jvp(%x: f64, %n: i32, %dx: f64, %dxs: vector<4xf64>) -> (f64, f64, vector<4xf64>, f64) {
  // CHECK: moon.jvp @f(%[[X]], %[[N]], %[[DX]]) : (f64, i32, f64) -> (f64, f64)
  %y, %dy = moon.jvp @f(%x, %n, %dx) : (f64, i32, f64) -> (f64, f64)
  // CHECK: moon.jvp @f(%[[X]], %[[N]], %[[DXS]]) results [active_noneed] width 4 : (f64, i32, vector<4xf64>) -> vector<4xf64>
  %dys = moon.jvp @f(%x, %n, %dxs) results [active_noneed] width 4 : (f64, i32, vector<4xf64>) -> vector<4xf64>
  // CHECK: moon.jvp @f(%[[X]], %[[N]]) args [const, const] results [const] : (f64, i32) -> f64
  %z = moon.jvp @f(%x, %n) args [const, const] results [const] : (f64, i32) -> f64
  return %y, %dy, %dys, %z : f64, f64, vector<4xf64>, f64
}

// CHECK-LABEL: func.func @jvp_memory(
// CHECK-SAME: %[[A:[^:]*]]: f32, %[[M:[^:]*]]: memref<4xf32>, %[[DA:[^:]*]]: f32, %[[DM:[^:]*]]: memref<4xf32>, %[[DAS:[^:]*]]: vector<2xf32>, %[[DMS:[^:]*]]: memref<2x4xf32>, %[[M8:[^:]*]]: memref<8xf64>, %[[DM8:[^:]*]]: memref<8xf64>
func.func @jvp_memory(%a: f32, %m: memref<4xf32>, %da: f32, %dm: memref<4xf32>,
                      %das: vector<2xf32>, %dms: memref<2x4xf32>,
                      %m8: memref<8xf64>, %dm8: memref<8xf64>) {
  // CHECK: moon.jvp @buf(%[[A]], %[[M]], %[[DA]], %[[DM]]) : (f32, memref<4xf32>, f32, memref<4xf32>) -> (f32, f32)
  %0:2 = moon.jvp @buf(%a, %m, %da, %dm) : (f32, memref<4xf32>, f32, memref<4xf32>) -> (f32, f32)
  // CHECK: moon.jvp @buf(%[[A]], %[[M]], %[[DAS]], %[[DMS]]) args [active, dup_noneed] width 2 : (f32, memref<4xf32>, vector<2xf32>, memref<2x4xf32>) -> (f32, vector<2xf32>)
  %1:2 = moon.jvp @buf(%a, %m, %das, %dms) args [active, dup_noneed] width 2 : (f32, memref<4xf32>, vector<2xf32>, memref<2x4xf32>) -> (f32, vector<2xf32>)
  // CHECK: moon.jvp @mem(%[[M8]], %[[DM8]]) results [dup] : (memref<8xf64>, memref<8xf64>) -> (memref<8xf64>, memref<8xf64>)
  %2:2 = moon.jvp @mem(%m8, %dm8) results [dup] : (memref<8xf64>, memref<8xf64>) -> (memref<8xf64>, memref<8xf64>)
  // CHECK: moon.jvp @mem(%[[M8]], %[[DM8]]) results [dup_noneed] : (memref<8xf64>, memref<8xf64>) -> memref<8xf64>
  %3 = moon.jvp @mem(%m8, %dm8) results [dup_noneed] : (memref<8xf64>, memref<8xf64>) -> memref<8xf64>
  return
}

// CHECK-LABEL: func.func @jvp_shaped(
func.func @jvp_shaped(%v: vector<4xf32>, %t: tensor<?x3xf64>, %dv: vector<3x4xf32>, %dt: tensor<3x?x3xf64>) -> tensor<3x?x3xf64> {
  // CHECK: moon.jvp @shaped(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) width 3 : (vector<4xf32>, tensor<?x3xf64>, vector<3x4xf32>, tensor<3x?x3xf64>) -> (tensor<?x3xf64>, tensor<3x?x3xf64>)
  %y, %dy = moon.jvp @shaped(%v, %t, %dv, %dt) width 3 : (vector<4xf32>, tensor<?x3xf64>, vector<3x4xf32>, tensor<3x?x3xf64>) -> (tensor<?x3xf64>, tensor<3x?x3xf64>)
  return %dy : tensor<3x?x3xf64>
}

// CHECK-LABEL: func.func @vjp(
// CHECK-SAME: %[[W:[^:]*]]: f64, %[[DATA:[^:]*]]: memref<?xf64>, %[[DDATA:[^:]*]]: memref<?xf64>, %[[SEED:[^:]*]]: f64
func.func @vjp(%w: f64, %data: memref<?xf64>, %ddata: memref<?xf64>, %seed: f64, %seeds: vector<2xf64>, %n: i32) {
  // CHECK: moon.vjp @loss(%[[W]], %[[DATA]], %[[DDATA]], %[[SEED]]) : (f64, memref<?xf64>, memref<?xf64>, f64) -> (f64, f64)
  %l, %dw = moon.vjp @loss(%w, %data, %ddata, %seed) : (f64, memref<?xf64>, memref<?xf64>, f64) -> (f64, f64)
  // CHECK: moon.vjp @two(%[[W]], %[[W]], %[[SEED]], %[[SEED]]) : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  %0:4 = moon.vjp @two(%w, %w, %seed, %seed) : (f64, f64, f64, f64) -> (f64, f64, f64, f64)
  // CHECK: moon.vjp @two(%[[W]], %[[W]], %[[SEED]]) args [active, const] results [active_noneed, const] : (f64, f64, f64) -> (f64, f64)
  %1:2 = moon.vjp @two(%w, %w, %seed) args [active, const] results [active_noneed, const] : (f64, f64, f64) -> (f64, f64)
  // CHECK: moon.vjp @f(%[[W]], %{{.*}}, %{{.*}}) results [active_noneed] width 2 : (f64, i32, vector<2xf64>) -> vector<2xf64>
  %2 = moon.vjp @f(%w, %n, %seeds) results [active_noneed] width 2 : (f64, i32, vector<2xf64>) -> vector<2xf64>
  return
}

// CHECK-LABEL: func.func @grad(
// CHECK-SAME: %[[X:[^:]*]]: f64, %[[Y:[^:]*]]: f64, %[[DATA:[^:]*]]: memref<?xf64>, %[[DDATA:[^:]*]]: memref<?xf64>
func.func @grad(%x: f64, %y: f64, %data: memref<?xf64>, %ddata: memref<?xf64>) {
  // CHECK: moon.grad @loss2(%[[X]], %[[Y]]) : (f64, f64) -> (f64, f64)
  %0:2 = moon.grad @loss2(%x, %y) : (f64, f64) -> (f64, f64)
  // CHECK: moon.grad @loss(%[[X]], %[[DATA]], %[[DDATA]]) : (f64, memref<?xf64>, memref<?xf64>) -> f64
  %1 = moon.grad @loss(%x, %data, %ddata) : (f64, memref<?xf64>, memref<?xf64>) -> f64
  // CHECK: moon.grad @loss(%[[X]], %[[DATA]]) args [active, const] : (f64, memref<?xf64>) -> f64
  %2 = moon.grad @loss(%x, %data) args [active, const] : (f64, memref<?xf64>) -> f64
  // CHECK: moon.grad @loss2(%[[X]], %[[Y]]) {note = "kept"} : (f64, f64) -> (f64, f64)
  %3:2 = moon.grad @loss2(%x, %y) {note = "kept"} : (f64, f64) -> (f64, f64)
  // Attributes that moon.grad does not have are the user's, whatever their
  // names: they stay in the attribute dictionary and change nothing.
  // CHECK: moon.grad @loss2(%[[X]], %[[Y]]) {res_activity = [1], width = "x"} : (f64, f64) -> (f64, f64)
  %6:2 = moon.grad @loss2(%x, %y) {width = "x", res_activity = [1]} : (f64, f64) -> (f64, f64)
  // CHECK: moon.value_and_grad @loss(%[[X]], %[[DATA]], %[[DDATA]]) : (f64, memref<?xf64>, memref<?xf64>) -> (f64, f64)
  %4:2 = moon.value_and_grad @loss(%x, %data, %ddata) : (f64, memref<?xf64>, memref<?xf64>) -> (f64, f64)
  // CHECK: moon.value_and_grad @loss2(%[[X]], %[[Y]]) args [const, active] : (f64, f64) -> (f64, f64)
  %5:2 = moon.value_and_grad @loss2(%x, %y) args [const, active] : (f64, f64) -> (f64, f64)
  return
}

// CHECK-LABEL: func.func @hvp(
func.func @hvp(%x: f64, %y: f64, %vs: vector<2xf64>, %data: memref<?xf64>, %v: memref<?xf64>, %h: memref<?xf64>) {
  // CHECK: moon.hvp @loss2(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f64, f64, f64, f64) -> (f64, f64)
  %0:2 = moon.hvp @loss2(%x, %y, %x, %y) : (f64, f64, f64, f64) -> (f64, f64)
  // CHECK: moon.hvp @loss2(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) width 2 : (f64, f64, vector<2xf64>, vector<2xf64>) -> (vector<2xf64>, vector<2xf64>)
  %1:2 = moon.hvp @loss2(%x, %y, %vs, %vs) width 2 : (f64, f64, vector<2xf64>, vector<2xf64>) -> (vector<2xf64>, vector<2xf64>)
  // CHECK: moon.hvp @loss(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (f64, memref<?xf64>, f64, memref<?xf64>, memref<?xf64>) -> f64
  %2 = moon.hvp @loss(%x, %data, %y, %v, %h) : (f64, memref<?xf64>, f64, memref<?xf64>, memref<?xf64>) -> f64
  // CHECK: moon.hvp @loss(%{{.*}}, %{{.*}}, %{{.*}}) args [active, const] : (f64, memref<?xf64>, f64) -> f64
  %3 = moon.hvp @loss(%x, %data, %y) args [active, const] : (f64, memref<?xf64>, f64) -> f64
  return
}

func.func private @row(tensor<4xf32>, f32) -> f32
func.func private @scale(memref<4xf64>, f64)

// CHECK-LABEL: func.func @vmap(
func.func @vmap(%xs: tensor<8x4xf32>, %w: f32, %ws: tensor<8xf32>, %xt: tensor<4x?xf32>,
                %ms: memref<16x4xf64>, %s: f64, %xv: vector<8xf64>,
                %mt: memref<4x16xf64, strided<[1, 4]>>) {
  // CHECK: moon.vmap @row(%{{.*}}, %{{.*}}) in_axes [0, none] out_axes [0] : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] out_axes [0] : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  // CHECK: moon.vmap @row(%{{.*}}, %{{.*}}) : (tensor<8x4xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = moon.vmap @row(%xs, %ws) : (tensor<8x4xf32>, tensor<8xf32>) -> tensor<8xf32>
  // CHECK: moon.vmap @row(%{{.*}}, %{{.*}}) in_axes [1, none] : (tensor<4x?xf32>, f32) -> tensor<?xf32>
  %2 = moon.vmap @row(%xt, %w) in_axes [1, none] : (tensor<4x?xf32>, f32) -> tensor<?xf32>
  // CHECK: moon.vmap @scale(%{{.*}}, %{{.*}}) in_axes [0, none] out_axes [] : (memref<16x4xf64>, f64) -> ()
  moon.vmap @scale(%ms, %s) in_axes [0, none] out_axes [] : (memref<16x4xf64>, f64) -> ()
  // CHECK: moon.vmap @loss2(%{{.*}}, %{{.*}}) : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
  %3 = moon.vmap @loss2(%xv, %xv) : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
  // CHECK: moon.vmap @loss2(%{{.*}}, %{{.*}}) {arg_activity = [1, 2], width = 2 : i64} : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
  %4 = moon.vmap @loss2(%xv, %xv) {width = 2, arg_activity = [1, 2]} : (vector<8xf64>, vector<8xf64>) -> vector<8xf64>
  // A batched memref may have any layout.
  // CHECK: moon.vmap @scale(%{{.*}}, %{{.*}}) in_axes [1, none] out_axes [] : (memref<4x16xf64, strided<[1, 4]>>, f64) -> ()
  moon.vmap @scale(%mt, %s) in_axes [1, none] out_axes [] : (memref<4x16xf64, strided<[1, 4]>>, f64) -> ()
  return
}

func.func private @softplus(f64) -> f64
func.func private @softplus_jvp(f64, f64) -> (f64, f64)
func.func private @softplus_vjp(f64, f64) -> (f64, f64)
func.func private @sq(f64, memref<2xf32>) -> f64
func.func private @sq_vjp(f64, memref<2xf32>, memref<2xf32>, f64) -> (f64, f64)

// CHECK: moon.custom_rule @softplus jvp @softplus_jvp vjp @softplus_vjp
moon.custom_rule @softplus jvp @softplus_jvp vjp @softplus_vjp
// CHECK: moon.custom_rule @sq vjp @sq_vjp
moon.custom_rule @sq vjp @sq_vjp
