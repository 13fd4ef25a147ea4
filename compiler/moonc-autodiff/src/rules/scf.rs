//! Derivative rules of the `scf` dialect: loops carry the tangents of their
//! active iteration values as extra iteration values, `if` and
//! `execute_region` yield them as extra results.

use super::{Forward::Custom, Reverse, Rule};
use crate::{
    activity,
    adjoint::{ReverseState, trip_count},
    tangent::FunctionState,
};
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Attr, Block, Builder, Op, Region, Type, Value};

pub const RULES: &[Rule] = &[
    Rule {
        op: "scf.for",
        forward: Custom(for_),
        reverse: Reverse::Custom(for_reverse),
    },
    Rule {
        op: "scf.while",
        forward: Custom(while_),
        reverse: Reverse::Custom(while_reverse),
    },
    Rule {
        op: "scf.if",
        forward: Custom(with_yields),
        reverse: Reverse::Custom(branches_reverse),
    },
    Rule {
        op: "scf.execute_region",
        forward: Custom(with_yields),
        reverse: Reverse::Custom(branches_reverse),
    },
    Rule {
        op: "scf.index_switch",
        forward: Custom(with_yields),
        reverse: Reverse::Custom(branches_reverse),
    },
    Rule {
        op: "scf.parallel",
        forward: Custom(parallel),
        reverse: Reverse::Custom(parallel_reverse),
    },
    // Terminators are extended by the operations that own them.
    Rule {
        op: "scf.yield",
        forward: Custom(super::owned_by_parent),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "scf.condition",
        forward: Custom(super::owned_by_parent),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "scf.reduce",
        forward: Custom(super::owned_by_parent),
        reverse: Reverse::Nothing,
    },
];

/// The positions of `values` that are active.
fn active_positions(s: &FunctionState, values: &[Value]) -> Vec<usize> {
    (0..values.len())
        .filter(|&i| s.is_active(values[i]))
        .collect()
}

/// Appends to `terminator`'s operands the tangents of its operands at
/// `positions` (after skipping `skip` leading operands, e.g. a condition).
fn extend_terminator(s: &mut FunctionState, terminator: Op, skip: usize, positions: &[usize]) {
    let mut operands = terminator.operands();
    let mut b = Builder::before(terminator);
    let tangents: Vec<Value> = positions
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[skip + i]))
        .collect();
    operands.extend(tangents);
    terminator.set_operands(&operands);
}

/// The result types of `op` followed by the tangent types of those at
/// `active`.
fn widened_results(s: &FunctionState, op: Op, active: &[usize]) -> Vec<Type> {
    let results = op.results();
    let mut types: Vec<Type> = results.iter().map(|r| r.ty()).collect();
    types.extend(active.iter().map(|&i| s.tangent_type(results[i].ty())));
    types
}

/// Rebuilds `op` with `operands`, its results widened by the tangents at
/// `active`, and its regions moved over.
fn rebuild(s: &mut FunctionState, op: Op, operands: &[Value], active: &[usize]) {
    let types = widened_results(s, op, active);
    let regions = op.regions();
    let attrs = op.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = Builder::before(op).create(&op.name(), operands, &types, &attrs, &regions, &[]);
    s.replace_rebuilt(op, new, active);
}

/// Active memrefs cannot be carried: their shadows would need to be too.
fn reject_memrefs(op: Op, values: &[Value], active: &[usize]) -> Result<(), Error> {
    if active.iter().any(|&i| values[i].ty().is_memref()) {
        return Err(error_at(
            op,
            "memrefs carried through loop values or yields cannot be differentiated yet; \
             pass them to the loop from outside instead",
        ));
    }
    Ok(())
}

fn for_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let body = op.regions()[0].entry().expect("scf.for has a body");
    let results = op.results();
    let active = active_positions(s, &results);
    reject_memrefs(op, &results, &active)?;
    let carried: Vec<usize> = active.iter().map(|i| i + 1).collect();
    s.add_tangent_args(body, &carried);
    s.transform_block(body)?;
    if active.is_empty() {
        return Ok(());
    }
    extend_terminator(s, body.terminator().expect("a yield"), 0, &active);
    let mut operands = op.operands();
    let mut b = Builder::before(op);
    let inits: Vec<Value> = active
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[3 + i]))
        .collect();
    operands.extend(inits);
    rebuild(s, op, &operands, &active);
    Ok(())
}

