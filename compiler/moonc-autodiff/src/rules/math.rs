//! Derivative rules of the `math` dialect (every float operation of MLIR
//! 19's math dialect). Rounding operations have a zero derivative.

use super::{Forward::*, Reverse::*, Rule};

pub const RULES: &[Rule] = &[
    Rule {
        op: "math.absf",
        forward: Expr("select(lt(x0, 0), -dx0, dx0)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.copysign",
        forward: Expr("select(lt(x0 * x1, 0), -dx0, dx0)"),
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
        op: "math.powf",
        forward: Expr("dx0 * (x1 * pow(x0, x1 - 1)) + dx1 * (log(x0) * y)"),
        reverse: Transpose,
    },
    Rule {
        op: "math.fpowi",
        forward: Expr("dx0 * (itof(x1) * fpowi(x0, dec(x1)))"),
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
];
