//! Derivative rules of the `func` dialect: calls call the callee's tangent
//! function (or its custom rule), returns return the tangents of the
//! results.

use super::{Forward::Custom, Reverse, Rule};
use crate::{
    adjoint::{CallRule, ReverseState},
    request::Key,
    tangent::FunctionState,
};
use moonc_ir::ir::{Builder, Op, Type, Value};
use moonc_ir::{Error, moon::Activity as Act};

pub const RULES: &[Rule] = &[
    Rule {
        op: "func.call",
        forward: Custom(call),
        reverse: Reverse::Custom(call_reverse),
    },
    Rule {
        op: "func.return",
        forward: Custom(return_),
        reverse: Reverse::Nothing,
    },
];

fn return_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let operands = op.operands();
    let results = s.results.clone();
    let mut b = Builder::before(op);
    let mut new: Vec<Value> = operands
        .iter()
        .zip(&results)
        .filter(|(_, a)| !matches!(a, Act::ActiveNoNeed | Act::DupNoNeed))
        .map(|(v, _)| *v)
        .collect();
    for (&v, a) in operands.iter().zip(&results) {
        if *a != Act::Const {
            new.push(s.tangent_or_zero(&mut b, v));
        }
    }
    op.set_operands(&new);
    Ok(())
}

/// The activity a value passes to or gets from a callee.
fn activity_of(s: &FunctionState, value: Value) -> Act {
    match (s.is_active(value), value.ty().is_memref()) {
        (false, _) => Act::Const,
        (true, true) => Act::Dup,
        (true, false) => Act::Active,
    }
}

fn call(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let operands = op.operands();
    if !operands.iter().any(|&v| s.is_active(v)) {
        return Ok(());
    }
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .expect("func.call names a callee");
    if let Some(rule) = super::blas::lookup(&callee) {
        return if s.width == 1 {
            (rule.forward)(s, op)
        } else {
            super::blas::forward_by_lane(s, op, rule)
        };
    }
    let results = op.results();
    let ty = s.diff.function_type(&callee);
    let custom = s.diff.custom_rule(&callee).map(str::to_string);
    let (key, name) = match (custom, ty) {
        (Some(custom), Some(ty)) if s.width == 1 => (Key::default_for(&callee, ty, 1), custom),
        (Some(_), _) => {
            return Err(moonc_ir::ir::error_at(
                op,
                &format!("@{callee} has a custom rule, which only serves width 1"),
            ));
        }
        _ => {
            let key = Key {
                function: callee.clone(),
                args: operands.iter().map(|&v| activity_of(s, v)).collect(),
                results: results.iter().map(|&v| activity_of(s, v)).collect(),
                width: s.width,
                overwrite: false,
            };
            let name = s.diff.request(key.clone(), op)?;
            (key, name)
        }
    };
    let mut b = Builder::before(op);
    let mut new_operands = operands.clone();
    for (&v, a) in operands.iter().zip(&key.args) {
        if *a != Act::Const {
            new_operands.push(s.tangent_or_zero(&mut b, v));
        }
    }
    let tangent_results: Vec<usize> = (0..results.len())
        .filter(|&i| key.results[i] != Act::Const)
        .collect();
    let mut types: Vec<Type> = results.iter().map(|r| r.ty()).collect();
    types.extend(
        tangent_results
            .iter()
            .map(|&i| s.tangent_type(results[i].ty())),
    );
    let new = call_op(&mut b, &name, &new_operands, &types);
    s.replace_rebuilt(op, new, &tangent_results);
    Ok(())
}

