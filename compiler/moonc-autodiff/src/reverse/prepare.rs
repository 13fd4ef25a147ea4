//! Preparing a function for reverse mode: lifting `cf` to `scf`,
//! generalizing named linalg operations, the buffers it writes, and the
//! callee of each active call.

use super::parallel::sequential_parallel_loops;
use crate::{
    activity::{VIEW_OPS, root},
    adjoint::{CallRule, ReverseState},
    request::Key,
};
use mlir_sys as sys;
use moonc_ir::{
    Error,
    ir::{Builder, Ctx, Op, Type, Value, error_at, run_passes},
    moon::Activity as Act,
};
use std::collections::{HashMap, HashSet};

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

/// Rewrites the uses of index counters carried by `scf.for` loops inside
/// the loop's body as their entry value plus a closed form of the
/// iteration, so that the reverse sweep recomputes them from the induction
/// variable instead of taping each value (and the loads they index); the
/// counter itself stays carried for the loop's result. A counter grows by
/// a constant k per iteration (`%c' = %c + k`, yielded: `init + (iv - lb)
/// / step * k`), or by an inner loop's run over such a counter
/// ([`inner_counter_offset`]: `Lparamsidx++` in the triangular loop nest
/// of GradBench's gmm). An i1 flag that alternates (`%b' = %b xor true`)
/// is rewritten likewise, as `init xor` the iteration number's low bit.
pub(crate) fn counters_as_inductions(function: Op) {
    for op in function.walk() {
        if op.name() != "scf.for" {
            continue;
        }
        let body = op.regions()[0].entry().expect("a body");
        let yield_ = body.terminator().expect("a yield");
        for (k, &carried) in body.args()[1..].iter().enumerate() {
            let Some(update) = yield_.operand(k).defining_op() else {
                continue;
            };
            if toggles(update, carried) {
                toggle_as_induction(op, k, update);
                continue;
            }
            // The increment keeps the counter carried; an inner loop can
            // start from the closed form instead.
            let increment = constant_increment(update, carried);
            let uses: Vec<Op> = carried
                .users()
                .into_iter()
                .filter(|&u| u != update || increment.is_none())
                .collect();
            if uses.is_empty() || !carried.ty().is_index() {
                continue;
            }
            let mut b = Builder::before(body.ops()[0]);
            let offset = match increment {
                Some(increment) => {
                    let n = iteration_number(&mut b, op);
                    scaled(&mut b, n, increment)
                }
                None => match inner_counter_offset(&mut b, op, yield_.operand(k), carried) {
                    Some(offset) => offset,
                    None => continue,
                },
            };
            let index = b.ctx.index();
            let value = b.value("arith.addi", &[op.operand(3 + k), offset], index, &[]);
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

/// Whether `update` is `flag xor true` (an i1 that alternates, as the sign
/// of a term in det's expansion by minors).
fn toggles(update: Op, flag: Value) -> bool {
    let is_true = |v: &Value| {
        v.defining_op().is_some_and(|c| {
            c.name() == "arith.constant" && c.attr("value").is_some_and(|a| a.to_string() == "true")
        })
    };
    update.name() == "arith.xori"
        && matches!(update.operands().as_slice(), [a, b] if *a == flag && is_true(b) || *b == flag && is_true(a))
}

/// Rewrites the uses of the alternating flag carried at position `k` of the
/// loop `op` (other than its `update`) as `init xor (iteration number is
/// odd)`, so that the reverse sweep recomputes it instead of taping it.
fn toggle_as_induction(op: Op, k: usize, update: Op) {
    let body = op.regions()[0].entry().expect("a body");
    let flag = body.args()[1 + k];
    let uses: Vec<Op> = flag.users().into_iter().filter(|&u| u != update).collect();
    if uses.is_empty() {
        return;
    }
    let mut b = Builder::before(body.ops()[0]);
    let n = iteration_number(&mut b, op);
    let i1 = flag.ty();
    let odd = b.value("arith.index_cast", &[n], i1, &[]);
    let value = b.value("arith.xori", &[op.operand(3 + k), odd], i1, &[]);
    for u in uses {
        u.replace_operand(flag, value);
    }
}

/// k when `update` is `counter + k` (k an index constant).
fn constant_increment(update: Op, counter: Value) -> Option<i64> {
    match update.operands().as_slice() {
        [a, b] if update.name() == "arith.addi" && *a == counter => b.index_constant(),
        [a, b] if update.name() == "arith.addi" && *b == counter => a.index_constant(),
        _ => None,
    }
}

/// `(iv - lb) / step` of the `scf.for` `op`, built at `b` in its body.
fn iteration_number(b: &mut Builder, op: Op) -> Value {
    let index = b.ctx.index();
    let iv = op.regions()[0].entry().expect("a body").args()[0];
    let (lb, step) = (op.operand(0), op.operand(2));
    let n = b.value("arith.subi", &[iv, lb], index, &[]);
    if step.index_constant() == Some(1) {
        n
    } else {
        b.value("arith.divsi", &[n, step], index, &[])
    }
}

/// `n * k`.
fn scaled(b: &mut Builder, n: Value, k: i64) -> Value {
    if k == 1 {
        return n;
    }
    let k = b.index(k);
    let index = b.ctx.index();
    b.value("arith.muli", &[n, k], index, &[])
}

/// When the counter `counter` of the loop `op` is yielded as `yielded`, the
/// result of an inner loop that carries it from `counter`, adding a
/// constant k per inner iteration: how much it has grown before the
/// current iteration of `op`, built at `b`. The inner loop's trip count
/// must be the same every time (bounds defined outside `op`), or, with
/// unit steps, triangular: from `iv + a` (a = 0 or 1) up to `op`'s own
/// upper bound, so U - a - t iterations at t = lb, …, iv - 1, never
/// negative, summing to k (n (U - a - lb) - n (n - 1) / 2), n = iv - lb.
fn inner_counter_offset(b: &mut Builder, op: Op, yielded: Value, counter: Value) -> Option<Value> {
    let update = yielded.defining_op()?;
    if update.name() != "scf.for" || update.block() != counter.block() {
        return None;
    }
    let r = update.results().iter().position(|&v| v == yielded)?;
    if update.operand(3 + r) != counter {
        return None;
    }
    let inner = update.regions()[0].entry().expect("a body");
    let inner_update = inner.terminator()?.operand(r).defining_op()?;
    let k = constant_increment(inner_update, inner.args()[1 + r])?;
    let index = b.ctx.index();
    let body = counter.block();
    let (lb, ub, step) = (update.operand(0), update.operand(1), update.operand(2));
    if [lb, ub, step].iter().all(|v| !v.block().is_within(body)) {
        let n = iteration_number(b, op);
        let zero = b.index(0);
        let span = b.value("arith.subi", &[ub, lb], index, &[]);
        let trips = b.value("arith.ceildivsi", &[span, step], index, &[]);
        let trips = b.value("arith.maxsi", &[trips, zero], index, &[]);
        let per = b.value("arith.muli", &[n, trips], index, &[]);
        return Some(scaled(b, per, k));
    }
    let iv = body.args()[0];
    let a = if lb == iv {
        0
    } else {
        let add = lb.defining_op().filter(|d| d.name() == "arith.addi")?;
        match add.operands().as_slice() {
            [x, c] | [c, x] if *x == iv => c.index_constant()?,
            _ => return None,
        }
    };
    let unit = |v: Value| v.index_constant() == Some(1);
    if !(0..=1).contains(&a) || ub != op.operand(1) || !unit(step) || !unit(op.operand(2)) {
        return None;
    }
    let n = iteration_number(b, op);
    let one = b.index(1);
    let two = b.index(2);
    let a = b.index(a);
    let width = b.value("arith.subi", &[ub, a], index, &[]);
    let width = b.value("arith.subi", &[width, op.operand(0)], index, &[]);
    let full = b.value("arith.muli", &[n, width], index, &[]);
    let n1 = b.value("arith.subi", &[n, one], index, &[]);
    let pairs = b.value("arith.muli", &[n, n1], index, &[]);
    let pairs = b.value("arith.divsi", &[pairs, two], index, &[]);
    let sum = b.value("arith.subi", &[full, pairs], index, &[]);
    Some(scaled(b, sum, k))
}

/// Moves the loop-invariant float loads of `scf.for` bodies (memref and
/// indices defined outside the loop or invariant themselves, from buffers
/// no operation in the loop may write: `writes`; an argument when the loop
/// writes no argument, as they may alias), with the pure arithmetic
/// computed from them, before the loop into one `scf.if lb < ub` (a load is
/// never run where the loop would not have run it). The reverse sweep then
/// tapes, or recomputes, one value per loop instead of one per iteration
/// (`x[i] - mu[i]` in the triangular inner loop of GradBench's gmm).
pub(crate) fn hoist_invariant_loads(function: Op, writes: &dyn Fn(Op) -> Vec<Value>) {
    let function_body = function.regions()[0].entry().expect("a body");
    // Innermost loops first: what is hoisted out of one is not hoisted again.
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
        let mut hoisted: Vec<Op> = vec![];
        let mut invariant = HashSet::new();
        let mut loads = false;
        for o in body.ops() {
            let name = o.name();
            let operands = o.operands();
            let outside = operands
                .iter()
                .all(|v| !v.block().is_within(body) || invariant.contains(v));
            let hoistable = outside
                && o.regions().is_empty()
                && o.results().len() == 1
                && if name == "memref.load" {
                    let r = root(operands[0]);
                    o.result(0).ty().is_float()
                        && !written.contains(&r)
                        && !(writes_argument && argument(&r))
                } else {
                    name.starts_with("arith.")
                };
            if hoistable {
                loads |= name == "memref.load";
                invariant.insert(o.result(0));
                hoisted.push(o);
            }
        }
        // Float values used by what stays in the loop.
        let results: Vec<Value> = hoisted
            .iter()
            .map(|o| o.result(0))
            .filter(|v| v.ty().is_float() && v.users().iter().any(|u| !hoisted.contains(u)))
            .collect();
        if !loads || results.is_empty() {
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
        let types: Vec<Type> = results.iter().map(|v| v.ty()).collect();
        let (choice, then_block, else_block) = b.if_else(runs, &types);
        let mut tb = Builder::at_end(then_block, op.loc());
        let mut mapping = HashMap::new();
        tb.clone_remapped(&hoisted, &mut mapping);
        let yielded: Vec<Value> = results.iter().map(|v| mapping[v]).collect();
        tb.create("scf.yield", &yielded, &[], &[], &[], &[]);
        let mut eb = Builder::at_end(else_block, op.loc());
        let zeros: Vec<Value> = types.iter().map(|&t| eb.float(t, 0.0)).collect();
        eb.create("scf.yield", &zeros, &[], &[], &[], &[]);
        for (i, v) in results.iter().enumerate() {
            v.replace_uses(choice.result(i));
        }
        // What stayed in the loop no longer uses the originals.
        for o in hoisted.into_iter().rev() {
            if o.result(0).is_unused() {
                o.erase();
            }
        }
    }
}

/// The most operations [`forward_scratch_loads`] copies per load.
const FORWARD_MAX_OPS: usize = 12;

/// Replaces float loads from a scratch buffer that an earlier loop filled,
/// `for j in [lb, ub) step s { B[j] = f(j) }` with `f` pure arithmetic of
/// `j`, values defined outside the loop and loads of memory the function
/// never writes, by `f` evaluated at the load's index, when that index is
/// the induction variable of a loop with the same bounds and nothing
/// writes `B` in between: the reverse sweep then recomputes the value
/// instead of taping it (`xcentered` in GradBench's gmm, which `Qtimesx`
/// reads twice). A filling loop whose buffer is no longer read goes.
pub(crate) fn forward_scratch_loads(function: Op, writes: &dyn Fn(Op) -> Vec<Value>) {
    let function_body = function.regions()[0].entry().expect("a body");
    let argument = |r: Value| r.defining_op().is_none() && r.block() == function_body;
    let written = written_roots(function, writes);
    let args_written = written.iter().any(|&r| argument(r));
    let writes_root = |op: Op, r: Value| {
        std::iter::once(op)
            .chain(op.walk())
            .any(|o| writes(o).into_iter().any(|t| root(t) == r))
    };
    // Loops only: the loads this erases are never visited again.
    let loops = function
        .walk()
        .into_iter()
        .filter(|o| o.name() == "scf.for");
    for fill in loops.collect::<Vec<_>>() {
        if fill.operands().len() != 3 {
            continue;
        }
        let body = fill.regions()[0].entry().expect("a body");
        let iv = body.args()[0];
        for store in body.ops() {
            let operands = store.operands();
            if store.name() != "memref.store" || operands.len() != 3 || operands[2] != iv {
                continue;
            }
            let buffer = operands[1];
            let r = root(buffer);
            let scratch = r
                .defining_op()
                .is_some_and(|d| matches!(d.name().as_str(), "memref.alloc" | "memref.alloca"));
            if !scratch
                || fill
                    .walk()
                    .into_iter()
                    .any(|o| o != store && writes_root(o, r))
            {
                continue;
            }
            // The operations computing the stored value, in body order.
            let mut needed = HashSet::from([operands[0]]);
            let mut tree = vec![];
            let mut pure = true;
            for op in body.ops().into_iter().rev() {
                if !op.results().iter().any(|v| needed.contains(v)) {
                    continue;
                }
                let name = op.name();
                let reads_constant = |v: Value| {
                    let r = root(v);
                    !(written.contains(&r) || argument(r) && args_written)
                };
                pure &= op.regions().is_empty()
                    && (name.starts_with("arith.")
                        || name == "memref.load" && reads_constant(op.operand(0))
                        || VIEW_OPS.contains(&name.as_str()));
                needed.extend(op.operands().into_iter().filter(|v| v.block() == body));
                tree.push(op);
            }
            let uses_carried = needed
                .iter()
                .any(|v| v.block() == body && v.defining_op().is_none() && *v != iv);
            if !pure || uses_carried || tree.len() > FORWARD_MAX_OPS {
                continue;
            }
            tree.reverse();
            // The loads after the loop, up to the first operation writing B.
            let outer = fill.block();
            let later = outer.ops().into_iter().skip_while(|&o| o != fill).skip(1);
            for top in later.take_while(|&o| !writes_root(o, r)) {
                for load in std::iter::once(top).chain(top.walk()) {
                    let same_loop = |v: Value| {
                        v.defining_op().is_none() && v.arg_number() == 0 && {
                            let l = v.block().parent_op();
                            l.name() == "scf.for" && l.operands()[..3] == fill.operands()[..3]
                        }
                    };
                    let o = load.operands();
                    if load.name() != "memref.load"
                        || o.len() != 2
                        || !load.result(0).ty().is_float()
                        || uncast(o[0]) != uncast(buffer)
                        || !same_loop(o[1])
                    {
                        continue;
                    }
                    let mut mapping = HashMap::from([(iv, o[1])]);
                    Builder::before(load).clone_remapped(&tree, &mut mapping);
                    // A value defined outside the loop (`B[j] = c`) is itself.
                    let value = *mapping.get(&operands[0]).unwrap_or(&operands[0]);
                    load.result(0).replace_uses(value);
                    load.erase();
                }
            }
            // A filling loop holding other loops stays: they are visited next.
            if !is_read(r) && body.ops().iter().all(|o| o.regions().is_empty()) {
                fill.erase();
                break;
            }
        }
    }
}

/// Whether anything may read the buffer `r` (or a view of it): a use
/// other than a store into it, its deallocation or a view.
fn is_read(r: Value) -> bool {
    r.users().into_iter().any(|u| {
        let name = u.name();
        if VIEW_OPS.contains(&name.as_str()) {
            return u.results().into_iter().any(is_read);
        }
        !(name == "memref.dealloc" || name == "memref.store" && u.operand(0) != r)
    })
}

/// `v` without the `memref.cast`s in front of it.
fn uncast(mut v: Value) -> Value {
    while let Some(cast) = v.defining_op().filter(|d| d.name() == "memref.cast") {
        v = cast.operand(0);
    }
    v
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
                overwrite: false,
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
