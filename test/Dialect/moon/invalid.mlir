// Every verifier and parser failure of the moon operations is a located
// error.
// RUN: moonc-opt %s --split-input-file --verify-diagnostics

func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op no function named @missing}}
  %0 = moon.grad @missing(%x) : (f64) -> f64
  return
}

// -----

memref.global "private" @table : memref<2xf64>
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op @table is a 'memref.global', not a function with a builtin function type}}
  %0 = moon.grad @table(%x) : (f64) -> f64
  return
}

// -----

func.func private @f(f64, f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op expects 2 operands for @f : '(f64, f64) -> f64', but has 1 (expected: argument #0, argument #1)}}
  %0 = moon.grad @f(%x) : (f64) -> f64
  return
}

// -----

func.func private @f(f64, f64) -> f64
func.func @caller(%x: f64, %y: f32) {
  // expected-error @+1 {{'moon.grad' op operand #1 (argument #1 of @f) has type 'f32', but 'f64' is expected}}
  %0:2 = moon.grad @f(%x, %y) : (f64, f32) -> (f64, f64)
  return
}

// -----

func.func private @f(f64, f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op expects 2 results for @f : '(f64, f64) -> f64', but has 1 (expected: gradient of argument #0, gradient of argument #1)}}
  %0 = moon.grad @f(%x, %x) : (f64, f64) -> f64
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.jvp' op result #1 (tangent of result #0 of @f) has type 'f32', but 'f64' is expected}}
  %0:2 = moon.jvp @f(%x, %x) : (f64, f64) -> (f64, f32)
  return
}

// -----

func.func private @f(f64, i32) -> f64
func.func @caller(%x: f64, %n: i32) {
  // expected-error @+1 {{'moon.jvp' op has 1 argument activity, but @f has 2 arguments}}
  %0:2 = moon.jvp @f(%x, %n, %x) args [active] : (f64, i32, f64) -> (f64, f64)
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.vjp' op has 2 result activities, but @f has 1 result}}
  %0:2 = moon.vjp @f(%x, %x) results [active, active] : (f64, f64) -> (f64, f64)
  return
}

// -----

func.func private @f(f64, i32) -> f64
func.func @caller(%x: f64, %n: i32) {
  // expected-error @+1 {{'moon.jvp' op argument #1 of type 'i32' cannot be 'active': only floats and vectors or ranked tensors of floats can (use 'dup' for memrefs of floats, 'const' otherwise)}}
  %0:2 = moon.jvp @f(%x, %n, %x, %n) args [active, active] : (f64, i32, f64, i32) -> (f64, f64)
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.jvp' op argument #0 is 'active_noneed', which applies to results only}}
  %0:2 = moon.jvp @f(%x, %x) args [active_noneed] : (f64, f64) -> (f64, f64)
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.vjp' op argument #0 of type 'f64' cannot be 'dup': only memrefs of floats can}}
  %0 = moon.vjp @f(%x, %x, %x) args [dup] : (f64, f64, f64) -> f64
  return
}

// -----

func.func private @f(memref<4xi32>) -> f64
func.func @caller(%m: memref<4xi32>) {
  // expected-error @+1 {{'moon.grad' op argument #0 of type 'memref<4xi32>' cannot be 'dup_noneed': only memrefs of floats can}}
  moon.grad @f(%m, %m) args [dup_noneed] : (memref<4xi32>, memref<4xi32>) -> ()
  return
}

// -----

func.func private @f(memref<8xf64>) -> memref<8xf64>
func.func @caller(%m: memref<8xf64>) {
  // expected-error @+1 {{'moon.vjp' op result #0 is 'dup', which only moon.jvp supports}}
  %0 = moon.vjp @f(%m, %m) results [dup] : (memref<8xf64>, memref<8xf64>) -> memref<8xf64>
  return
}

// -----

func.func private @f(memref<8xf64>) -> memref<8xf64>
func.func @caller(%m: memref<8xf64>) {
  // expected-error @+1 {{'moon.jvp' op result #0 of type 'memref<8xf64>' cannot be 'active': only floats and vectors or ranked tensors of floats can}}
  %0:2 = moon.jvp @f(%m, %m) results [active] : (memref<8xf64>, memref<8xf64>) -> (memref<8xf64>, memref<8xf64>)
  return
}

// -----

func.func private @f(f64) -> (i32)
func.func @caller(%m: f64) {
  // expected-error @+1 {{'moon.jvp' op result #0 of type 'i32' cannot be 'dup': only memrefs of floats can}}
  %0:2 = moon.jvp @f(%m, %m) results [dup] : (f64, f64) -> (i32, i32)
  return
}

// -----

func.func private @f(f64) -> (f64, f64)
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op needs a function that returns exactly one floating-point scalar (or rank-0 tensor of floats), but the function returns (f64, f64)}}
  %0 = moon.grad @f(%x) : (f64) -> f64
  return
}

