//! What qualifies for the fused N-wide dual path (see the module's
//! documentation), and the plan the code generation follows: which
//! outputs, inputs and loads take part, and why anything else falls back.

use crate::adjoint::ReverseState;
use crate::rules;
use crate::rules::Forward;
use crate::rules::Rule;
use crate::rules::may_alias;
use moonc_ir::ir::{Op, Value};
use moonc_ir::linalg::{projected_dims, split_ins_outs};
use moonc_ir::options;

/// Checks that `ops` are pure scalar element operations with forward rules.
fn element_ops(ops: &[Op]) -> Result<(), String> {
    for &op in ops {
        let name = op.name();
        let pure = matches!(
            rules::lookup(&name),
            Some(Rule {
                forward: Forward::Expr(_) | Forward::Zero | Forward::Inactive,
                ..
            })
        );
        let scalar = op
            .results()
            .iter()
            .all(|r| !r.ty().is_memref() && !r.ty().is_vector());
        // Integer and index arithmetic (indices, counters) has no rules.
        let integral = (name.starts_with("arith.") || name.starts_with("index."))
            && op
                .operands()
                .iter()
                .chain(&op.results())
                .all(|v| !v.ty().is_float());
        if !(pure || integral) || !scalar || !op.regions().is_empty() {
            return Err(format!(
                "its body holds `{name}`, not a pure element operation"
            ));
        }
    }
    Ok(())
}

/// The width check shared by both forms: N active inputs.
fn check_width(n: usize) -> Result<(), String> {
    let max = options::ndual_max_width() as usize;
    if n == 0 {
        return Err("its element function has no differentiable input".into());
    }
    if n > max {
        return Err(format!(
            "its element function has {n} differentiable inputs, more than \
             --moon-ndual-max-width={max}"
        ));
    }
    Ok(())
}

/// Whether `op` is where the fused path can keep its partials: the top
/// level of a function whose reverse sweep reads it directly.
fn at_top(s: &ReverseState, op: Op) -> Result<(), String> {
    if op.block() != s.body() || !s.is_direct(s.body()) {
        return Err(
            "it is inside a loop, branch or split call (partials would need a tape)".into(),
        );
    }
    Ok(())
}

/// `out + f`: the addend `f` when `acc`'s only use is one `arith.addf`
/// whose result is `next` and used once (by the terminator).
fn addend(acc: Value, next: Value) -> Option<(Value, Op)> {
    match acc.users().as_slice() {
        [add] if add.name() == "arith.addf" && add.result(0) == next && next.users().len() == 1 => {
            let operands = add.operands();
            let f = if operands[0] == acc {
                operands[1]
            } else {
                operands[0]
            };
            (f != acc).then_some((f, *add))
        }
        _ => None,
    }
}

/// `maximumf/minimumf(acc, f)` (or `(f, acc)`): `f`, and whether `acc` is
/// the first operand (which the derivative rule prefers on ties), when
/// `acc`'s only use is that selection, yielded as `next`.
fn selected(acc: Value, next: Value) -> Option<(Value, bool)> {
    match acc.users().as_slice() {
        [sel]
            if matches!(sel.name().as_str(), "arith.maximumf" | "arith.minimumf")
                && sel.result(0) == next
                && next.users().len() == 1 =>
        {
            let operands = sel.operands();
            let first = operands[0] == acc;
            let f = if first { operands[1] } else { operands[0] };
            (f != acc).then_some((f, first))
        }
        _ => None,
    }
}

/// How a `linalg.generic` qualifies.
pub(super) struct GenericPlan {
    /// Active outputs (positions among the outs) and the element value
    /// each is given (the yielded value, or `f` of `out + f`).
    pub(super) outs: Vec<(usize, Value, bool)>,
    /// Active inputs: the element in the body and the primal it comes
    /// from, with the input's position for memref inputs (scalar inputs
    /// and captured scalars have none).
    pub(super) inputs: Vec<(Value, Value, Option<usize>)>,
    /// The operand whose shape and map the partial buffers take.
    pub(super) space: usize,
}

