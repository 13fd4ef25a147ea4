//! The fused N-wide dual path of reverse mode (seed 003): elementwise
//! structure is intercepted, and its forward sweep computes the value and
//! all N partial derivatives of the element function in one pass, so that
//! the reverse sweep is a multiply-accumulate of the partials; everything
//! else goes through the general path (trace-through).
//!
//! What qualifies (anything else falls back, with the reason in a remark
//! under `--moon-remarks`):
//! - a `linalg.generic` on memrefs at the top level of the differentiated
//!   function, whose body is pure element operations with derivative
//!   rules, that writes each output without reading it or adds to it
//!   (`out + f(ins)`: a sum over its reduction dimensions), and one of
//!   whose operands spans the iteration space;
//! - a `scf.for` at the top level, with an index induction variable, whose
//!   body is flat: loads, pure element operations and stores (no load
//!   after a store), whose carried values are float sums (`acc + f`, the
//!   sum used nowhere else), whose load and store indices are computed
//!   from the induction variable and loop-invariant values, and which
//!   loads from buffers it stores to only at the indices it stores to;
//! - in both, the element function's active float inputs (memref elements,
//!   loaded values, loop-invariant scalars) number N with
//!   1 <= N <= `--moon-ndual-max-width`.
//!
//! The element function's partials come from the forward rules with one
//! scalar tangent chain per input (the N-wide dual, kept scalar so that
//! LLVM vectorizes across elements). Per-element partials are stored in
//! buffers counted as tape; partials with respect to loop-invariant inputs
//! of a sum are summed during the forward sweep. When a loop only sums and
//! the sums' adjoints are known before it (arguments of the function,
//! which writes no memory), the adjoints are accumulated inside the
//! forward loop and nothing is stored.

use crate::{
    expr,
    ir::{Block, Builder, Op, Region, Value},
    reverse::{ReverseState, trip_count},
    rules::{self, Forward, Rule, build_generic, may_alias},
};
use moonc_ir::linalg::{projected_dims, split_ins_outs};
use moonc_ir::{Error, options};
use std::collections::HashMap;

/// Emits a remark at `op` (shown under `--moon-remarks`).
fn remark(op: Op, message: &str) {
    options::remark(op.loc().0, message);
}

/// Emits, with `b`, the partial derivatives of each of `outputs` with
/// respect to each of `inputs` through `ops` (in order): `[o][k]`.
fn partials(b: &mut Builder, ops: &[Op], inputs: &[Value], outputs: &[Value]) -> Vec<Vec<Value>> {
    let mut result = vec![vec![]; outputs.len()];
    for &input in inputs {
        let mut tangents: HashMap<Value, Value> = HashMap::new();
        tangents.insert(input, b.float(input.ty(), 1.0));
        for &op in ops {
            let Some(Rule {
                forward: Forward::Expr(text),
                ..
            }) = rules::lookup(&op.name())
            else {
                continue;
            };
            let known: Vec<Option<Value>> = op
                .operands()
                .iter()
                .map(|v| tangents.get(v).copied())
                .collect();
            if known.iter().all(Option::is_none) {
                continue;
            }
            let result = op.result(0);
            if let Some(t) = expr::tangent(b, op, text, &known, result.ty(), 1) {
                tangents.insert(result, t);
            }
        }
        for (o, &out) in outputs.iter().enumerate() {
            let t = match tangents.get(&out) {
                Some(&t) => t,
                None => b.float(out.ty(), 0.0),
            };
            result[o].push(t);
        }
    }
    result
}

/// The `arith.constant` defining `v`, if it is one.
fn constant(v: Value) -> Option<Op> {
    v.defining_op().filter(|op| op.name() == "arith.constant")
}

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

