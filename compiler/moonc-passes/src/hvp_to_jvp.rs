//! `--moon-hvp-to-jvp`: rewrites every `moon.hvp` as forward over reverse:
//! a `moon.jvp` of a generated function that returns the gradient through
//! `moon.vjp`, so that differentiation has only `moon.jvp` and `moon.vjp`
//! to implement, nested.

use moonc_autodiff::request::{Key, requested_key};
use moonc_ir::ir::{Builder, Op, Region, Type, Value};
use moonc_ir::{
    Error,
    moon::{Activity as Act, Request},
    pass::PassInfo,
};

/// The registration of `--moon-hvp-to-jvp`.
pub static HVP_TO_JVP: PassInfo = PassInfo {
    argument: "moon-hvp-to-jvp",
    summary: "Rewrite moon.hvp as moon.jvp of a function that returns the gradient (forward over reverse)",
    description: r#"
The Hessian-vector product of `f` is the directional derivative of its
gradient. For each `moon.hvp @f` this pass generates (once per callee and
argument activities) a private function `@f_hvp_grad_<activities>` that
takes `f`'s arguments and, for each `dup` argument, a buffer to add the
gradient into, and returns the gradient of each `active` argument through
`moon.vjp` (cotangent 1.0). The `moon.hvp` becomes a `moon.jvp` of that
function, with the same width: its directions are the tangents of `f`'s
arguments; the gradient buffers are zeroed scratch buffers whose tangents
are the `moon.hvp` output memrefs, so the product for a `dup` argument is
added into its output. Both derivatives keep the `moon.hvp`'s argument
activities.

Before:

```mlir
%hx, %hy = moon.hvp @f(%x, %y, %vx, %vy) : (f64, f64, f64, f64) -> (f64, f64)
```

After:

```mlir
func.func private @f_hvp_grad_aa(%x: f64, %y: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %gx, %gy = moon.vjp @f(%x, %y, %one) results [active_noneed]
      : (f64, f64, f64) -> (f64, f64)
  return %gx, %gy : f64, f64
}
...
%hx, %hy = moon.jvp @f_hvp_grad_aa(%x, %y, %vx, %vy)
    results [active_noneed, active_noneed] : (f64, f64, f64, f64) -> (f64, f64)
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run: |module, _| run(module),
};

/// Rewrites every `moon.hvp` in `module`.
pub(crate) fn run(module: Op) -> Result<(), Error> {
    for op in module.walk() {
        if op.name() == "moon.hvp" {
            rewrite(module, op)?;
        }
    }
    Ok(())
}

fn rewrite(module: Op, hvp: Op) -> Result<(), Error> {
    let (callee, function, (inputs, results)) = crate::requested_function(module, hvp)?;
    let key = requested_key(hvp, &callee, (inputs.clone(), results.clone()));
    let loss = results[0];
    let helper = gradient_function(module, function, &key, &inputs, loss);

    // The operands: f's arguments, one direction per non-const argument,
    // one output per dup argument.
    let operands = hvp.operands();
    let n = inputs.len();
    let args = &operands[..n];
    let varying: Vec<usize> = (0..n).filter(|&i| key.args[i] != Act::Const).collect();
    let dups: Vec<usize> = (0..n).filter(|&i| is_dup(key.args[i])).collect();
    let directions = &operands[n..n + varying.len()];
    let outputs = &operands[n + varying.len()..];

    let mut b = Builder::before(hvp);
    let scratch: Vec<Value> = dups
        .iter()
        .map(|&i| zeroed_like(&mut b, args[i], inputs[i]))
        .collect();
    let mut jvp_operands: Vec<Value> = args.to_vec();
    jvp_operands.extend(&scratch);
    jvp_operands.extend(directions);
    jvp_operands.extend(outputs);
    let mut arg_acts = key.args.clone();
    arg_acts.extend(dups.iter().map(|_| Act::Dup));
    let products = key.args.iter().filter(|a| **a == Act::Active).count();
    let result_acts = vec![Act::ActiveNoNeed; products];
    let types: Vec<Type> = hvp.results().iter().map(|v| v.ty()).collect();
    let jvp = Request {
        callee: &helper,
        operands: &jvp_operands,
        results: &types,
        args: &arg_acts,
        res: &result_acts,
        width: key.width,
    }
    .jvp(&mut b);
    for (old, new) in hvp.results().iter().zip(jvp.results()) {
        old.replace_uses(new);
    }
    let mut after = Builder::after(jvp);
    for buffer in scratch {
        after.create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
    }
    hvp.erase();
    Ok(())
}

fn is_dup(a: Act) -> bool {
    matches!(a, Act::Dup | Act::DupNoNeed)
}

/// `@f_hvp_grad_<letters>`: f's arguments and one gradient buffer per dup
/// argument in, the gradient of each active argument out (generated once).
fn gradient_function(module: Op, f: Op, key: &Key, inputs: &[Type], loss: Type) -> String {
    let letters: String = key
        .args
        .iter()
        .map(|a| match a {
            Act::Active | Act::ActiveNoNeed => 'a',
            Act::Dup => 'd',
            Act::DupNoNeed => 'u',
            Act::Const => 'c',
        })
        .collect();
    let name = format!("{}_hvp_grad_{letters}", key.function);
    if module.find_function(&name).is_some() {
        return name;
    }
    let ctx = Builder::before(f).ctx;
    let dups: Vec<usize> = (0..inputs.len()).filter(|&i| is_dup(key.args[i])).collect();
    let mut params: Vec<Type> = inputs.to_vec();
    params.extend(dups.iter().map(|&i| inputs[i]));
    let gradients: Vec<Type> = (0..inputs.len())
        .filter(|&i| key.args[i] == Act::Active)
        .map(|i| inputs[i])
        .collect();
    let (region, body) = Region::with_block(&params, f.loc());
    let list = |ts: &[Type]| {
        ts.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let function_type = ctx.attr(&format!("({}) -> ({})", list(&params), list(&gradients)));
    Builder::before(f).private_function(&name, function_type, region, &[]);
    let mut at = Builder::at_end(body, f.loc());
    let one = at.float(loss, 1.0);
    let mut operands = body.args();
    operands.push(one);
    let vjp = Request {
        callee: &key.function,
        operands: &operands,
        results: &gradients,
        args: &key.args,
        res: &[Act::ActiveNoNeed],
        width: 1,
    }
    .vjp(&mut at);
    at.create("func.return", &vjp.results(), &[], &[], &[], &[]);
    name
}

/// A new buffer of `value`'s shape (type `ty`), filled with zeros.
fn zeroed_like(b: &mut Builder, value: Value, ty: Type) -> Value {
    let ctx = b.ctx;
    let plain = ctx.ty(&format!("memref<{}{}>", ty.shape_prefix(), ty.element()));
    let buffer = b.alloc_like("memref.alloc", value, plain);
    let zero = b.float(ty.element(), 0.0);
    let (region, body) = Region::with_block(&[ty.element(), ty.element()], b.loc);
    let segments = ctx.attr("array<i32: 1, 1>");
    b.create(
        "linalg.fill",
        &[zero, buffer],
        &[],
        &[("operandSegmentSizes", segments)],
        &[region],
        &[],
    );
    region.destroy();
    Builder::at_end(body, b.loc).create("linalg.yield", &[body.args()[0]], &[], &[], &[], &[]);
    if plain == ty {
        buffer
    } else {
        b.value("memref.cast", &[buffer], ty, &[])
    }
}
