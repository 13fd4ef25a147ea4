//! GradBench's `lstm`: `objective` calls `@lstm(main_params, extra_params,
//! state, sequence)`, `jacobian` is its gradient with respect to
//! `main_params` and `extra_params`, each flattened row by row and
//! concatenated (see `workloads/lstm.mlir`).

use super::buffers::Arg;
use super::evals::{Called, Eval, Function, How, Input, first_result};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "lstm",
    file: "tools/moonc-gradbench/workloads/lstm.mlir",
    source: Some(include_str!("../workloads/lstm.mlir")),
    functions: &[
        Function {
            name: "objective",
            entry: "lstm",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "jacobian",
            entry: "lstm",
            how: How::Gradient { wrt: Some("0,1") },
            arguments,
            output: jacobian,
        },
    ],
};

/// `{main_params, extra_params, state, sequence: double[][]}` → the four
/// matrices, as they are.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    ["main_params", "extra_params", "state", "sequence"]
        .iter()
        .map(|key| input.array(key, 2).map(Arg::Array))
        .collect()
}

/// `double[]`: the gradient of `main_params`, then of `extra_params`, each
/// row-major.
fn jacobian(_: &Input, called: &Called) -> Result<Json, String> {
    let (main, extra) = (called.gradient(0)?, called.gradient(1)?);
    let all = main.data.iter().chain(&extra.data);
    Ok(Json::List(all.map(|&x| Json::f64(x)).collect()))
}