fn while_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let regions = op.regions();
    let before = regions[0].entry().expect("scf.while has a before region");
    let after = regions[1].entry().expect("scf.while has an after region");
    let active_before = active_positions(s, &before.args());
    let active_after = active_positions(s, &after.args());
    reject_memrefs(op, &before.args(), &active_before)?;
    reject_memrefs(op, &after.args(), &active_after)?;
    s.add_tangent_args(before, &active_before);
    s.add_tangent_args(after, &active_after);
    s.transform_region(regions[0])?;
    s.transform_region(regions[1])?;
    if active_before.is_empty() && active_after.is_empty() {
        return Ok(());
    }
    extend_terminator(
        s,
        before.terminator().expect("scf.condition"),
        1,
        &active_after,
    );
    extend_terminator(s, after.terminator().expect("scf.yield"), 0, &active_before);
    let mut operands = op.operands();
    let mut b = Builder::before(op);
    let inits: Vec<Value> = active_before
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[i]))
        .collect();
    operands.extend(inits);
    rebuild(s, op, &operands, &active_after);
    Ok(())
}

/// `scf.if`, `scf.execute_region` and `scf.index_switch`: results come
/// from the `scf.yield`s of the regions.
fn with_yields(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let results = op.results();
    let active = active_positions(s, &results);
    reject_memrefs(op, &results, &active)?;
    for region in op.regions() {
        s.transform_region(region)?;
    }
    if active.is_empty() {
        return Ok(());
    }
    let yields: Vec<Block> = op
        .regions()
        .iter()
        .flat_map(|r| r.blocks())
        .filter(|b| b.terminator().is_some_and(|t| t.name() == "scf.yield"))
        .collect();
    for block in yields {
        extend_terminator(s, block.terminator().expect("a yield"), 0, &active);
    }
    let operands = op.operands();
    rebuild(s, op, &operands, &active);
    Ok(())
}

fn parallel(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    if op.results().iter().any(|&r| s.is_active(r)) {
        return Err(error_at(
            op,
            "active reductions of scf.parallel are not supported yet; reduce with scf.for",
        ));
    }
    s.transform_region(op.regions()[0])
}

/// Rejects active memrefs carried by a loop, which reverse mode cannot
/// follow yet.
fn reject_carried_memrefs(s: &ReverseState, op: Op) -> Result<(), Error> {
    if op
        .results()
        .iter()
        .any(|&r| r.ty().is_memref() && s.activity.is_active(r))
    {
        return Err(error_at(
            op,
            "reverse mode cannot differentiate memrefs carried by a loop yet",
        ));
    }
    Ok(())
}

/// The adjoints in `adjoints`, with explicit zeros (of the types of
/// `like`) where none flowed, built with `b`.
fn or_zeros(b: &mut Builder, adjoints: Vec<Option<Value>>, like: &[Value]) -> Vec<Value> {
    adjoints
        .into_iter()
        .zip(like)
        .map(|(a, v)| a.unwrap_or_else(|| b.float(v.ty(), 0.0)))
        .collect()
}

/// A counted `scf.for %r = 0 to n` carrying `carried` built at `s.b`, and
/// the builder of its body (before its yield, which yields the carried
/// values until the caller sets its operands).
fn counted_loop(s: &mut ReverseState, n: Value, carried: &[Value], at: Op) -> (Op, Builder, Op) {
    let mut types = vec![s.ctx().index()];
    types.extend(carried.iter().map(|v| v.ty()));
    let (region, block) = Region::with_block(&types, at.loc());
    let zero = s.b.index(0);
    let one = s.b.index(1);
    let mut operands = vec![zero, n, one];
    operands.extend(carried);
    let loop_ =
        s.b.create("scf.for", &operands, &types[1..], &[], &[region], &[]);
    region.destroy();
    let args = block.args();
    let yield_ =
        Builder::at_end(block, at.loc()).create("scf.yield", &args[1..], &[], &[], &[], &[]);
    (loop_, Builder::before(yield_), yield_)
}

