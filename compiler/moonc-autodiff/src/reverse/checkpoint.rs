//! Loop checkpointing: a top-level `scf.for` whose tape would outgrow
//! `--moon-tape-budget` runs in segments of iterations, each a call of an
//! outlined *segment function* that reverse mode reverses jointly: the
//! forward sweep runs the primal segment and saves the buffers it may
//! change (a *checkpoint*); the reverse sweep restores them and calls the
//! segment's adjoint function, which recomputes the segment, taping only
//! it, and reverses it. The tape then holds one segment's values at a time
//! plus the checkpoints, for the cost of running the loop twice.
//!
//! The loop qualifies when it holds a nested loop (its tape grows with the
//! data, not only with its trip count), carries no memref, writes a buffer
//! it also reads (state carried through memory) and every buffer it uses
//! that the function writes is a top-level `memref.alloc` (restoring an
//! argument would change what the caller sees). Whether to checkpoint is
//! decided at run time (`scf.if`): when the loop's trip count n times T,
//! the bytes of the buffers the loop writes (the estimate of one
//! iteration's tape), exceeds the budget B. Segments are then
//! `k = max(B / 2T, ⌈√(n C / T)⌉)` iterations long (C: the bytes of the
//! buffers saved, those a segment reads before writing them): the
//! checkpoints and one segment's tape then fit the budget whenever one
//! level of checkpoints can, and take the least memory otherwise. With
//! `--moon-checkpoint-levels` L > 1, a loop whose one level cannot fit
//! takes longer segments, `⌈(nᴸ C / T)^(1 / (L + 1))⌉`, and its segment
//! function's loop is checkpointed again (with L - 1 levels) when the
//! segment function is differentiated, its buffers being the segment
//! function's arguments.

use super::prepare::written_roots;
use crate::{
    activity::root,
    adjoint::{CHECKPOINT, WRITES, element_count},
    request::Differentiator,
    rules::written_operands,
};
use moonc_ir::ir::{Block, Builder, Op, Region, Type, Value};
use std::collections::{HashMap, HashSet};

/// The attribute of a segment function's loop: how many levels of
/// checkpoints its own segments may still use (0: it is not segmented
/// again).
const SEGMENT: &str = "moon.segment";

/// The levels of checkpoints the loop `op` may use: those a segment
/// function's loop was given, or for a loop of the user's,
/// `--moon-checkpoint-levels` (when one level cannot fit the budget, a
/// segment is itself run in segments, each level running the loop once
/// more).
fn levels(op: Op) -> i64 {
    match op.attr(SEGMENT) {
        None => moonc_ir::options::checkpoint_levels().into(),
        Some(a) => a
            .to_string()
            .split(' ')
            .next()
            .and_then(|l| l.parse().ok())
            .unwrap_or(0),
    }
}

pub(crate) use crate::{DISTINCT_ARGS, OVERWRITTEN_ARGS};

/// Segments the qualifying top-level loops of `function` by `budget`
/// bytes (0: none), defining their segment functions in `diff`.
pub(crate) fn checkpoint_loops(diff: &mut Differentiator, function: Op, budget: u64) {
    if budget == 0 {
        return;
    }
    let body = function.regions()[0].entry().expect("a body");
    let written = written_roots(function, &written_operands);
    // A segment function's buffers are its arguments, which the loop
    // over its segments restores as it would its own allocations.
    let arguments = function.attr(DISTINCT_ARGS).is_some();
    let ops = body.ops();
    for (position, &op) in ops.iter().enumerate() {
        if op.name() != "scf.for" || levels(op) == 0 {
            continue;
        }
        let Some(plan) = plan(body, op, &ops[position + 1..], &written, arguments) else {
            continue;
        };
        let base = function
            .attr("sym_name")
            .and_then(|a| a.string())
            .unwrap_or_default();
        let mut name = format!("{base}__segment{position}");
        while diff.function(&name).is_some() {
            name.push('_');
        }
        let segment = outline(function, op, &plan, &name, budget);
        diff.define(name, segment);
    }
}

/// What segmenting a loop takes: the values it uses from outside (the
/// segment function's arguments after the bounds and carried values) and
/// which of them are saved.
struct Plan {
    captured: Vec<Value>,
    /// Constants and index arithmetic on them and on captured values, in
    /// order: computed again in the segment function, so that a bound such
    /// as `n - 1` stays visibly `n` minus one there.
    recomputed: Vec<Op>,
    saved: Vec<usize>,
    /// The buffers the loop writes: their bytes estimate one iteration's tape.
    changed: Vec<Value>,
}

