//! Derivative rules of the `func` dialect: calls call the callee's tangent
//! function (or its custom rule), returns return the tangents of the
//! results.

use super::{Forward::Custom, Rule};
use crate::{
    forward::{FunctionState, Key},
    ir::{Builder, Op, Type, Value},
};
use moonc_ir::{Error, moon::Activity as Act};

pub const RULES: &[Rule] = &[
    Rule {
        op: "func.call",
        forward: Custom(call),
    },
    Rule {
        op: "func.return",
        forward: Custom(return_),
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
    let results = op.results();
    let ty = s.diff.function_type(&callee);
    let custom = s.diff.custom_rule(&callee).map(str::to_string);
    let (key, name) = match (custom, ty) {
        (Some(custom), Some(ty)) if s.width == 1 => (Key::default_for(&callee, ty, 1), custom),
        (Some(_), _) => {
            return Err(crate::forward::error_at(
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
    let callee_attr = s.ctx().attr(&format!("@{name}"));
    let new = b.create(
        "func.call",
        &new_operands,
        &types,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    s.replace_rebuilt(op, new, &tangent_results);
    Ok(())
}
