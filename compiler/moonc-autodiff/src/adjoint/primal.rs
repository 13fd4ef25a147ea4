//! How the reverse sweep gets a primal value: in the prologue of its block,
//! used directly, recomputed from materialized operands (loop induction
//! variables from the reverse iteration number), or taped.

use super::{ReverseState, runtime::cast_index};
use crate::{
    activity::{VIEW_OPS, root},
    expr::Expr,
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Op, Value, error_at},
};
use std::collections::{HashMap, HashSet};

/// For a `scf.while`'s argument `i` of `block` (its before or after
/// region), the initial value and step when the argument is an integer
/// that starts at an init and grows by a value defined outside the loop.
pub(crate) fn while_induction(op: Op, block: Block, i: usize) -> Option<(Value, Value)> {
    let regions = op.regions();
    let before = regions[0].entry()?;
    let after = regions[1].entry()?;
    let condition = before.terminator()?.operands();
    // The before argument and the after argument of one induction.
    let (b, a) = if block == before {
        let j = condition[1..].iter().position(|&v| v == before.args()[i])?;
        (i, j)
    } else {
        let arg = condition.get(i + 1)?;
        if arg.block() != before || arg.defining_op().is_some() {
            return None;
        }
        (arg.arg_number(), i)
    };
    let ty = before.args()[b].ty();
    if !(ty.is_index() || ty.is_integer()) {
        return None;
    }
    let next = after.terminator()?.operands()[b];
    let add = next.defining_op().filter(|o| o.name() == "arith.addi")?;
    let [x, y] = add.operands()[..] else {
        return None;
    };
    let step = if x == after.args()[a] {
        y
    } else if y == after.args()[a] {
        x
    } else {
        return None;
    };
    if op.walk().iter().any(|o| o.results().contains(&step)) || block.args().contains(&step) {
        // The step must be defined outside the loop, or be a constant.
        let constant = step
            .defining_op()
            .filter(|o| o.name() == "arith.constant")?;
        let _ = constant;
    }
    Some((op.operand(b), step))
}

/// Positions of the values of `block` in definition order: arguments
/// first, then results in operation order.
pub(crate) fn positions(block: Block) -> HashMap<Value, usize> {
    let mut order = HashMap::new();
    for a in block.args() {
        order.insert(a, order.len());
    }
    for op in block.ops() {
        for r in op.results() {
            order.insert(r, order.len());
        }
    }
    order
}

/// Which operands (`Some(i)`) and whether the result (`None`) the
/// expression `e` reads when only the tangent `dx{live}` is non-zero;
/// returns whether `e` is then zero (and reads nothing).
pub(crate) fn primal_uses(e: &Expr, live: usize, used: &mut HashSet<Option<usize>>) -> bool {
    let mut side = |x: &Expr| {
        let mut uses = HashSet::new();
        let zero = primal_uses(x, live, &mut uses);
        (zero, uses)
    };
    match e {
        Expr::Operand(i) => {
            used.insert(Some(*i));
            false
        }
        Expr::Result => {
            used.insert(None);
            false
        }
        Expr::Tangent(j) => *j != live,
        Expr::Number(_) => false,
        Expr::Neg(x) => primal_uses(x, live, used),
        Expr::Binary(op, l, r) => {
            let ((zl, ul), (zr, ur)) = (side(l), side(r));
            let zero = match op {
                '*' => zl || zr,
                '/' => zl,
                _ => zl && zr,
            };
            if !zero {
                used.extend(if zl { HashSet::new() } else { ul });
                used.extend(if zr && *op != '/' { HashSet::new() } else { ur });
            }
            zero
        }
        Expr::Call(name, args) => {
            let sides: Vec<_> = args.iter().map(&mut side).collect();
            let zero = name == "select" && sides[1].0 && sides[2].0;
            if !zero {
                sides.into_iter().for_each(|(_, u)| used.extend(u));
            }
            zero
        }
    }
}

