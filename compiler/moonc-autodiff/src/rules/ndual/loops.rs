//! The fused reverse of a qualifying `scf.for` that sums or stores: its
//! partials computed in the forward loop and accumulated there, stored on
//! a tape or recomputed, then a loop over the iterations backwards.

use super::plan::LoopPlan;
use super::{constant, partials, weighted};
use crate::adjoint::ReverseState;
use crate::adjoint::trip_count;
use moonc_ir::Error;
use moonc_ir::ir::{Block, Builder, Op, Region, Value};
use std::collections::HashMap;

/// Emits the fused reverse of the summing or storing loop `op` by `plan`
/// (`seeds`: the adjoints of its results at `carried`), accumulated in the
/// forward loop itself when `in_loop`.
pub(super) fn emit_loop(
    s: &mut ReverseState,
    op: Op,
    plan: &LoopPlan,
    carried: &[usize],
    seeds: &[Value],
    in_loop: bool,
) -> Result<(), Error> {
    let body: Block = op.regions()[0].entry().expect("a loop body");
    let yield_ = body.terminator().expect("a yield");
    let seed_of = |j: usize| seeds[carried.iter().position(|&c| c == j).expect("carried")];
    let mut inputs: Vec<Value> = plan.loads.iter().map(|l| l.result(0)).collect();
    inputs.extend(&plan.invariants);
    let mut outputs: Vec<Value> = plan.sums.iter().map(|&(_, f)| f).collect();
    outputs.extend(plan.stores.iter().map(|st| st.operand(0)));
    let loads = plan.loads.len();
    let sums = plan.sums.len();
    let mut fb = Builder::before(yield_);
    let parts = partials(&mut fb, &plan.ops, &inputs, &outputs);

    // Partials with respect to invariants, summed over the sums' elements.
    let mut pre = Builder::before(op);
    let mut cells = vec![];
    for (o, row) in parts.iter().enumerate().take(plan.sums.len()) {
        for (v, part) in plan.invariants.iter().zip(&row[loads..]) {
            let cell = pre.zero_cell(v.ty());
            add_to_cell(&mut fb, cell, *part);
            cells.push((o, *v, cell));
        }
    }
    if in_loop {
        let sum_seeds: Vec<Option<Value>> =
            plan.sums.iter().map(|&(j, _)| Some(seed_of(j))).collect();
        for (k, load) in plan.loads.iter().enumerate() {
            let column: Vec<Value> = parts.iter().map(|p| p[k]).collect();
            let total = weighted(&mut fb, &sum_seeds, &column).expect("a sum");
            let shadow = s.shadow(*load, load.operand(0))?;
            add_to_element(&mut fb, shadow, &load.operands()[1..], total);
        }
    } else if !plan.loads.is_empty() || !plan.stores.is_empty() {
        // Store the per-element partials, indexed by iteration number.
        let n = trip_count(&mut pre, op.operand(0), op.operand(1), op.operand(2));
        let mut iteration = None;
        let mut tape: HashMap<(usize, usize), Saved> = HashMap::new();
        for (o, row) in parts.iter().enumerate() {
            for (k, &p) in row.iter().enumerate() {
                if !(k < loads || o >= sums) || constant(p).is_some() {
                    continue;
                }
                if let Some(ops) = recomputable(s, plan, body, p) {
                    tape.insert((o, k), Saved::Recomputed(ops));
                    continue;
                }
                let at = *iteration.get_or_insert_with(|| s.forward_iteration(op));
                let buffer = s.tape_buffer(&mut pre, &[n], p.ty());
                fb.create("memref.store", &[p, buffer, at], &[], &[], &[], &[]);
                tape.insert((o, k), Saved::Stored(buffer));
            }
        }
        reverse_loop(s, op, plan, &parts, &tape, n, &seed_of)?;
    }
    for (o, v, cell) in cells {
        let total = s.b.value("memref.load", &[cell], v.ty(), &[]);
        let seed = seed_of(plan.sums[o].0);
        let contribution = s.b.value("arith.mulf", &[seed, total], v.ty(), &[]);
        s.add_adjoint(v, contribution);
    }
    Ok(())
}

/// Where the reverse sweep finds a per-element partial of the forward loop.
enum Saved {
    /// Stored into this tape buffer, indexed by iteration number.
    Stored(Value),
    /// Computed again by these operations of the body (in order).
    Recomputed(Vec<Op>),
}