/// [`counted_loop`] over the `n` iterations of the primal loop `op`
/// backwards: iteration k = n - 1 - r, recorded for `op`'s inductions.
fn backward_loop(s: &mut ReverseState, n: Value, carried: &[Value], op: Op) -> (Op, Builder, Op) {
    let (loop_, mut inner, yield_) = counted_loop(s, n, carried, op);
    loop_.set_attr(crate::REVERSE_LOOP, s.ctx().attr("unit"));
    let r = loop_.regions()[0].entry().expect("a body").args()[0];
    let index = s.ctx().index();
    let one = inner.index(1);
    let last = inner.value("arith.subi", &[n, one], index, &[]);
    let k = inner.value("arith.subi", &[last, r], index, &[]);
    s.reverse_iteration.insert(op, k);
    (loop_, inner, yield_)
}

/// Marks the reverse `loop_` of a segment loop `op` with the arguments of
/// the adjoint function (positions, [`crate::ZERO_SHADOWS`]) that are
/// zero at the start of each of its iterations: the shadows of the
/// buffers every iteration overwrites before reading them, which the
/// reverse of those writes zeroes (they are zero on entry, as every
/// shadow of a temporary is).
fn mark_zero_shadows(s: &mut ReverseState, op: Op, loop_: Op) {
    let Some(positions) = op.attr(crate::OVERWRITTEN_ARGS) else {
        return;
    };
    let (Some(primal), Some(adjoint)) = (op.enclosing_function(), loop_.enclosing_function())
    else {
        return;
    };
    let (args, entry) = (
        primal.regions()[0].entry().expect("a body").args(),
        adjoint.regions()[0].entry().expect("a body"),
    );
    let zero: Vec<String> = positions
        .int_array()
        .iter()
        .filter_map(|&p| s.existing_shadow(*args.get(p as usize)?))
        .filter(|sh| sh.defining_op().is_none() && sh.block() == entry)
        .map(|sh| sh.arg_number().to_string())
        .collect();
    if !zero.is_empty() {
        let attr = s.ctx().attr(&format!("array<i64: {}>", zero.join(", ")));
        loop_.set_attr(crate::ZERO_SHADOWS, attr);
    }
}

/// `scf.for`: a loop over the iterations backwards, carrying the adjoints
/// of the iteration values; the induction variable is recomputed from the
/// iteration number.
fn for_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    if !s.touches_active(op) {
        return Ok(());
    }
    reject_carried_memrefs(s, op)?;
    if s.reverse_parallel(op)? {
        return Ok(());
    }
    let body = op.regions()[0].entry().expect("a loop body");
    let args = body.args();
    let results = op.results();
    let yielded = activity::yielded(body);
    let carried: Vec<usize> = (0..results.len())
        .filter(|&j| s.has_adjoint(results[j]) || s.has_adjoint(args[1 + j]))
        .collect();
    // A loop that carries no adjoint and writes no memory has no reverse.
    if carried.is_empty() && op.walk().iter().all(|o| activity::computes_only(&o.name())) {
        return Ok(());
    }
    let seeds: Vec<Value> = carried
        .iter()
        .map(|&j| s.take_adjoint_or_zero(results[j]))
        .collect();
    let pairs: Vec<(Value, Value)> = carried
        .iter()
        .zip(&seeds)
        .map(|(&j, &seed)| (yielded[j], seed))
        .collect();
    let accumulators: Vec<Value> = carried.iter().map(|&j| args[1 + j]).collect();
    if crate::rules::ndual::for_loop(s, op, &carried, &seeds)? {
        return Ok(());
    }
    if fused(s, op, body, &pairs, &accumulators)? {
        for (c, &j) in carried.iter().enumerate() {
            s.add_adjoint(op.operand(3 + j), seeds[c]);
        }
        return Ok(());
    }
    // (Not in a split pair, whose forward half is another function.)
    let forward_here = !s.split && op.block().is_within(s.body());
    if let Some(selection) = super::select_loop::selection(op, &carried).filter(|_| forward_here) {
        return super::select_loop::reverse(s, op, &selection, seeds[0]);
    }
    let (lb, ub, step) = (
        s.get(op.operand(0))?,
        s.get(op.operand(1))?,
        s.get(op.operand(2))?,
    );
    let n = trip_count(&mut s.b, lb, ub, step);
    let (loop_, inner, yield_) = backward_loop(s, n, &seeds, op);
    mark_zero_shadows(s, op, loop_);
    let r = loop_.regions()[0].entry().expect("a body").args();
    let seeds: Vec<(Value, Value)> = carried
        .iter()
        .enumerate()
        .map(|(c, &j)| (yielded[j], r[1 + c]))
        .collect();
    let wanted: Vec<Value> = carried.iter().map(|&j| args[1 + j]).collect();
    let adjoints = s.reverse_nested(body, inner, &seeds, &wanted)?;
    let outs = or_zeros(&mut Builder::before(yield_), adjoints, &wanted);
    yield_.set_operands(&outs);
    for (c, &j) in carried.iter().enumerate() {
        s.add_adjoint(op.operand(3 + j), loop_.result(c));
    }
    Ok(())
}

