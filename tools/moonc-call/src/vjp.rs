//! Vector-Jacobian products: calls of the VJP wrapper of a [`Compiled`]
//! function, with the state of moonrt's default tape around each call.

use crate::{
    compiled::{Compiled, Evaluation, invoke},
    failure::{Failure, Outcome},
    tensor::{Input, Inputs, Tensor},
    wrapper::{Wrt, is_active_arg, is_active_result, is_dup_arg},
};
use moonc_codegen::Signature;
use serde_json::Value;

/// What one call of the VJP wrapper leaves behind.
pub struct Vjp {
    /// The entry's results and the final values of its arguments.
    pub primal: Evaluation,
    /// The cotangent of each differentiated float scalar argument, in
    /// order.
    pub arg_cotangents: Vec<Tensor>,
    /// The final shadow of each differentiated memref-of-floats argument,
    /// in order: the shadow on entry plus the cotangent of its contents on
    /// entry.
    pub shadows: Vec<Tensor>,
    /// The tape's state around the call.
    pub tape: TapeUse,
    /// The arguments differentiated.
    pub wrt: Wrt,
}

/// How a call used moonrt's default tape.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TapeUse {
    /// Bytes the call left on the tape (0 when it popped all it pushed).
    pub left: i64,
    /// The most bytes the call had on the tape at once.
    pub peak: i64,
    /// The error compiled code reported through moonrt, if any.
    pub error: Option<String>,
}

impl TapeUse {
    /// Runs `call` and records how it used the tape. The peak is restarted
    /// and the last error cleared before it.
    pub fn around<R>(call: impl FnOnce() -> R) -> (R, TapeUse) {
        moonrt::clear_error();
        let before = moonrt::moonrt_tape_bytes_in_use();
        moonrt::moonrt_tape_reset_peak();
        let result = call();
        let tape = TapeUse {
            left: moonrt::moonrt_tape_bytes_in_use() - before,
            peak: moonrt::moonrt_tape_peak_bytes() - before,
            error: moonrt::last_error().map(|e| e.message().to_string()),
        };
        (result, tape)
    }

    /// What is wrong with the call of the VJP of `name`, if anything: an
    /// error reported at run time, or a tape left unbalanced.
    pub fn problem(&self, name: &str) -> Option<String> {
        if let Some(error) = &self.error {
            return Some(format!("the VJP of @{name} reported an error: {error}"));
        }
        (self.left != 0).then(|| {
            format!(
                "the VJP of @{name} left {} bytes on moonrt's tape (it must pop all it \
                 pushes: a bug in the generated reverse code)",
                self.left
            )
        })
    }

    /// Fails if [`TapeUse::problem`] finds something.
    pub fn require_clean(&self, name: &str) -> Outcome<()> {
        match self.problem(name) {
            Some(problem) => Err(Failure::new(problem)),
            None => Ok(()),
        }
    }
}

impl Vjp {
    /// x̄: one number per coordinate of the inputs, in their order: a float
    /// scalar's cotangent, a memref's final shadow (differentiated
    /// arguments only).
    pub fn gradient(&self, signature: &Signature) -> Vec<f64> {
        let mut cotangents = self.arg_cotangents.iter();
        let mut shadows = self.shadows.iter();
        let mut gradient = vec![];
        for (i, t) in signature.args.iter().enumerate() {
            let next = if !self.wrt.includes(i, t) {
                None
            } else if is_active_arg(t) {
                cotangents.next()
            } else if is_dup_arg(t) {
                shadows.next()
            } else {
                None
            };
            gradient.extend(next.iter().flat_map(|tensor| tensor.data.iter().copied()));
        }
        gradient
    }
}

/// How many numbers the shadows of `signature`'s memref-of-floats
/// arguments hold at `inputs`.
pub fn shadow_dimension(signature: &Signature, inputs: &Inputs) -> usize {
    dup_inputs(signature, inputs).map(|t| t.data.len()).sum()
}

/// The float inputs that are memrefs (`dup` arguments), in order.
fn dup_inputs<'a>(
    signature: &'a Signature,
    inputs: &'a Inputs,
) -> impl Iterator<Item = &'a Tensor> {
    signature
        .args
        .iter()
        .zip(&inputs.0)
        .filter_map(|(t, input)| match input {
            Input::Float(tensor) if is_dup_arg(t) => Some(tensor),
            _ => None,
        })
}

/// The operands of `signature`'s VJP wrapper: the inputs, then the shadows
/// on entry (`shadows`, flattened over the memref-of-floats arguments in
/// order), then one cotangent per float scalar result (`cotangents`).
pub fn vjp_values(
    signature: &Signature,
    inputs: &Inputs,
    cotangents: &[f64],
    shadows: &[f64],
) -> Outcome<Vec<Value>> {
    let active: Vec<_> = signature
        .results
        .iter()
        .filter(|t| is_active_result(t))
        .collect();
    let dimension = shadow_dimension(signature, inputs);
    if active.len() != cotangents.len() || dimension != shadows.len() {
        return Err(Failure::new(format!(
            "internal error: the VJP of @{} takes {} cotangents and {dimension} shadow \
             numbers, but was given {} and {}",
            signature.name,
            active.len(),
            cotangents.len(),
            shadows.len()
        )));
    }
    let mut values = inputs.values();
    let mut start = 0;
    for tensor in dup_inputs(signature, inputs) {
        let end = start + tensor.data.len();
        let shadow = Tensor::new(tensor.element, &tensor.shape, shadows[start..end].to_vec());
        values.push(shadow.to_value());
        start = end;
    }
    for (t, &c) in active.iter().zip(cotangents) {
        values.push(Tensor::new(t.element(), &[], vec![c]).to_value());
    }
    Ok(values)
}

