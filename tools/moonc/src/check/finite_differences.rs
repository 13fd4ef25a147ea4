//! The check of a JVP against central finite differences: outputs,
//! random directions, steps and tolerances per precision.

use super::Verdict;
use crate::{
    failure::{Failure, Outcome},
    forward::{Evaluation, Forward, Jvp},
    random::SplitMix64,
    tensor::{Input, Inputs},
    wrapper::is_active_result,
};
use moonc_codegen::{Scalar, Signature, ValueType};

/// How many random directions the JVP is checked in.
pub(super) const DIRECTIONS: usize = 3;

/// The finite-difference steps and the tolerances of one precision.
struct Tolerance {
    steps: &'static [f64],
    rtol: f64,
    atol: f64,
}

/// For functions computing in f64 only.
const F64: Tolerance = Tolerance {
    steps: &[1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8],
    rtol: 1e-6,
    atol: 1e-9,
};

/// For functions with any f32 argument or result.
const F32: Tolerance = Tolerance {
    steps: &[1e-1, 3e-2, 1e-2, 3e-3],
    rtol: 1e-2,
    atol: 1e-4,
};

/// F32 steps and tolerances if any argument or result is (or holds) f32.
fn tolerance(signature: &Signature) -> &'static Tolerance {
    let any_f32 = signature
        .args
        .iter()
        .chain(&signature.results)
        .any(|t| t.element() == Scalar::F32);
    if any_f32 { &F32 } else { &F64 }
}

/// How many numbers [`outputs`] has.
pub(super) fn output_count(signature: &Signature, inputs: &Inputs) -> usize {
    let results = signature
        .results
        .iter()
        .filter(|t| is_active_result(t))
        .count();
    let memrefs: usize = signature
        .args
        .iter()
        .zip(&inputs.0)
        .filter_map(|(t, input)| match (t, input) {
            (ValueType::MemRef { .. }, Input::Float(tensor)) => Some(tensor.data.len()),
            _ => None,
        })
        .sum();
    results + memrefs
}

/// What the JVP is checked on, flattened: the float scalar results, then
/// the final contents of the memref-of-floats arguments.
fn outputs(signature: &Signature, evaluation: &Evaluation) -> Vec<f64> {
    let results = signature
        .results
        .iter()
        .zip(&evaluation.results)
        .filter(|(t, _)| is_active_result(t));
    let memrefs = signature
        .args
        .iter()
        .zip(&evaluation.arguments)
        .filter(|(t, _)| matches!(t, ValueType::MemRef { .. }) && t.element().is_float());
    results
        .chain(memrefs)
        .flat_map(|(_, tensor)| tensor.data.iter().copied())
        .collect()
}

/// The tangent of [`outputs`] that a JVP computed.
fn tangent_outputs(jvp: &Jvp) -> Vec<f64> {
    jvp.result_tangents
        .iter()
        .chain(&jvp.shadows)
        .flat_map(|tensor| tensor.data.iter().copied())
        .collect()
}

/// A direction of Euclidean norm 1 over `dimension` coordinates.
pub(super) fn random_direction(dimension: usize, rng: &mut SplitMix64) -> Vec<f64> {
    let raw: Vec<f64> = (0..dimension).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let norm = norm(&raw);
    if norm == 0.0 {
        let mut unit = vec![0.0; dimension];
        unit[0] = 1.0;
        return unit;
    }
    raw.iter().map(|x| x / norm).collect()
}