/// How `op` (a top-level loop of `body`, followed by `after`) is segmented,
/// or `None` when it does not qualify.
fn plan(
    body: Block,
    op: Op,
    after: &[Op],
    written: &HashSet<Value>,
    arguments: bool,
) -> Option<Plan> {
    if op.results().iter().any(|r| r.ty().is_memref()) {
        return None;
    }
    let inner = op.regions()[0].entry()?;
    let nested = op.walk();
    if !nested.iter().any(|o| {
        matches!(
            o.name().as_str(),
            "scf.for" | "scf.while" | "linalg.generic"
        )
    }) {
        return None;
    }
    let mut captured: Vec<Value> = vec![];
    let mut recomputed: Vec<Op> = vec![];
    for o in &nested {
        for v in o.operands() {
            if !v.block().is_within(inner) {
                capture(v, &mut captured, &mut recomputed);
            }
        }
    }
    // Buffers written from the loop on, whose contents a recomputed
    // segment would not find as the forward sweep did.
    let changing: HashSet<Value> = std::iter::once(op)
        .chain(after.iter().copied())
        .flat_map(|o| std::iter::once(o).chain(o.walk()))
        .flat_map(written_operands)
        .map(root)
        .collect();
    let written_in_loop: HashSet<Value> = nested
        .iter()
        .flat_map(|&o| written_operands(o))
        .map(root)
        .collect();
    let mut roots: Vec<Value> = vec![];
    for v in captured.iter().filter(|v| v.ty().is_memref()) {
        let r = root(*v);
        if !written.contains(&r) || roots.contains(&r) {
            continue;
        }
        let local = match r.defining_op() {
            Some(d) => d.name() == "memref.alloc" && d.block() == body,
            None => arguments && r.block() == body,
        } && r.ty().has_identity_layout()
            && !r.ty().shape().is_empty();
        if !local {
            return None;
        }
        roots.push(r);
    }
    let state = roots.iter().any(|r| {
        written_in_loop.contains(r)
            && nested.iter().any(|o| {
                o.name() == "memref.load" && root(o.operand(0)) == *r
                    || o.name() == "func.call" && o.operands().iter().any(|v| root(*v) == *r)
                    || o.name() == "linalg.generic" && o.operands().iter().any(|v| root(*v) == *r)
            })
    });
    if !state {
        return None;
    }
    let mut saved = vec![];
    for &r in &roots {
        if !changing.contains(&r) || overwritten(op, r) {
            continue;
        }
        let at = match captured.iter().position(|&v| v == r) {
            Some(at) => at,
            None => {
                captured.push(r);
                captured.len() - 1
            }
        };
        saved.push(at);
    }
    let changed = roots
        .iter()
        .copied()
        .filter(|r| written_in_loop.contains(r))
        .collect();
    Some(Plan {
        captured,
        recomputed,
        saved,
        changed,
    })
}

/// Records `v`, used by the loop but defined before it, as a value the
/// segment function takes (`captured`) or, for a constant or index
/// arithmetic, computes again (`recomputed`, after what it uses).
fn capture(v: Value, captured: &mut Vec<Value>, recomputed: &mut Vec<Op>) {
    if captured.contains(&v) {
        return;
    }
    if let Some(d) = v.defining_op() {
        let index_arithmetic = v.ty().is_index()
            && matches!(
                d.name().as_str(),
                "arith.addi" | "arith.subi" | "arith.muli"
            );
        if recomputed.contains(&d) {
            return;
        }
        if d.name() == "arith.constant" || index_arithmetic {
            for w in d.operands() {
                capture(w, captured, recomputed);
            }
            recomputed.push(d);
            return;
        }
    }
    captured.push(v);
}

/// Whether every iteration of the loop `op` writes all of the buffer `r`
/// (an allocation, or an argument of a segment function) before reading
/// any of it: [`overwritten_first`], or, for an argument, what the loop
/// that became the segment function's loop found ([`OVERWRITTEN_ARGS`]).
fn overwritten(op: Op, r: Value) -> bool {
    match r.defining_op() {
        Some(d) => {
            d.name() == "memref.alloc"
                && overwritten_first(op.regions()[0].entry().expect("a loop body"), r)
        }
        None => op
            .int_array(OVERWRITTEN_ARGS)
            .contains(&(r.arg_number() as i64)),
    }
}