/// `func.call`: calls the reverse function of the callee's split pair (or
/// the user's vjp, which recomputes the primal) with the materialized
/// arguments, the shadows of `dup` arguments and the adjoints of the
/// active results; adds the returned adjoints to the arguments'.
fn call_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let Some(rule) = s.calls.get(&op).cloned() else {
        return Ok(());
    };
    let (key, name, custom) = match rule {
        CallRule::Foreign(reverse) => return reverse(s, op),
        CallRule::Split(key, name) => (key, name, false),
        CallRule::Custom(key, name) => (key, name, true),
        CallRule::Joint(key, name) => {
            s.restore_checkpoint(op)?;
            (key, name, true)
        }
        CallRule::CustomJvp(key, name) => return call_reverse_by_jvp(s, op, &key, &name),
    };
    let args = op.operands();
    let results = op.results();
    let mut operands = args
        .iter()
        .map(|&v| s.get(v))
        .collect::<Result<Vec<_>, _>>()?;
    for (&v, a) in args.iter().zip(&key.args) {
        if matches!(a, Act::Dup | Act::DupNoNeed) {
            let shadow = if s.activity.is_active(v) && s.can_shadow(v) {
                s.shadow(op, v)?
            } else {
                // A custom rule takes a shadow for every float buffer; a
                // buffer with none (`const`, a global) gets a zero one
                // whose derivatives are dropped, as in forward mode.
                let zero = s.b.float(v.ty().element(), 0.0);
                let scratch = scratch_like(s, v)?;
                s.b.fill(zero, scratch);
                scratch
            };
            operands.push(shadow);
        }
    }
    for (&r, a) in results.iter().zip(&key.results) {
        if matches!(a, Act::Active | Act::ActiveNoNeed) {
            operands.push(s.take_adjoint_or_zero(r));
        }
    }
    let mut types: Vec<Type> = vec![];
    if custom {
        types.extend(
            results
                .iter()
                .zip(&key.results)
                .filter(|(_, a)| **a != Act::ActiveNoNeed)
                .map(|(r, _)| r.ty()),
        );
    }
    let kept = types.len();
    let active: Vec<Value> = args
        .iter()
        .zip(&key.args)
        .filter(|(_, a)| **a == Act::Active)
        .map(|(v, _)| *v)
        .collect();
    types.extend(active.iter().map(|v| v.ty()));
    let call = call_op(&mut s.b, &name, &operands, &types);
    for (i, &v) in active.iter().enumerate() {
        s.add_adjoint(v, call.result(kept + i));
    }
    Ok(())
}

/// `func.call` of a function of float scalars with only a custom jvp: one
/// jvp call per active argument, with that argument's tangent 1 and the
/// others 0, gives a column of the Jacobian; its dot product with the
/// results' adjoints is the argument's adjoint.
fn call_reverse_by_jvp(s: &mut ReverseState, op: Op, key: &Key, jvp: &str) -> Result<(), Error> {
    let args = op.operands();
    let results = op.results();
    let primals = args
        .iter()
        .map(|&v| s.get(v))
        .collect::<Result<Vec<_>, _>>()?;
    let active_results: Vec<usize> = (0..results.len())
        .filter(|&k| key.results[k] == Act::Active)
        .collect();
    let adjoints: Vec<Value> = active_results
        .iter()
        .map(|&k| s.take_adjoint_or_zero(results[k]))
        .collect();
    let active_args: Vec<usize> = (0..args.len())
        .filter(|&i| key.args[i] == Act::Active)
        .collect();
    let mut types: Vec<Type> = results.iter().map(|r| r.ty()).collect();
    types.extend(active_results.iter().map(|&k| results[k].ty()));
    for &i in &active_args {
        if !s.activity.is_active(args[i]) {
            continue;
        }
        let mut operands = primals.clone();
        for &j in &active_args {
            let unit = if i == j { 1.0 } else { 0.0 };
            operands.push(s.b.float(args[j].ty(), unit));
        }
        let call = call_op(&mut s.b, jvp, &operands, &types);
        let mut sum: Option<Value> = None;
        for (n, &adjoint) in adjoints.iter().enumerate() {
            let column = call.result(results.len() + n);
            let ty = column.ty();
            let term = s.b.value("arith.mulf", &[adjoint, column], ty, &[]);
            sum = Some(match sum {
                Some(acc) => s.b.value("arith.addf", &[acc, term], ty, &[]),
                None => term,
            });
        }
        if let Some(sum) = sum {
            s.add_adjoint(args[i], sum);
        }
    }
    Ok(())
}

/// `func.call @callee(operands)` returning `types`, built with `b`.
fn call_op(b: &mut Builder, callee: &str, operands: &[Value], types: &[Type]) -> Op {
    let callee = b.ctx.attr(&format!("@{callee}"));
    b.create(
        "func.call",
        operands,
        types,
        &[("callee", callee)],
        &[],
        &[],
    )
}

/// A fresh buffer shaped like the memref `like`, freed at the end of the
/// reverse sweep.
fn scratch_like(s: &mut ReverseState, like: Value) -> Result<Value, Error> {
    let like = s.get(like)?;
    let buffer = s.b.alloc_plain_like(like);
    s.free_at_end(buffer);
    Ok(if buffer.ty() == like.ty() {
        buffer
    } else {
        s.b.value("memref.cast", &[buffer], like.ty(), &[])
    })
}
