//! GradBench's `ode`: `primal` calls `@ode_primal(x, s, out)` and answers
//! the final state it writes into `out`; `gradient` is the gradient of
//! `@ode(x, s)` (the final state's last element) with respect to `x` (see
//! `workloads/ode.mlir`).

use super::buffers::{Arg, Array};
use super::evals::{Called, Eval, Function, How, Input, flat, gradient_of_first};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "ode",
    file: "tools/moonc-gradbench/workloads/ode.mlir",
    source: Some(include_str!("../workloads/ode.mlir")),
    functions: &[
        Function {
            name: "primal",
            entry: "ode_primal",
            how: How::Call,
            arguments: primal_arguments,
            output: final_state,
        },
        Function {
            name: "gradient",
            entry: "ode",
            how: How::Gradient { wrt: Some("0") },
            arguments,
            output: gradient_of_first,
        },
    ],
};

/// `{x: double[n], s: int}` → `(x, s)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let x = input.array("x", 1)?;
    if x.shape[0] == 0 {
        return Err("input field `x` must not be empty".into());
    }
    let s = input.count("s")?;
    if s == 0 {
        return Err("input field `s` (the number of steps) must be at least 1".into());
    }
    Ok(vec![Arg::Array(x), Arg::Int(s as i64)])
}

/// `{x: double[n], s: int}` → `(x, s, out)`, `out` n zeros.
fn primal_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let mut values = arguments(input)?;
    let n = match &values[0] {
        Arg::Array(x) => x.shape[0],
        _ => 0,
    };
    values.push(Arg::Array(Array::zeros(&[n])));
    Ok(values)
}

/// `double[n]`: what `@ode_primal` wrote into `out`.
fn final_state(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(flat(called.argument(2)?))
}