/// The Euclidean norm of `v`.
fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The JVP in `direction` agrees with central finite differences
/// (F(x + h·d) − F(x − h·d)) / 2h for at least one step h.
pub(super) fn finite_differences(
    forward: &Forward,
    inputs: &Inputs,
    direction: &[f64],
    jvp: &Jvp,
) -> Outcome<Verdict> {
    let signature = &forward.primal;
    let tolerance = tolerance(signature);
    if direction.is_empty() {
        return Ok(Verdict::Skipped(format!(
            "@{} has no float inputs",
            signature.name
        )));
    }
    let tangent = tangent_outputs(jvp);
    if tangent.is_empty() {
        return Ok(Verdict::Skipped(format!(
            "@{} has no float outputs (float scalar results or memref-of-floats arguments)",
            signature.name
        )));
    }
    let x = inputs.coordinates();
    let at = |h: f64| -> Outcome<Vec<f64>> {
        let moved: Vec<f64> = x.iter().zip(direction).map(|(x, d)| x + h * d).collect();
        Ok(outputs(
            signature,
            &forward.primal(&inputs.with_coordinates(&moved))?,
        ))
    };
    let mut trials = vec![];
    for &h in tolerance.steps {
        let (plus, minus) = (at(h)?, at(-h)?);
        if plus.len() != tangent.len() || minus.len() != tangent.len() {
            return Err(Failure::new(format!(
                "internal error: @{} has {} outputs but its JVP {} tangents",
                signature.name,
                plus.len(),
                tangent.len()
            )));
        }
        let fd: Vec<f64> = plus
            .iter()
            .zip(&minus)
            .map(|(p, m)| (p - m) / (2.0 * h))
            .collect();
        trials.push(Trial::new(h, &fd, &tangent, tolerance));
    }
    let Some(best) = best(&trials) else {
        return Ok(Verdict::Skipped("no finite-difference steps".into()));
    };
    let detail = format!(
        "relative error {:.1e} at h = {:e}",
        best.relative, best.step
    );
    Ok(if best.within {
        Verdict::Pass(detail)
    } else {
        Verdict::Fail(format!(
            "{detail} (the best step), beyond rtol {:e} and atol {:e}; |jvp| = {:.4e}, \
             |finite difference| = {:.4e}",
            tolerance.rtol,
            tolerance.atol,
            norm(&tangent),
            best.fd_norm
        ))
    })
}

/// The comparison of the JVP with the finite difference of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Trial {
    step: f64,
    /// ‖fd − jvp‖ / max(‖fd‖, ‖jvp‖), 0 when both are 0.
    relative: f64,
    /// ‖fd − jvp‖ ≤ atol + rtol · max(‖fd‖, ‖jvp‖).
    within: bool,
    fd_norm: f64,
}

impl Trial {
    fn new(step: f64, fd: &[f64], jvp: &[f64], tolerance: &Tolerance) -> Trial {
        let difference: Vec<f64> = fd.iter().zip(jvp).map(|(f, t)| f - t).collect();
        let error = norm(&difference);
        let scale = norm(fd).max(norm(jvp));
        Trial {
            step,
            relative: if error == 0.0 { 0.0 } else { error / scale },
            within: error <= tolerance.atol + tolerance.rtol * scale,
            fd_norm: norm(fd),
        }
    }
}

/// The best trial: within tolerance first, then the smallest relative
/// error (NaN counting as the largest).
fn best(trials: &[Trial]) -> Option<&Trial> {
    let rank = |t: &Trial| {
        let relative = if t.relative.is_nan() {
            f64::INFINITY
        } else {
            t.relative
        };
        (!t.within, relative)
    };
    trials.iter().min_by(|a, b| {
        let (a, b) = (rank(a), rank(b));
        a.0.cmp(&b.0).then(a.1.total_cmp(&b.1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trials_use_relative_and_absolute_tolerances() {
        let close = Trial::new(1e-3, &[1.0, 2.0], &[1.0, 2.0 + 1e-7], &F64);
        assert!(close.within && close.relative < 1e-7);
        let far = Trial::new(1e-3, &[1.0], &[1.5], &F64);
        assert!(!far.within);
        assert!((far.relative - 1.0 / 3.0).abs() < 1e-12);
        let tiny = Trial::new(1e-3, &[0.0], &[1e-10], &F64);
        assert!(tiny.within, "below atol");
        let nan = Trial::new(1e-3, &[f64::NAN], &[1.0], &F64);
        assert!(!nan.within);
        assert_eq!(best(&[nan, far, close]), Some(&close));
        assert_eq!(best(&[nan, far]), Some(&far));
        assert_eq!(best(&[]), None);
    }

    #[test]
    fn directions_have_norm_one() {
        let mut rng = SplitMix64::new(3);
        let d = random_direction(5, &mut rng);
        assert_eq!(d.len(), 5);
        assert!((norm(&d) - 1.0).abs() < 1e-12);
    }
}
