//! Derivative rules of the `math` dialect (every float operation of MLIR
//! 22's math dialect). Rounding operations have a zero derivative, the
//! classification tests (`isnan`, ...) none; integer operations (`absi`,
//! `ctlz`, `ipowi`, ...) never carry derivatives and need no entry.

use super::{
    Forward::{self, Expr, Inactive, Zero},
    Reverse::{self, Nothing, Transpose},
    Rule,
};
use crate::{
    adjoint::ReverseState,
    expr::{Env, Term, parse},
    tangent::FunctionState,
};
use moonc_ir::{
    Error,
    ir::{Builder, Op},
};

pub const RULES: &[Rule] = &[
    Rule {
        op: "math.absf",
        forward: Expr("select(lt(x0, 0), -dx0, dx0)"),
        reverse: Transpose,
    },
    // copysign(x, s) = ±x, the sign flipped where the signs of x and s
    // differ (signed zeros included, which the product x * s, zero for
    // -0.0 and on underflow, would miss); piecewise constant in s.
    Rule {
        op: "math.copysign",
        forward: Expr("dx0 * (copysign(1, x0) * copysign(1, x1))"),
        reverse: Transpose,
    },
    Rule {
        op: "math.sin",
        forward: Expr("dx0 * cos(x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.cos",
        forward: Expr("-dx0 * sin(x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.tan",
        forward: Expr("dx0 * (1 + y * y)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.sinh",
        forward: Expr("dx0 * cosh(x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.cosh",
        forward: Expr("dx0 * sinh(x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.tanh",
        forward: Expr("dx0 * (1 - y * y)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.asin",
        forward: Expr("dx0 / sqrt(1 - x0 * x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.acos",
        forward: Expr("-dx0 / sqrt(1 - x0 * x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.atan",
        forward: Expr("dx0 / (1 + x0 * x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.asinh",
        forward: Expr("dx0 / sqrt(x0 * x0 + 1)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.acosh",
        forward: Expr("dx0 / sqrt(x0 * x0 - 1)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.atanh",
        forward: Expr("dx0 / (1 - x0 * x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.atan2",
        forward: Expr("(dx0 * x1 - dx1 * x0) / (x0 * x0 + x1 * x1)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.exp",
        forward: Expr("dx0 * y"),
        reverse: Transpose,
    },
    Rule {
        op: "math.exp2",
        forward: Expr("dx0 * (y * 0.6931471805599453)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.expm1",
        forward: Expr("dx0 * (y + 1)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.log",
        forward: Expr("dx0 / x0"),
        reverse: Transpose,
    },
    Rule {
        op: "math.log2",
        forward: Expr("dx0 / (x0 * 0.6931471805599453)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.log10",
        forward: Expr("dx0 / (x0 * 2.302585092994046)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.log1p",
        forward: Expr("dx0 / (x0 + 1)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.sqrt",
        forward: Expr("dx0 * (0.5 / y)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.rsqrt",
        forward: Expr("dx0 * (-0.5 * y / x0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.cbrt",
        forward: Expr("dx0 * (y / (3 * x0))"),
        reverse: Transpose,
    },
    Rule {
        op: "math.erf",
        forward: Expr("dx0 * (1.1283791670955126 * exp(-(x0 * x0)))"),
        reverse: Transpose,
    },
    Rule {
        op: "math.erfc",
        forward: Expr("dx0 * (-1.1283791670955126 * exp(-(x0 * x0)))"),
        reverse: Transpose,
    },
    Rule {
        op: "math.powf",
        forward: Expr("dx0 * (x1 * pow(x0, x1 - 1)) + dx1 * (log(x0) * y)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.fpowi",
        forward: Expr("dx0 * (itof(x1) * fpowi(x0, dec(x1)))"),
        reverse: Transpose,
    },
    // sin and cos of one value: each tangent uses the other result.
    Rule {
        op: "math.sincos",
        forward: Forward::Custom(sincos_forward),
        reverse: Reverse::Custom(sincos_reverse),
    },
    // MLIR 22 defines clampf(v, lo, hi) as maximumf(minimumf(v, lo), hi)
    // (and lowers it so); the tangent follows the operand each of the two
    // picks, ties going to the first operand as in arith.maximumf and
    // arith.minimumf.
    Rule {
        op: "math.clampf",
        forward: Expr("select(ge(min(x0, x1), x2), select(le(x0, x1), dx0, dx1), dx2)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.fma",
        forward: Expr("dx0 * x1 + x0 * dx1 + dx2"),
        reverse: Transpose,
    },
    Rule {
        op: "math.floor",
        forward: Zero,
        reverse: Nothing,
    },
    Rule {
        op: "math.ceil",
        forward: Zero,
        reverse: Nothing,
    },
    Rule {
        op: "math.round",
        forward: Zero,
        reverse: Nothing,
    },
    Rule {
        op: "math.roundeven",
        forward: Zero,
        reverse: Nothing,
    },
    Rule {
        op: "math.trunc",
        forward: Zero,
        reverse: Nothing,
    },
    Rule {
        op: "math.isnan",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "math.isinf",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "math.isfinite",
        forward: Inactive,
        reverse: Nothing,
    },
    Rule {
        op: "math.isnormal",
        forward: Inactive,
        reverse: Nothing,
    },
];

/// `math.sincos`: the tangent of the sine is `dx * cos`, that of the cosine
/// `-dx * sin`, each reading the op's other result.
fn sincos_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    let Some(dx) = s.tangent(x) else {
        return Ok(());
    };
    let (sin, cos) = (op.result(0), op.result(1));
    let tangent_type = s.tangent_type(sin.ty());
    let mut b = Builder::after(op);
    for (result, other, rule) in [(sin, cos, "dx0 * y"), (cos, sin, "-dx0 * y")] {
        let env = Env {
            op_name: "math.sincos",
            operands: &[x],
            tangents: &[Some(dx)],
            result: other,
            tangent_type,
            width: s.width,
        };
        let term = env.eval(&mut b, &parse(rule));
        if !matches!(term, Term::Zero) {
            let tangent = env.tangent_value(&mut b, term);
            s.set_tangent(result, tangent);
        }
    }
    Ok(())
}

/// `math.sincos`: the operand's adjoint gains `sinbar * cos - cosbar * sin`
/// (the transpose of [`sincos_forward`]).
fn sincos_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    if !s.has_adjoint(x) {
        return Ok(());
    }
    let (sin, cos) = (op.result(0), op.result(1));
    let ty = x.ty();
    let mut contribution = None;
    if let Some(sin_bar) = s.take_adjoint(sin) {
        let cos = s.get(cos)?;
        contribution = Some(s.b.value("arith.mulf", &[sin_bar, cos], ty, &[]));
    }
    if let Some(cos_bar) = s.take_adjoint(cos) {
        let sin = s.get(sin)?;
        let term = s.b.value("arith.mulf", &[cos_bar, sin], ty, &[]);
        contribution = Some(match contribution {
            Some(c) => s.b.value("arith.subf", &[c, term], ty, &[]),
            None => s.b.value("arith.negf", &[term], ty, &[]),
        });
    }
    if let Some(c) = contribution {
        s.add_adjoint(x, c);
    }
    Ok(())
}
