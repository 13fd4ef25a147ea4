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
    ir::{Builder, Ctx, Op, Type, Value, error_at, run_passes},
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

/// Rewrites the uses of index counters carried by `scf.for` loops
/// (`%c' = %c + k`, k a constant, yielded) inside the loop's body as
/// `init + (iv - lb) / step * k`, so that the reverse sweep recomputes them
/// from the induction variable instead of taping each value (and the loads
/// they index): `Lparamsidx++` in GradBench's gmm. The counter itself stays
/// carried for the loop's result.
pub(crate) fn counters_as_inductions(function: Op) {
    for op in function.walk() {
        if op.name() != "scf.for" {
            continue;
        }
        let body = op.regions()[0].entry().expect("a body");
        let yield_ = body.terminator().expect("a yield");
        let iv = body.args()[0];
        for (k, &carried) in body.args()[1..].iter().enumerate() {
            let Some(add) = yield_.operand(k).defining_op() else {
                continue;
            };
            let increment = match add.operands().as_slice() {
                [a, b] if add.name() == "arith.addi" && *a == carried => index_constant(*b),
                [a, b] if add.name() == "arith.addi" && *b == carried => index_constant(*a),
                _ => None,
            };
            let (Some(increment), true) = (increment, carried.ty().is_index()) else {
                continue;
            };
            let uses: Vec<Op> = carried.users().into_iter().filter(|&u| u != add).collect();
            if uses.is_empty() {
                continue;
            }
            let first = body.ops()[0];
            let mut b = Builder::before(first);
            let index = b.ctx.index();
            let (lb, step) = (op.operand(0), op.operand(2));
            let mut n = b.value("arith.subi", &[iv, lb], index, &[]);
            if index_constant(step) != Some(1) {
                n = b.value("arith.divsi", &[n, step], index, &[]);
            }
            if increment != 1 {
                let k = b.index(increment);
                n = b.value("arith.muli", &[n, k], index, &[]);
            }
            let value = b.value("arith.addi", &[op.operand(3 + k), n], index, &[]);
            for u in uses {
                for (i, v) in u.operands().into_iter().enumerate() {
                    if v == carried {
                        u.set_operand(i, value);
                    }
                }
            }
        }
    }
}

/// Moves the float loads of `scf.for` bodies whose memref and indices are
/// defined outside the loop, from buffers no operation in the loop may
/// write (`writes`; an argument when the loop writes no argument, as they
/// may alias), before the loop, under `scf.if lb < ub` (a load is
/// never run where the loop would not have run it): the reverse sweep then
/// tapes one value per loop instead of one per iteration (`x[i]` in the
/// triangular inner loop of GradBench's gmm).
pub(crate) fn hoist_invariant_loads(function: Op, writes: &dyn Fn(Op) -> Vec<Value>) {
    let function_body = function.regions()[0].entry().expect("a body");
    // Innermost loops first: a load hoisted out of one is not hoisted again.
    // Nests that were `scf.parallel` keep their flat bodies (parallel.rs).
    for op in function.walk().into_iter().rev() {
        if op.name() != "scf.for" || op.attr(super::parallel::PARALLEL_NEST).is_some() {
            continue;
        }
        let body = op.regions()[0].entry().expect("a body");
        let written: HashSet<Value> = op.walk().into_iter().flat_map(writes).map(root).collect();
        // Arguments may alias one another.
        let argument = |r: &Value| r.defining_op().is_none() && r.block() == function_body;
        let writes_argument = written.iter().any(argument);
        for load in body.ops() {
            if load.name() != "memref.load" {
                continue;
            }
            let operands = load.operands();
            let r = root(operands[0]);
            if !load.result(0).ty().is_float()
                || written.contains(&r)
                || writes_argument && argument(&r)
                || operands.iter().any(|v| v.block().is_within(body))
            {
                continue;
            }
            let mut b = Builder::before(op);
            let i1 = b.ctx.ty("i1");
            let slt = b.ctx.attr("2 : i64");
            let runs = b.value(
                "arith.cmpi",
                &[op.operand(0), op.operand(1)],
                i1,
                &[("predicate", slt)],
            );
            let ty = load.result(0).ty();
            let (choice, then_block, else_block) = b.if_else(runs, &[ty]);
            let then_yield =
                Builder::at_end(then_block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
            load.move_before(then_yield);
            then_yield.set_operands(&[load.result(0)]);
            let mut eb = Builder::at_end(else_block, op.loc());
            let zero = eb.float(ty, 0.0);
            eb.create("scf.yield", &[zero], &[], &[], &[], &[]);
            for u in load.result(0).users() {
                if u != then_yield {
                    for (i, v) in u.operands().into_iter().enumerate() {
                        if v == load.result(0) {
                            u.set_operand(i, choice.result(0));
                        }
                    }
                }
            }
        }
    }
}

/// The value of an `arith.constant` of type index.
fn index_constant(v: Value) -> Option<i64> {
    let c = v.defining_op().filter(|d| d.name() == "arith.constant")?;
    c.attr("value")?
        .to_string()
        .strip_suffix(" : index")?
        .parse()
        .ok()
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
