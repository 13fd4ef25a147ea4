//! The reverse of an `scf.for` that keeps a max or min with `arith.select`
//! (`m = m < x[i] ? x[i] : m`, GradBench's `arr_max`): the forward sweep
//! records which iteration's element the loop kept last, and the reverse
//! adds the result's adjoint to that element's shadow (or to the initial
//! value's adjoint, when no element was kept).
//!
//! Reversed iteration by iteration instead, each select tapes both the
//! value it compared and the element (two values an iteration) and passes
//! the adjoint down a chain of selects. The record is one index per run of
//! the loop, and it stays right when the elements' buffer is overwritten
//! later (gmm's `main_term`, refilled for every point), where scanning the
//! buffer again for the result (as `rules/ndual/selection.rs` does for
//! `maximumf` over memory that stays unchanged) could not.

use super::ndual::add_to_element;
use crate::adjoint::ReverseState;
use crate::recompute_selected::{Kept, kept_by_select};
use moonc_ir::Error;
use moonc_ir::ir::{Block, Builder, Op, Value};
use std::collections::HashMap;

/// A loop that keeps one of its elements with a select.
pub(super) struct Selection {
    /// The position of the carried value.
    j: usize,
    kept: Kept,
    /// The load that gives the element.
    load: Op,
}

/// Whether the `scf.for` `op`, whose only carried value with an adjoint
/// is the one at `carried`, keeps a max or min with a select: the value
/// `acc` is carried as `arith.select %c, %x, %acc` (or `%c, %acc, %x`)
/// with `%x` a `memref.load` in the body, of a buffer defined outside it,
/// at indices computed from the induction variable, `acc` used by nothing but that select and
/// `arith.cmpf`s giving `%c`, and the body only loads and computes (no
/// stores, calls or regions), so that nothing else of it needs a reverse.
pub(super) fn selection(op: Op, carried: &[usize]) -> Option<Selection> {
    let &[j] = carried else {
        return None;
    };
    let body = op.regions()[0].entry()?;
    let ops = body.ops();
    let pure = ops[..ops.len() - 1].iter().all(|o| {
        let name = o.name();
        o.regions().is_empty()
            && (name == "memref.load"
                || name.starts_with("arith.")
                || name.starts_with("math.")
                || name.starts_with("index."))
    });
    if !pure {
        return None;
    }
    let kept = kept_by_select(body, j)?;
    let load = kept.element.defining_op().filter(|l| {
        l.name() == "memref.load" && l.block() == body && !l.operand(0).block().is_within(body)
    })?;
    let iv = body.args()[0];
    let indices_known = load.operands()[1..]
        .iter()
        .all(|&v| computed_from(v, iv, body, 0));
    indices_known.then_some(Selection { j, kept, load })
}

/// The reverse of the selection loop `op` (see [`selection`]) with the
/// adjoint `seed` of its result. Makes the forward loop record, in a cell,
/// the induction variable of the last iteration that kept its element
/// (the upper bound when none did), and reads it after the loop.
pub(super) fn reverse(
    s: &mut ReverseState,
    op: Op,
    sel: &Selection,
    seed: Value,
) -> Result<(), Error> {
    let ctx = s.ctx();
    let index = ctx.index();
    let body = op.regions()[0].entry().expect("a loop body");
    let iv = body.args()[0];
    let ub = op.operand(1);

    // The forward sweep: the cell (at the top of the function, as an
    // alloca in a loop would grow the stack), set to "none" before the loop
    // and to the induction variable whenever the select keeps the element.
    let mut outer = op;
    while outer.block() != s.body() {
        outer = outer.block().parent_op();
    }
    let cell = Builder::before(outer).alloc("memref.alloca", &[], ctx.ty("memref<index>"));
    Builder::before(op).create("memref.store", &[ub, cell], &[], &[], &[], &[]);
    let mut b = Builder::before(body.terminator().expect("a yield"));
    let best = b.value("memref.load", &[cell], index, &[]);
    let kept = sel.kept.kept_index(&mut b, iv, best);
    b.create("memref.store", &[kept, cell], &[], &[], &[], &[]);
    let last = Builder::after(op).value("memref.load", &[cell], index, &[]);
    // A top-level value is still there in the reverse sweep; a value
    // inside a loop is taped per iteration.
    let last = if op.block() == s.body() {
        last
    } else {
        s.tape(last)?
    };

    // The reverse: the kept element's shadow, or the initial value, gets
    // the adjoint.
    let ub = s.get(ub)?;
    let ne = ctx.attr("1 : i64");
    let i1 = ctx.ty("i1");
    let found =
        s.b.value("arith.cmpi", &[last, ub], i1, &[("predicate", ne)]);
    if s.activity.is_active(sel.load.operand(0)) {
        let shadow = s.shadow(sel.load, sel.load.operand(0))?;
        let (_, then, otherwise) = s.b.if_else(found, &[]);
        Builder::at_end(otherwise, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
        let end = Builder::at_end(then, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
        let mut b = Builder::before(end);
        let mut mapping = HashMap::from([(iv, last)]);
        let mut at = vec![];
        for &v in &sel.load.operands()[1..] {
            at.push(at_iteration(s, &mut b, v, body, &mut mapping)?);
        }
        add_to_element(&mut b, shadow, &at, seed);
    }
    let zero = s.b.float(seed.ty(), 0.0);
    let to_init =
        s.b.value("arith.select", &[found, zero, seed], seed.ty(), &[]);
    s.add_adjoint(op.operand(3 + sel.j), to_init);
    Ok(())
}

/// How many operations deep an index may be computed in the loop body.
const MAX_DEPTH: usize = 16;

/// Whether the index `v` is the induction variable `iv`, a value defined
/// outside the loop body `body`, or integer arithmetic of such values.
fn computed_from(v: Value, iv: Value, body: Block, depth: usize) -> bool {
    if v == iv || !v.block().is_within(body) {
        return true;
    }
    v.defining_op().is_some_and(|o| {
        depth < MAX_DEPTH
            && (o.name().starts_with("arith.") || o.name().starts_with("index."))
            && o.regions().is_empty()
            && o.results().iter().all(|r| !r.ty().is_float())
            && o.operands()
                .into_iter()
                .all(|x| computed_from(x, iv, body, depth + 1))
    })
}

/// The index `v` of the loop body `body` (see [`computed_from`]) at the
/// iteration `mapping` gives the induction variable of, rebuilt with `b`
/// in the reverse sweep.
fn at_iteration(
    s: &mut ReverseState,
    b: &mut Builder,
    v: Value,
    body: Block,
    mapping: &mut HashMap<Value, Value>,
) -> Result<Value, Error> {
    if let Some(&m) = mapping.get(&v) {
        return Ok(m);
    }
    if !v.block().is_within(body) {
        return s.get(v);
    }
    let o = v.defining_op().expect("an operation (computed_from)");
    let mut operands = vec![];
    for x in o.operands() {
        operands.push(at_iteration(s, b, x, body, mapping)?);
    }
    let clone = b.insert(o.clone_detached());
    clone.set_operands(&operands);
    for (old, new) in o.results().into_iter().zip(clone.results()) {
        mapping.insert(old, new);
    }
    Ok(mapping[&v])
}
