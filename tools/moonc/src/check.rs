//! `moonc check`: tests the derivatives moonc generates for a function, in
//! the spirit of Mooncake's `test_rule`. At one point (from `--args`, or
//! drawn from `--seed`) it checks that the function is deterministic, that
//! the JVP computes the same primal as a plain call, that the JVP agrees
//! with central finite differences in random directions, and (once reverse
//! mode exists) the dot-product test between forward and reverse mode.
//! Each check prints one line; the command fails if any check fails.

use crate::{
    CallOptions,
    failure::{Failure, Outcome},
    forward::{Evaluation, Forward, Jvp},
    random::SplitMix64,
    tensor::{Input, Inputs, Tensor},
    values,
    wrapper::is_active_result,
};
use moonc_codegen::{Scalar, Signature, ValueType};

/// The result of one check.
enum Verdict {
    Pass(String),
    Fail(String),
    /// Not run; the reason.
    Skipped(String),
}

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

/// How many random directions the JVP is checked in.
const DIRECTIONS: usize = 3;

/// Runs every check of `call`'s entry and prints the report on stdout;
/// fails (after the report) when a check fails.
pub fn check(call: &CallOptions, seed: u64) -> Outcome<()> {
    let mut rng = SplitMix64::new(seed);
    let given = call.args.as_deref().map(values::parse_args).transpose()?;
    let (forward, inputs) = Forward::compile(call, |signature| match &given {
        Some(values) => Inputs::from_args(signature, values),
        None => random_inputs(signature, &mut rng),
    })?;
    let signature = &forward.primal;
    let origin = match given {
        Some(_) => "from --args".to_string(),
        None => format!("drawn with seed {seed}"),
    };
    println!(
        "check @{}: {} float input{}, {} float output{}",
        signature.name,
        inputs.dimension(),
        plural(inputs.dimension()),
        output_count(signature, &inputs),
        plural(output_count(signature, &inputs)),
    );
    let shown = inputs.to_json().render();
    if shown.len() <= 240 {
        println!("  inputs ({origin}): {shown}");
    } else {
        println!(
            "  inputs ({origin}): {} characters of JSON, not shown",
            shown.len()
        );
    }

    let directions: Vec<Vec<f64>> = if inputs.dimension() == 0 {
        vec![vec![]]
    } else {
        (0..DIRECTIONS)
            .map(|_| random_direction(inputs.dimension(), &mut rng))
            .collect()
    };
    let plain = forward.primal(&inputs)?;
    let jvps = directions
        .iter()
        .map(|d| forward.jvp(&inputs, d))
        .collect::<Outcome<Vec<Jvp>>>()?;

    let mut verdicts = vec![
        (
            "determinism".to_string(),
            determinism(&forward, &inputs, &plain)?,
        ),
        ("primal".to_string(), primal(signature, &plain, &jvps)),
    ];
    let tolerance = tolerance(signature);
    for (index, (direction, jvp)) in directions.iter().zip(&jvps).enumerate() {
        let verdict = finite_differences(&forward, &inputs, direction, jvp, tolerance)?;
        let name = format!("jvp vs finite differences, direction {}", index + 1);
        verdicts.push((name, verdict));
        if inputs.dimension() == 0 {
            break;
        }
    }
    verdicts.push((
        "dot product (forward vs reverse)".to_string(),
        dot_product(),
    ));

    let mut failed = 0;
    let mut total = 0;
    for (name, verdict) in &verdicts {
        let (state, detail) = match verdict {
            Verdict::Pass(detail) => ("ok", detail),
            Verdict::Fail(detail) => ("FAIL", detail),
            Verdict::Skipped(detail) => ("skipped", detail),
        };
        println!("  {name}: {state}: {detail}");
        if !matches!(verdict, Verdict::Skipped(_)) {
            total += 1;
        }
        if matches!(verdict, Verdict::Fail(_)) {
            failed += 1;
        }
    }
    if failed == 0 {
        println!("check: PASS ({total} check{})", plural(total));
        Ok(())
    } else {
        println!("check: FAIL ({failed} of {total} checks failed)");
        Err(Failure::new(format!(
            "@{}: {failed} of {total} checks failed (the report is on stdout)",
            signature.name
        )))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Inputs drawn from `rng`: every float uniform in [0.5, 1.5], memrefs of
/// their static shape. Integers and dynamic shapes must come from --args.
fn random_inputs(signature: &Signature, rng: &mut SplitMix64) -> Outcome<Inputs> {
    let name = &signature.name;
    let mut inputs = vec![];
    for (index, t) in signature.args.iter().enumerate() {
        let element = t.element();
        if !element.is_float() {
            return Err(Failure::new(format!(
                "argument #{index} of @{name} ({t}) is not a float, and check draws only \
                 float inputs: give the arguments with --args"
            )));
        }
        let shape: Vec<usize> = match t {
            ValueType::Scalar(_) => vec![],
            ValueType::MemRef { shape, .. } => shape
                .iter()
                .map(|d| {
                    d.ok_or_else(|| {
                        Failure::new(format!(
                            "argument #{index} of @{name} ({t}) has a dynamic size, which \
                             check cannot choose: give the arguments with --args"
                        ))
                    })
                })
                .collect::<Outcome<_>>()?,
        };
        let data = (0..shape.iter().product())
            .map(|_| round(element, rng.uniform(0.5, 1.5)))
            .collect();
        inputs.push(Input::Float(Tensor::new(element, &shape, data)));
    }
    Ok(Inputs(inputs))
}

/// `x` rounded to the precision of `element`.
fn round(element: Scalar, x: f64) -> f64 {
    match element {
        Scalar::F32 => x as f32 as f64,
        _ => x,
    }
}

/// A direction of Euclidean norm 1 over `dimension` coordinates.
fn random_direction(dimension: usize, rng: &mut SplitMix64) -> Vec<f64> {
    let raw: Vec<f64> = (0..dimension).map(|_| rng.uniform(-1.0, 1.0)).collect();
    let norm = norm(&raw);
    if norm == 0.0 {
        let mut unit = vec![0.0; dimension];
        unit[0] = 1.0;
        return unit;
    }
    raw.iter().map(|x| x / norm).collect()
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

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
fn output_count(signature: &Signature, inputs: &Inputs) -> usize {
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

/// Where the evaluations `a` and `b` (named by `names`) differ, that is
/// where `same` does not hold: results first, then memref arguments' final
/// contents; `None` when nowhere.
fn first_difference(
    signature: &Signature,
    (a, b): (&Evaluation, &Evaluation),
    names: (&str, &str),
    same: impl Fn(&Tensor, &Tensor) -> bool,
) -> Option<String> {
    let describe = |what: String, x: &Tensor, y: &Tensor| {
        format!(
            "{what} is {} in {} and {} in {}",
            x.to_json().render(),
            names.0,
            y.to_json().render(),
            names.1
        )
    };
    let results = a.results.iter().zip(&b.results).enumerate();
    for (index, (x, y)) in results {
        if !same(x, y) {
            return Some(describe(format!("result #{index}"), x, y));
        }
    }
    let arguments = signature
        .args
        .iter()
        .zip(a.arguments.iter().zip(&b.arguments))
        .enumerate();
    for (index, (t, (x, y))) in arguments {
        if matches!(t, ValueType::MemRef { .. }) && !same(x, y) {
            return Some(describe(format!("argument #{index} after the call"), x, y));
        }
    }
    None
}

/// Two plain calls on copies of the inputs agree bit for bit.
fn determinism(forward: &Forward, inputs: &Inputs, first: &Evaluation) -> Outcome<Verdict> {
    let second = forward.primal(inputs)?;
    let names = ("the first plain call", "the second");
    Ok(
        match first_difference(&forward.primal, (first, &second), names, Tensor::same_bits) {
            None => Verdict::Pass("two plain calls agree bit for bit".into()),
            Some(difference) => Verdict::Fail(difference),
        },
    )
}

/// How far apart, in units in the last place, the JVP's primal may be
/// from a plain call's. Not 0: LLVM vectorizes the plain function and the
/// tangent function differently, so the same `math.sin` may run as glibc's
/// scalar `sin` in one and as libmvec's vector `_ZGVbN2v_sin` in the other,
/// which differ by up to 4 ulp (seen: 1 ulp on a 3-element loop).
const PRIMAL_ULPS: f64 = 4.0;

/// The JVP's primal results and final memref contents are a plain call's,
/// to within [`PRIMAL_ULPS`].
fn primal(signature: &Signature, plain: &Evaluation, jvps: &[Jvp]) -> Verdict {
    let same = |x: &Tensor, y: &Tensor| x.within_ulps(y, PRIMAL_ULPS);
    for jvp in jvps {
        let names = ("a plain call", "the JVP");
        if let Some(difference) = first_difference(signature, (plain, &jvp.primal), names, same) {
            return Verdict::Fail(format!("{difference} (more than {PRIMAL_ULPS} ulp apart)"));
        }
    }
    Verdict::Pass(format!(
        "the JVP computes the plain call's results and memref contents (to {PRIMAL_ULPS} ulp)"
    ))
}

/// The JVP in `direction` agrees with central finite differences
/// (F(x + h·d) − F(x − h·d)) / 2h for at least one step h.
fn finite_differences(
    forward: &Forward,
    inputs: &Inputs,
    direction: &[f64],
    jvp: &Jvp,
    tolerance: &Tolerance,
) -> Outcome<Verdict> {
    let signature = &forward.primal;
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
    // (step, relative error, within tolerance, |fd|) for every step.
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
        let difference: Vec<f64> = fd.iter().zip(&tangent).map(|(f, t)| f - t).collect();
        let error = norm(&difference);
        let scale = norm(&fd).max(norm(&tangent));
        let relative = if error == 0.0 { 0.0 } else { error / scale };
        let within = error <= tolerance.atol + tolerance.rtol * scale;
        trials.push((h, relative, within, norm(&fd)));
    }
    let rank = |relative: f64| {
        if relative.is_nan() {
            f64::INFINITY
        } else {
            relative
        }
    };
    // The best step: within tolerance first, then the smallest relative error.
    let best = trials
        .iter()
        .min_by(|a, b| (!a.2).cmp(&!b.2).then(rank(a.1).total_cmp(&rank(b.1))));
    let Some(&(h, relative, within, fd_norm)) = best else {
        return Ok(Verdict::Skipped("no finite-difference steps".into()));
    };
    let detail = format!("relative error {relative:.1e} at h = {h:e}");
    Ok(if within {
        Verdict::Pass(detail)
    } else {
        Verdict::Fail(format!(
            "{detail} (the best step), beyond rtol {:e} and atol {:e}; |jvp| = {:.4e}, \
             |finite difference| = {fd_norm:.4e}",
            tolerance.rtol,
            tolerance.atol,
            norm(&tangent)
        ))
    })
}

/// ⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩ between forward and reverse mode.
fn dot_product() -> Verdict {
    Verdict::Skipped("reverse mode is not available yet".into())
}
