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
//!
//! This file holds the two entry points, which plan, say why in a remark
//! and emit, and the element function's partials; `plan` decides what
//! qualifies, `generic`, `loops` and `selection` emit the fused code.

mod generic;
mod loops;
pub(crate) use loops::add_to_element;
mod plan;
mod selection;

use crate::adjoint::ReverseState;
use crate::expr;
use crate::rules;
use crate::rules::Forward;
use crate::rules::Rule;
use generic::emit_generic;
use loops::emit_loop;
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::{Error, options};
use plan::{in_loop, plan_generic, plan_loop};
use selection::emit_selection;
use std::collections::HashMap;

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