/// Runs the reverse of each iteration of the top-level loop `op` at the
/// end of the iteration itself (before the terminator of `body`, reading
/// its values directly: no tape, no second pass), when that is the same:
/// the function writes no memory (shadow updates then commute), the loop
/// body is flat and calls nothing, every carried value with an adjoint
/// only accumulates (`acc + f`, so its adjoint is the same on every
/// iteration), and those adjoints, `seeds` (the yielded value and its
/// adjoint), are known before the loop (function arguments). Returns
/// whether it did; `accumulators` are the carried block arguments.
fn fused(
    s: &mut ReverseState,
    op: Op,
    body: Block,
    seeds: &[(Value, Value)],
    accumulators: &[Value],
) -> Result<bool, Error> {
    let top = s.body();
    let flat = body
        .ops()
        .iter()
        .all(|o| o.regions().is_empty() && o.name() != "func.call");
    let accumulates = seeds.iter().zip(accumulators).all(|(&(next, _), &acc)| {
        let users = acc.users();
        matches!(users.as_slice(), [add] if add.name() == "arith.addf"
            && add.result(0) == next
            && next.users().len() == 1)
    });
    let known = seeds
        .iter()
        .all(|&(_, seed)| seed.block() == top && seed.defining_op().is_none());
    if op.block() != top || s.writes_memory() || !flat || !accumulates || !known {
        return Ok(false);
    }
    let terminator = body.terminator().expect("a loop body ends in a yield");
    s.set_direct(body);
    s.reverse_nested(body, Builder::before(terminator), seeds, accumulators)?;
    Ok(true)
}