/// How the `linalg.generic` `op` qualifies, or why it does not.
pub(super) fn plan_generic(
    s: &ReverseState,
    op: Op,
    maps: &[String],
) -> Result<GenericPlan, String> {
    at_top(s, op)?;
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let ops = body.ops();
    element_ops(&ops[..ops.len() - 1])?;
    let args = body.args();
    let yields = body.terminator().expect("linalg.yield").operands();
    let rank = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements()
        .len();
    let mut plan_outs = vec![];
    for o in 0..outs {
        let v = operands[ins + o];
        if !s.activity.is_active(v) {
            continue;
        }
        if !v.ty().element().is_float() {
            return Err(format!("output #{o} has non-float elements"));
        }
        let arg = args[ins + o];
        if arg.users().is_empty() {
            plan_outs.push((o, yields[o], false));
        } else if let Some((f, _)) = addend(arg, yields[o]) {
            plan_outs.push((o, f, true));
        } else {
            return Err(format!(
                "it reads output #{o} other than by adding to it (a non-add reduction or an \
                 update in place)"
            ));
        }
    }
    let mut inputs = vec![];
    for i in 0..ins {
        let v = operands[i];
        if !s.activity.is_active(v) {
            continue;
        }
        if !v.ty().element().is_float() {
            return Err(format!("input #{i} has non-float elements"));
        }
        if !v.ty().is_memref() {
            inputs.push((args[i], v, None));
            continue;
        }
        if projected_dims(&maps[i]).is_none() {
            return Err(format!(
                "the indexing map of input #{i} is not a projected permutation"
            ));
        }
        inputs.push((args[i], v, Some(i)));
    }
    for inner in op.walk() {
        for v in inner.operands() {
            let outside = !v.block().is_within(body);
            if outside && s.has_adjoint(v) && !inputs.iter().any(|&(u, _, _)| u == v) {
                inputs.push((v, v, None));
            }
        }
    }
    check_width(inputs.len())?;
    let space = (0..ins + outs)
        .find(|&i| projected_dims(&maps[i]).is_some_and(|d| d.len() == rank))
        .ok_or("no operand spans the iteration space")?;
    Ok(GenericPlan {
        outs: plan_outs,
        inputs,
        space,
    })
}

/// How a `scf.for` qualifies.
pub(super) struct LoopPlan {
    /// Carried sums with an adjoint: (position, addend).
    pub(super) sums: Vec<(usize, Value)>,
    /// A carried selection `acc' = maximumf/minimumf(acc, f)` with an
    /// adjoint: (position, `f`, whether `acc` is the first operand).
    pub(super) selection: Option<(usize, Value, bool)>,
    /// Stores into active buffers, in body order.
    pub(super) stores: Vec<Op>,
    /// Active float loads (per-element inputs), in body order.
    pub(super) loads: Vec<Op>,
    /// Every load, in body order.
    pub(super) all_loads: Vec<Op>,
    /// Active loop-invariant scalars the body uses.
    pub(super) invariants: Vec<Value>,
    /// The element operations (everything else but the terminator).
    pub(super) ops: Vec<Op>,
    /// The pure integer operations the indices are computed by.
    pub(super) index_ops: Vec<Op>,
}

/// Whether the adjoints can be accumulated by the forward loop itself: it
/// only sums, their adjoints are arguments of the function, and the
/// function writes no memory (so shadow updates commute).
pub(super) fn in_loop(s: &ReverseState, plan: &LoopPlan, seeds: &[Value]) -> bool {
    plan.stores.is_empty()
        && !s.writes_memory()
        && seeds
            .iter()
            .all(|&v| v.block() == s.body() && v.defining_op().is_none())
}

