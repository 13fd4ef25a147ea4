//! Activity analysis: which values of a function depend on its active
//! inputs and so need a derivative. Values that do not get no tangent code.
//!
//! Scalars and vectors are active when an active value flows into them:
//! through an operation's operands, a loop's carried values, a branch's
//! block arguments or a region's yields. Memory is tracked per buffer: a
//! memref is active when its *root* (the allocation or argument its view
//! chain starts from) is, and a root becomes active when an active value is
//! stored, copied or computed into any view of it. The analysis is a
//! fixpoint over the whole function, so loops and stores that come later
//! in program order are accounted for.
//!
//! A scalar is active only when it is also *useful*: some derivative needs
//! its own. A value whose uses are all element operations (`arith`, `math`)
//! whose results are not useful, comparisons, or loop-carried values that
//! nothing useful reads is not: the running minimum of a loop whose result
//! is unused, say, gets no tangent and no adjoint (and so no tape). Every
//! other use (a store, a call, a return, a region that is not `scf.for` or
//! `scf.if`-like) counts as useful.

use moonc_ir::ir::{Block, Op, Value};
use moonc_ir::linalg::split_ins_outs;
use std::collections::HashSet;

pub use moonc_ir::ir::{VIEW_OPS, view_root as root};

/// The activity of the values of one function.
#[derive(Default)]
pub struct Activity {
    values: HashSet<Value>,
    roots: HashSet<Value>,
}

impl Activity {
    /// Analyses `function` (a `func.func`) whose arguments in `seeds` are
    /// active (scalars) or have shadows (memrefs); `writes` gives the
    /// buffers an operation may write (`Differentiator::writes`: what a
    /// called function's body may write, a foreign call's rule).
    pub fn analyze(function: Op, seeds: &[Value], writes: &dyn Fn(Op) -> Vec<Value>) -> Activity {
        let mut activity = Activity::default();
        for &seed in seeds {
            activity.mark(seed);
        }
        let ops = function.walk();
        while ops
            .iter()
            .fold(false, |changed, &op| activity.visit(op, writes) | changed)
        {}
        activity.keep_useful(&ops);
        activity
    }