impl ReverseState<'_> {
    /// A builder for the prologue of the reverse of `block`.
    pub(crate) fn prologue(&self, block: Block) -> Option<Builder> {
        self.scopes
            .get(&block)
            .map(|s| Builder::before(s.prologue_end))
    }

    /// The primal value `value` as available at the current point of the
    /// reverse sweep.
    pub fn get(&mut self, value: Value) -> Result<Value, Error> {
        if let Some(&m) = self.materialized.get(&value) {
            return Ok(m);
        }
        let block = value.block();
        if self.direct.contains(&block) || (block == self.body && value.defining_op().is_none()) {
            return Ok(value);
        }
        let at = block.parent_op();
        if self.prologue(block).is_none() {
            return Err(error_at(
                at,
                "internal error: a value is needed outside the reverse of its block",
            ));
        }
        let m = match value.defining_op() {
            Some(op) if self.recomputable(op) => {
                if op.name() == "memref.load" {
                    self.reread.insert(root(op.operand(0)));
                }
                let operands = op
                    .operands()
                    .into_iter()
                    .map(|v| self.get(v))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut b = self.prologue(block).expect("the scope exists");
                let clone = b.insert(op.clone_detached());
                clone.set_operands(&operands);
                let i = op
                    .results()
                    .iter()
                    .position(|&r| r == value)
                    .expect("a result");
                clone.result(i)
            }
            Some(op) if self.recomputable_if(op) => {
                self.recompute_if(op)?;
                return Ok(self.materialized[&value]);
            }
            Some(op) if value.ty().is_memref() => {
                return Err(error_at(
                    op,
                    "reverse mode cannot yet keep a buffer allocated inside a loop or branch \
                     (or in a function called from a differentiated one) for the reverse \
                     sweep; allocate it at the top of the function",
                ));
            }
            Some(_) => self.tape(value)?,
            None => match self.induction(value)? {
                Some(v) => v,
                None => self.tape(value)?,
            },
        };
        self.materialized.insert(value, m);
        Ok(m)
    }

    /// Whether `op` is cheap, pure and recomputable in the reverse sweep.
    pub(crate) fn recomputable(&self, op: Op) -> bool {
        let name = op.name();
        if !op.regions().is_empty() || op.results().len() != 1 {
            return false;
        }
        if name == "memref.load" {
            return !self.is_written(op.operand(0)) || self.unchanged_after(op);
        }
        name.starts_with("arith.")
            || name.starts_with("index.")
            || VIEW_OPS.contains(&name.as_str())
            || matches!(
                name.as_str(),
                "memref.dim" | "memref.get_global" | "ub.poison" | "vector.broadcast"
            )
    }

    /// Whether `op` is an `scf.if` whose branches only compute recomputable
    /// values (see [`Self::recomputable`]): loop-invariant expressions
    /// hoisted before their loop (`reverse::prepare::hoist_invariant_loads`).
    fn recomputable_if(&self, op: Op) -> bool {
        op.name() == "scf.if"
            && op.regions().iter().all(|r| {
                r.entry().is_some_and(|b| {
                    let ops = b.ops();
                    ops[..ops.len() - 1].iter().all(|&o| self.recomputable(o))
                })
            })
    }

    /// Recomputes the results of the [`Self::recomputable_if`] `op` in the
    /// prologue of its block's reverse, with the same condition.
    fn recompute_if(&mut self, op: Op) -> Result<(), Error> {
        let mut mapping = HashMap::new();
        let blocks: Vec<Block> = op.regions().iter().filter_map(|r| r.entry()).collect();
        let inside = |v: &Value| blocks.iter().any(|&b| v.block().is_within(b));
        let mut outside = vec![op.operand(0)];
        for o in op.walk() {
            outside.extend(o.operands().into_iter().filter(|v| !inside(v)));
            if o.name() == "memref.load" {
                self.reread.insert(root(o.operand(0)));
            }
        }
        for v in outside {
            if let std::collections::hash_map::Entry::Vacant(e) = mapping.entry(v) {
                e.insert(self.get(v)?);
            }
        }
        let mut b = self.prologue(op.block()).expect("the scope exists");
        let types: Vec<_> = op.results().iter().map(|v| v.ty()).collect();
        let (clone, then_block, else_block) = b.if_else(mapping[&op.operand(0)], &types);
        for (region, block) in op.regions().into_iter().zip([then_block, else_block]) {
            let ops = region.entry().expect("a block").ops();
            Builder::at_end(block, op.loc()).clone_remapped(&ops, &mut mapping);
        }
        for (v, m) in op.results().into_iter().zip(clone.results()) {
            self.materialized.insert(v, m);
        }
        Ok(())
    }

    /// The value of a loop's block argument computed from the reverse
    /// iteration number: the induction variable of `scf.for`, and integer
    /// `scf.while` arguments that grow by a fixed step.
    pub(crate) fn induction(&mut self, arg: Value) -> Result<Option<Value>, Error> {
        let block = arg.block();
        let op = block.parent_op();
        let Some(&k) = self.reverse_iteration.get(&op) else {
            return Ok(None);
        };
        let (start, step) = match op.name().as_str() {
            "scf.for" if arg.arg_number() == 0 => (op.operand(0), op.operand(2)),
            "scf.while" => match while_induction(op, block, arg.arg_number()) {
                Some(pair) => pair,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let start = self.get(start)?;
        let mut b = self.prologue(block).expect("the loop's scope exists");
        // A step inside the loop is a constant (see `while_induction`):
        // cloned here, where the other region's reverse may not see it.
        let step = if step.defining_op().is_some_and(|o| op.walk().contains(&o)) {
            b.insert(step.defining_op().expect("a constant").clone_detached())
                .result(0)
        } else {
            self.get(step)?
        };
        let ty = arg.ty();
        let k = cast_index(&mut b, k, ty);
        let offset = b.value("arith.muli", &[k, step], ty, &[]);
        Ok(Some(b.value("arith.addi", &[start, offset], ty, &[])))
    }
}