// -----

func.func private @f(f64) -> vector<2xf64>
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.hvp' op needs a function that returns exactly one floating-point scalar (or rank-0 tensor of floats), but the function returns (vector<2xf64>)}}
  %0 = moon.hvp @f(%x, %x) : (f64, f64) -> f64
  return
}

// -----

func.func private @f(f64, i32) -> f64
func.func @caller(%x: f64, %n: i32) {
  // expected-error @+1 {{'moon.value_and_grad' op has nothing to differentiate: every argument of @f is 'const'}}
  %0 = moon.value_and_grad @f(%x, %n) args [const, const] : (f64, i32) -> f64
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.jvp' op attribute 'width' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %0:2 = moon.jvp @f(%x, %x) width 0 : (f64, f64) -> (f64, f64)
  return
}

// -----

func.func private @f(f64, f64) -> f64
func.func @caller(%x: f64, %v: vector<2xf64>) {
  // expected-error @+1 {{'moon.hvp' op operand #3 (direction for argument #1 of @f) has type 'f64', but 'vector<2xf64>' is expected}}
  %0:2 = moon.hvp @f(%x, %x, %v, %x) width 2 : (f64, f64, vector<2xf64>, f64) -> (vector<2xf64>, vector<2xf64>)
  return
}

// -----

func.func private @f(memref<4xf32>) -> f32
func.func @caller(%m: memref<4xf32>, %w: memref<2x4xf32>) {
  // expected-error @+1 {{'moon.jvp' op operand #1 (shadow of argument #0 of @f) has type 'memref<4xf32>', but 'memref<2x4xf32>' is expected}}
  %0:2 = moon.jvp @f(%m, %m) width 2 : (memref<4xf32>, memref<4xf32>) -> (f32, vector<2xf32>)
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{unknown activity 'actve'; expected const, active, active_noneed, dup or dup_noneed}}
  %0 = moon.grad @f(%x) args [actve] : (f64) -> f64
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // moon.grad takes no result activities: `results` is not part of its syntax.
  // expected-error @+1 {{expected ':'}}
  %0 = moon.grad @f(%x) results [active] : (f64) -> f64
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{number of operands and types do not match: got 2 operands and 1 types}}
  %0 = moon.grad @f(%x, %x) : (f64) -> f64
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op has 1 in_axes, but @row has 2 arguments}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0] : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op has 2 out_axes, but @row has 1 result}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] out_axes [0, 0] : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%x: tensor<4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op batches no argument: at least one in_axes entry must be an axis}}
  %0 = moon.vmap @row(%x, %w) in_axes [none, none] out_axes [none] : (tensor<4xf32>, f32) -> f32
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op in_axes entry #1 is -2; expected an axis (0 or more) or none}}
  %0 = "moon.vmap"(%xs, %w) <{callee = @row, in_axes = array<i64: 0, -2>}> : (tensor<8x4xf32>, f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x5xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'tensor<8x5xf32>', which is not 'tensor<4xf32>' with a batch dimension at axis 0}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] : (tensor<8x5xf32>, f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: memref<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'memref<8x4xf32>', which is not 'tensor<4xf32>' with a batch dimension at axis 0}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] : (memref<8x4xf32>, f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %ws: tensor<6xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #1 has batch size 6, but operand #0 has batch size 8}}
  %0 = moon.vmap @row(%xs, %ws) : (tensor<8x4xf32>, tensor<6xf32>) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f64) {
  // expected-error @+1 {{'moon.vmap' op operand #1 has type 'f64', but 'f32' is expected (it is not batched)}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] : (tensor<8x4xf32>, f64) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op result #0 has batch size 9, but operand #0 has batch size 8}}
  %0 = moon.vmap @row(%xs, %w) in_axes [0, none] : (tensor<8x4xf32>, f32) -> tensor<9xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op expects 2 operands for @row : '(tensor<4xf32>, f32) -> f32', but has 1}}
  %0 = moon.vmap @row(%xs) in_axes [0, none] : (tensor<8x4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func private @apply(tuple<f32, f32>) -> f32
func.func @caller(%t: tensor<8xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 batches a value of type 'tuple<f32, f32>', which moon.vmap cannot batch}}
  %0 = moon.vmap @apply(%t) : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%xs: tensor<8xf64>) {
  // expected-error @+1 {{expected integer value}}
  %0 = moon.vmap @f(%xs) in_axes [all] : (tensor<8xf64>) -> tensor<8xf64>
  return
}