impl Compiled {
    /// The VJP of the entry at `inputs` with one cotangent per float scalar
    /// result (`cotangents`) and the shadows on entry (`shadows`, flattened
    /// over the memref-of-floats arguments).
    pub fn vjp(&self, inputs: &Inputs, cotangents: &[f64], shadows: &[f64]) -> Outcome<Vjp> {
        let signature = self.wrapper(&self.vjp, "VJP")?;
        let values = vjp_values(&self.primal, inputs, cotangents, shadows)?;
        let (evaluation, tape) = TapeUse::around(|| invoke(&self.jit, signature, &values));
        let mut primal = evaluation?;
        let (arg_cotangents, operands) = primal.split_off(&self.primal);
        let dups = (self.primal.args.iter().enumerate())
            .filter(|(i, t)| self.wrt.includes(*i, t) && is_dup_arg(t))
            .count();
        let shadows = operands.into_iter().take(dups).collect();
        Ok(Vjp {
            primal,
            arg_cotangents,
            shadows,
            tape,
            wrt: self.wrt.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use moonc_codegen::{Scalar, ValueType};
    use serde_json::json;

    fn signature() -> Signature {
        let memref = |element, shape| ValueType::MemRef {
            element,
            shape,
            layout: None,
        };
        Signature {
            name: "f".into(),
            args: vec![
                memref(Scalar::F32, vec![Some(2)]),
                ValueType::Scalar(Scalar::F64),
                ValueType::Scalar(Scalar::I32),
                memref(Scalar::F64, vec![]),
            ],
            results: vec![
                ValueType::Scalar(Scalar::I64),
                ValueType::Scalar(Scalar::F32),
            ],
        }
    }

    fn inputs() -> Inputs {
        Inputs(vec![
            Input::Float(Tensor::new(Scalar::F32, &[2], vec![1.0, 2.0])),
            Input::Float(Tensor::new(Scalar::F64, &[], vec![3.0])),
            Input::Fixed(json!(4)),
            Input::Float(Tensor::new(Scalar::F64, &[], vec![5.0])),
        ])
    }

    #[test]
    fn operands_are_inputs_then_shadows_then_cotangents() {
        let values = vjp_values(&signature(), &inputs(), &[0.5], &[6.0, 7.0, 8.0]).unwrap();
        assert_eq!(
            values,
            vec![
                json!([1.0, 2.0]),
                json!(3.0),
                json!(4),
                json!(5.0),
                json!([6.0, 7.0]),
                json!(8.0),
                json!(0.5),
            ]
        );
        assert_eq!(shadow_dimension(&signature(), &inputs()), 3);
        let error = vjp_values(&signature(), &inputs(), &[], &[0.0; 3]).unwrap_err();
        assert!(error.0.contains("takes 1 cotangents"), "{error}");
    }

    #[test]
    fn the_gradient_follows_the_coordinates() {
        let vjp = Vjp {
            primal: Evaluation {
                results: vec![],
                printed: crate::json::Json::Null,
                arguments: vec![],
            },
            arg_cotangents: vec![Tensor::new(Scalar::F64, &[], vec![10.0])],
            shadows: vec![
                Tensor::new(Scalar::F32, &[2], vec![11.0, 12.0]),
                Tensor::new(Scalar::F64, &[], vec![13.0]),
            ],
            tape: TapeUse::default(),
            wrt: Wrt::all(),
        };
        assert_eq!(vjp.gradient(&signature()), vec![11.0, 12.0, 10.0, 13.0]);
    }

    #[test]
    fn tape_use_is_measured_around_a_call() {
        let ((), clean) = TapeUse::around(|| {
            moonrt::moonrt_tape_push_f64(1.0);
            moonrt::moonrt_tape_pop_f64();
        });
        assert_eq!(clean.peak, 8);
        assert_eq!(clean.problem("f"), None);
        let ((), unbalanced) = TapeUse::around(|| moonrt::moonrt_tape_push_i64(1));
        assert_eq!(unbalanced.left, 8);
        assert!(unbalanced.problem("f").unwrap().contains("left 8 bytes"));
        moonrt::moonrt_tape_pop_i64();
        let ((), failed) = TapeUse::around(|| {
            moonrt::moonrt_tape_pop_f64();
        });
        let problem = failed.problem("f").unwrap();
        assert!(problem.contains("the tape is empty"), "{problem}");
        assert!(failed.require_clean("f").is_err());
    }
}
