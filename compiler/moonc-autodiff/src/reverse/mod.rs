//! Reverse mode: generates the adjoint function of a function for one
//! choice of activities, and replaces `moon.vjp` operations by calls to it.
//!
//! The adjoint function runs the primal code (the *forward sweep*) and then
//! the *reverse sweep*, which visits the operations backwards, each adding
//! its operands' adjoints by the rule of its operation (see
//! [`crate::rules`]). Structured control flow is reversed structurally: a
//! `scf.for` becomes a loop running backwards, a `scf.while` a counted loop
//! over the iterations the forward sweep counted, a `scf.if` an `scf.if` on
//! the same condition. Unstructured control flow (`cf`) is first lifted to
//! `scf` (MLIR's `lift-cf-to-scf`) and named linalg operations generalized.
//!
//! A primal value the reverse sweep needs is obtained, once per block of
//! the reverse sweep, in that block's *prologue*, by the first way that
//! applies:
//! - values of the function's top-level block are used directly (they
//!   dominate the whole reverse sweep);
//! - cheap pure operations (arith, index, views, loads from memory nothing
//!   writes from then on) are recomputed from their materialized operands, loop
//!   induction variables from the reverse iteration number;
//! - other values are saved on a *tape* by the forward sweep: a buffer
//!   allocated before the outermost loop when every enclosing loop is a
//!   `scf.for` whose trip count is known there (indexed by iteration
//!   numbers; see `Record` for how a block's values share buffers),
//!   and otherwise moonrt's LIFO tape (pushed at the end of each
//!   block instance, popped at the start of its reverse, so that nested
//!   blocks' pushes and pops pair up).
//!
//! Loads whose memory may be overwritten later in the forward sweep are
//! taped, never reloaded, so mutation and aliasing of memrefs need no
//! restoring of memory: after the call the primal memrefs hold what a plain
//! call leaves in them. A load after the last write to its memory is read
//! again (see `ReverseState::unchanged_after`).
//!
//! Calls to differentiated functions use a *split* pair generated on
//! demand: `@g_fwd_…` (the forward sweep, taping on moonrt's tape) and
//! `@g_rev_…` (the reverse sweep, popping it), so that recursion works and
//! no callee runs twice.

mod checkpoint;
mod parallel;
mod prepare;
mod split;
mod sweep;

use self::{
    checkpoint::{DISTINCT_ARGS, checkpoint_loops},
    parallel::PARALLEL_NEST,
    prepare::{
        counters_as_inductions, forward_scratch_loads, hoist_invariant_loads, prepare,
        written_roots,
    },
    split::{split_forward, split_reverse},
};
use crate::{
    activity::Activity,
    adjoint::{LastWrites, ReverseState},
    inline::inline_helpers,
    recompute_selected::recompute_selected,
    request::{Differentiator, Key, Names, Requested},
    rules::Writes,
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Op, Type, Value, error_at},
    moon::Activity as Act,
};
use std::collections::{HashMap, HashSet};