    /// Keeps the active scalars that are useful (see the module's doc):
    /// a fixpoint from the uses that always count, backwards through
    /// element operations and the values `scf.for` and `scf.if`-like
    /// operations carry or yield.
    fn keep_useful(&mut self, ops: &[Op]) {
        let mut useful = HashSet::new();
        loop {
            let mut changed = false;
            for &op in ops.iter().rev() {
                if op.name() == "scf.for" {
                    changed |= same_for_each_carried(op, &mut useful);
                }
                for (i, v) in op.operands().into_iter().enumerate() {
                    if self.values.contains(&v)
                        && !useful.contains(&v)
                        && use_is_useful(op, i, &useful)
                    {
                        useful.insert(v);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        self.values.retain(|v| useful.contains(v));
    }

    /// Whether `value` needs a derivative.
    pub fn is_active(&self, value: Value) -> bool {
        if value.ty().is_memref() {
            self.roots.contains(&root(value))
        } else {
            self.values.contains(&value)
        }
    }

    /// Marks `value` active if its type can carry a derivative; returns
    /// whether that changed anything.
    pub fn mark(&mut self, value: Value) -> bool {
        let ty = value.ty();
        if ty.is_float_memref() {
            self.roots.insert(root(value))
        } else if ty.is_differentiable() {
            self.values.insert(value)
        } else {
            false
        }
    }

    /// Makes `new` as active as `old` (when an operation is rebuilt).
    pub fn inherit(&mut self, old: Value, new: Value) {
        if self.is_active(old) {
            self.mark(new);
        }
    }

    fn any_active(&self, values: &[Value]) -> bool {
        values.iter().any(|&v| self.is_active(v))
    }

    /// Marks `to[i]` when `from[i]` is active.
    fn flow(&mut self, from: &[Value], to: &[Value]) -> bool {
        let mut changed = false;
        for (&f, &t) in from.iter().zip(to) {
            if self.is_active(f) {
                changed |= self.mark(t);
            }
        }
        changed
    }

    /// Applies one operation's propagation; returns whether anything changed.
    fn visit(&mut self, op: Op, writes: &dyn Fn(Op) -> Vec<Value>) -> bool {
        let name = op.name();
        let operands = op.operands();
        let results = op.results();
        let mut changed = false;
        match name.as_str() {
            "memref.store" => {
                if self.is_active(operands[0]) {
                    changed |= self.mark(operands[1]);
                }
            }
            "memref.copy" => {
                if self.is_active(operands[0]) {
                    changed |= self.mark(operands[1]);
                }
            }
            "func.call" | "moon.jvp" => {
                // The callee may store active values into any buffer it is
                // given (a routine with a BLAS rule: into those it writes).
                if self.any_active(&operands) {
                    let buffers = writes(op);
                    for &v in buffers.iter().chain(&results) {
                        changed |= self.mark(v);
                    }
                }
            }
            "scf.for" => {
                let body = op.regions()[0].entry().expect("scf.for has a body");
                let carried = &body.args()[1..];
                changed |= self.flow(&operands[3..], carried);
                changed |= self.flow(&yielded(body), carried);
                changed |= self.flow(carried, &results);
            }
            "scf.while" => {
                let regions = op.regions();
                let before = regions[0].entry().expect("scf.while has a before region");
                let after = regions[1].entry().expect("scf.while has an after region");
                changed |= self.flow(&operands, &before.args());
                changed |= self.flow(&yielded(after), &before.args());
                let forwarded = yielded(before)[1..].to_vec();
                changed |= self.flow(&forwarded, &after.args());
                changed |= self.flow(&forwarded, &results);
            }
            "scf.if" | "scf.execute_region" | "scf.index_switch" => {
                for region in op.regions() {
                    for block in region.blocks() {
                        if block.terminator().is_some_and(|t| t.name() == "scf.yield") {
                            changed |= self.flow(&yielded(block), &results);
                        }
                    }
                }
            }
            "scf.parallel" => {
                let body = op.regions()[0].entry().expect("scf.parallel has a body");
                changed |= self.flow(&yielded(body), &results);
            }
            _ if name.starts_with("linalg.") => changed |= self.visit_linalg(op),
            _ => {
                if self.any_active(&operands) {
                    for &r in &results {
                        changed |= self.mark(r);
                    }
                }
            }
        }
        if VIEW_OPS.contains(&name.as_str()) {
            // Views share their root's activity: nothing to record.
            return changed;
        }
        for (successor, arguments) in successor_operands(op) {
            changed |= self.flow(&arguments, &successor.args());
        }
        changed
    }

    /// A linalg structured operation: inputs flow into the body's arguments
    /// and the body's yields into the outputs.
    fn visit_linalg(&mut self, op: Op) -> bool {
        let operands = op.operands();
        let (inputs, outputs) = split_ins_outs(op);
        let mut changed = false;
        let Some(body) = op.regions().first().and_then(|r| r.entry()) else {
            return false;
        };
        let args = body.args();
        if args.len() == operands.len() {
            changed |= self.flow(&operands, &args);
            let yields = yielded(body);
            let outs = &operands[inputs..inputs + outputs];
            changed |= self.flow(&yields, outs);
        }
        if self.any_active(&operands[..inputs]) {
            for &out in &operands[inputs..] {
                changed |= self.mark(out);
            }
        }
        changed
    }
}

/// Makes each value an `scf.for` carries (its block argument, yielded
/// value and result, and then its initial value) useful when one of them
/// is, as the rules of loops expect of activities; returns whether that
/// changed anything.
fn same_for_each_carried(op: Op, useful: &mut HashSet<Value>) -> bool {
    let Some(body) = op.regions()[0].entry() else {
        return false;
    };
    let (args, yields, operands) = (body.args(), yielded(body), op.operands());
    let mut changed = false;
    for (j, result) in op.results().into_iter().enumerate() {
        // (The initial value may be shared with other uses, so its being
        // useful says nothing of the loop.)
        let carried = [args[1 + j], yields[j], result];
        if carried.iter().any(|v| useful.contains(v)) {
            for v in carried.into_iter().chain([operands[3 + j]]) {
                changed |= useful.insert(v);
            }
        }
    }
    changed
}

/// Whether operand `i` of `op` is used usefully, given the values known
/// to be useful so far (what an `scf.for` carries, [`same_for_each_carried`]
/// decides).
fn use_is_useful(op: Op, i: usize, useful: &HashSet<Value>) -> bool {
    let name = op.name();
    if (name.starts_with("arith.") || name.starts_with("math.")) && op.regions().is_empty() {
        return op.results().iter().any(|r| useful.contains(r));
    }
    match name.as_str() {
        "scf.for" => i < 3,
        "scf.yield" => {
            let parent = op.block().parent_op();
            match parent.name().as_str() {
                "scf.for" => false,
                "scf.if" | "scf.execute_region" | "scf.index_switch" => {
                    useful.contains(&parent.result(i))
                }
                _ => true,
            }
        }
        _ => true,
    }
}

/// Whether operations named `name` compute without writing memory (loads,
/// views, element operations, and loops and branches of such operations).
pub fn computes_only(name: &str) -> bool {
    name.starts_with("arith.")
        || name.starts_with("math.")
        || name.starts_with("index.")
        || matches!(
            name,
            "memref.load" | "memref.dim" | "scf.for" | "scf.if" | "scf.yield"
        )
        || VIEW_OPS.contains(&name)
}

/// The operands of a block's terminator (its yielded values); for
/// `scf.condition` the condition comes first.
pub fn yielded(block: Block) -> Vec<Value> {
    block.terminator().map(|t| t.operands()).unwrap_or_default()
}

/// For each successor of a `cf` terminator, the values it passes to the
/// successor's arguments.
pub fn successor_operands(op: Op) -> Vec<(Block, Vec<Value>)> {
    let successors = op.successors();
    if successors.is_empty() {
        return vec![];
    }
    let operands = op.operands();
    match op.name().as_str() {
        "cf.br" => vec![(successors[0], operands)],
        "cf.cond_br" => {
            let sizes = op.int_array("operandSegmentSizes");
            let (t, f) = (sizes[1] as usize, sizes[2] as usize);
            vec![
                (successors[0], operands[1..1 + t].to_vec()),
                (successors[1], operands[1 + t..1 + t + f].to_vec()),
            ]
        }
        "cf.switch" => {
            let sizes = op.int_array("operandSegmentSizes");
            let default = sizes[1] as usize;
            let mut result = vec![(successors[0], operands[1..1 + default].to_vec())];
            let mut start = 1 + default;
            for (k, size) in op
                .int_array("case_operand_segments")
                .into_iter()
                .enumerate()
            {
                let size = size as usize;
                result.push((successors[k + 1], operands[start..start + size].to_vec()));
                start += size;
            }
            result
        }
        _ => vec![],
    }
}
