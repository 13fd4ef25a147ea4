//===- MoonOps.td - moon dialect operations ----------------*- tablegen -*-===//
//
// Operations that request derivatives (jvp, vjp, grad, value_and_grad, hvp),
// batched functions (vmap) and attach hand-written derivatives (custom_rule).
//
//===----------------------------------------------------------------------===//

#ifndef MOON_OPS_TD
#define MOON_OPS_TD

include "Moon/MoonDialect.td"
include "Moon/MoonAttrs.td"
include "mlir/IR/SymbolInterfaces.td"

// Operations that name a function and request a transformed call of it.
// They share a custom syntax:
//   moon.<op> @callee(%operands...) [args [...]] [results [...]] [width N]
//       [in_axes [...]] [out_axes [...]] attr-dict
//       : (operand types) -> (result types)
// where an operation accepts the clauses of the attributes it declares.
class Moon_TransformOp<string mnemonic, list<Trait> traits = []>
    : Moon_Op<mnemonic,
              !listconcat(traits,
                          [DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
  let results = (outs Variadic<AnyType>:$outputs);
  let hasCustomAssemblyFormat = 1;
}

def Moon_JvpOp : Moon_TransformOp<"jvp"> {
  let summary = "forward-mode derivative (Jacobian-vector product)";
  let description = [{
    Calls `@callee` and propagates tangents forward through it.

    Operands: every argument of `@callee`, then one tangent for each `active`
    argument and one shadow memref for each `dup`/`dup_noneed` argument, in
    argument order. Shadows hold the tangent of the memref's contents on
    entry and are updated in place to the tangent of its contents on exit.

    Results: every result of `@callee` that is not `*_noneed`, then one
    tangent for each `active`/`active_noneed`/`dup`/`dup_noneed` result, in
    result order.

    With `width N` every tangent carries N directions at once (the tangent
    type gets a leading dimension N).

    Example:

    ```mlir
    func.func @f(%x: f64, %n: i32) -> f64 { ... }

    // y = f(x, n), dy = df/dx(x, n) * dx
    %y, %dy = moon.jvp @f(%x, %n, %dx) : (f64, i32, f64) -> (f64, f64)

    // four directions at once, primal result dropped
    %dys = moon.jvp @f(%x, %n, %dxs) results [active_noneed] width 4
        : (f64, i32, vector<4xf64>) -> vector<4xf64>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<Moon_ActivityArrayAttr>:$arg_activity,
                   OptionalAttr<Moon_ActivityArrayAttr>:$res_activity,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$width);
}

def Moon_VjpOp : Moon_TransformOp<"vjp"> {
  let summary = "reverse-mode derivative (vector-Jacobian product)";
  let description = [{
    Calls `@callee` and propagates cotangents backward through it.

    Operands: every argument of `@callee`, then one shadow memref for each
    `dup`/`dup_noneed` argument (in argument order), then one cotangent for
    each `active`/`active_noneed` result (in result order). Derivatives are
    *added* to the shadows: a shadow that is not zero on entry is
    accumulated into, never overwritten. With the unit attribute
    `moon.overwrite_shadows` the shadows are set instead: they end up
    holding the derivatives, whatever they held on entry. The memref
    arguments hold what a plain call leaves in them.

    Results: every result of `@callee` that is not `active_noneed`, then one
    cotangent for each `active` argument, in argument order.

    `dup` results are not supported in reverse mode. With `width N` N
    cotangents are propagated at once.

    Example:

    ```mlir
    func.func @loss(%w: f64, %data: memref<?xf64>) -> f64 { ... }

    // l = loss(w, data); dw = dl/dw * seed; ddata += dl/ddata * seed
    %l, %dw = moon.vjp @loss(%w, %data, %ddata, %seed)
        : (f64, memref<?xf64>, memref<?xf64>, f64) -> (f64, f64)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<Moon_ActivityArrayAttr>:$arg_activity,
                   OptionalAttr<Moon_ActivityArrayAttr>:$res_activity,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$width);
}

def Moon_GradOp : Moon_TransformOp<"grad"> {
  let summary = "gradient of a function with one scalar float result";
  let description = [{
    The gradient of `@callee`, which must return exactly one floating-point
    scalar. Equivalent to `moon.vjp` with the cotangent `1.0` and the result
    dropped.

    Operands: every argument of `@callee`, then one shadow memref for each
    `dup`/`dup_noneed` argument, into which the gradient for that memref is
    added.

    Results: one gradient for each `active` argument, in argument order.

    Example:

    ```mlir
    func.func @f(%x: f64, %y: f64) -> f64 { ... }
    %dx, %dy = moon.grad @f(%x, %y) : (f64, f64) -> (f64, f64)
    %dx2 = moon.grad @f(%x, %y) args [active, const] : (f64, f64) -> f64
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<Moon_ActivityArrayAttr>:$arg_activity);
}

def Moon_ValueAndGradOp : Moon_TransformOp<"value_and_grad"> {
  let summary = "value and gradient of a function with one scalar float result";
  let description = [{
    Like `moon.grad`, but the first result is the value of `@callee`.

    Example:

    ```mlir
    %v, %dx, %dy = moon.value_and_grad @f(%x, %y)
        : (f64, f64) -> (f64, f64, f64)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<Moon_ActivityArrayAttr>:$arg_activity);
}

def Moon_HvpOp : Moon_TransformOp<"hvp"> {
  let summary = "Hessian-vector product of a function with one scalar float result";
  let description = [{
    The product of the Hessian of `@callee` (which must return exactly one
    floating-point scalar) with a direction.

    Operands: every argument of `@callee`, then one direction for each
    `active`, `dup` or `dup_noneed` argument (in argument order), then one
    output memref for each `dup`/`dup_noneed` argument, into which that
    argument's part of the product is added.

    Results: the product for each `active` argument, in argument order.

    With `width N` the product is taken with N directions at once.

    Example:

    ```mlir
    %hx, %hy = moon.hvp @f(%x, %y, %vx, %vy)
        : (f64, f64, f64, f64) -> (f64, f64)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<Moon_ActivityArrayAttr>:$arg_activity,
                   OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$width);
}

def Moon_VmapOp : Moon_TransformOp<"vmap"> {
  let summary = "batched call of a function";
  let description = [{
    Calls `@callee` once for every index along a batch dimension.

    `in_axes` gives, for every argument, the position of the batch dimension
    in the operand, or `none` for an argument that is shared by the whole
    batch. `out_axes` does the same for the results. Both default to `0` for
    every argument and result.

    A batched operand has the type of the argument with a batch dimension
    inserted at its axis: a `tensor<3xf32>` argument mapped over axis 1 takes
    a `tensor<3xBxf32>` operand. A scalar argument takes a rank-1 vector,
    tensor or memref of B elements. Shaped arguments keep their kind (a
    memref stays a memref, in the same memory space, with any layout; a
    vector keeps its scalable dimensions, and the batch dimension is fixed).
    Tensors with an encoding cannot be batched. All batched operands and
    results have the same batch size B. In the generic form `none` is stored
    as `-1`.

    Example:

    ```mlir
    func.func @f(%x: tensor<4xf32>, %w: f32) -> f32 { ... }
    %ys = moon.vmap @f(%xs, %w) in_axes [0, none] out_axes [0]
        : (tensor<8x4xf32>, f32) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   Variadic<AnyType>:$inputs,
                   OptionalAttr<DenseI64ArrayAttr>:$in_axes,
                   OptionalAttr<DenseI64ArrayAttr>:$out_axes);
  let hasVerifier = 1;
}

def Moon_CustomRuleOp
    : Moon_Op<"custom_rule",
              [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "attaches hand-written derivatives to a function";
  let description = [{
    Tells the differentiation passes not to differentiate through `@callee`
    but to call the given functions instead, in the spirit of Mooncake's
    `frule!!`/`rrule!!`.

    The `jvp` function must have exactly the type of a `moon.jvp` of
    `@callee` with the default activities and width 1, and the `vjp`
    function exactly the type of a `moon.vjp` of `@callee` with the default
    activities. At least one of them must be given, and a function may have
    at most one custom rule. Custom rules sit directly in the module (or
    other symbol table) that holds the functions they name.

    Example:

    ```mlir
    func.func @softplus(%x: f64) -> f64 { ... }
    func.func @softplus_jvp(%x: f64, %dx: f64) -> (f64, f64) { ... }
    func.func @softplus_vjp(%x: f64, %dy: f64) -> (f64, f64) { ... }
    moon.custom_rule @softplus jvp @softplus_jvp vjp @softplus_vjp
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                   OptionalAttr<FlatSymbolRefAttr>:$jvp,
                   OptionalAttr<FlatSymbolRefAttr>:$vjp);
  let assemblyFormat = "$callee (`jvp` $jvp^)? (`vjp` $vjp^)? attr-dict";
  let hasVerifier = 1;
}

#endif // MOON_OPS_TD
