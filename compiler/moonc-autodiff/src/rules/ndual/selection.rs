//! The reverse of a qualifying `scf.for` that selects a max or min: a scan
//! finds the selected element again, whose inputs get the adjoint.

use super::loops::{add_to_cell, add_to_element, clone_iteration};
use super::partials;
use super::plan::LoopPlan;
use crate::adjoint::ReverseState;
use crate::adjoint::trip_count;
use moonc_ir::Error;
use moonc_ir::ir::{Block, Builder, Op, Region, Value};

/// The reverse of a max/min selection loop: a scan (which vectorizes)
/// finds the selected iteration again, the first or last element equal to
/// the result as the derivative rule breaks ties; the adjoint goes to that
/// element's inputs through its partials, or to the initial value when it
/// was selected. A NaN result passes no adjoint on.
///
/// When a later loop of the forward sweep runs over the same elements
/// (lse: the max, then the sum of `exp(x_i - m)`), that loop finds the
/// selected element as it goes (see [`host`]) and the scan only covers
/// what the host's range leaves out, usually nothing: the buffer is then
/// read once less.
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
    let none = if first { n } else { s.b.index(-1) };
    let mut element: Vec<Op> = plan.all_loads.clone();
    element.extend(&plan.ops);
    let body = op.regions()[0].entry().expect("a loop body");
    element.sort_by_key(|o| body.ops().iter().position(|b| b == o));
    let eq = ctx.attr("1 : i64");
    let selected = Selected {
        op,
        element,
        f,
        result,
        first,
    };

    // The scan: the first (last) iteration whose element equals the result;
    // none runs when the adjoint is zero (as in lse, where the max's
    // adjoint cancels).
    let zero_seed = s.b.float(seed.ty(), 0.0);
    let une = ctx.attr("13 : i64");
    let nonzero =
        s.b.value("arith.cmpf", &[seed, zero_seed], i1, &[("predicate", une)]);
    let w = match host(s, op, plan) {
        None => {
            let scanned = s.b.value("arith.select", &[nonzero, n, zero], index, &[]);
            selected.scan(&mut s.b, zero, scanned, none, none)
        }
        Some(host) => {
            let (cell, nowhere) = selected.hosted(host);
            let b = &mut s.b;
            let (ult, ne) = (ctx.attr("6 : i64"), ctx.attr("1 : i64"));
            // The host's find, if it is one of the selection's iterations.
            let i = b.value("memref.load", &[cell], index, &[]);
            let r = b.value("arith.subi", &[i, lb], index, &[]);
            let inside = b.value("arith.cmpi", &[r, n], i1, &[("predicate", ult)]);
            let some = b.value("arith.cmpi", &[i, nowhere], i1, &[("predicate", ne)]);
            let inside = b.value("arith.andi", &[inside, some], i1, &[]);
            let in_host = b.value("arith.select", &[inside, r, none], index, &[]);
            // The host finds nothing within the selection's range when an
            // element before (after) that range comes first (last): then
            // every iteration is scanned.
            let hidden = if first {
                let slt = ctx.attr("2 : i64");
                b.value("arith.cmpi", &[i, lb], i1, &[("predicate", slt)])
            } else {
                let last = b.value("arith.addi", &[lb, n], index, &[]);
                let sge = ctx.attr("5 : i64");
                b.value("arith.cmpi", &[i, last], i1, &[("predicate", sge)])
            };
            let hidden = b.value("arith.andi", &[hidden, some], i1, &[]);
            // Otherwise only the iterations before and after the host's
            // range (usually none).
            let clamp = |b: &mut Builder, at: Value| {
                let r = b.value("arith.subi", &[at, lb], index, &[]);
                let r = b.value("arith.maxsi", &[r, zero], index, &[]);
                b.value("arith.minsi", &[r, n], index, &[])
            };
            let before = clamp(b, host.operand(0));
            let after = clamp(b, host.operand(1));
            let after = b.value("arith.maxsi", &[after, before], index, &[]);
            let before = b.value("arith.select", &[hidden, n, before], index, &[]);
            let before = b.value("arith.select", &[nonzero, before, zero], index, &[]);
            let end = b.value("arith.select", &[nonzero, n, after], index, &[]);
            let w = selected.scan(b, zero, before, in_host, none);
            let w = selected.scan(b, after, end, w, none);
            b.value("arith.select", &[nonzero, w, none], index, &[])
        }
    };

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
    let mapping = clone_iteration(&mut b, op, i, &selected.element);
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

/// A selection loop's element and how ties go: what a scan compares.
struct Selected {
    op: Op,
    /// The loads and operations computing the element `f` (step 1 from
    /// the loop's lower bound).
    element: Vec<Op>,
    f: Value,
    result: Value,
    first: bool,
}

impl Selected {
    /// The iteration `r` (element `i`) if its element equals the result,
    /// else `none`.
    fn candidate(&self, b: &mut Builder, i: Value, r: Value, none: Value) -> Value {
        let ctx = b.ctx;
        let mapping = clone_iteration(b, self.op, i, &self.element);
        let oeq = ctx.attr("1 : i64");
        let hit = b.value(
            "arith.cmpf",
            &[mapping[&self.f], self.result],
            ctx.ty("i1"),
            &[("predicate", oeq)],
        );
        b.value("arith.select", &[hit, r, none], ctx.index(), &[])
    }