// -----

func.func private @f(f64) -> f64
// expected-error @+1 {{'moon.custom_rule' op gives neither a jvp nor a vjp function}}
moon.custom_rule @f

// -----

func.func private @f(f64) -> f64
func.func private @f_jvp(f64, f64) -> f64
// expected-error @+1 {{'moon.custom_rule' op the jvp rule @f_jvp has type '(f64, f64) -> f64', but the jvp of @f has type '(f64, f64) -> (f64, f64)'}}
moon.custom_rule @f jvp @f_jvp

// -----

func.func private @f(f64, memref<3xf64>) -> f64
func.func private @f_vjp(f64, memref<3xf64>, f64) -> (f64, f64)
// expected-error @+1 {{'moon.custom_rule' op the vjp rule @f_vjp has type '(f64, memref<3xf64>, f64) -> (f64, f64)', but the vjp of @f has type '(f64, memref<3xf64>, memref<3xf64>, f64) -> (f64, f64)'}}
moon.custom_rule @f vjp @f_vjp

// -----

func.func private @f(f64) -> f64
// expected-error @+1 {{'moon.custom_rule' op vjp rule: no function named @f_vjp}}
moon.custom_rule @f vjp @f_vjp

// -----

func.func private @f(f64) -> f64
func.func private @f_vjp(f64, f64) -> (f64, f64)
moon.custom_rule @f vjp @f_vjp
// expected-error @+1 {{'moon.custom_rule' op is a second custom rule for @f; a function has at most one}}
moon.custom_rule @f vjp @f_vjp

// -----

// expected-error @+1 {{'moon.custom_rule' op no function named @nothing}}
moon.custom_rule @nothing vjp @nothing_vjp

// -----

func.func private @row(tensor<4xf32>, f32) -> f32
func.func @caller(%xs: tensor<8x4xf32>, %w: f32) {
  // expected-error @+1 {{'moon.vmap' op expects 1 result for @row : '(tensor<4xf32>, f32) -> f32', but has 2}}
  %0:2 = moon.vmap @row(%xs, %w) in_axes [0, none] out_axes [0] : (tensor<8x4xf32>, f32) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

func.func private @scalar(f32) -> f32
func.func @caller(%xs: tensor<8x2xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'tensor<8x2xf32>', which is not 'f32' with a batch dimension at axis 0}}
  %0 = moon.vmap @scalar(%xs) : (tensor<8x2xf32>) -> tensor<8xf32>
  return
}

// -----