/// Checks that `key`'s activities fit `function`'s type in reverse mode.
pub(crate) fn check_key(key: &Key, ty: &(Vec<Type>, Vec<Type>), at: Op) -> Result<(), Error> {
    let (inputs, outputs) = ty;
    if key.args.len() != inputs.len() || key.results.len() != outputs.len() {
        return Err(error_at(
            at,
            "activities do not match the function's arguments and results",
        ));
    }
    if key.width != 1 {
        return Err(error_at(
            at,
            "reverse mode with `width` above 1 is not supported yet",
        ));
    }
    let fits = |t: &Type, a: &Act, argument: bool| match a {
        Act::Active => t.is_differentiable(),
        Act::ActiveNoNeed => !argument && t.is_differentiable(),
        Act::Dup | Act::DupNoNeed => argument && t.is_float_memref(),
        Act::Const => true,
    };
    for (kind, types, acts, argument) in [
        ("argument", inputs, &key.args, true),
        ("result", outputs, &key.results, false),
    ] {
        for (i, (t, a)) in types.iter().zip(acts.iter()).enumerate() {
            if !fits(t, a, argument) {
                return Err(error_at(
                    at,
                    &format!(
                        "{kind} #{i} of @{} ({t}) cannot be `{}` in reverse mode",
                        key.function,
                        a.keyword()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Generates the adjoint function(s) of `primal` for `key`.
pub(crate) fn generate(
    diff: &mut Differentiator,
    primal: Op,
    key: &Key,
    names: &Names,
    at: Op,
) -> Result<Vec<(String, Op)>, Error> {
    let ctx = diff.ctx();
    let ty = diff.function_type(&key.function).expect("a function");
    check_key(key, &ty, at)?;
    let (inputs, outputs) = ty;
    let split = matches!(names, Names::Split { .. });

    let function = primal.clone_after();
    let name = match names {
        Names::Combined(name) => name.clone(),
        Names::Split { reverse, .. } => reverse.clone(),
    };
    function.set_attr("sym_name", ctx.attr(&format!("\"{name}\"")));
    function.set_attr("sym_visibility", ctx.attr("\"private\""));
    for attr in ["arg_attrs", "res_attrs", "llvm.emit_c_interface"] {
        function.remove_attr(attr);
    }
    inline_helpers(diff, function)?;
    recompute_selected(function);
    prepare(ctx, function, diff.settings.parallel_reverse)?;
    counters_as_inductions(function);
    let writes = Writes::of(diff);
    forward_scratch_loads(function, &|op| writes.by(op));
    hoist_invariant_loads(function, &|op| writes.by(op));
    if !split {
        checkpoint_loops(diff, function, moonc_ir::options::tape_budget());
    }
    let region = function.regions()[0];
    if region.blocks().len() != 1 {
        return Err(error_at(
            function,
            "reverse mode needs structured control flow; this function's branches could not be \
             lifted to scf",
        ));
    }
    let body = region.entry().expect("a body");
    let ret = body.terminator().expect("a return");
    let args = body.args();
    let seeds: Vec<Value> = (0..args.len())
        .filter(|&i| key.args[i] != Act::Const)
        .map(|i| args[i])
        .collect();
    let activity = Activity::analyze(function, &seeds, &|op| writes.by(op));
    let written = written_roots(function, &|op| writes.by(op));
    // Memref arguments may alias unless the function is a segment function
    // called with distinct buffers (see `checkpoint.rs`).
    let args_written =
        primal.attr(DISTINCT_ARGS).is_none() && args.iter().any(|a| written.contains(a));

    let mut marker_builder = Builder::before(ret);
    let split_marker = marker_builder.index(0).defining_op().expect("a constant");
    // Adjoint slots sit at the start of a combined function, so that
    // reverse code fused into a forward loop can add to them (a split
    // pair's reverse function starts at the split marker).
    let first = body.ops()[0];
    let slot_anchor = if split {
        marker_builder.index(0)
    } else {
        Builder::before(first).index(0)
    }
    .defining_op()
    .expect("a constant");
    let mut state = ReverseState {
        diff,
        activity,
        b: Builder::before(ret),
        body,
        split,
        direct: if split {
            HashSet::new()
        } else {
            HashSet::from([body])
        },
        scopes: HashMap::new(),
        current: body,
        materialized: HashMap::new(),
        adjoints: HashMap::new(),
        slots: HashMap::new(),
        slot_anchor,
        split_marker,
        pushes: HashMap::new(),
        written,
        args_written,
        last_writes: LastWrites::of(body, &|op| writes.by(op)),
        reread: HashSet::new(),
        forward_iteration: HashMap::new(),
        reverse_iteration: HashMap::new(),
        shadows: HashMap::new(),
        to_free: vec![],
        records: HashMap::new(),
        calls: HashMap::new(),
        parallel: None,
        parallel_forwards: vec![],
        touches: Default::default(),
    };
    state.prepare_calls(function)?;

    // Shadow arguments, then result cotangents.
    let loc = function.loc();
    let mut shadows = vec![];
    for (i, &a) in args.iter().enumerate() {
        if matches!(key.args[i], Act::Dup | Act::DupNoNeed) {
            let shadow = body.add_arg(a.ty(), loc);
            state.shadows.insert(a, shadow);
            shadows.push(shadow);
        }
    }
    let returned = ret.operands();
    let mut result_seeds = vec![];
    for (j, &r) in returned.iter().enumerate() {
        if matches!(key.results[j], Act::Active | Act::ActiveNoNeed) {
            let cotangent = body.add_arg(outputs[j], loc);
            result_seeds.push((r, cotangent));
        }
    }
    let end = state.reverse_nested_top(body, &result_seeds)?;
    let adjoints: Vec<Value> = (0..args.len())
        .filter(|&i| key.args[i] == Act::Active)
        .map(|i| end[i])
        .collect();
    state.size_records();
    state.keep_reread_buffers();
    state.free_tapes();
    let fills: Vec<Op> = if key.overwrite && !split {
        shadows
            .iter()
            .map(|&shadow| zero_fill(&mut Builder::after(state.slot_anchor), shadow))
            .collect()
    } else {
        vec![]
    };
    drop_covered_fills(body, &fills);
    state.parallel_forward();
    for op in function.walk() {
        op.remove_attr(PARALLEL_NEST);
    }

    let kept: Vec<usize> = (0..returned.len())
        .filter(|&j| key.results[j] != Act::ActiveNoNeed)
        .collect();
    let mut operands: Vec<Value> = kept.iter().map(|&j| returned[j]).collect();
    operands.extend(&adjoints);
    state.b.create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();

    let all_inputs: Vec<Type> = body.args().iter().map(|a| a.ty()).collect();
    let kept_types: Vec<Type> = kept.iter().map(|&j| outputs[j]).collect();
    let adjoint_types: Vec<Type> = adjoints.iter().map(|a| a.ty()).collect();
    let signature = |ins: &[Type], outs: &[Type]| {
        let show = |ts: &[Type]| {
            ts.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        ctx.attr(&format!("({}) -> ({})", show(ins), show(outs)))
    };
    match names {
        Names::Combined(name) => {
            split_marker.erase();
            function.set_attr(
                "function_type",
                signature(&all_inputs, &[kept_types, adjoint_types].concat()),
            );
            moonc_ir::ir::remove_dead_code(function);
            tracing::debug!(function = name, "generated an adjoint function");
            Ok(vec![(name.clone(), function)])
        }
        Names::Split { forward, reverse } => {
            let fwd = split_forward(function, split_marker, kept.len(), inputs.len())?;
            fwd.set_attr("sym_name", ctx.attr(&format!("\"{forward}\"")));
            fwd.set_attr("function_type", signature(&inputs, &kept_types));
            let rev = split_reverse(function, split_marker, kept.len())?;
            rev.set_attr("function_type", signature(&all_inputs, &adjoint_types));
            for f in [fwd, rev] {
                moonc_ir::ir::remove_dead_code(f);
            }
            tracing::debug!(function = reverse, "generated a split adjoint pair");
            Ok(vec![(forward.clone(), fwd), (reverse.clone(), rev)])
        }
    }
}

/// Replaces one `moon.vjp` by a call of its adjoint function.
pub(crate) fn replace_vjp(diff: &mut Differentiator, op: Op) -> Result<(), Error> {
    let requested = Requested::read(diff, op)?;
    // Checked here, while `op` (the error's location) still exists.
    check_key(&requested.key, &requested.ty, op)?;
    let key = &requested.key;
    let mut b = Builder::before(op);
    let name = match requested.served_by(diff.custom_vjp(&requested.callee), op)? {
        Some(custom) => {
            if key.overwrite {
                let dups = key
                    .args
                    .iter()
                    .filter(|a| matches!(a, Act::Dup | Act::DupNoNeed));
                for &shadow in &op.operands()[key.args.len()..][..dups.count()] {
                    zero_fill(&mut b, shadow);
                }
            }
            custom
        }
        None => diff.request_vjp(key.clone(), false, op)?.1,
    };
    let types: Vec<Type> = op.results().iter().map(|r| r.ty()).collect();
    let callee_attr = diff.ctx().attr(&format!("@{name}"));
    let call = b.create(
        "func.call",
        &op.operands(),
        &types,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    for (old, new) in op.results().into_iter().zip(call.results()) {
        old.replace_uses(new);
    }
    op.erase();
    Ok(())
}

/// `linalg.fill` of `shadow` with zero at `b`, for a request that
/// overwrites its shadows ([`crate::OVERWRITE_SHADOWS`]).
fn zero_fill(b: &mut Builder, shadow: Value) -> Op {
    let zero = b.float(shadow.ty().element(), 0.0);
    b.fill(zero, shadow)
}

/// Drops each of `fills` whose shadow is next used, in the order the
/// function runs, by a reverse loop that writes every element of it once
/// ([`crate::COVERS`], marked by the fused reverse of a loop) and uses it
/// for nothing else (one load, one store): that loop takes the element as
/// zero instead of loading it. Then removes the marks.
fn drop_covered_fills(body: Block, fills: &[Op]) {
    let ops = body.ops();
    let mut covered = vec![];
    for &fill in fills {
        let shadow = fill.operand(1);
        let Some(at) = ops.iter().position(|&o| o == fill) else {
            continue;
        };
        let users = |o: Op| -> Vec<Op> {
            let mut all = o.walk();
            all.push(o);
            all.retain(|n| n.operands().contains(&shadow));
            all
        };
        let Some(users) = ops[at + 1..]
            .iter()
            .map(|&o| users(o))
            .find(|u| !u.is_empty())
        else {
            continue;
        };
        if let [a, b] = users[..] {
            let (load, store) = if a.name() == "memref.load" {
                (a, b)
            } else {
                (b, a)
            };
            if load.attr(crate::COVERS).is_some()
                && load.operand(0) == shadow
                && store.name() == "memref.store"
                && store.operand(1) == shadow
            {
                covered.push((fill, load));
            }
        }
    }
    for (fill, load) in covered {
        let zero = Builder::before(load).float(load.result(0).ty(), 0.0);
        load.result(0).replace_uses(zero);
        load.erase();
        fill.erase();
    }
    for op in body.parent_op().walk() {
        op.remove_attr(crate::COVERS);
    }
}
