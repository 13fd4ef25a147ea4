//! `moonc check`: tests the derivatives moonc generates for a function, in
//! the spirit of Mooncake's `test_rule`. At one point (from `--args`, or
//! drawn from `--seed`) it checks that the function is deterministic, that
//! the JVP computes the same primal as a plain call, that the JVP agrees
//! with central finite differences in random directions, and (once reverse
//! mode exists) the dot-product test between forward and reverse mode.
//! Each check prints one line; the command fails if any check fails.

mod draw;
mod finite_differences;

use crate::{
    CallOptions,
    failure::{Failure, Outcome},
    forward::{Evaluation, Forward, Jvp},
    random::SplitMix64,
    tensor::{Inputs, Tensor},
    values,
};
use finite_differences::{DIRECTIONS, finite_differences, output_count, random_direction};
use moonc_codegen::{Signature, ValueType};

/// The result of one check.
enum Verdict {
    Pass(String),
    Fail(String),
    /// Not run; the reason.
    Skipped(String),
}

/// Runs every check of `call`'s entry and prints the report on stdout;
/// fails (after the report) when a check fails.
pub fn check(call: &CallOptions, seed: u64) -> Outcome<()> {
    let mut rng = SplitMix64::new(seed);
    let given = call.args.as_deref().map(values::parse_args).transpose()?;
    let (forward, inputs) = Forward::compile(call, |signature| match &given {
        Some(values) => Inputs::from_args(signature, values),
        None => draw::random_inputs(signature, &mut rng),
    })?;
    let origin = match given {
        Some(_) => "from --args".to_string(),
        None => format!("drawn with seed {seed}"),
    };
    print_header(&forward.primal, &inputs, &origin);
    let verdicts = run_checks(&forward, &inputs, &mut rng)?;
    report(&forward.primal, &verdicts)
}

/// The report's first lines: what is checked, at which point.
fn print_header(signature: &Signature, inputs: &Inputs, origin: &str) {
    let (dimension, outputs) = (inputs.dimension(), output_count(signature, inputs));
    println!(
        "check @{}: {dimension} float input{}, {outputs} float output{}",
        signature.name,
        plural(dimension),
        plural(outputs),
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
}

/// Every check, named, in the order they are reported.
fn run_checks(
    forward: &Forward,
    inputs: &Inputs,
    rng: &mut SplitMix64,
) -> Outcome<Vec<(String, Verdict)>> {
    let directions: Vec<Vec<f64>> = match inputs.dimension() {
        0 => vec![vec![]],
        n => (0..DIRECTIONS).map(|_| random_direction(n, rng)).collect(),
    };
    let plain = forward.primal(inputs)?;
    let jvps = directions
        .iter()
        .map(|d| forward.jvp(inputs, d))
        .collect::<Outcome<Vec<Jvp>>>()?;
    let mut verdicts = vec![
        (
            "determinism".to_string(),
            determinism(forward, inputs, &plain)?,
        ),
        ("primal".to_string(), primal(&forward.primal, &plain, &jvps)),
    ];
    for (index, (direction, jvp)) in directions.iter().zip(&jvps).enumerate() {
        verdicts.push((
            format!("jvp vs finite differences, direction {}", index + 1),
            finite_differences(forward, inputs, direction, jvp)?,
        ));
    }
    verdicts.push((
        "dot product (forward vs reverse)".to_string(),
        dot_product(),
    ));
    Ok(verdicts)
}

/// Prints one line per check and the summary; fails if a check failed.
fn report(signature: &Signature, verdicts: &[(String, Verdict)]) -> Outcome<()> {
    let mut failed = 0;
    let mut total = 0;
    for (name, verdict) in verdicts {
        let (state, detail) = match verdict {
            Verdict::Pass(detail) => ("ok", detail),
            Verdict::Fail(detail) => ("FAIL", detail),
            Verdict::Skipped(detail) => ("skipped", detail),
        };
        println!("  {name}: {state}: {detail}");
        total += usize::from(!matches!(verdict, Verdict::Skipped(_)));
        failed += usize::from(matches!(verdict, Verdict::Fail(_)));
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

/// ⟨ȳ, J·ẋ⟩ = ⟨Jᵀ·ȳ, ẋ⟩ between forward and reverse mode.
fn dot_product() -> Verdict {
    Verdict::Skipped("reverse mode is not available yet".into())
}