llvm.func @native(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op @native is a 'llvm.func', not a function with a builtin function type}}
  %0 = moon.grad @native(%x) : (f64) -> f64
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.grad' op has nothing to differentiate: every argument of @f is 'const'}}
  moon.grad @f(%x) args [const] : (f64) -> ()
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.hvp' op has nothing to differentiate: every argument of @f is 'const'}}
  moon.hvp @f(%x) args [const] : (f64) -> ()
  return
}

// -----

func.func private @f(f64) -> f64
func.func @caller(%x: f64) {
  // expected-error @+1 {{'moon.vjp' op expects 0 results for @f : '(f64) -> f64', but has 1}}
  %0 = moon.vjp @f(%x, %x) args [const] results [active_noneed] : (f64, f64) -> f64
  return
}

// -----

func.func private @row(tensor<4xf32>) -> f32
func.func @caller(%xs: tensor<8x4xf32>) {
  // expected-error @+1 {{'moon.vmap' op out_axes entry #0 is -3; expected an axis (0 or more) or none}}
  %0 = "moon.vmap"(%xs) <{callee = @row, out_axes = array<i64: -3>}> : (tensor<8x4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func private @row(memref<4xf32, 1>) -> ()
func.func @caller(%xs: memref<8x4xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'memref<8x4xf32>', which is not 'memref<4xf32, 1>' with a batch dimension at axis 0}}
  moon.vmap @row(%xs) out_axes [] : (memref<8x4xf32>) -> ()
  return
}

// -----

func.func private @row(tensor<4xf32>) -> f32
func.func @caller(%xs: tensor<4x8xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'tensor<4x8xf32>', which is not 'tensor<4xf32>' with a batch dimension at axis 2}}
  %0 = moon.vmap @row(%xs) in_axes [2] : (tensor<4x8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>) -> f32
func.func @caller(%xs: tensor<8x4xf64>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'tensor<8x4xf64>', which is not 'tensor<4xf32>' with a batch dimension at axis 0}}
  %0 = moon.vmap @row(%xs) : (tensor<8x4xf64>) -> tensor<8xf32>
  return
}

// -----

func.func private @row(tensor<4xf32>) -> f32
func.func @caller(%x: f32) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'f32', which is not 'tensor<4xf32>' with a batch dimension at axis 0}}
  %0 = moon.vmap @row(%x) : (f32) -> tensor<8xf32>
  return
}

// -----

func.func private @row(vector<[4]xf32>) -> f32
func.func @caller(%xs: vector<8x4xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'vector<8x4xf32>', which is not 'vector<[4]xf32>' with a batch dimension at axis 0}}
  %0 = moon.vmap @row(%xs) : (vector<8x4xf32>) -> vector<8xf32>
  return
}

// -----

func.func private @scalar(f32) -> f32
func.func @caller(%xs: vector<[8]xf32>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 has type 'vector<[8]xf32>', which is not 'f32' with a batch dimension at axis 0}}
  %0 = moon.vmap @scalar(%xs) : (vector<[8]xf32>) -> vector<8xf32>
  return
}

// -----

#sparse = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>
func.func private @sparse(tensor<4xf64, #sparse>) -> f64
func.func @caller(%xs: tensor<8x4xf64>) {
  // expected-error @+1 {{'moon.vmap' op operand #0 batches a value of type 'tensor<4xf64, #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>>', which moon.vmap cannot batch}}
  %0 = moon.vmap @sparse(%xs) : (tensor<8x4xf64>) -> tensor<8xf64>
  return
}

// -----

func.func private @f(f64) -> f64
func.func @f_jvp(%x: f64, %dx: f64) -> (f64, f64) {
  // expected-error @+1 {{'moon.custom_rule' op must be placed directly in a module (or another symbol table), beside the functions it names}}
  moon.custom_rule @f jvp @f_jvp
  return %x, %dx : f64, f64
}

// -----

func.func private @f(f64) -> f64
memref.global "private" @f_vjp : memref<2xf64>
// expected-error @+1 {{'moon.custom_rule' op vjp rule: @f_vjp is a 'memref.global', not a function with a builtin function type}}
moon.custom_rule @f vjp @f_vjp
