//! Derivative rules of the `cf` dialect: blocks get a tangent argument for
//! each active argument (see `FunctionState::transform_region`), and
//! branches pass the tangents of the values they pass.

use super::{Forward::Custom, Reverse, Rule};
use crate::{activity::successor_operands, tangent::FunctionState};
use moonc_ir::Error;
use moonc_ir::ir::{Builder, Op, Value};

pub const RULES: &[Rule] = &[
    Rule {
        op: "cf.br",
        forward: Custom(branch),
        reverse: Reverse::Custom(unstructured),
    },
    Rule {
        op: "cf.cond_br",
        forward: Custom(branch),
        reverse: Reverse::Custom(unstructured),
    },
    Rule {
        op: "cf.switch",
        forward: Custom(branch),
        reverse: Reverse::Custom(unstructured),
    },
];

/// Rewrites a branch so that each successor also receives the tangents of
/// its active arguments, in the order the arguments were added.
fn branch(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let mut b = Builder::before(op);
    let mut groups: Vec<Vec<Value>> = vec![];
    for (successor, mut passed) in successor_operands(op) {
        let args = successor.args();
        let active: Vec<usize> = (0..passed.len())
            .filter(|&i| s.is_active(args[i]))
            .collect();
        let tangents: Vec<Value> = active
            .iter()
            .map(|&i| s.tangent_or_zero(&mut b, passed[i]))
            .collect();
        passed.extend(tangents);
        groups.push(passed);
    }
    let operands = op.operands();
    let ctx = s.ctx();
    let sizes = |v: &[usize]| {
        let list: Vec<String> = v.iter().map(|n| n.to_string()).collect();
        ctx.attr(&format!("array<i32: {}>", list.join(", ")))
    };
    let mut all: Vec<Value> = match op.name().as_str() {
        "cf.br" => vec![],
        _ => vec![operands[0]],
    };
    match op.name().as_str() {
        "cf.cond_br" => {
            op.set_attr(
                "operandSegmentSizes",
                sizes(&[1, groups[0].len(), groups[1].len()]),
            );
        }
        "cf.switch" => {
            let cases: Vec<usize> = groups[1..].iter().map(Vec::len).collect();
            let total: usize = cases.iter().sum();
            op.set_attr("operandSegmentSizes", sizes(&[1, groups[0].len(), total]));
            op.set_attr("case_operand_segments", sizes(&cases));
        }
        _ => {}
    }
    all.extend(groups.into_iter().flatten());
    op.set_operands(&all);
    Ok(())
}

/// Reverse mode lifts branches to `scf` first; one left means the control
/// flow could not be lifted.
fn unstructured(_: &mut crate::adjoint::ReverseState, op: Op) -> Result<(), Error> {
    Err(moonc_ir::ir::error_at(
        op,
        "reverse mode cannot differentiate this branch: its control flow could not be lifted \
         to scf",
    ))
}
