//! The dot-product test between forward and reverse mode: for a tangent
//! ẋ and a cotangent ȳ, ⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩, where J is the Jacobian of
//! the outputs (float scalar results and final memref contents) with
//! respect to the inputs (float scalars and memref contents on entry).

use super::{
    Verdict,
    draw::round,
    finite_differences::{dot, norm, random_direction, tangent_outputs, tolerance},
};
use crate::random::SplitMix64;
use moonc_call::{jvp::Jvp, tensor::Inputs, vjp::Vjp};
use moonc_codegen::{Scalar, Signature};

/// `v` with each number rounded to the precision of its element in
/// `elements`, so that the vector a call binds is the vector the test
/// multiplies with.
pub(super) fn rounded(elements: &[Scalar], v: &[f64]) -> Vec<f64> {
    elements.iter().zip(v).map(|(&e, &x)| round(e, x)).collect()
}

/// A random vector of norm about 1, [`rounded`] to `elements`.
pub(super) fn random_vector(elements: &[Scalar], rng: &mut SplitMix64) -> Vec<f64> {
    rounded(elements, &random_direction(elements.len(), rng))
}

/// The element type of each input coordinate, in order.
pub(super) fn input_elements(inputs: &Inputs) -> Vec<Scalar> {
    inputs
        .floats()
        .flat_map(|t| std::iter::repeat_n(t.element, t.data.len()))
        .collect()
}

/// One pair of the test: the tangent ẋ and its JVP, the cotangent ȳ
/// (over the outputs) and its VJP.
pub(super) struct Pair<'a> {
    pub direction: &'a [f64],
    pub jvp: &'a Jvp,
    pub cotangent: &'a [f64],
    pub vjp: &'a Vjp,
}

/// ⟨ȳ, ẏ⟩ (ẏ = J·ẋ over the outputs: result tangents and final shadows)
/// against ⟨x̄, ẋ⟩ (x̄ = Jᵀ·ȳ: argument cotangents and final shadows), for
/// every pair, relative to the bound max(‖ȳ‖‖ẏ‖, ‖x̄‖‖ẋ‖) of both sides.
pub(super) fn dot_product(signature: &Signature, pairs: &[Pair]) -> Verdict {
    let rtol = tolerance(signature).dot_rtol;
    let mut worst: f64 = 0.0;
    for (index, pair) in pairs.iter().enumerate() {
        let tangent = tangent_outputs(pair.jvp);
        let gradient = pair.vjp.gradient(signature);
        let forward = dot(pair.cotangent, &tangent);
        let reverse = dot(&gradient, pair.direction);
        let scale =
            (norm(pair.cotangent) * norm(&tangent)).max(norm(&gradient) * norm(pair.direction));
        let error = (forward - reverse).abs();
        let relative = if error == 0.0 { 0.0 } else { error / scale };
        if relative.is_nan() || relative > rtol {
            return Verdict::Fail(format!(
                "pair {}: <ybar, J xdot> = {forward:.6e} (forward) but <J^T ybar, xdot> = \
                 {reverse:.6e} (reverse): relative error {relative:.1e}, beyond rtol {rtol:e}",
                index + 1
            ));
        }
        worst = worst.max(relative);
    }
    Verdict::Pass(format!(
        "<ybar, J xdot> = <J^T ybar, xdot> for {} random pair{}, relative error {worst:.1e} \
         at worst (rtol {rtol:e})",
        pairs.len(),
        if pairs.len() == 1 { "" } else { "s" }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use moonc_call::{
        compiled::Evaluation,
        json::Json,
        tensor::{Input, Tensor},
        vjp::TapeUse,
    };
    use moonc_codegen::ValueType;

    /// f(x, m) = (x·m0, and m := [m0, x·m1]): 1 result, 2 memref outputs.
    fn signature() -> Signature {
        Signature {
            name: "f".into(),
            args: vec![
                ValueType::Scalar(Scalar::F64),
                ValueType::MemRef {
                    element: Scalar::F64,
                    shape: vec![Some(2)],
                    layout: None,
                },
            ],
            results: vec![ValueType::Scalar(Scalar::F64)],
        }
    }

    fn empty() -> Evaluation {
        Evaluation {
            results: vec![],
            printed: Json::Null,
            arguments: vec![],
        }
    }

    fn scalar(x: f64) -> Tensor {
        Tensor::new(Scalar::F64, &[], vec![x])
    }

    /// The JVP and VJP at x = 2, m = [3, 5]: J = [[3, 2, 0], [0, 1, 0],
    /// [5, 0, 2]] (rows: result, m0 after, m1 after). `wrong` breaks ∂r/∂x
    /// in reverse mode.
    fn pair(direction: &[f64], cotangent: &[f64], wrong: bool) -> Verdict {
        let j = [[3.0, 2.0, 0.0], [0.0, 1.0, 0.0], [5.0, 0.0, 2.0]];
        let apply = |i: usize| dot(&j[i], direction);
        let jvp = Jvp {
            primal: empty(),
            result_tangents: vec![scalar(apply(0))],
            shadows: vec![Tensor::new(Scalar::F64, &[2], vec![apply(1), apply(2)])],
        };
        let column = |k: usize| (0..3).map(|i| j[i][k] * cotangent[i]).sum::<f64>();
        let vjp = Vjp {
            primal: empty(),
            arg_cotangents: vec![scalar(column(0) + if wrong { 1.0 } else { 0.0 })],
            shadows: vec![Tensor::new(Scalar::F64, &[2], vec![column(1), column(2)])],
            tape: TapeUse::default(),
            wrt: moonc_call::wrapper::Wrt::all(),
        };
        let pairs = [Pair {
            direction,
            jvp: &jvp,
            cotangent,
            vjp: &vjp,
        }];
        dot_product(&signature(), &pairs)
    }

    #[test]
    fn transposes_pass_and_wrong_ones_fail() {
        let (direction, cotangent) = ([0.6, -0.8, 0.0], [0.5, 0.5, -0.7]);
        assert!(matches!(
            pair(&direction, &cotangent, false),
            Verdict::Pass(_)
        ));
        let Verdict::Fail(detail) = pair(&direction, &cotangent, true) else {
            panic!("a wrong cotangent passed");
        };
        assert!(detail.starts_with("pair 1: <ybar, J xdot> = "), "{detail}");
        // Both sides zero: no error.
        assert!(matches!(
            pair(&[0.0; 3], &cotangent, false),
            Verdict::Pass(_)
        ));
    }

    #[test]
    fn vectors_are_rounded_like_the_call() {
        let elements = [Scalar::F32, Scalar::F64, Scalar::F32];
        let v = random_vector(&elements, &mut SplitMix64::new(1));
        assert_eq!(v[0], v[0] as f32 as f64);
        assert_eq!(v[2], v[2] as f32 as f64);
        let inputs = Inputs(vec![
            Input::Float(Tensor::new(Scalar::F32, &[2], vec![1.0, 2.0])),
            Input::Fixed(serde_json::json!(3)),
            Input::Float(scalar(4.0)),
        ]);
        assert_eq!(
            input_elements(&inputs),
            vec![Scalar::F32, Scalar::F32, Scalar::F64]
        );
    }
}