/// The operations of the loop `body` that compute the partial `p` again in
/// the reverse sweep, when that is cheaper than a tape: at most
/// [`RECOMPUTE_OPS`] arith operations on constants, values from outside the
/// loop and at most two loads of memory the call never writes (x in a sum
/// of w * x); `None` otherwise.
fn recomputable(s: &ReverseState, plan: &LoopPlan, body: Block, p: Value) -> Option<Vec<Op>> {
    let mut ops: Vec<Op> = vec![];
    let mut pending = vec![p];
    while let Some(v) = pending.pop() {
        if !v.block().is_within(body) {
            continue;
        }
        let op = v.defining_op()?;
        if ops.contains(&op) || plan.index_ops.contains(&op) {
            continue;
        }
        let name = op.name();
        if name == "memref.load" {
            if !plan.all_loads.contains(&op) || s.is_written(op.operand(0)) {
                return None;
            }
        } else if name.starts_with("arith.") && op.regions().is_empty() {
            pending.extend(op.operands());
        } else {
            return None;
        }
        ops.push(op);
    }
    let loads = ops.iter().filter(|o| o.name() == "memref.load").count();
    if loads > 2 || ops.len() - loads > RECOMPUTE_OPS {
        return None;
    }
    let order = body.ops();
    ops.sort_by_key(|op| order.iter().position(|o| o == op));
    Some(ops)
}

/// The most arith operations a partial is recomputed by instead of stored.
const RECOMPUTE_OPS: usize = 8;

