//! Derivative rules of the `arith` dialect. Integer and index operations
//! never carry derivatives and need no entry.

use super::{Forward::Expr, Forward::Inactive, Reverse::*, Rule};
use crate::adjoint::ReverseState;
use moonc_ir::Error;

pub const RULES: &[Rule] = &[
    Rule {
        op: "arith.addf",
        forward: Expr("dx0 + dx1"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.subf",
        forward: Expr("dx0 - dx1"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.mulf",
        forward: Expr("dx0 * x1 + x0 * dx1"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.divf",
        forward: Expr("(dx0 - dx1 * y) / x1"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.negf",
        forward: Expr("-dx0"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.remf",
        forward: Expr("dx0 - dx1 * trunc(x0 / x1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.maximumf",
        forward: Expr("select(ge(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.maxnumf",
        forward: Expr("select(ge(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.minimumf",
        forward: Expr("select(le(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.minnumf",
        forward: Expr("select(le(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.select",
        forward: Expr("select(x0, dx1, dx2)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.extf",
        forward: Expr("same(dx0)"),
        reverse: Custom(cast_reverse),
    },
    Rule {
        op: "arith.truncf",
        forward: Expr("same(dx0)"),
        reverse: Custom(cast_reverse),
    },
    Rule {
        op: "arith.cmpf",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "arith.fptosi",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "arith.fptoui",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "arith.bitcast",
        forward: Inactive,
        reverse: Nothing,
    },
];

/// `arith.extf` and `arith.truncf`: the adjoint converts back to the
/// operand's precision.
fn cast_reverse(s: &mut ReverseState, op: moonc_ir::ir::Op) -> Result<(), Error> {
    let (operand, result) = (op.operand(0), op.result(0));
    let Some(adjoint) = s.take_adjoint(result) else {
        return Ok(());
    };
    let back = if op.name() == "arith.extf" {
        "arith.truncf"
    } else {
        "arith.extf"
    };
    let converted = s.b.value(back, &[adjoint], operand.ty(), &[]);
    s.add_adjoint(operand, converted);
    Ok(())
}
