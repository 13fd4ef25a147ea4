//! `--moon-grad-to-vjp`: rewrites `moon.grad` and `moon.value_and_grad` as
//! `moon.vjp` seeded with the cotangent 1.0, so that reverse mode has one
//! operation to implement.

use melior::{
    Context,
    dialect::{DialectHandle, arith},
    ir::{
        BlockLike, OperationRef, Type, Value, ValueLike,
        attribute::{ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute},
        operation::OperationLike,
    },
};
use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    ir::error_at,
    moon::{self, Activity},
    moon_dialect_handle,
    pass::PassInfo,
    rewrite::{
        callee_type, collect_named, copy_discardable_attributes, is_float, replace_op,
        single_result,
    },
};

/// The registration of `--moon-grad-to-vjp`.
pub static GRAD_TO_VJP: PassInfo = PassInfo {
    argument: "moon-grad-to-vjp",
    summary: "Rewrite moon.grad and moon.value_and_grad as moon.vjp with a unit cotangent",
    description: r#"
The gradient of a function `f` with one floating-point result is its
vector-Jacobian product with the cotangent 1.0. This pass rewrites every
`moon.grad` and `moon.value_and_grad` into that `moon.vjp`, keeping the
argument activities and the attributes the user attached (but for those
named like `moon.vjp`'s own: `callee`, `arg_activity`, `res_activity`,
`width`); `moon.grad` drops the primal result (`active_noneed`).

Before:

```mlir
%dx, %dy = moon.grad @f(%x, %y) : (f64, f64) -> (f64, f64)
%v, %dz = moon.value_and_grad @g(%z, %buf, %dbuf)
    : (f32, memref<4xf32>, memref<4xf32>) -> (f32, f32)
```

After:

```mlir
%one = arith.constant 1.000000e+00 : f64
%dx, %dy = moon.vjp @f(%x, %y, %one) results [active_noneed]
    : (f64, f64, f64) -> (f64, f64)
%one_0 = arith.constant 1.000000e+00 : f32
%v, %dz = moon.vjp @g(%z, %buf, %dbuf, %one_0) results [active]
    : (f32, memref<4xf32>, memref<4xf32>, f32) -> (f32, f32)
```
"#,
    op_name: "builtin.module",
    dependent_dialects: || vec![DialectHandle::arith(), moon_dialect_handle()],
    options: &[],
    run: |module, _| run(module),
};

/// The attributes of `moon.vjp` itself, which no user attribute may shadow.
const VJP_ATTRIBUTES: &[&str] = &["callee", "arg_activity", "res_activity", "width"];

pub(crate) fn run(module: Op) -> Result<(), Error> {
    // SAFETY: the pass runs on a live operation; `context` borrows
    // `context_ref`, which lives until the end of the function.
    let module = unsafe { OperationRef::from_raw(module.0) };
    let context_ref = module.context();
    let context = unsafe { context_ref.to_ref() };
    for (name, keep_value) in [("moon.grad", false), ("moon.value_and_grad", true)] {
        for op in collect_named(module, name) {
            rewrite(context, op, keep_value)?;
        }
    }
    Ok(())
}

/// Replaces one `moon.grad` (or `moon.value_and_grad` when `keep_value`).
fn rewrite<'c>(
    context: &'c Context,
    op: OperationRef<'c, '_>,
    keep_value: bool,
) -> Result<(), Error> {
    let location = op.location();
    // The verifier has checked the callee; these guard unverified input.
    let Some(seed_type) = callee_type(op)
        .and_then(single_result)
        .filter(|t| is_float(*t))
    else {
        return Err(error_at(
            location,
            "callee is not a function with one floating-point result",
        ));
    };
    let callee = FlatSymbolRefAttribute::try_from(op.attribute("callee")?)?;
    let Some(block) = op.block() else {
        return Err(error_at(
            location,
            "a gradient request outside a block cannot be rewritten",
        ));
    };

    let one = block.insert_operation_before(
        op,
        arith::constant(
            context,
            FloatAttribute::new(context, seed_type, 1.0).into(),
            location,
        ),
    );
    let inputs: Vec<Value> = op.operands().chain([one.result(0)?.into()]).collect();
    let outputs: Vec<Type> = op.results().map(|result| result.r#type()).collect();
    let result_activity = if keep_value {
        Activity::Active
    } else {
        Activity::ActiveNoNeed
    };
    let mut builder = moon::VjpOperation::builder(context, location)
        .outputs(&outputs)
        .inputs(&inputs)
        .callee(callee)
        .res_activity(Activity::array(context, &[result_activity]));
    if let Some(activities) = op
        .attribute("arg_activity")
        .ok()
        .and_then(|a| ArrayAttribute::try_from(a).ok())
    {
        builder = builder.arg_activity(activities);
    }
    let vjp = block.insert_operation_before(op, builder.build().into());
    copy_discardable_attributes(op, vjp, VJP_ATTRIBUTES);
    tracing::debug!(%callee, keep_value, "rewrote a gradient request as moon.vjp");
    let results: Vec<Value> = vjp.results().map(Into::into).collect();
    // SAFETY: `run` does not use `op` again, and `results` belong to `vjp`.
    unsafe { replace_op(op, &results) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::{ir::Module, pass::PassManager};

    /// Runs the pass on `source` and returns the printed module.
    fn run_pass(source: &str) -> String {
        let context = moonc_ir::create_context();
        let mut module = Module::parse(&context, source).expect("test input parses");
        let manager = PassManager::new(&context);
        manager.add_pass(GRAD_TO_VJP.create());
        manager.run(&mut module).expect("the pass succeeds");
        assert!(module.as_operation().verify());
        module.as_operation().to_string()
    }

    #[test]
    fn grad_and_value_and_grad_become_vjp() {
        insta::assert_snapshot!(run_pass(
            r#"
            func.func private @f(f64, f64) -> f64
            func.func private @g(f32, memref<4xf32>) -> f32
            func.func @caller(%x: f64, %y: f64, %z: f32, %b: memref<4xf32>, %db: memref<4xf32>)
                -> (f64, f64, f32, f32) {
              %dx, %dy = moon.grad @f(%x, %y) : (f64, f64) -> (f64, f64)
              %v, %dz = moon.value_and_grad @g(%z, %b, %db) args [active, dup]
                  : (f32, memref<4xf32>, memref<4xf32>) -> (f32, f32)
              return %dx, %dy, %v, %dz : f64, f64, f32, f32
            }
            "#
        ));
    }
}