/// The reverse sweep of a loop whose partials were saved: a loop over the
/// iterations backwards that reads and zeroes the stored elements'
/// adjoints, then adds each output's adjoint times its partial to the
/// inputs' adjoints.
fn reverse_loop(
    s: &mut ReverseState,
    op: Op,
    plan: &LoopPlan,
    parts: &[Vec<Value>],
    tape: &HashMap<(usize, usize), Saved>,
    n: Value,
    seed_of: &dyn Fn(usize) -> Value,
) -> Result<(), Error> {
    let ctx = s.ctx();
    let index = ctx.index();
    let loads = plan.loads.len();
    let sums = plan.sums.len();
    // Invariants' adjoints from the stored elements, summed over them.
    let cells: Vec<(Value, Value)> = plan
        .invariants
        .iter()
        .filter(|_| !plan.stores.is_empty())
        .map(|&v| (v, s.b.zero_cell(v.ty())))
        .collect();
    let (lb, step) = (op.operand(0), op.operand(2));
    let zero = s.b.index(0);
    let one = s.b.index(1);
    let (region, block) = Region::with_block(&[index], op.loc());
    s.b.create("scf.for", &[zero, n, one], &[], &[], &[region], &[]);
    region.destroy();
    let end = Builder::at_end(block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
    let mut b = Builder::before(end);
    let r = block.args()[0];
    let last = b.value("arith.subi", &[n, one], index, &[]);
    let iteration = b.value("arith.subi", &[last, r], index, &[]);
    let offset = b.value("arith.muli", &[iteration, step], index, &[]);
    let i = b.value("arith.addi", &[lb, offset], index, &[]);
    let mapping = clone_iteration(&mut b, op, i, &plan.index_ops);
    let at = |v: &Value| *mapping.get(v).unwrap_or(v);
    let mut seeds: Vec<Option<Value>> = plan.sums.iter().map(|&(j, _)| Some(seed_of(j))).collect();
    seeds.resize(parts.len(), None);
    for (o, store) in plan.stores.iter().enumerate().rev() {
        let shadow = s.shadow(*store, store.operand(1))?;
        let mut operands = vec![shadow];
        operands.extend(store.operands()[2..].iter().map(at));
        let ty = shadow.ty().element();
        let seed = b.value("memref.load", &operands, ty, &[]);
        let zero = b.float(ty, 0.0);
        let mut operands = vec![zero];
        operands.extend([shadow]);
        operands.extend(store.operands()[2..].iter().map(at));
        b.create("memref.store", &operands, &[], &[], &[], &[]);
        if s.activity.is_active(store.operand(0)) {
            seeds[sums + o] = Some(seed);
        }
    }
    for k in 0..loads + plan.invariants.len() {
        // Outputs whose partials the forward sweep stored or are constants.
        let outputs: Vec<usize> = (0..parts.len())
            .filter(|&o| k < loads || o >= sums)
            .collect();
        let column: Vec<Value> = outputs
            .iter()
            .map(|&o| match tape.get(&(o, k)) {
                Some(&Saved::Stored(buffer)) => {
                    b.value("memref.load", &[buffer, iteration], parts[o][k].ty(), &[])
                }
                Some(Saved::Recomputed(ops)) => {
                    let mut renamed = mapping.clone();
                    b.clone_remapped(ops, &mut renamed);
                    let p = parts[o][k];
                    *renamed.get(&p).unwrap_or(&p)
                }
                None => b
                    .insert(
                        parts[o][k]
                            .defining_op()
                            .expect("a constant")
                            .clone_detached(),
                    )
                    .result(0),
            })
            .collect();
        let column_seeds: Vec<Option<Value>> = outputs.iter().map(|&o| seeds[o]).collect();
        let Some(total) = weighted(&mut b, &column_seeds, &column) else {
            continue;
        };
        if k < loads {
            let load = plan.loads[k];
            let shadow = s.shadow(load, load.operand(0))?;
            let indices: Vec<Value> = load.operands()[1..].iter().map(at).collect();
            let old = add_to_element(&mut b, shadow, &indices, total);
            if covers(op, plan, load) {
                old.set_attr(crate::COVERS, ctx.attr("unit"));
            }
        } else {
            let (_, cell) = cells[k - loads];
            add_to_cell(&mut b, cell, total);
        }
    }
    for (v, cell) in cells {
        let total = s.b.value("memref.load", &[cell], v.ty(), &[]);
        s.add_adjoint(v, total);
    }
    Ok(())
}

/// Whether the reverse loop of `op` adds to every element of `load`'s
/// shadow once: `op` runs over `[0, dim)` of the 1-D buffer `load` reads,
/// at its induction variable, and the loop neither loads that buffer again
/// nor stores to it. (Such a loop may store the element instead of adding
/// to it when nothing has touched the shadow before; see
/// [`crate::OVERWRITE_SHADOWS`].)
fn covers(op: Op, plan: &LoopPlan, load: Op) -> bool {
    let buffer = load.operand(0);
    let iv = op.regions()[0].entry().expect("a loop body").args()[0];
    let whole = op.operand(1).defining_op().is_some_and(|dim| {
        dim.name() == "memref.dim"
            && dim.operand(0) == buffer
            && dim.operand(1).index_constant() == Some(0)
    });
    buffer.ty().shape().len() == 1
        && whole
        && op.operand(0).index_constant() == Some(0)
        && op.operand(2).index_constant() == Some(1)
        && load.operands()[1..] == [iv]
        && plan
            .all_loads
            .iter()
            .filter(|l| l.operand(0) == buffer)
            .count()
            == 1
        && plan.stores.iter().all(|st| st.operand(1) != buffer)
}

/// Clones `ops` of the body of the loop `op` with `b`, at the induction
/// value `i`; returns the mapping from the body's values to the clones'.
pub(super) fn clone_iteration(
    b: &mut Builder,
    op: Op,
    i: Value,
    ops: &[Op],
) -> HashMap<Value, Value> {
    let body = op.regions()[0].entry().expect("a loop body");
    let mut mapping = HashMap::from([(body.args()[0], i)]);
    b.clone_remapped(ops, &mut mapping);
    mapping
}

/// `cell += value` for a `memref<T>` cell that sums a derivative over a
/// loop's iterations. That order is the derivative's own, not one the
/// program wrote, so the sum is free to reassociate (docs/autodiff.md,
/// "Reduction order"): LLVM may vectorize the loop, which an ordered sum
/// would keep scalar.
pub(super) fn add_to_cell(b: &mut Builder, cell: Value, value: Value) {
    let old = b.value("memref.load", &[cell], value.ty(), &[]);
    let reassoc = b.ctx.attr("#arith.fastmath<reassoc>");
    let sum = b.value(
        "arith.addf",
        &[old, value],
        value.ty(),
        &[("fastmath", reassoc)],
    );
    b.create("memref.store", &[sum, cell], &[], &[], &[], &[]);
}

/// `buffer[indices] += value`; returns the load of the old element.
pub(crate) fn add_to_element(
    b: &mut Builder,
    buffer: Value,
    indices: &[Value],
    value: Value,
) -> Op {
    let mut operands = vec![buffer];
    operands.extend(indices);
    let old = b.value("memref.load", &operands, value.ty(), &[]);
    let sum = b.value("arith.addf", &[old, value], value.ty(), &[]);
    let mut operands = vec![sum, buffer];
    operands.extend(indices);
    b.create("memref.store", &operands, &[], &[], &[], &[]);
    old.defining_op().expect("a load")
}