/// `scf.while`: the forward sweep counts the iterations; the reverse is a
/// counted loop over them, reversing the `after` region (but on the first
/// turn, which reverses the final test) and then the `before` region.
fn while_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    if !s.touches_active(op) {
        return Ok(());
    }
    reject_carried_memrefs(s, op)?;
    let regions = op.regions();
    let before = regions[0].entry().expect("a before region");
    let after = regions[1].entry().expect("an after region");
    let forwarded = activity::yielded(before)[1..].to_vec();
    let (results, before_args, after_args) = (op.results(), before.args(), after.args());
    let res_pos: Vec<usize> = (0..results.len())
        .filter(|&j| s.has_adjoint(results[j]) || s.has_adjoint(after_args[j]))
        .collect();
    let arg_pos: Vec<usize> = (0..before_args.len())
        .filter(|&i| s.has_adjoint(before_args[i]))
        .collect();
    let seeds: Vec<Value> = res_pos
        .iter()
        .map(|&j| s.take_adjoint_or_zero(results[j]))
        .collect();
    let count = s.count_iterations(op);
    let n = s.get(count)?;
    let index = s.ctx().index();
    if let Some(passed) = passes_arguments_on(s, before, &forwarded, &res_pos) {
        return while_reverse_simple(s, op, n, &passed, &res_pos, &arg_pos, &seeds);
    }
    let one = s.b.index(1);
    let turns = s.b.value("arith.addi", &[n, one], index, &[]);
    let zeros: Vec<Value> = arg_pos
        .iter()
        .map(|&i| s.b.float(before_args[i].ty(), 0.0))
        .collect();
    let (loop_, mut inner, yield_) = counted_loop(s, turns, &zeros, op);
    let r = loop_.regions()[0].entry().expect("a body").args();
    let k = inner.value("arith.subi", &[n, r[0]], index, &[]);
    s.reverse_iteration.insert(op, k);
    let zero = inner.index(0);
    let eq = s.ctx().attr("0 : i64");
    let first = inner.value(
        "arith.cmpi",
        &[r[0], zero],
        s.ctx().ty("i1"),
        &[("predicate", eq)],
    );
    // The adjoints of the values the test passes on: the seeds on the first
    // turn, else what the reverse of the `after` region gives.
    let types: Vec<Type> = seeds.iter().map(|v| v.ty()).collect();
    let (select, then_block, else_block) = inner.if_else(first, &types);
    Builder::at_end(then_block, op.loc()).create("scf.yield", &seeds, &[], &[], &[], &[]);
    let else_yield =
        Builder::at_end(else_block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
    let next = activity::yielded(after);
    let after_seeds: Vec<(Value, Value)> = arg_pos
        .iter()
        .enumerate()
        .map(|(c, &i)| (next[i], r[1 + c]))
        .collect();
    let wanted: Vec<Value> = res_pos.iter().map(|&j| after_args[j]).collect();
    let adjoints = s.reverse_nested(after, Builder::before(else_yield), &after_seeds, &wanted)?;
    let outs = or_zeros(&mut Builder::before(else_yield), adjoints, &wanted);
    else_yield.set_operands(&outs);

    let test_seeds: Vec<(Value, Value)> = res_pos
        .iter()
        .enumerate()
        .map(|(c, &j)| (forwarded[j], select.result(c)))
        .collect();
    let wanted: Vec<Value> = arg_pos.iter().map(|&i| before_args[i]).collect();
    let adjoints = s.reverse_nested(before, Builder::before(yield_), &test_seeds, &wanted)?;
    let outs = or_zeros(&mut Builder::before(yield_), adjoints, &wanted);
    yield_.set_operands(&outs);
    for (c, &i) in arg_pos.iter().enumerate() {
        s.add_adjoint(op.operand(i), loop_.result(c));
    }
    Ok(())
}

/// When the `before` region of a `scf.while` computes nothing active and
/// passes the values at `res_pos` on as its own arguments, the argument
/// position each comes from.
fn passes_arguments_on(
    s: &ReverseState,
    before: Block,
    forwarded: &[Value],
    res_pos: &[usize],
) -> Option<Vec<usize>> {
    let ops = before.ops();
    let quiet = ops[..ops.len() - 1]
        .iter()
        .all(|o| !o.operands().iter().any(|&v| s.has_adjoint(v)));
    let args = before.args();
    let passed: Option<Vec<usize>> = res_pos
        .iter()
        .map(|&j| args.iter().position(|&a| a == forwarded[j]))
        .collect();
    passed.filter(|_| quiet)
}

