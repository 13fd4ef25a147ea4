//! `moonc jacobian`, `moonc grad` and `moonc hessian`: derivatives at a
//! point, by forward mode (one JVP per input coordinate: column j is the
//! JVP with the unit direction e_j) or by reverse mode (one VJP per float
//! scalar result: row i is the VJP with the unit cotangent e_i and zero
//! shadows); Hessians by forward over reverse (column j is the
//! Hessian-vector product with e_j).

use crate::CallOptions;
use clap::ValueEnum;
use moonc_call::{
    compiled::{Compiled, Wrappers},
    failure::{Failure, Outcome},
    json::Json,
    tensor::{Input, Inputs, Tensor, number_json},
    values,
    vjp::shadow_dimension,
    wrapper::{Wrt, is_active_result},
};
use moonc_codegen::{Signature, ValueType};

/// How derivatives are computed (`--mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Forward mode: one Jacobian-vector product per input coordinate.
    Forward,
    /// Reverse mode: one vector-Jacobian product per float scalar result.
    Reverse,
}

impl Mode {
    /// The wrapper this mode calls.
    fn wrappers(self) -> Wrappers {
        Wrappers {
            jvp: self == Mode::Forward,
            vjp: self == Mode::Reverse,
            ..Wrappers::default()
        }
    }
}

/// The Jacobian with respect to the input coordinates, as rows with the
/// type of the result each belongs to: `rows[i].1[j]` = ∂output_i / ∂x_j.
/// The outputs are the float scalar results, then (forward mode) the
/// elements of the results that were tensors of floats, row-major in
/// result order.
fn rows<'s>(
    compiled: &'s Compiled,
    inputs: &Inputs,
    mode: Mode,
) -> Outcome<Vec<(&'s ValueType, Vec<f64>)>> {
    let signature = &compiled.primal;
    match mode {
        Mode::Forward => {
            let n = inputs.dimension();
            let mut direction = vec![0.0; n];
            let columns = (0..n)
                .map(|j| {
                    direction[j] = 1.0;
                    let jvp = compiled.jvp(inputs, &direction);
                    direction[j] = 0.0;
                    Ok(jvp?.result_tangents)
                })
                .collect::<Outcome<Vec<Vec<Tensor>>>>()?;
            // The JVP's tangents, in result order.
            let tangents: Vec<&ValueType> = compiled
                .tangent_results
                .iter()
                .map(|&j| &signature.results[j])
                .collect();
            let row = |k: usize, e: usize| columns.iter().map(|c| c[k].data[e]).collect();
            let mut rows = vec![];
            for (k, t) in tangents.iter().enumerate() {
                if is_active_result(t) {
                    rows.push((*t, row(k, 0)));
                }
            }
            for (k, t) in tangents.iter().enumerate() {
                if !is_active_result(t) {
                    let elements = columns.first().map_or(0, |c| c[k].data.len());
                    rows.extend((0..elements).map(|e| (*t, row(k, e))));
                }
            }
            Ok(rows)
        }
        Mode::Reverse => {
            let shadows = vec![0.0; shadow_dimension(signature, inputs)];
            let active: Vec<&ValueType> = active_results(signature).collect();
            let mut cotangents = vec![0.0; active.len()];
            active
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    cotangents[i] = 1.0;
                    let vjp = compiled.vjp(inputs, &cotangents, &shadows);
                    cotangents[i] = 0.0;
                    let vjp = vjp?;
                    vjp.tape.require_clean(&signature.name)?;
                    Ok((t, vjp.gradient(signature)))
                })
                .collect()
        }
    }
}

/// The float scalar results of `signature`.
fn active_results(signature: &Signature) -> impl Iterator<Item = &ValueType> {
    signature.results.iter().filter(|t| is_active_result(t))
}

/// `{"results": [...], "jacobian": [[...]]}`: one row per float scalar
/// result, then in forward mode one row per element of each tensor result
/// of floats, row-major in result order; one column per input coordinate.
pub fn jacobian(call: &CallOptions, mode: Mode) -> Outcome<Json> {
    let values = values::parse_args(call.args())?;
    // Without float scalar results there are no rows and nothing to
    // differentiate in reverse mode.
    let wrappers = |signature: &Signature, _: &Inputs| match mode {
        Mode::Reverse if active_results(signature).next().is_none() => Wrappers::default(),
        Mode::Forward => Wrappers {
            jvp_of_buffers: true,
            ..mode.wrappers()
        },
        Mode::Reverse => mode.wrappers(),
    };
    let (compiled, inputs) = Compiled::compile(
        &call.file,
        call.entry.as_deref(),
        &Wrt::all(),
        wrappers,
        |s| Inputs::from_args(s, &values),
    )?;
    let primal = compiled.primal(&inputs)?;
    let jacobian = rows(&compiled, &inputs, mode)?
        .into_iter()
        .map(|(t, row)| Json::List(row.iter().map(|&x| number_json(t.element(), x)).collect()))
        .collect();
    Ok(Json::object([
        ("results", primal.printed),
        ("jacobian", Json::List(jacobian)),
    ]))
}