/// Whether every iteration of the loop whose body is `body` writes all of
/// the one-dimensional buffer `buffer` (an allocation) before reading any
/// of it: then a segment does not depend on its contents on entry, which
/// need no checkpoint (the temporaries of a Runge-Kutta step). Writes are
/// followed from the first element on: `store %v, buffer[c]` at the next
/// index, and `scf.for` loops from the next index whose bodies only store
/// `buffer[%i]`, up to the buffer's size (its constant or the value it was
/// allocated with).
fn overwritten_first(body: Block, buffer: Value) -> bool {
    let shape = buffer.ty().shape();
    let alloc = buffer.defining_op().expect("an allocation");
    let size = match shape.as_slice() {
        [Some(n)] => Bound::Constant(*n),
        [None] => Bound::Value(alloc.operand(0)),
        _ => return false,
    };
    let mut next = Bound::Constant(0);
    for op in body.ops() {
        if next == size {
            return true;
        }
        let touches = |o: Op| {
            o.operands()
                .iter()
                .any(|v| v.ty().is_memref() && root(*v) == buffer)
        };
        if !touches(op) && !op.walk().into_iter().any(touches) {
            continue;
        }
        next = match (op.name().as_str(), next) {
            ("memref.store", Bound::Constant(c))
                if op.operand(1) == buffer && bound(op.operand(2)) == Bound::Constant(c) =>
            {
                Bound::Constant(c + 1)
            }
            ("scf.for", _) if bound(op.operand(0)) == next && stores_each(op, buffer) => {
                bound(op.operand(1))
            }
            _ => return false,
        };
    }
    next == size
}

/// A bound of an index range: a constant, or a value known only at run time.
#[derive(Clone, Copy, PartialEq)]
enum Bound {
    Constant(i64),
    Value(Value),
}

/// `v` as a [`Bound`].
fn bound(v: Value) -> Bound {
    let constant = v
        .defining_op()
        .filter(|d| d.name() == "arith.constant")
        .and_then(|d| d.attr("value"))
        .and_then(|a| a.to_string().split(' ').next()?.parse().ok());
    match constant {
        Some(c) => Bound::Constant(c),
        None => Bound::Value(v),
    }
}

/// Whether the body of the unit-step `scf.for` `op` stores to `buffer` at
/// the induction variable (unconditionally) and uses it no other way.
fn stores_each(op: Op, buffer: Value) -> bool {
    let body = op.regions()[0].entry().expect("a body");
    let i = body.args()[0];
    if bound(op.operand(2)) != Bound::Constant(1) || op.operands().len() != 3 {
        return false;
    }
    let mut stored = false;
    for o in op.walk() {
        for (k, v) in o.operands().into_iter().enumerate() {
            if !v.ty().is_memref() || root(v) != buffer {
                continue;
            }
            let store = o.name() == "memref.store" && k == 1 && o.operand(1) == buffer;
            if !store {
                return false;
            }
            if o.block() == body && o.operand(2) == i {
                stored = true;
            } else {
                return false;
            }
        }
    }
    stored
}

