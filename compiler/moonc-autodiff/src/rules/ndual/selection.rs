//! The reverse of a qualifying `scf.for` that selects a max or min: a scan
//! finds the selected element again, whose inputs get the adjoint.

use super::loops::{add_to_cell, add_to_element, clone_iteration};
use super::partials;
use super::plan::LoopPlan;
use crate::adjoint::ReverseState;
use crate::adjoint::trip_count;
use moonc_ir::Error;
use moonc_ir::ir::{Builder, Op, Region, Value};

/// The reverse of a max/min selection loop: a scan (which vectorizes)
/// finds the selected iteration again, the first or last element equal to
/// the result as the derivative rule breaks ties; the adjoint goes to that
/// element's inputs through its partials, or to the initial value when it
/// was selected. A NaN result passes no adjoint on.
pub(super) fn emit_selection(
    s: &mut ReverseState,
    op: Op,
    plan: &LoopPlan,
    seed: Value,
) -> Result<(), Error> {
    let (j, f, first) = plan.selection.expect("a selection");
    let ctx = s.ctx();
    let index = ctx.index();
    let i1 = ctx.ty("i1");
    let result = op.result(j);
    let init = op.operand(3 + j);
    let (lb, step) = (op.operand(0), op.operand(2));
    let n = trip_count(&mut s.b, lb, op.operand(1), step);
    let zero = s.b.index(0);
    let one = s.b.index(1);
    let none = if first { n } else { s.b.index(-1) };
    let mut element: Vec<Op> = plan.all_loads.clone();
    element.extend(&plan.ops);
    let body = op.regions()[0].entry().expect("a loop body");
    element.sort_by_key(|o| body.ops().iter().position(|b| b == o));
    let eq = ctx.attr("1 : i64");

    // The scan: the first (last) iteration whose element equals the result;
    // none runs when the adjoint is zero (as in lse, where the max's
    // adjoint cancels).
    let zero_seed = s.b.float(seed.ty(), 0.0);
    let une = ctx.attr("13 : i64");
    let nonzero =
        s.b.value("arith.cmpf", &[seed, zero_seed], i1, &[("predicate", une)]);
    let scanned = s.b.value("arith.select", &[nonzero, n, zero], index, &[]);
    let (region, block) = Region::with_block(&[index, index], op.loc());
    let scan = s.b.create(
        "scf.for",
        &[zero, scanned, one, none],
        &[index],
        &[],
        &[region],
        &[],
    );
    region.destroy();
    let mut b = Builder::at_end(block, op.loc());
    let [r, best] = block.args()[..] else {
        unreachable!("two arguments")
    };
    let offset = b.value("arith.muli", &[r, step], index, &[]);
    let i = b.value("arith.addi", &[lb, offset], index, &[]);
    let mapping = clone_iteration(&mut b, op, i, &element);
    let hit = b.value(
        "arith.cmpf",
        &[mapping[&f], result],
        i1,
        &[("predicate", eq)],
    );
    let candidate = b.value("arith.select", &[hit, r, none], index, &[]);
    let pick = if first { "arith.minsi" } else { "arith.maxsi" };
    let next = b.value(pick, &[best, candidate], index, &[]);
    b.create("scf.yield", &[next], &[], &[], &[], &[]);
    let w = scan.result(0);

    // The initial value is selected when it equals the result (ties go to
    // it when it is the first operand) or, else, when no element does.
    let found = s.b.value(
        "arith.cmpi",
        &[w, none],
        i1,
        &[("predicate", ctx.attr("1 : i64"))],
    );
    let t =
        s.b.value("arith.constant", &[], i1, &[("value", ctx.attr("true"))]);
    let to_init = if first {
        s.b.value("arith.cmpf", &[init, result], i1, &[("predicate", eq)])
    } else {
        s.b.value("arith.xori", &[found, t], i1, &[])
    };
    let to_init_seed =
        s.b.value("arith.select", &[to_init, seed, zero_seed], seed.ty(), &[]);
    s.add_adjoint(init, to_init_seed);
    let elsewhere = s.b.value("arith.xori", &[to_init, t], i1, &[]);
    let to_element = s.b.value("arith.andi", &[found, elsewhere], i1, &[]);

    // The selected element's inputs get the adjoint times their partials.
    let cells: Vec<Value> = plan
        .invariants
        .iter()
        .map(|v| s.b.zero_cell(v.ty()))
        .collect();
    let (_, then, otherwise) = s.b.if_else(to_element, &[]);
    Builder::at_end(otherwise, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
    let end = Builder::at_end(then, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
    let mut b = Builder::before(end);
    let offset = b.value("arith.muli", &[w, step], index, &[]);
    let i = b.value("arith.addi", &[lb, offset], index, &[]);
    let mapping = clone_iteration(&mut b, op, i, &element);
    let mut inputs: Vec<Value> = plan.loads.iter().map(|l| mapping[&l.result(0)]).collect();
    inputs.extend(&plan.invariants);
    let ops: Vec<Op> = plan
        .ops
        .iter()
        .map(|o| mapping[&o.results()[0]].defining_op().expect("a clone"))
        .collect();
    let parts = partials(&mut b, &ops, &inputs, &[mapping[&f]]);
    for (k, &p) in parts[0].iter().enumerate() {
        let contribution = b.value("arith.mulf", &[seed, p], p.ty(), &[]);
        if let Some(load) = plan.loads.get(k) {
            let shadow = s.shadow(*load, load.operand(0))?;
            let indices: Vec<Value> = load.operands()[1..]
                .iter()
                .map(|v| *mapping.get(v).unwrap_or(v))
                .collect();
            add_to_element(&mut b, shadow, &indices, contribution);
        } else {
            add_to_cell(&mut b, cells[k - plan.loads.len()], contribution);
        }
    }
    for (&v, cell) in plan.invariants.iter().zip(cells) {
        let total = s.b.value("memref.load", &[cell], v.ty(), &[]);
        s.add_adjoint(v, total);
    }
    Ok(())
}
