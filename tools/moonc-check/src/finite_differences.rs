//! The checks of a JVP and of a VJP against central finite differences:
//! outputs, random directions, steps and tolerances per precision.

use super::Verdict;
use crate::random::SplitMix64;
use moonc_call::{
    compiled::{Compiled, Evaluation},
    failure::{Failure, Outcome},
    jvp::Jvp,
    tensor::{Input, Inputs},
    vjp::Vjp,
    wrapper::{is_active_result, is_dup_arg},
};
use moonc_codegen::{Scalar, Signature, ValueType};

/// How many random directions the JVP is checked in.
pub(super) const DIRECTIONS: usize = 3;

/// The finite-difference steps and the tolerances of one precision.
pub(super) struct Tolerance {
    steps: &'static [f64],
    rtol: f64,
    atol: f64,
    /// The relative tolerance of the dot-product test, whose two sides
    /// differ by rounding only (no truncation error).
    pub dot_rtol: f64,
}

/// For functions computing in f64 only.
const F64: Tolerance = Tolerance {
    steps: &[1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8],
    rtol: 1e-6,
    atol: 1e-9,
    dot_rtol: 1e-9,
};

/// For functions with any f32 argument or result.
const F32: Tolerance = Tolerance {
    steps: &[1e-1, 3e-2, 1e-2, 3e-3],
    rtol: 1e-2,
    atol: 1e-4,
    dot_rtol: 1e-3,
};

/// F32 steps and tolerances if any argument or result is (or holds) f32.
pub(super) fn tolerance(signature: &Signature) -> &'static Tolerance {
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

/// The element type of each number of [`outputs`], in order.
pub(super) fn output_elements(signature: &Signature, inputs: &Inputs) -> Vec<Scalar> {
    let results = signature
        .results
        .iter()
        .filter(|t| is_active_result(t))
        .map(|t| t.element());
    let memrefs = signature
        .args
        .iter()
        .zip(&inputs.0)
        .filter_map(|(t, input)| match input {
            Input::Float(tensor) if is_dup_arg(t) => Some(vec![t.element(); tensor.data.len()]),
            _ => None,
        })
        .flatten();
    results.chain(memrefs).collect()
}

/// What the JVP is checked on, flattened: the float scalar results, then
/// the final contents of the memref-of-floats arguments that are
/// differentiated (float `inputs`).
fn outputs(signature: &Signature, inputs: &Inputs, evaluation: &Evaluation) -> Vec<f64> {
    let results = signature
        .results
        .iter()
        .zip(&evaluation.results)
        .filter(|(t, _)| is_active_result(t))
        .map(|(_, tensor)| tensor);
    let memrefs = (signature.args.iter().zip(&inputs.0))
        .zip(&evaluation.arguments)
        .filter(|((t, input), _)| {
            matches!(t, ValueType::MemRef { .. }) && matches!(input, Input::Float(_))
        })
        .map(|(_, tensor)| tensor);
    results
        .chain(memrefs)
        .flat_map(|tensor| tensor.data.iter().copied())
        .collect()
}