/// Moves the loop `op` of `function` into a new segment function `name`
/// and replaces it by a run-time choice between the loop as it was and a
/// loop over segments calling that function.
fn outline(function: Op, op: Op, plan: &Plan, name: &str, budget: u64) -> Op {
    let mut b = Builder::before(op);
    let index = b.ctx.index();
    let loc = op.loc();
    let operands = op.operands();
    let (lb, ub, step) = (operands[0], operands[1], operands[2]);
    let inits = operands[3..].to_vec();
    let result_types: Vec<Type> = op.results().iter().map(|r| r.ty()).collect();

    // The segment function: (lo, hi, step, carried..., captured...).
    let mut arg_types = vec![index, index, index];
    arg_types.extend(inits.iter().map(|v| v.ty()));
    arg_types.extend(plan.captured.iter().map(|v| v.ty()));
    let show = |ts: &[Type]| {
        ts.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ty = b.ctx.attr(&format!(
        "({}) -> ({})",
        show(&arg_types),
        show(&result_types)
    ));
    let (region, block) = Region::with_block(&arg_types, loc);
    let memrefs: Vec<Value> = plan
        .captured
        .iter()
        .filter(|v| v.ty().is_memref())
        .map(|&v| root(v))
        .collect();
    let distinct = memrefs
        .iter()
        .all(|r| memrefs.iter().filter(|&q| q == r).count() == 1);
    let unit = b.ctx.attr("unit");
    let attributes: &[(&str, _)] = if distinct {
        &[(DISTINCT_ARGS, unit)]
    } else {
        &[]
    };
    let segment = Builder::before(function).private_function(name, ty, region, attributes);
    let args = block.args();
    let mut fb = Builder::at_end(block, loc);
    let mut renamed: HashMap<Value, Value> = plan
        .captured
        .iter()
        .copied()
        .zip(args[3 + inits.len()..].iter().copied())
        .collect();
    for c in &plan.recomputed {
        let clone = fb.insert(c.clone_detached());
        let operands: Vec<Value> = c.operands().iter().map(|v| renamed[v]).collect();
        clone.set_operands(&operands);
        renamed.insert(c.result(0), clone.result(0));
    }
    let segment_loop = fb.insert(op.clone_detached());
    segment_loop.set_operands(&args[..3 + inits.len()]);
    crate::inline::rename_operands(segment_loop, &renamed);
    let levels = levels(op);
    segment_loop.set_attr(SEGMENT, b.ctx.attr(&format!("{} : i64", levels - 1)));
    // The temporaries each iteration overwrites before reading: their
    // shadows are zero again after each iteration's reverse.
    let overwritten: Vec<String> = plan
        .captured
        .iter()
        .enumerate()
        .filter(|(_, v)| v.ty().is_memref() && overwritten(op, **v))
        .map(|(i, _)| (3 + inits.len() + i).to_string())
        .collect();
    if !overwritten.is_empty() {
        let positions = b
            .ctx
            .attr(&format!("array<i64: {}>", overwritten.join(", ")));
        segment_loop.set_attr(OVERWRITTEN_ARGS, positions);
    }
    fb.create("func.return", &segment_loop.results(), &[], &[], &[], &[]);

    // The run-time choice: checkpoint when n iterations of T bytes of tape
    // exceed the budget B; then segments of k iterations (C: the
    // checkpoint's bytes), at most n: B / 2T when one level of
    // checkpoints fits (B / 2T ≥ √(n C / T)), otherwise, with L levels,
    // max(B / 2T, ⌈(nᴸ C / T)^(1 / (L + 1))⌉), which minimizes the
    // checkpoints of all levels plus the last level's tape,
    // L · (n T / C)^(1 / (L + 1)) · C + k_L · T.
    let n = crate::adjoint::trip_count(&mut b, lb, ub, step);
    let saved: Vec<Value> = plan.saved.iter().map(|&at| plan.captured[at]).collect();
    let c = total_bytes(&mut b, &saved);
    let t = total_bytes(&mut b, &plan.changed);
    let one = b.index(1);
    let t = b.value("arith.maxsi", &[t, one], index, &[]);
    let tape = b.value("arith.muli", &[n, t], index, &[]);
    let limit = b.index(budget as i64);
    let i1 = b.ctx.ty("i1");
    let sgt = b.ctx.attr("4 : i64");
    let big = b.value("arith.cmpi", &[tape, limit], i1, &[("predicate", sgt)]);
    let two = b.index(2);
    let twice = b.value("arith.muli", &[t, two], index, &[]);
    let by_budget = b.value("arith.divsi", &[limit, twice], index, &[]);
    let f64t = b.ctx.ty("f64");
    let as_f64 = |b: &mut Builder, v: Value| {
        let i64t = b.ctx.ty("i64");
        let v = b.value("arith.index_cast", &[v], i64t, &[]);
        b.value("arith.sitofp", &[v], f64t, &[])
    };
    let (nf, cf, tf) = (as_f64(&mut b, n), as_f64(&mut b, c), as_f64(&mut b, t));
    let c_per_t = b.value("arith.divf", &[cf, tf], f64t, &[]);
    let ratio = b.value("arith.mulf", &[nf, c_per_t], f64t, &[]);
    let one_level = b.value("math.sqrt", &[ratio], f64t, &[]);
    let by_budget_f = as_f64(&mut b, by_budget);
    let oge = b.ctx.attr("3 : i64");
    let fits = b.value(
        "arith.cmpf",
        &[by_budget_f, one_level],
        i1,
        &[("predicate", oge)],
    );
    let k_levels = if levels == 1 {
        one_level
    } else {
        let mut power = c_per_t;
        for _ in 0..levels {
            power = b.value("arith.mulf", &[power, nf], f64t, &[]);
        }
        let exponent = format!("{:?} : f64", 1.0 / (levels + 1) as f64);
        let exponent = b.ctx.attr(&exponent);
        let exponent = b.value("arith.constant", &[], f64t, &[("value", exponent)]);
        b.value("math.powf", &[power, exponent], f64t, &[])
    };
    let k_levels = b.value("math.ceil", &[k_levels], f64t, &[]);
    let i64t = b.ctx.ty("i64");
    let k_levels = b.value("arith.fptosi", &[k_levels], i64t, &[]);
    let k_levels = b.value("arith.index_cast", &[k_levels], index, &[]);
    let k_levels = b.value("arith.maxsi", &[by_budget, k_levels], index, &[]);
    let k = b.value("arith.select", &[fits, by_budget, k_levels], index, &[]);
    let k = b.value("arith.minsi", &[k, n], index, &[]);
    let k = b.value("arith.maxsi", &[k, one], index, &[]);
    let segments = b.value("arith.ceildivsi", &[n, k], index, &[]);
    let stride = b.value("arith.muli", &[k, step], index, &[]);
    let (choice, then_block, else_block) = b.if_else(big, &result_types);
    for (old, new) in op.results().into_iter().zip(choice.results()) {
        old.replace_uses(new);
    }
    let else_yield =
        Builder::at_end(else_block, loc).create("scf.yield", &op.results(), &[], &[], &[], &[]);
    op.move_before(else_yield);

    let mut tb = Builder::at_end(then_block, loc);
    let mut block_types = vec![index];
    block_types.extend(result_types.iter().copied());
    let (region, seg_block) = Region::with_block(&block_types, loc);
    let zero = Builder::before(choice).index(0);
    let mut for_operands = vec![zero, segments, one];
    for_operands.extend(&inits);
    let segments_loop = tb.create("scf.for", &for_operands, &result_types, &[], &[region], &[]);
    region.destroy();
    tb.create("scf.yield", &segments_loop.results(), &[], &[], &[], &[]);
    let mut sb = Builder::at_end(seg_block, loc);
    let j = seg_block.args()[0];
    let offset = sb.value("arith.muli", &[j, stride], index, &[]);
    let lo = sb.value("arith.addi", &[lb, offset], index, &[]);
    let hi = sb.value("arith.addi", &[lo, stride], index, &[]);
    let hi = sb.value("arith.minsi", &[hi, ub], index, &[]);
    let mut call_operands = vec![lo, hi, step];
    call_operands.extend(&seg_block.args()[1..]);
    call_operands.extend(&plan.captured);
    let saved: Vec<String> = plan
        .saved
        .iter()
        .map(|&at| (3 + inits.len() + at).to_string())
        .collect();
    let writes: Vec<String> = (0..call_operands.len())
        .filter(|&i| {
            call_operands[i].ty().is_memref() && plan.changed.contains(&root(call_operands[i]))
        })
        .map(|i| i.to_string())
        .collect();
    let callee = sb.ctx.attr(&format!("@{name}"));
    let array = |items: &[String]| match items {
        [] => sb.ctx.attr("array<i64>"),
        _ => sb.ctx.attr(&format!("array<i64: {}>", items.join(", "))),
    };
    let positions = array(&saved);
    let writes = array(&writes);
    let call = sb.create(
        "func.call",
        &call_operands,
        &result_types,
        &[
            ("callee", callee),
            (CHECKPOINT, positions),
            (WRITES, writes),
        ],
        &[],
        &[],
    );
    sb.create("scf.yield", &call.results(), &[], &[], &[], &[]);
    segment
}

/// The bytes of the buffers `buffers`.
fn total_bytes(b: &mut Builder, buffers: &[Value]) -> Value {
    let index = b.ctx.index();
    let mut bytes = b.index(0);
    for &v in buffers {
        let count = element_count(b, v);
        let unit = b.index(crate::adjoint::element_bytes(v.ty().element()));
        let size = b.value("arith.muli", &[count, unit], index, &[]);
        bytes = b.value("arith.addi", &[bytes, size], index, &[]);
    }
    bytes
}