/// `{"value": v, "gradient": [...]}` for an entry with exactly one result,
/// a float scalar: per argument a number (float scalar), a nested list
/// (memref of floats) or `null` (anything else, and the arguments `wrt`
/// leaves out). In reverse mode the value is the VJP's; in forward mode a
/// plain call's.
pub fn grad(call: &CallOptions, wrt: &Wrt, mode: Mode) -> Outcome<Json> {
    let values = values::parse_args(call.args())?;
    let (compiled, inputs) = Compiled::compile(
        &call.file,
        call.entry.as_deref(),
        wrt,
        // In reverse mode the VJP returns the value too.
        |_, _| Wrappers {
            no_primal: mode == Mode::Reverse,
            ..mode.wrappers()
        },
        |signature| scalar_loss_inputs(signature, &values, "grad"),
    )?;
    let (value, gradient) = value_and_gradient(&compiled, &inputs, mode)?;
    Ok(Json::object([("value", value), ("gradient", gradient)]))
}

/// `{"value": v, "gradient": [...], "hessian": [[...]]}`: `grad`'s value
/// and gradient (reverse mode), and the Hessian over the input coordinates
/// (ordered as `jacobian`'s columns): Hessian-vector products with the
/// unit directions, [`HESSIAN_WIDTH`] at a time (forward mode with that
/// many directions over reverse mode).
pub fn hessian(call: &CallOptions) -> Outcome<Json> {
    let values = values::parse_args(call.args())?;
    let wrappers = |_: &_, inputs: &Inputs| Wrappers {
        vjp: true,
        hvp_width: Some(inputs.dimension().clamp(2, HESSIAN_WIDTH)),
        ..Wrappers::default()
    };
    let (compiled, inputs) = Compiled::compile(
        &call.file,
        call.entry.as_deref(),
        &Wrt::all(),
        wrappers,
        |signature| scalar_loss_inputs(signature, &values, "hessian"),
    )?;
    let (value, gradient) = value_and_gradient(&compiled, &inputs, Mode::Reverse)?;
    let n = inputs.dimension();
    let (_, width) = compiled
        .hvp
        .as_ref()
        .expect("compiled with the HVP wrapper");
    let mut columns = vec![];
    for first in (0..n).step_by(*width) {
        columns.extend(compiled.hvp_columns(&inputs, first)?);
    }
    let element = compiled.primal.results[0].element();
    let hessian = (0..n)
        .map(|i| Json::List(columns.iter().map(|c| number_json(element, c[i])).collect()))
        .collect();
    Ok(Json::object([
        ("value", value),
        ("gradient", gradient),
        ("hessian", Json::List(hessian)),
    ]))
}

/// How many Hessian columns one HVP call computes, at most.
const HESSIAN_WIDTH: usize = 8;

/// The inputs `values` give `signature`, which must return exactly one
/// float scalar (what `command` differentiates).
fn scalar_loss_inputs(
    signature: &Signature,
    values: &[serde_json::Value],
    command: &str,
) -> Outcome<Inputs> {
    if !matches!(signature.results.as_slice(), [t] if is_active_result(t)) {
        let results: Vec<String> = signature.results.iter().map(|t| t.to_string()).collect();
        return Err(Failure::new(format!(
            "{command} needs @{} to return exactly one float scalar (f32 or f64), but it \
             returns ({}); use `moonc jacobian` for other functions",
            signature.name,
            results.join(", ")
        )));
    }
    Inputs::from_args(signature, values)
}

/// The value and the gradient as `moonc grad` prints them.
fn value_and_gradient(compiled: &Compiled, inputs: &Inputs, mode: Mode) -> Outcome<(Json, Json)> {
    let signature = &compiled.primal;
    let (value, partials) = match mode {
        Mode::Forward => {
            let primal = compiled.primal(inputs)?;
            let (_, row) = rows(compiled, inputs, mode)?.remove(0);
            (primal.results[0].clone(), row)
        }
        Mode::Reverse => {
            let shadows = vec![0.0; shadow_dimension(signature, inputs)];
            let vjp = compiled.vjp(inputs, &[1.0], &shadows)?;
            vjp.tape.require_clean(&signature.name)?;
            (vjp.primal.results[0].clone(), vjp.gradient(signature))
        }
    };
    let mut partials = partials.into_iter();
    let gradient = inputs
        .0
        .iter()
        .map(|input| match input {
            Input::Float(t) => {
                let data = partials.by_ref().take(t.data.len()).collect();
                Tensor::new(value.element, &t.shape, data).to_json()
            }
            Input::Constant(_) | Input::Fixed(_) => Json::Null,
        })
        .collect();
    Ok((value.to_json(), Json::List(gradient)))
}
