//===- MoonDialect.td - the moon dialect -------------------*- tablegen -*-===//
//
// The `moon` dialect: operations that request derivatives and batched
// versions of functions. moonc's passes replace them with generated code.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_DIALECT_TD
#define MOON_DIALECT_TD

include "mlir/IR/OpBase.td"

def Moon_Dialect : Dialect {
  let name = "moon";
  let cppNamespace = "::mlir::moon";
  let useDefaultAttributePrinterParser = 1;
  let description = [{
    The `moon` dialect is how a program asks moonc for derivatives. Each
    operation names a function (a `func.func` symbol) and requests a
    transformed version of it: a forward-mode derivative (`moon.jvp`), a
    reverse-mode derivative (`moon.vjp`, `moon.grad`, `moon.value_and_grad`),
    a Hessian-vector product (`moon.hvp`) or a batched version
    (`moon.vmap`). moonc's passes replace these operations with calls to
    functions they generate. `moon.custom_rule` attaches a hand-written
    derivative to a function so that the passes call it instead of
    differentiating through the function.

    ### Activities

    Every argument and result of the differentiated function has an
    *activity*, written `args [...]` and `results [...]` in the custom syntax
    and stored in the `arg_activity` and `res_activity` attributes:

    | activity        | on arguments                                  | on results                              |
    |-----------------|-----------------------------------------------|-----------------------------------------|
    | `const`         | not differentiated: only the primal is passed | not differentiated: only the primal     |
    | `active`        | a value (float, vector or ranked tensor of floats) with a derivative | the primal and its derivative |
    | `active_noneed` | (not allowed)                                 | the derivative only; the primal is dropped |
    | `dup`           | a memref of floats with a *shadow* memref that holds its derivative | a memref and its shadow (`moon.jvp` only) |
    | `dup_noneed`    | like `dup`, but the caller does not need the primal memref's final contents | the shadow only (`moon.jvp` only) |

    When the activities are omitted they are derived from the types: float
    values are `active`, memrefs of floats are `dup` (arguments only) and
    everything else is `const`.

    ### Tangent types

    The derivative of a value of type `T` has the *tangent type* of `T`. With
    `width = 1` the tangent type is `T` itself. With `width = N` (N
    directions at once, vector mode) a leading dimension of size N is added:
    `f64` becomes `vector<Nxf64>`, `vector<4xf32>` becomes `vector<Nx4xf32>`,
    `tensor<?x3xf64>` becomes `tensor<Nx?x3xf64>` (without an encoding) and
    `memref<8xf64>` becomes `memref<Nx8xf64>` (with the identity layout).
  }];
}

class Moon_Op<string mnemonic, list<Trait> traits = []>
    : Op<Moon_Dialect, mnemonic, traits>;

#endif // MOON_DIALECT_TD
