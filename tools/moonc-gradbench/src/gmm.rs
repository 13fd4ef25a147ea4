//! GradBench's `gmm`: `objective` calls `@gmm(alpha, mu, q, l, x, gamma,
//! m)`, `jacobian` is its gradient with respect to `alpha`, `mu`, `q` and
//! `l` (see `workloads/gmm.mlir`). The input's `d`, `k` and `n` are
//! implied by the shapes of the lists.

use super::buffers::Arg;
use super::evals::{Called, Eval, Function, How, Input, first_result, flat};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "gmm",
    file: "tools/moonc-gradbench/workloads/gmm.mlir",
    source: Some(include_str!("../workloads/gmm.mlir")),
    functions: &[
        Function {
            name: "objective",
            entry: "gmm",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "jacobian",
            entry: "gmm",
            how: How::Gradient {
                wrt: Some("0,1,2,3"),
            },
            arguments,
            output: jacobian,
        },
    ],
};

/// `{alpha: double[k], mu, q: double[k][d], l: double[k][d(d-1)/2],
/// x: double[n][d], gamma: double, m: int}` → `(alpha, mu, q, l, x, gamma,
/// m)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    Ok(vec![
        Arg::Array(input.array("alpha", 1)?),
        Arg::Array(input.array("mu", 2)?),
        Arg::Array(input.array("q", 2)?),
        Arg::Array(input.array("l", 2)?),
        Arg::Array(input.array("x", 2)?),
        Arg::Float(input.number("gamma")?),
        Arg::Int(input.count("m")? as i64),
    ])
}

/// `{alpha: double[k], mu: double[k][d], q: double[k][d], l:
/// double[k][d(d-1)/2]}`: the gradients, shaped like the inputs.
fn jacobian(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(Json::object([
        ("alpha", flat(called.gradient(0)?)),
        ("mu", called.gradient(1)?.to_json()),
        ("q", called.gradient(2)?.to_json()),
        ("l", called.gradient(3)?.to_json()),
    ]))
}
