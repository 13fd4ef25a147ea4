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
    // Times the reciprocal rather than divided: a divisor that does not
    // change in a loop (a constant, a norm) is then divided once, outside
    // it; the derivative may differ from the quotient by an ulp.
    Rule {
        op: "arith.divf",
        forward: Expr("(dx0 - dx1 * y) * (1 / x1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.negf",
        forward: Expr("-dx0"),
        reverse: Transpose,
    },
    // remf(x0, x1) = x0 - x1 * trunc(x0 / x1), the quotient piecewise
    // constant.
    Rule {
        op: "arith.remf",
        forward: Expr("dx0 - dx1 * trunc(x0 / x1)"),
        reverse: Transpose,
    },
    // max and min: the tangent is that of the operand picked. Ties (equal
    // operands, -0 and +0 included) give the whole tangent to the first
    // operand, not half to each: max(x, x) has the tangent dx0, and
    // relu(x) = maximumf(x, 0) has the derivative 1 at 0. maximumf and
    // minimumf return NaN if an operand is NaN (its tangent is then
    // meaningless); maxnumf and minnumf return the other operand, whose
    // tangent the comparison of the result with x0 picks (false on NaN).
    Rule {
        op: "arith.maximumf",
        forward: Expr("select(ge(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.maxnumf",
        forward: Expr("select(le(y, x0), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.minimumf",
        forward: Expr("select(le(x0, x1), dx0, dx1)"),
        reverse: Transpose,
    },
    Rule {
        op: "arith.minnumf",
        forward: Expr("select(ge(y, x0), dx0, dx1)"),
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