/// `lhs + rhs` with the fastmath flags of `like` (the sum the user wrote,
/// whose permission to reassociate the derivative sums inherit).
fn add_like(b: &mut Builder, lhs: Value, rhs: Value, like: Option<Op>) -> Value {
    let flags: Vec<_> = like
        .and_then(|op| op.attr("fastmath"))
        .into_iter()
        .collect();
    let attrs: Vec<(&str, _)> = flags.iter().map(|&a| ("fastmath", a)).collect();
    b.value("arith.addf", &[lhs, rhs], lhs.ty(), &attrs)
}

/// `Σ_o seeds[o] * parts[o]`, skipping absent seeds.
fn weighted(b: &mut Builder, seeds: &[Option<Value>], parts: &[Value]) -> Option<Value> {
    let mut total: Option<Value> = None;
    for (seed, &p) in seeds.iter().zip(parts) {
        let Some(seed) = seed else { continue };
        let term = b.value("arith.mulf", &[*seed, p], p.ty(), &[]);
        total = Some(match total {
            Some(t) => b.value("arith.addf", &[t, term], p.ty(), &[]),
            None => term,
        });
    }
    total
}

/// `cell += value` for a `memref<T>` cell.
fn add_to_cell(b: &mut Builder, cell: Value, value: Value, like: Option<Op>) {
    let old = b.value("memref.load", &[cell], value.ty(), &[]);
    let sum = add_like(b, old, value, like);
    b.create("memref.store", &[sum, cell], &[], &[], &[], &[]);
}

/// `buffer[indices] += value`.
fn add_to_element(b: &mut Builder, buffer: Value, indices: &[Value], value: Value) {
    let mut operands = vec![buffer];
    operands.extend(indices);
    let old = b.value("memref.load", &operands, value.ty(), &[]);
    let sum = b.value("arith.addf", &[old, value], value.ty(), &[]);
    let mut operands = vec![sum, buffer];
    operands.extend(indices);
    b.create("memref.store", &operands, &[], &[], &[], &[]);
}

// ---------------------------------------------------------------- generic

/// How a `linalg.generic` qualifies.
struct GenericPlan {
    /// Active outputs (positions among the outs) and the element value
    /// each is given (the yielded value, or `f` of `out + f`).
    outs: Vec<(usize, Value, bool)>,
    /// Active inputs: the element in the body and the primal it comes
    /// from, with the input's position for memref inputs (scalar inputs
    /// and captured scalars have none).
    inputs: Vec<(Value, Value, Option<usize>)>,
    /// The operand whose shape and map the partial buffers take.
    space: usize,
}

/// The reverse of a qualifying `linalg.generic` by fused N-wide duals;
/// `Ok(false)` (with a remark) when it does not qualify.
pub fn generic(s: &mut ReverseState, op: Op, maps: &[String]) -> Result<bool, Error> {
    match plan_generic(s, op, maps) {
        Err(reason) => {
            remark(op, &format!("general reverse path: {reason}"));
            Ok(false)
        }
        Ok(plan) => {
            remark(
                op,
                &format!(
                    "fused: value and {} partials in one sweep (N-wide duals)",
                    plan.inputs.len()
                ),
            );
            emit_generic(s, op, maps, plan)?;
            Ok(true)
        }
    }
}

