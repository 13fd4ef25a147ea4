//! GradBench's `llsq`: `primal` calls `@llsq(x, n)`, `gradient` is its
//! gradient with respect to `x` (see `workloads/llsq.mlir`).

use super::buffers::Arg;
use super::evals::{Eval, Function, How, Input, first_result, gradient_of_first};

pub static EVAL: Eval = Eval {
    name: "llsq",
    file: "tools/moonc-gradbench/workloads/llsq.mlir",
    source: Some(include_str!("../workloads/llsq.mlir")),
    functions: &[
        Function {
            name: "primal",
            entry: "llsq",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "gradient",
            entry: "llsq",
            how: How::Gradient { wrt: Some("0") },
            arguments,
            output: gradient_of_first,
        },
    ],
};

/// `{x: double[], n: int}` → `(x, n)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    Ok(vec![
        Arg::Array(input.array("x", 1)?),
        Arg::Int(input.count("n")? as i64),
    ])
}