/// The reverse of a `scf.while` whose `before` region only tests and
/// passes its arguments on (see [`passes_arguments_on`]): a loop over the
/// `n` iterations of the `after` region alone.
fn while_reverse_simple(
    s: &mut ReverseState,
    op: Op,
    n: Value,
    passed: &[usize],
    res_pos: &[usize],
    arg_pos: &[usize],
    seeds: &[Value],
) -> Result<(), Error> {
    let regions = op.regions();
    let before = regions[0].entry().expect("a before region");
    let after = regions[1].entry().expect("an after region");
    let before_args = before.args();
    // The adjoints of the before arguments, from those of the values they
    // are passed on as.
    let gather = |b: &mut Builder, adjoints: &[Value]| -> Vec<Value> {
        arg_pos
            .iter()
            .map(|&i| {
                let mut sum = None;
                for (c, _) in res_pos.iter().enumerate().filter(|(c, _)| passed[*c] == i) {
                    sum = Some(match sum {
                        None => adjoints[c],
                        Some(v) => b.value("arith.addf", &[v, adjoints[c]], v.ty(), &[]),
                    });
                }
                sum.unwrap_or_else(|| b.float(before_args[i].ty(), 0.0))
            })
            .collect()
    };
    let init = gather(&mut s.b, seeds);
    let next = activity::yielded(after);
    let forwarded = activity::yielded(before)[1..].to_vec();
    let pairs: Vec<(Value, Value)> = arg_pos
        .iter()
        .zip(&init)
        .map(|(&i, &seed)| (next[i], seed))
        .collect();
    let accumulators: Option<Vec<Value>> = arg_pos
        .iter()
        .map(|&i| {
            let j = forwarded.iter().position(|&v| v == before_args[i])?;
            Some(after.args()[j])
        })
        .collect();
    if let Some(accumulators) = accumulators
        && fused(s, op, after, &pairs, &accumulators)?
    {
        for (c, &i) in arg_pos.iter().enumerate() {
            s.add_adjoint(op.operand(i), init[c]);
        }
        return Ok(());
    }
    let (loop_, inner, yield_) = backward_loop(s, n, &init, op);
    let r = loop_.regions()[0].entry().expect("a body").args();
    let after_seeds: Vec<(Value, Value)> = arg_pos
        .iter()
        .enumerate()
        .map(|(c, &i)| (next[i], r[1 + c]))
        .collect();
    let wanted: Vec<Value> = res_pos.iter().map(|&j| after.args()[j]).collect();
    let adjoints = s.reverse_nested(after, inner, &after_seeds, &wanted)?;
    let mut at = Builder::before(yield_);
    let adjoints = or_zeros(&mut at, adjoints, &wanted);
    let outs = gather(&mut at, &adjoints);
    yield_.set_operands(&outs);
    for (c, &i) in arg_pos.iter().enumerate() {
        s.add_adjoint(op.operand(i), loop_.result(c));
    }
    Ok(())
}

/// `scf.if`, `scf.index_switch`, `scf.execute_region`: the same operation
/// on the same (recomputed or taped) selector, each region reversed, the
/// adjoints of the results seeding what each region yields.
fn branches_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    if !s.touches_active(op) {
        return Ok(());
    }
    let results = op.results();
    if results
        .iter()
        .any(|&r| r.ty().is_memref() && s.activity.is_active(r))
    {
        return Err(error_at(
            op,
            "reverse mode cannot differentiate memrefs yielded by a branch yet",
        ));
    }
    let mut seeds = vec![];
    for (j, &r) in results.iter().enumerate() {
        if let Some(a) = s.take_adjoint(r) {
            seeds.push((j, a));
        }
    }
    let operands = op
        .operands()
        .into_iter()
        .map(|v| s.get(v))
        .collect::<Result<Vec<_>, _>>()?;
    let mut regions = vec![];
    let mut blocks = vec![];
    for region in op.regions() {
        if region.blocks().len() > 1 {
            return Err(error_at(op, "reverse mode needs single-block regions here"));
        }
        match region.entry() {
            Some(primal) => {
                let (r, b) = Region::with_block(&[], op.loc());
                regions.push(r);
                blocks.push(Some((primal, b)));
            }
            None => {
                regions.push(Region::new());
                blocks.push(None);
            }
        }
    }
    let attrs: Vec<(&str, Attr)> = op.attr("cases").map(|a| ("cases", a)).into_iter().collect();
    s.b.create(&op.name(), &operands, &[], &attrs, &regions, &[]);
    for r in regions {
        r.destroy();
    }
    for (primal, block) in blocks.into_iter().flatten() {
        let yield_ = Builder::at_end(block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
        let yielded = activity::yielded(primal);
        let seeds: Vec<(Value, Value)> = seeds.iter().map(|&(j, a)| (yielded[j], a)).collect();
        s.reverse_nested(primal, Builder::before(yield_), &seeds, &[])?;
    }
    Ok(())
}

/// `scf.parallel` with reductions is not reversed yet (those without are
/// rewritten as `scf.for` nests before reverse mode runs).
fn parallel_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    if !s.touches_active(op) {
        return Ok(());
    }
    Err(error_at(
        op,
        "reverse mode cannot differentiate scf.parallel with reductions yet; use scf.for",
    ))
}
