//! GradBench's `lse`: `primal` calls `@lse(x)`, `gradient` is its gradient
//! with respect to `x` (see `workloads/lse.mlir`).

use super::buffers::Arg;
use super::evals::{Eval, Function, How, Input, first_result, gradient_of_first};

pub static EVAL: Eval = Eval {
    name: "lse",
    file: "tools/moonc-gradbench/workloads/lse.mlir",
    source: Some(include_str!("../workloads/lse.mlir")),
    functions: &[
        Function {
            name: "primal",
            entry: "lse",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "gradient",
            entry: "lse",
            how: How::Gradient { wrt: None },
            arguments,
            output: gradient_of_first,
        },
    ],
};

/// `{x: double[]}` → `(x)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    Ok(vec![Arg::Array(input.array("x", 1)?)])
}
