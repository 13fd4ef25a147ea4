//! Selections recomputed: an `scf.for` that keeps the minimum (or maximum)
//! of values it computes, `m = d(i) < m ? d(i) : m` with `d(i)` a pure
//! computation of the iteration (k-means' nearest centroid: a distance, a
//! helper's loop inlined), is rewritten before differentiation to carry
//! the index of the iteration it kept as well; after the loop, the kept
//! value is computed once more from that index and replaces the loop's.
//!
//! The loop's own minimum is then used by its comparisons only, so it gets
//! no derivative (`activity.rs`: not useful): the derivative of the
//! selection is that of one computation of `d`, where it was that of every
//! iteration's, taped in reverse mode (`select_loop.rs` handles a kept
//! element that is a plain load, without recomputing). The primal costs
//! one more `d` per run of the loop, and its value is the same: `d` reads
//! memory the loop does not write, at the same indices.

use crate::activity::{computes_only, yielded};
use moonc_ir::ir::{Block, Builder, Op, Value};
use std::collections::{HashMap, HashSet};

/// Rewrites the selection loops of `function` (see the module's doc);
/// returns whether it rewrote any.
pub(crate) fn recompute_selected(function: Op) -> bool {
    let mut rewritten = false;
    for op in function.walk() {
        if op.name() != "scf.for" {
            continue;
        }
        if let Some(selection) = selection(op) {
            rewrite(op, &selection);
            rewritten = true;
        }
    }
    rewritten
}

/// A carried value that a loop selects from values it computes.
struct Selection {
    /// The carried value's position.
    j: usize,
    kept: Kept,
    /// The operations of the loop body that compute the kept element, in
    /// order.
    slice: Vec<Op>,
}

/// The first carried value of the `scf.for` `op` that it selects from a
/// computed element, when the loop writes no memory.
fn selection(op: Op) -> Option<Selection> {
    let body = op.regions()[0].entry()?;
    if !op.walk().iter().all(|o| computes_only(&o.name())) {
        return None;
    }
    (0..op.results().len()).find_map(|j| {
        let result = op.result(j);
        if result.users().is_empty() {
            return None;
        }
        let kept = kept_by_select(body, j)?;
        let element = kept.element;
        let computed = element.ty().is_float()
            && element.block() == body
            && element
                .defining_op()
                .is_some_and(|d| d.name() != "memref.load");
        if !computed {
            return None;
        }
        let slice = slice(body, element)?;
        Some(Selection { j, kept, slice })
    })
}

/// How the value a loop carries at position `j` is kept: yielded as
/// `arith.select %condition, %element, %acc` (or `%condition, %acc,
/// %element`) of its block argument `%acc`, which nothing but that select
/// and the `arith.cmpf`s giving `%condition` uses: a running max or min.
pub(crate) struct Kept {
    pub condition: Value,
    pub element: Value,
    /// Whether the select keeps the element when the condition holds.
    pub element_if_true: bool,
}

impl Kept {
    /// `previous`, or the induction variable `iv` when the select keeps
    /// the element: the index of the last iteration that kept it, built
    /// at `b` in the loop body.
    pub(crate) fn kept_index(&self, b: &mut Builder, iv: Value, previous: Value) -> Value {
        let operands = if self.element_if_true {
            [self.condition, iv, previous]
        } else {
            [self.condition, previous, iv]
        };
        b.value("arith.select", &operands, iv.ty(), &[])
    }
}

/// The [`Kept`] shape of the value the loop body `body` carries at `j`.
pub(crate) fn kept_by_select(body: Block, j: usize) -> Option<Kept> {
    let acc = body.args()[1 + j];
    let next = yielded(body)[j];
    let select = next.defining_op()?;
    if select.name() != "arith.select" || select.block() != body || next.users().len() != 1 {
        return None;
    }
    let [condition, on_true, on_false] = select.operands()[..] else {
        return None;
    };
    let (element, element_if_true) = match (on_true == acc, on_false == acc) {
        (false, true) => (on_true, true),
        (true, false) => (on_false, false),
        _ => return None,
    };
    acc.users()
        .iter()
        .all(|u| *u == select || u.name() == "arith.cmpf" && u.result(0) == condition)
        .then_some(Kept {
            condition,
            element,
            element_if_true,
        })
}

/// The operations of the loop body `body` that compute `element`, in
/// order, when they depend on no carried value (only on the induction
/// variable and values from outside the loop).
fn slice(body: Block, element: Value) -> Option<Vec<Op>> {
    let iv = body.args()[0];
    let mut needed: HashSet<Op> = HashSet::new();
    let mut pending = vec![element];
    while let Some(v) = pending.pop() {
        // Values from outside the loop, and those of the nested regions of
        // operations already needed, are there.
        if v == iv || v.block() != body {
            continue;
        }
        // (A carried value has no defining operation: no slice.)
        let op = v.defining_op()?;
        if !needed.insert(op) {
            continue;
        }
        for o in std::iter::once(op).chain(op.walk()) {
            pending.extend(o.operands());
        }
    }
    Some(
        body.ops()
            .into_iter()
            .filter(|o| needed.contains(o))
            .collect(),
    )
}

/// Carries the kept iteration's index through `op` and recomputes the kept
/// element after it.
fn rewrite(op: Op, sel: &Selection) {
    let body = op.regions()[0].entry().expect("a loop body");
    let iv = body.args()[0];
    let index = iv.ty();
    let ub = op.operand(1);
    let kept_arg = body.add_arg(index, op.loc());
    let terminator = body.terminator().expect("a yield");
    let element = sel.kept.element;
    let kept = sel
        .kept
        .kept_index(&mut Builder::before(terminator), iv, kept_arg);
    let mut yields = terminator.operands();
    yields.push(kept);
    terminator.set_operands(&yields);

    // The loop again, with the index carried from the upper bound ("none").
    let mut operands = op.operands();
    operands.push(ub);
    let mut types: Vec<_> = op.results().iter().map(|r| r.ty()).collect();
    types.push(index);
    let attrs = op.attrs();
    let attrs: Vec<_> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = Builder::before(op).create("scf.for", &operands, &types, &attrs, &op.regions(), &[]);
    for (old, now) in op.results().into_iter().zip(new.results()) {
        old.replace_uses(now);
    }
    op.erase();

    // The element at the kept iteration, or the initial value.
    let last = new.result(types.len() - 1);
    let ctx = new.ctx();
    let mut b = Builder::after(new);
    let i1 = ctx.ty("i1");
    let ne = ctx.attr("1 : i64");
    let found = b.value("arith.cmpi", &[last, ub], i1, &[("predicate", ne)]);
    let ty = element.ty();
    let (recomputed, then, otherwise) = b.if_else(found, &[ty]);
    let mut mapping = HashMap::from([(iv, last)]);
    let mut then_b = Builder::at_end(then, new.loc());
    then_b.clone_remapped(&sel.slice, &mut mapping);
    then_b.create("scf.yield", &[mapping[&element]], &[], &[], &[], &[]);
    let init = new.operand(3 + sel.j);
    Builder::at_end(otherwise, new.loc()).create("scf.yield", &[init], &[], &[], &[], &[]);
    new.result(sel.j).replace_uses(recomputed.result(0));
}