/// How the `scf.for` `op` qualifies (`carried`: the positions of its
/// results with adjoints), or why it does not.
pub(super) fn plan_loop(s: &ReverseState, op: Op, carried: &[usize]) -> Result<LoopPlan, String> {
    at_top(s, op)?;
    let body = op.regions()[0].entry().expect("a loop body");
    let args = body.args();
    if !args[0].ty().is_index() {
        return Err("its induction variable is not an index".into());
    }
    let yielded = body.terminator().expect("a yield").operands();
    let mut sums = vec![];
    let mut selection = None;
    for j in 0..op.results().len() {
        let acc = args[1 + j];
        let active = carried.contains(&j);
        if !acc.ty().is_float() {
            if acc.users().is_empty() {
                continue;
            }
            return Err(format!(
                "it carries a non-float value (#{j}) from one iteration to the next"
            ));
        }
        if let Some((f, first)) = selected(acc, yielded[j]).filter(|_| active) {
            selection = Some((j, f, first));
            continue;
        }
        match addend(acc, yielded[j]) {
            Some((f, _)) if active => sums.push((j, f)),
            Some(_) => {}
            None if acc.users().is_empty() && !active => {}
            None => {
                return Err(format!(
                    "its carried value #{j} is not a sum `acc + f` used only by the next \
                     iteration (a non-add reduction, a recurrence or a scan)"
                ));
            }
        }
    }
    if selection.is_some() && (!sums.is_empty() || carried.len() > 1) {
        return Err("it carries a max/min selection beside other values".into());
    }
    let selects: Vec<Op> = selection
        .iter()
        .filter_map(|&(j, _, _)| yielded[j].defining_op())
        .collect();
    let sum_adds: Vec<Op> = op
        .results()
        .iter()
        .enumerate()
        .filter_map(|(j, _)| addend(args[1 + j], yielded[j]).map(|(_, add)| add))
        .collect();
    let ops = body.ops();
    let (mut loads, mut stores, mut element, mut index_ops) = (vec![], vec![], vec![], vec![]);
    let mut all_loads = vec![];
    for &inner in &ops[..ops.len() - 1] {
        match inner.name().as_str() {
            "memref.load" => {
                if !stores.is_empty() {
                    return Err(
                        "it loads after a store (a dependence inside the element function)".into(),
                    );
                }
                all_loads.push(inner);
                let v = inner.result(0);
                if s.activity.is_active(v) && v.ty().is_float() {
                    loads.push(inner);
                }
            }
            "memref.store" => {
                if s.activity.is_active(inner.operand(1)) {
                    stores.push(inner);
                }
            }
            _ if sum_adds.contains(&inner) || selects.contains(&inner) => {}
            _ => {
                element.push(inner);
                let integral = |v: &Value| !v.ty().is_float();
                if inner.results().iter().all(integral) && inner.operands().iter().all(integral) {
                    index_ops.push(inner);
                }
            }
        }
    }
    element_ops(&element)?;
    // Indices come from the induction variable, invariants and index ops.
    let from_index = |v: Value| {
        v == args[0]
            || !v.block().is_within(body)
            || v.defining_op().is_some_and(|d| index_ops.contains(&d))
    };
    for &inner in index_ops.iter() {
        if !inner.operands().into_iter().all(from_index) {
            return Err("its indices are computed from loaded values (a gather or scatter)".into());
        }
    }
    let accesses = all_loads.iter().chain(&stores);
    for &access in accesses {
        let first_index = if access.name() == "memref.load" { 1 } else { 2 };
        if !access.operands()[first_index..]
            .iter()
            .all(|&v| from_index(v))
        {
            return Err("its indices are computed from loaded values (a gather or scatter)".into());
        }
    }
    for &store in &stores {
        let target = store.operand(1);
        let at = &store.operands()[2..];
        for &load in &all_loads {
            if may_alias(s, load.operand(0), target) && &load.operands()[1..] != at {
                return Err(
                    "it loads from a buffer it stores to at other indices (a cross-element \
                     dependence)"
                        .into(),
                );
            }
        }
    }
    let mut invariants = vec![];
    for inner in op.walk() {
        for v in inner.operands() {
            if !v.block().is_within(body) && s.has_adjoint(v) && !invariants.contains(&v) {
                invariants.push(v);
            }
        }
    }
    if selection.is_some() {
        if !stores.is_empty() {
            return Err("it stores beside a max/min selection".into());
        }
        if all_loads.iter().any(|l| s.is_written(l.operand(0))) {
            return Err(
                "it selects a max/min from memory the function may overwrite (the \
                 selected element is found again in the reverse sweep)"
                    .into(),
            );
        }
    }
    if sums.is_empty() && selection.is_none() && stores.is_empty() {
        return Err("it neither sums nor stores anything active".into());
    }
    check_width(loads.len() + invariants.len())?;
    Ok(LoopPlan {
        sums,
        selection,
        all_loads,
        stores,
        loads,
        invariants,
        ops: element,
        index_ops,
    })
}
