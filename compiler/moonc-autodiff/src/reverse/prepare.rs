//! Preparing a function for reverse mode: lifting `cf` to `scf`,
//! generalizing named linalg operations, the buffers it writes, and the
//! callee of each active call.

use super::parallel::sequential_parallel_loops;
use crate::{
    activity::root,
    adjoint::{CallRule, ReverseState},
    request::Key,
};
use mlir_sys as sys;
use moonc_ir::{
    Error,
    ir::{Ctx, Op, Type, Value, error_at, run_passes},
    moon::Activity as Act,
};
use std::collections::HashSet;

/// Runs `passes` on `function`, reporting a failure at the function.
pub(crate) fn run_on_function(function: Op, passes: &[sys::MlirPass]) -> Result<(), Error> {
    run_passes(function, "func.func", passes).map_err(|_| {
        error_at(
            function,
            "cannot bring this function into the structured form reverse mode needs",
        )
    })
}

/// Lifts unstructured control flow to `scf` and generalizes named linalg
/// operations, when `function` has any; `parallel`: see
/// [`sequential_parallel_loops`].
pub(crate) fn prepare(ctx: Ctx, function: Op, parallel: bool) -> Result<(), Error> {
    let body = function.regions()[0];
    let ops = function.walk();
    let mut passes = vec![];
    if body.blocks().len() > 1 || ops.iter().any(|o| o.name().starts_with("cf.")) {
        // SAFETY: creating a pass has no preconditions.
        passes.push(unsafe { sys::mlirCreateConversionLiftControlFlowToSCFPass() });
    }
    if ops.iter().any(|o| {
        let name = o.name();
        name.starts_with("linalg.")
            && name != "linalg.generic"
            && name != "linalg.yield"
            && name != "linalg.index"
    }) {
        // SAFETY: as above.
        passes.push(unsafe { sys::mlirCreateLinalgLinalgGeneralizeNamedOpsPass() });
    }
    sequential_parallel_loops(ctx, function, parallel);
    if passes.is_empty() {
        return Ok(());
    }
    run_on_function(function, &passes)
}

/// The roots of the buffers `function` may write.
pub(crate) fn written_roots(function: Op, writes: &dyn Fn(Op) -> Vec<Value>) -> HashSet<Value> {
    let mut written = HashSet::new();
    for op in function.walk() {
        for t in writes(op) {
            written.insert(root(t));
        }
    }
    written
}

impl ReverseState<'_> {
    /// Points every active call at the forward function of its callee's
    /// split pair (or leaves it for a custom rule) and records how the
    /// reverse sweep differentiates it.
    pub(crate) fn prepare_calls(&mut self, function: Op) -> Result<(), Error> {
        for op in function.walk() {
            if op.name() != "func.call" {
                continue;
            }
            let operands = op.operands();
            let results = op.results();
            let active = |v: &Value| self.activity.is_active(*v);
            if !operands.iter().any(active) && !results.iter().any(active) {
                continue;
            }
            let callee = op
                .attr("callee")
                .and_then(|a| a.string())
                .expect("a callee");
            if let Some(rule) = crate::rules::blas::lookup(&callee) {
                self.calls.insert(op, CallRule::Foreign(rule.reverse));
                continue;
            }
            let Some(ty) = self.diff.function_type(&callee) else {
                return Err(error_at(
                    op,
                    &format!("no function @{callee} to differentiate"),
                ));
            };
            if let Some(custom) = self.diff.custom_vjp(&callee) {
                let key = Key::default_for(&callee, ty, 1);
                self.calls
                    .insert(op, CallRule::Custom(key, custom.to_string()));
                continue;
            }
            if let Some(jvp) = self.diff.custom_rule(&callee) {
                let scalar =
                    |t: &Type| t.is_float() || !t.is_differentiable() && !t.is_float_memref();
                if !ty.0.iter().chain(&ty.1).all(scalar) {
                    return Err(error_at(
                        op,
                        &format!(
                            "@{callee} has a custom jvp but no vjp; reverse mode can use a jvp \
                             only for functions of float scalars: add a vjp to its \
                             moon.custom_rule"
                        ),
                    ));
                }
                let key = Key::default_for(&callee, ty, 1);
                self.calls
                    .insert(op, CallRule::CustomJvp(key, jvp.to_string()));
                continue;
            }
            let activity = |v: &Value, arg: bool| match (self.activity.is_active(*v), v.ty()) {
                (true, t) if t.is_float_memref() && arg => Act::Dup,
                (true, t) if t.is_differentiable() => Act::Active,
                _ => Act::Const,
            };
            let key = Key {
                function: callee.clone(),
                args: operands.iter().map(|v| activity(v, true)).collect(),
                results: results.iter().map(|v| activity(v, false)).collect(),
                width: 1,
            };
            if op.attr(crate::adjoint::CHECKPOINT).is_some() {
                let (_, joint) = self.diff.request_vjp(key.clone(), false, op)?;
                self.calls.insert(op, CallRule::Joint(key, joint));
                continue;
            }
            let (forward, reverse) = self.diff.request_vjp(key.clone(), true, op)?;
            op.set_attr("callee", self.ctx().attr(&format!("@{forward}")));
            self.calls.insert(op, CallRule::Split(key, reverse));
        }
        Ok(())
    }
}
