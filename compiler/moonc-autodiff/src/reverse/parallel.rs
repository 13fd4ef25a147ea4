//! Parallel loops: a flat `scf.parallel` nest reversed as an `scf.parallel`
//! with atomic adds into shared shadows (`--moon-autodiff` for the GPU), the
//! others run sequentially.

use crate::{
    activity::root,
    adjoint::{ParallelNest, ReverseState, trip_count},
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Ctx, Op, Region, Value},
};
use std::collections::{HashMap, HashSet};

/// The discardable attribute marking the `scf.for` loops made of an
/// `scf.parallel` whose reverse may be parallel (`parallel-reverse`).
pub const PARALLEL_NEST: &str = "moon.parallel_nest";

/// Whether the body of an `scf.parallel` is flat: loads, stores and
/// element computations only (no regions, calls or allocations).
pub(crate) fn flat_parallel_body(body: Block) -> bool {
    body.ops().iter().all(|op| {
        let name = op.name();
        if name == "scf.reduce" {
            return op.operands().is_empty();
        }
        op.regions().is_empty()
            && (name.starts_with("arith.")
                || name.starts_with("math.")
                || matches!(name.as_str(), "memref.load" | "memref.store" | "memref.dim"))
    })
}

/// Rewrites each `scf.parallel` without reductions as a nest of `scf.for`
/// (its iterations are independent, so any order is its meaning), which
/// reverse mode knows how to reverse. With `parallel`, the loops of a nest
/// made of an `scf.parallel` with a flat body are marked
/// ([`PARALLEL_NEST`]), so that their reverse may be parallel too.
pub(crate) fn sequential_parallel_loops(ctx: Ctx, function: Op, parallel: bool) {
    for op in function.walk().into_iter().rev() {
        if op.name() != "scf.parallel" || !op.results().is_empty() {
            continue;
        }
        let body = op.regions()[0].entry().expect("a parallel body");
        let mark = parallel && flat_parallel_body(body);
        let operands = op.operands();
        let dims = body.args().len();
        let mut b = Builder::before(op);
        let mut ivs = vec![];
        for d in 0..dims {
            let (region, block) = Region::with_block(&[ctx.index()], op.loc());
            let bounds = [operands[d], operands[dims + d], operands[2 * dims + d]];
            let attrs = if mark {
                vec![(PARALLEL_NEST, ctx.attr("unit"))]
            } else {
                vec![]
            };
            b.create("scf.for", &bounds, &[], &attrs, &[region], &[]);
            region.destroy();
            let yield_ =
                Builder::at_end(block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
            ivs.push(block.args()[0]);
            b = Builder::before(yield_);
        }
        let innermost = b.anchor_op();
        for inner in body.ops() {
            if inner.name() != "scf.reduce" {
                inner.move_before(innermost);
            }
        }
        for (arg, iv) in body.args().into_iter().zip(ivs) {
            arg.replace_uses(iv);
        }
        op.erase();
    }
}

/// The roots of the buffers that the loads and stores among `ops` access
/// only at one list of indices, the induction variables `ivs` in some
/// order, through one memref value: each iteration of the nest owns the
/// element it accesses. `None` when a store is not of that kind.
pub(crate) fn owned_roots(ops: &[Op], ivs: &[Value]) -> Option<HashSet<Value>> {
    let mut accesses: HashMap<Value, Vec<(Value, Vec<Value>)>> = HashMap::new();
    let mut stored = HashSet::new();
    for op in ops {
        let (memref, first) = match op.name().as_str() {
            "memref.load" => (op.operand(0), 1),
            "memref.store" => (op.operand(1), 2),
            _ => continue,
        };
        if op.name() == "memref.store" {
            stored.insert(root(memref));
        }
        let indices = op.operands()[first..].to_vec();
        accesses
            .entry(root(memref))
            .or_default()
            .push((memref, indices));
    }
    let owns = |list: &[(Value, Vec<Value>)]| {
        let (memref, indices) = &list[0];
        let distinct: HashSet<&Value> = indices.iter().collect();
        indices.len() == ivs.len()
            && distinct.len() == ivs.len()
            && ivs.iter().all(|iv| distinct.contains(iv))
            && list.iter().all(|(m, i)| m == memref && i == indices)
    };
    let owned: HashSet<Value> = accesses
        .iter()
        .filter(|(_, list)| owns(list))
        .map(|(r, _)| *r)
        .collect();
    stored.is_subset(&owned).then_some(owned)
}

impl ReverseState<'_> {
    /// Reverses the `scf.for` nest `op` made of an `scf.parallel` (marked
    /// [`PARALLEL_NEST`]) as an `scf.parallel` over its iterations, which
    /// are independent, when it qualifies: a top-level nest of a combined
    /// adjoint function (tapes in buffers indexed by iteration), with
    /// bounds defined at the top, a flat body that uses no scalar with an
    /// adjoint from outside (whose adjoint slot iterations would share),
    /// and stores only into elements the iteration owns. Returns whether
    /// it did.
    pub fn reverse_parallel(&mut self, op: Op) -> Result<bool, Error> {
        if !self.diff.settings.parallel_reverse
            || op.attr(PARALLEL_NEST).is_none()
            || self.split
            || op.block() != self.body
        {
            return Ok(false);
        }
        let body_of = |l: &Op| l.regions()[0].entry().expect("a loop body");
        let mut nest = vec![op];
        while let [next, _] = body_of(&nest[nest.len() - 1]).ops().as_slice() {
            if next.name() != "scf.for" || next.attr(PARALLEL_NEST).is_none() {
                break;
            }
            nest.push(*next);
        }
        let inner = body_of(&nest[nest.len() - 1]);
        let top = |v: &Value| v.block() == self.body;
        if nest
            .iter()
            .any(|l| !l.results().is_empty() || !l.operands()[..3].iter().all(top))
        {
            return Ok(false);
        }
        let ops = inner.ops();
        if ops.iter().any(|o| {
            !o.regions().is_empty()
                || o.operands()
                    .iter()
                    .any(|&v| self.has_adjoint(v) && v.block() != inner)
        }) {
            return Ok(false);
        }
        let ivs: Vec<Value> = nest.iter().map(|l| body_of(l).args()[0]).collect();
        let Some(owned) = owned_roots(&ops, &ivs) else {
            return Ok(false);
        };

        let n = nest.len();
        let mut counts = vec![];
        for l in &nest {
            let (lb, ub, step) = (
                self.get(l.operand(0))?,
                self.get(l.operand(1))?,
                self.get(l.operand(2))?,
            );
            counts.push(trip_count(&mut self.b, lb, ub, step));
        }
        let zero = self.b.index(0);
        let one = self.b.index(1);
        let (iterations, reduce) = self.b.parallel(&vec![zero; n], &counts, &vec![one; n]);
        // Iteration k of each loop: its induction variable is lb + k * step.
        for (l, k) in nest.iter().zip(iterations) {
            self.reverse_iteration.insert(*l, k);
        }
        let saved = self.b;
        self.b = Builder::before(reduce);
        for l in &nest[..n - 1] {
            self.open_scope(body_of(l));
        }
        self.parallel = Some(ParallelNest { owned });
        let at = self.b;
        let reversed = self.reverse_nested(inner, at, &[], &[]);
        self.parallel = None;
        self.b = saved;
        reversed?;
        self.parallel_forwards.push(nest);
        Ok(true)
    }

    /// Makes the forward sweep of each nest reversed in parallel an
    /// `scf.parallel` again (with the tape stores its body has gained,
    /// which are indexed by iteration).
    pub(crate) fn parallel_forward(&mut self) {
        for nest in std::mem::take(&mut self.parallel_forwards) {
            let outer = nest[0];
            let n = nest.len();
            let bound = |k: usize| -> Vec<Value> { nest.iter().map(|l| l.operand(k)).collect() };
            let (ivs, reduce) = Builder::before(outer).parallel(&bound(0), &bound(1), &bound(2));
            let inner = nest[n - 1].regions()[0].entry().expect("a loop body");
            let ops = inner.ops();
            for &o in &ops[..ops.len() - 1] {
                o.move_before(reduce);
            }
            for (l, arg) in nest.iter().zip(ivs) {
                let body = l.regions()[0].entry().expect("a loop body");
                body.args()[0].replace_uses(arg);
                self.forward_iteration.remove(l);
                self.reverse_iteration.remove(l);
                self.scopes.remove(&body);
            }
            outer.erase();
        }
    }
}