fn plan_generic(s: &ReverseState, op: Op, maps: &[String]) -> Result<GenericPlan, String> {
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

fn emit_generic(
    s: &mut ReverseState,
    op: Op,
    maps: &[String],
    plan: GenericPlan,
) -> Result<(), Error> {
    let operands = op.operands();
    let (ins, _) = split_ins_outs(op);
    let iterators: Vec<&str> = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements()
        .iter()
        .map(|k| {
            if k.to_string().contains("parallel") {
                "parallel"
            } else {
                "reduction"
            }
        })
        .collect();
    let rank = iterators.len();

    // The forward sweep: the generic, extended with one output per partial
    // that is not a constant (those are used directly: a sum's all-ones
    // Jacobian). The partials are first built in the old body, which is
    // then cloned into the new generic.
    let old = op.regions()[0].entry().expect("a body");
    let old_yield = old.terminator().expect("a yield");
    let body_ops: Vec<Op> = old.ops().into_iter().filter(|&o| o != old_yield).collect();
    let inputs: Vec<Value> = plan.inputs.iter().map(|&(v, _, _)| v).collect();
    let elements: Vec<Value> = plan.outs.iter().map(|&(_, f, _)| f).collect();
    let parts = partials(
        &mut Builder::before(old_yield),
        &body_ops,
        &inputs,
        &elements,
    );
    let mut b = Builder::before(op);
    let space = operands[plan.space];
    let sizes: Vec<Value> = (0..space.ty().shape().len())
        .map(|d| {
            let d = b.index(d as i64);
            b.value("memref.dim", &[space, d], b.ctx.index(), &[])
        })
        .collect();
    let mut buffers: HashMap<(usize, usize), Value> = HashMap::new();
    let mut stored = vec![];
    for (o, row) in parts.iter().enumerate() {
        for (k, &p) in row.iter().enumerate() {
            if constant(p).is_none() {
                buffers.insert((o, k), s.tape_buffer(&mut b, &sizes, p.ty()));
                stored.push(p);
            }
        }
    }
    let mut all_outs = operands[ins..].to_vec();
    let mut all_maps = maps.to_vec();
    for o in 0..parts.len() {
        for k in 0..inputs.len() {
            if let Some(&buffer) = buffers.get(&(o, k)) {
                all_outs.push(buffer);
                all_maps.push(maps[plan.space].clone());
            }
        }
    }
    let (_, block, yield_) =
        build_generic(&mut b, &operands[..ins], &all_outs, &all_maps, &iterators);
    let mut mapping: HashMap<Value, Value> = old.args().into_iter().zip(block.args()).collect();
    let ops = old.ops();
    Builder::before(yield_).clone_remapped(&ops[..ops.len() - 1], &mut mapping);
    let at = |v: &Value| *mapping.get(v).unwrap_or(v);
    let mut yielded: Vec<Value> = old_yield.operands().iter().map(at).collect();
    yielded.extend(stored.iter().map(at));
    yield_.set_operands(&yielded);

    // The reverse sweep: each input's adjoint is the sum over the outputs
    // of the output's adjoint times the partial, reduced over the
    // dimensions the input's map leaves out.
    let seeds: Vec<Value> = plan
        .outs
        .iter()
        .map(|&(o, _, _)| s.shadow(op, operands[ins + o]))
        .collect::<Result<_, _>>()?;
    let aliased = plan.inputs.iter().any(|&(_, _, i)| {
        i.is_some_and(|i| {
            plan.outs.iter().any(|&(o, _, _)| {
                may_alias(s, operands[i], operands[ins + o]) && maps[i] == maps[ins + o]
            })
        })
    });
    let read_seeds: Vec<Value> = if aliased {
        seeds
            .iter()
            .map(|&seed| {
                let plain = s.ctx().ty(&format!(
                    "memref<{}{}>",
                    seed.ty().shape_prefix(),
                    seed.ty().element()
                ));
                let copy = s.b.alloc_like("memref.alloc", seed, plain);
                s.b.create("memref.copy", &[seed, copy], &[], &[], &[], &[]);
                copy
            })
            .collect()
    } else {
        seeds.clone()
    };
    let zero_outputs = |s: &mut ReverseState| {
        for (k, &(o, _, accumulated)) in plan.outs.iter().enumerate() {
            if !accumulated {
                let zero = s.b.float(operands[ins + o].ty().element(), 0.0);
                crate::forward::fill(&mut s.b, zero, seeds[k]);
            }
        }
    };
    if aliased {
        zero_outputs(s);
    }
    for (k, &(_, primal, input)) in plan.inputs.iter().enumerate() {
        let (into, map) = match input {
            Some(i) => (s.shadow(op, operands[i])?, maps[i].clone()),
            None => {
                let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
                (
                    s.b.zero_cell(primal.ty()),
                    format!("affine_map<({}) -> ()>", dims.join(", ")),
                )
            }
        };
        let kept_dims = projected_dims(&map).expect("checked by the plan");
        let its: Vec<&str> = (0..rank)
            .map(|d| {
                if kept_dims.contains(&d) {
                    "parallel"
                } else {
                    "reduction"
                }
            })
            .collect();
        let mut g_ins = read_seeds.clone();
        let mut g_maps: Vec<String> = plan
            .outs
            .iter()
            .map(|&(o, _, _)| maps[ins + o].clone())
            .collect();
        for o in 0..plan.outs.len() {
            if let Some(&buffer) = buffers.get(&(o, k)) {
                g_ins.push(buffer);
                g_maps.push(maps[plan.space].clone());
            }
        }
        g_maps.push(map);
        let (_, block, yield_) = build_generic(&mut s.b, &g_ins, &[into], &g_maps, &its);
        let a = block.args();
        let m = plan.outs.len();
        let mut gb = Builder::before(yield_);
        let seeds: Vec<Option<Value>> = a[..m].iter().map(|&v| Some(v)).collect();
        let mut next = m;
        let column: Vec<Value> = (0..m)
            .map(|o| match constant(parts[o][k]) {
                Some(c) => gb.insert(c.clone_detached()).result(0),
                None => {
                    next += 1;
                    a[next - 1]
                }
            })
            .collect();
        let total = weighted(&mut gb, &seeds, &column).expect("at least one output");
        let sum = gb.value("arith.addf", &[a[next], total], total.ty(), &[]);
        yield_.set_operands(&[sum]);
        if input.is_none() {
            let total = s.b.value("memref.load", &[into], primal.ty(), &[]);
            s.add_adjoint(primal, total);
        }
    }
    if aliased {
        for copy in read_seeds {
            s.b.create("memref.dealloc", &[copy], &[], &[], &[], &[]);
        }
    } else {
        zero_outputs(s);
    }
    op.erase();
    Ok(())
}

// ---------------------------------------------------------------- scf.for

/// How a `scf.for` qualifies.
struct LoopPlan {
    /// Carried sums with an adjoint: (position, addend, the addition).
    sums: Vec<(usize, Value, Op)>,
    /// A carried selection `acc' = maximumf/minimumf(acc, f)` with an
    /// adjoint: (position, `f`, whether `acc` is the first operand).
    selection: Option<(usize, Value, bool)>,
    /// Stores into active buffers, in body order.
    stores: Vec<Op>,
    /// Active float loads (per-element inputs), in body order.
    loads: Vec<Op>,
    /// Every load, in body order.
    all_loads: Vec<Op>,
    /// Active loop-invariant scalars the body uses.
    invariants: Vec<Value>,
    /// The element operations (everything else but the terminator).
    ops: Vec<Op>,
    /// The pure integer operations the indices are computed by.
    index_ops: Vec<Op>,
}

/// The reverse of a qualifying `scf.for` by fused N-wide duals;
/// `Ok(false)` (with a remark) when it does not qualify. `seeds` are the
/// adjoints of the loop's results at `carried` (positions).
pub fn for_loop(
    s: &mut ReverseState,
    op: Op,
    carried: &[usize],
    seeds: &[Value],
) -> Result<bool, Error> {
    match plan_loop(s, op, carried) {
        Err(reason) => {
            remark(op, &format!("general reverse path: {reason}"));
            Ok(false)
        }
        Ok(plan) => {
            let n = plan.loads.len() + plan.invariants.len();
            let in_loop = in_loop(s, &plan, seeds);
            remark(
                op,
                &if plan.selection.is_some() {
                    format!(
                        "max/min selection: the adjoint goes to the selected element, found \
                         again by a scan; its {n} partials by N-wide duals"
                    )
                } else {
                    format!(
                        "fused: value and {n} partials in one sweep (N-wide duals){}",
                        if in_loop {
                            ", adjoints accumulated in the loop"
                        } else {
                            ""
                        }
                    )
                },
            );
            if plan.selection.is_some() {
                emit_selection(s, op, &plan, seeds[0])?;
            } else {
                emit_loop(s, op, &plan, carried, seeds, in_loop)?;
                for (c, &j) in carried.iter().enumerate() {
                    s.add_adjoint(op.operand(3 + j), seeds[c]);
                }
            }
            Ok(true)
        }
    }
}

/// Whether the adjoints can be accumulated by the forward loop itself: it
/// only sums, their adjoints are arguments of the function, and the
/// function writes no memory (so shadow updates commute).
fn in_loop(s: &ReverseState, plan: &LoopPlan, seeds: &[Value]) -> bool {
    plan.stores.is_empty()
        && !s.writes_memory()
        && seeds
            .iter()
            .all(|&v| v.block() == s.body() && v.defining_op().is_none())
}

fn plan_loop(s: &ReverseState, op: Op, carried: &[usize]) -> Result<LoopPlan, String> {
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
            Some((f, add)) if active => sums.push((j, f, add)),
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

fn emit_loop(
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
    let mut outputs: Vec<Value> = plan.sums.iter().map(|&(_, f, _)| f).collect();
    outputs.extend(plan.stores.iter().map(|st| st.operand(0)));
    let loads = plan.loads.len();
    let sums = plan.sums.len();
    let mut fb = Builder::before(yield_);
    let parts = partials(&mut fb, &plan.ops, &inputs, &outputs);

    // Partials with respect to invariants, summed over the sums' elements.
    let mut pre = Builder::before(op);
    let mut cells = vec![];
    for (o, &(_, _, add)) in plan.sums.iter().enumerate() {
        for (v, part) in plan.invariants.iter().zip(&parts[o][loads..]) {
            let cell = pre.zero_cell(v.ty());
            add_to_cell(&mut fb, cell, *part, Some(add));
            cells.push((o, *v, cell));
        }
    }
    if in_loop {
        let sum_seeds: Vec<Option<Value>> = plan
            .sums
            .iter()
            .map(|&(j, _, _)| Some(seed_of(j)))
            .collect();
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
    let mut seeds: Vec<Option<Value>> = plan
        .sums
        .iter()
        .map(|&(j, _, _)| Some(seed_of(j)))
        .collect();
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
            add_to_element(&mut b, shadow, &indices, total);
        } else {
            let (_, cell) = cells[k - loads];
            add_to_cell(&mut b, cell, total, None);
        }
    }
    for (v, cell) in cells {
        let total = s.b.value("memref.load", &[cell], v.ty(), &[]);
        s.add_adjoint(v, total);
    }
    Ok(())
}

/// Clones `ops` of the body of the loop `op` with `b`, at the induction
/// value `i`; returns the mapping from the body's values to the clones'.
fn clone_iteration(b: &mut Builder, op: Op, i: Value, ops: &[Op]) -> HashMap<Value, Value> {
    let body = op.regions()[0].entry().expect("a loop body");
    let mut mapping = HashMap::from([(body.args()[0], i)]);
    b.clone_remapped(ops, &mut mapping);
    mapping
}

/// The reverse of a max/min selection loop: a scan (which vectorizes)
/// finds the selected iteration again, the first or last element equal to
/// the result as the derivative rule breaks ties; the adjoint goes to that
/// element's inputs through its partials, or to the initial value when it
/// was selected. A NaN result passes no adjoint on.
fn emit_selection(s: &mut ReverseState, op: Op, plan: &LoopPlan, seed: Value) -> Result<(), Error> {
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
            add_to_cell(&mut b, cells[k - plan.loads.len()], contribution, None);
        }
    }
    for (&v, cell) in plan.invariants.iter().zip(cells) {
        let total = s.b.value("memref.load", &[cell], v.ty(), &[]);
        s.add_adjoint(v, total);
    }
    Ok(())
}