/// The tangent of [`outputs`] that a JVP computed.
pub(super) fn tangent_outputs(jvp: &Jvp) -> Vec<f64> {
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
pub(super) fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// The inner product of `a` and `b`.
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The JVP in `direction` agrees with central finite differences
/// (F(x + h·d) − F(x − h·d)) / 2h for at least one step h.
pub(super) fn finite_differences(
    compiled: &Compiled,
    inputs: &Inputs,
    direction: &[f64],
    jvp: &Jvp,
) -> Outcome<Verdict> {
    let tangent = tangent_outputs(jvp);
    let tolerance = tolerance(&compiled.primal);
    let trials = trials(compiled, inputs, direction, tangent.len(), |h, fd| {
        Trial::new(h, fd, &tangent, tolerance)
    })?;
    Ok(trials.map_or_else(Verdict::Skipped, |trials| {
        verdict(&trials, tolerance, |best| {
            format!(
                "|jvp| = {:.4e}, |finite difference| = {:.4e}",
                norm(&tangent),
                best.fd_norm
            )
        })
    }))
}

/// The VJP with the cotangent `cotangent` (over [`outputs`]) agrees with
/// central finite differences in `direction`: ⟨x̄, d⟩ against
/// ⟨ȳ, (F(x + h·d) − F(x − h·d)) / 2h⟩ for at least one step h.
pub(super) fn vjp_finite_differences(
    compiled: &Compiled,
    inputs: &Inputs,
    direction: &[f64],
    cotangent: &[f64],
    vjp: &Vjp,
) -> Outcome<Verdict> {
    let gradient = vjp.gradient(&compiled.primal);
    let projected = dot(&gradient, direction);
    let bound = norm(&gradient) * norm(direction);
    let tolerance = tolerance(&compiled.primal);
    let trials = trials(compiled, inputs, direction, cotangent.len(), |h, fd| {
        let scale = bound.max(norm(cotangent) * norm(fd));
        Trial::projected(h, dot(cotangent, fd), projected, scale, tolerance)
    })?;
    Ok(trials.map_or_else(Verdict::Skipped, |trials| {
        verdict(&trials, tolerance, |best| {
            format!(
                "<xbar, d> = {projected:.4e}, <ybar, finite difference> = {:.4e}",
                best.fd_value
            )
        })
    }))
}

/// One trial per step of `compiled`'s precision: the finite difference in
/// `direction` (over [`outputs`], which must have `expected` numbers)
/// compared by `compare`. Err(reason) when there is nothing to compare.
fn trials(
    compiled: &Compiled,
    inputs: &Inputs,
    direction: &[f64],
    expected: usize,
    compare: impl Fn(f64, &[f64]) -> Trial,
) -> Outcome<Result<Vec<Trial>, String>> {
    let signature = &compiled.primal;
    if direction.is_empty() {
        return Ok(Err(format!("@{} has no float inputs", signature.name)));
    }
    if expected == 0 {
        return Ok(Err(format!(
            "@{} has no float outputs (float scalar results or memref-of-floats arguments)",
            signature.name
        )));
    }
    let x = inputs.coordinates();
    let at = |h: f64| -> Outcome<Vec<f64>> {
        let moved: Vec<f64> = x.iter().zip(direction).map(|(x, d)| x + h * d).collect();
        Ok(outputs(
            signature,
            inputs,
            &compiled.primal(&inputs.with_coordinates(&moved))?,
        ))
    };
    let mut trials = vec![];
    for &h in tolerance(signature).steps {
        let (plus, minus) = (at(h)?, at(-h)?);
        if plus.len() != expected || minus.len() != expected {
            return Err(Failure::new(format!(
                "internal error: @{} has {} outputs but its derivative {expected}",
                signature.name,
                plus.len(),
            )));
        }
        let fd: Vec<f64> = plus
            .iter()
            .zip(&minus)
            .map(|(p, m)| (p - m) / (2.0 * h))
            .collect();
        trials.push(compare(h, &fd));
    }
    Ok(if trials.is_empty() {
        Err("no finite-difference steps".into())
    } else {
        Ok(trials)
    })
}

/// The verdict of the best of `trials`; `magnitudes` describes the best
/// one on failure.
fn verdict(
    trials: &[Trial],
    tolerance: &Tolerance,
    magnitudes: impl Fn(&Trial) -> String,
) -> Verdict {
    let Some(best) = best(trials) else {
        return Verdict::Skipped("no finite-difference steps".into());
    };
    let detail = format!(
        "relative error {:.1e} at h = {:e}",
        best.relative, best.step
    );
    if best.within {
        Verdict::Pass(detail)
    } else {
        Verdict::Fail(format!(
            "{detail} (the best step), beyond rtol {:e} and atol {:e}; {}",
            tolerance.rtol,
            tolerance.atol,
            magnitudes(best)
        ))
    }
}

/// The comparison of a derivative with the finite difference of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Trial {
    step: f64,
    /// error / scale, 0 when the error is 0.
    relative: f64,
    /// error ≤ atol + rtol · scale.
    within: bool,
    /// ‖fd‖ (JVP) or ⟨ȳ, fd⟩ (VJP).
    fd_norm: f64,
    /// ⟨ȳ, fd⟩ (VJP), or 0.
    fd_value: f64,
}

impl Trial {
    /// A JVP `jvp` against `fd`: error ‖fd − jvp‖, scale max(‖fd‖, ‖jvp‖).
    fn new(step: f64, fd: &[f64], jvp: &[f64], tolerance: &Tolerance) -> Trial {
        let difference: Vec<f64> = fd.iter().zip(jvp).map(|(f, t)| f - t).collect();
        let error = norm(&difference);
        let scale = norm(fd).max(norm(jvp));
        Trial {
            step,
            relative: if error == 0.0 { 0.0 } else { error / scale },
            within: error <= tolerance.atol + tolerance.rtol * scale,
            fd_norm: norm(fd),
            fd_value: 0.0,
        }
    }

    /// A projected VJP `value` = ⟨x̄, d⟩ against `fd` = ⟨ȳ, fd⟩: error
    /// |fd − value|, and `scale` a bound on both magnitudes
    /// (max(‖x̄‖‖d‖, ‖ȳ‖‖fd‖)), so that cancellation in the inner products
    /// does not inflate the relative error.
    fn projected(step: f64, fd: f64, value: f64, scale: f64, tolerance: &Tolerance) -> Trial {
        let error = (fd - value).abs();
        Trial {
            step,
            relative: if error == 0.0 { 0.0 } else { error / scale },
            within: error <= tolerance.atol + tolerance.rtol * scale,
            fd_norm: fd.abs(),
            fd_value: fd,
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
        let cancelled = Trial::projected(1e-3, 1e-12, 0.0, 1.0, &F64);
        assert!(
            cancelled.within,
            "relative to the bound, not to |<ybar, fd>|"
        );
        let off = Trial::projected(1e-3, 1.0, 1.1, 1.0, &F64);
        assert!(!off.within && (off.relative - 0.1).abs() < 1e-12);
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
