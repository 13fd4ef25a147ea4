//! `moonc jacobian` and `moonc grad`: derivatives at a point, by forward
//! mode, one JVP per input coordinate (column j is the JVP with the unit
//! direction e_j).

use crate::{
    CallOptions,
    failure::{Failure, Outcome},
    forward::Forward,
    json::Json,
    tensor::{Input, Inputs, Tensor, number_json},
    values,
    wrapper::is_active_result,
};
use clap::ValueEnum;

/// How derivatives are computed (`--mode`).
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum Mode {
    /// Forward mode: one Jacobian-vector product per input coordinate.
    #[default]
    Forward,
    /// Reverse mode: one vector-Jacobian product per output (not yet).
    Reverse,
}

impl Mode {
    /// Fails unless this mode is available.
    fn require_available(self) -> Outcome<()> {
        match self {
            Mode::Forward => Ok(()),
            Mode::Reverse => Err(Failure::new(
                "reverse mode is not available yet; use --mode forward",
            )),
        }
    }
}

/// The Jacobian's columns: for each coordinate j of `inputs`, the tangents
/// of the float scalar results in the direction e_j.
fn columns(forward: &Forward, inputs: &Inputs) -> Outcome<Vec<Vec<Tensor>>> {
    let n = inputs.dimension();
    let mut direction = vec![0.0; n];
    (0..n)
        .map(|j| {
            direction[j] = 1.0;
            let jvp = forward.jvp(inputs, &direction);
            direction[j] = 0.0;
            Ok(jvp?.result_tangents)
        })
        .collect()
}

/// `{"results": [...], "jacobian": [[...]]}`: one row per float scalar
/// result, one column per input coordinate.
pub fn jacobian(call: &CallOptions, mode: Mode) -> Outcome<Json> {
    mode.require_available()?;
    let values = values::parse_args(call.args())?;
    let (forward, inputs) = Forward::compile(call, |s| Inputs::from_args(s, &values))?;
    let primal = forward.primal(&inputs)?;
    let columns = columns(&forward, &inputs)?;
    let rows = forward
        .primal
        .results
        .iter()
        .filter(|t| is_active_result(t));
    let jacobian = rows
        .enumerate()
        .map(|(i, t)| {
            Json::List(
                columns
                    .iter()
                    .map(|column| number_json(t.element(), column[i].data[0]))
                    .collect(),
            )
        })
        .collect();
    Ok(Json::object([
        ("results", primal.printed),
        ("jacobian", Json::List(jacobian)),
    ]))
}

/// `{"value": v, "gradient": [...]}` for an entry with exactly one result,
/// a float scalar: per argument a number (float scalar), a nested list
/// (memref of floats) or `null` (anything else).
pub fn grad(call: &CallOptions, mode: Mode) -> Outcome<Json> {
    mode.require_available()?;
    let values = values::parse_args(call.args())?;
    let (forward, inputs) = Forward::compile(call, |signature| {
        if !matches!(signature.results.as_slice(), [t] if is_active_result(t)) {
            let results: Vec<String> = signature.results.iter().map(|t| t.to_string()).collect();
            return Err(Failure::new(format!(
                "grad needs @{} to return exactly one float scalar (f32 or f64), but it \
                 returns ({}); use `moonc jacobian` for other functions",
                signature.name,
                results.join(", ")
            )));
        }
        Inputs::from_args(signature, &values)
    })?;
    let primal = forward.primal(&inputs)?;
    let value = &primal.results[0];
    let columns = columns(&forward, &inputs)?;
    let mut partials = columns.iter().map(|column| column[0].data[0]);
    let gradient = inputs
        .0
        .iter()
        .map(|input| match input {
            Input::Float(t) => {
                let data = partials.by_ref().take(t.data.len()).collect();
                Tensor::new(value.element, &t.shape, data).to_json()
            }
            Input::Fixed(_) => Json::Null,
        })
        .collect();
    Ok(Json::object([
        ("value", value.to_json()),
        ("gradient", Json::List(gradient)),
    ]))
}