    /// The earlier (later) of two iterations, `none` meaning neither.
    fn pick(&self, b: &mut Builder, x: Value, y: Value) -> Value {
        let pick = if self.first {
            "arith.minsi"
        } else {
            "arith.maxsi"
        };
        b.value(pick, &[x, y], b.ctx.index(), &[])
    }

    /// A loop over the iterations `[from, to)`: the first (last) whose
    /// element equals the result, picked against `start`.
    fn scan(&self, b: &mut Builder, from: Value, to: Value, start: Value, none: Value) -> Value {
        let index = b.ctx.index();
        let one = b.index(1);
        let (region, block) = Region::with_block(&[index, index], self.op.loc());
        let scan = b.create(
            "scf.for",
            &[from, to, one, start],
            &[index],
            &[],
            &[region],
            &[],
        );
        region.destroy();
        let mut b = Builder::at_end(block, self.op.loc());
        let [r, best] = block.args()[..] else {
            unreachable!("two arguments")
        };
        let (lb, step) = (self.op.operand(0), self.op.operand(2));
        let offset = b.value("arith.muli", &[r, step], index, &[]);
        let i = b.value("arith.addi", &[lb, offset], index, &[]);
        let candidate = self.candidate(&mut b, i, r, none);
        let next = self.pick(&mut b, best, candidate);
        b.create("scf.yield", &[next], &[], &[], &[], &[]);
        scan.result(0)
    }

    /// Makes the loop `host` find the first (last) of its elements that
    /// equals the result, with three operations an element: a cell, set
    /// before the loop, holding that element's index, or `none`, the
    /// host's upper bound (its lower bound - 1) when none does. (Against a
    /// constant `none` LLVM's vectorizer rejects the reduction.)
    fn hosted(&self, host: Op) -> (Value, Value) {
        let mut b = Builder::before(host);
        let none = if self.first {
            host.operand(1)
        } else {
            let one = b.index(1);
            b.value("arith.subi", &[host.operand(0), one], b.ctx.index(), &[])
        };
        let cell = b.alloc("memref.alloca", &[], b.ctx.ty("memref<index>"));
        b.create("memref.store", &[none, cell], &[], &[], &[], &[]);
        let body = host.regions()[0].entry().expect("a loop body");
        let mut b = Builder::before(body.terminator().expect("a yield"));
        b.loc = self.op.loc();
        let i = body.args()[0];
        let candidate = self.candidate(&mut b, i, i, none);
        let best = b.value("memref.load", &[cell], b.ctx.index(), &[]);
        let next = self.pick(&mut b, best, candidate);
        b.create("memref.store", &[next, cell], &[], &[], &[], &[]);
        (cell, none)
    }
}

/// A loop of the forward sweep after the selection loop `op` that loads
/// the selected element's buffer at each of its own elements: `op` and it
/// step by 1, every load of the element reads a 1-D buffer at `op`'s
/// induction variable (an index, as the host's), and nothing writes that
/// buffer after `op` (so any later loop sees the elements `op` saw). Not
/// in a split pair, whose
/// halves are separate functions.
fn host(s: &ReverseState, op: Op, plan: &LoopPlan) -> Option<Op> {
    if s.split || op.operand(2).index_constant() != Some(1) || plan.all_loads.is_empty() {
        return None;
    }
    let iv = op.regions()[0].entry()?.args()[0];
    let buffer = plan.all_loads[0].operand(0);
    let direct = |load: &Op| load.operands()[1..] == [iv] && s.unchanged_after(*load);
    if !plan.all_loads.iter().all(direct) {
        return None;
    }
    let ops = s.body().ops();
    let at = ops.iter().position(|&o| o == op)?;
    ops[at + 1..]
        .iter()
        .take_while(|&&o| o != s.split_marker)
        .find(|h| {
            h.name() == "scf.for"
                && h.operand(2).index_constant() == Some(1)
                && h.regions()[0].entry().is_some_and(|body| {
                    let j = body.args()[0];
                    j.ty().is_index()
                        && in_order_sum(body)
                        && body.ops().iter().any(|l| {
                            l.name() == "memref.load"
                                && l.operand(0) == buffer
                                && l.operands()[1..] == [j]
                        })
                })
        })
        .copied()
}

/// Whether the loop body `body` carries a float sum in the program's order
/// (`arith.addf` of a carried value, not marked `reassoc`).
fn in_order_sum(body: Block) -> bool {
    let carried = &body.args()[1..];
    let yielded = body.terminator().map(|t| t.operands()).unwrap_or_default();
    yielded.iter().filter_map(|v| v.defining_op()).any(|add| {
        add.name() == "arith.addf"
            && add.operands().iter().any(|v| carried.contains(v))
            && !add.attr("fastmath").is_some_and(|f| {
                let flags = f.to_string();
                flags.contains("reassoc") || flags.contains("<fast>")
            })
    })
}
