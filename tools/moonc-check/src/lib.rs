//! `moonc check`: tests the derivatives moonc generates for a function, in
//! the spirit of Mooncake's `test_rule`. At one point (from `--args`, or
//! drawn from `--seed`) it checks that the function is deterministic, that
//! the JVP and the VJP compute the same primal as a plain call, that the
//! JVP agrees with central finite differences in random directions, that
//! each VJP leaves moonrt's tape as it found it, and the dot-product test
//! between forward and reverse mode (with `--mode reverse`, the VJP is
//! checked against finite differences instead). Each check prints one
//! line; the command fails if any check fails.
//!
//! The function is compiled and called through `moonc-call`; this crate
//! holds the checks (finite differences in `finite_differences.rs`, the
//! dot-product test in `dot_product.rs`), the random point and directions
//! (`draw.rs`, `random.rs`) and the report.

mod dot_product;
mod draw;
mod finite_differences;
mod random;

use dot_product::{Pair, dot_product, input_elements, random_vector, rounded};
use finite_differences::{
    DIRECTIONS, finite_differences, output_count, output_elements, random_direction,
    vjp_finite_differences,
};
use moonc_call::{
    compiled::{Compiled, Evaluation, Wrappers},
    failure::{Failure, Outcome},
    jvp::Jvp,
    tensor::{Inputs, Tensor},
    values,
    vjp::Vjp,
    wrapper::{Wrt, is_active_result},
};
use moonc_codegen::{Signature, ValueType};
use random::SplitMix64;
use std::path::Path;

/// Which derivatives `moonc check` tests (`--mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum CheckMode {
    /// The JVP only: its primal and finite differences.
    Forward,
    /// The VJP only: its primal, its tape and finite differences.
    Reverse,
    /// Both, and the dot-product test between them.
    Both,
}

impl CheckMode {
    fn forward(self) -> bool {
        self != CheckMode::Reverse
    }

    fn reverse(self) -> bool {
        self != CheckMode::Forward
    }
}

/// The result of one check.
enum Verdict {
    Pass(String),
    Fail(String),
    /// Not run; the reason.
    Skipped(String),
}

/// Runs every check of the public function `entry` of `file` (or of its
/// only public function when `entry` is `None`), at the point `args` gives
/// (`--args`: a JSON array, or `@file.json`) or drawn from `seed`, and
/// prints the report on stdout; fails (after the report) when a check
/// fails.
pub fn check(
    file: &Path,
    entry: Option<&str>,
    args: Option<&str>,
    wrt: &Wrt,
    seed: u64,
    mode: CheckMode,
) -> Outcome<()> {
    let mut rng = SplitMix64::new(seed);
    let given = args.map(values::parse_args).transpose()?;
    let wrappers = |signature: &Signature, inputs: &Inputs| Wrappers {
        jvp: mode.forward(),
        vjp: mode.reverse() && nothing_to_reverse(signature, inputs).is_none(),
        ..Wrappers::default()
    };
    let (compiled, inputs) =
        Compiled::compile(file, entry, wrt, wrappers, |signature| match &given {
            Some(values) => Inputs::from_args(signature, values),
            None => draw::random_inputs(signature, &mut rng),
        })?;
    let origin = match given {
        Some(_) => "from --args".to_string(),
        None => format!("drawn with seed {seed}"),
    };
    print_header(&compiled.primal, &inputs, &origin, wrt);
    let verdicts = run_checks(&compiled, &inputs, mode, &mut rng)?;
    report(&compiled.primal, &verdicts)
}

/// Why the VJP of `signature` is not worth checking at `inputs`, if it is
/// not: no float inputs or no float outputs.
fn nothing_to_reverse(signature: &Signature, inputs: &Inputs) -> Option<String> {
    if inputs.dimension() == 0 {
        Some(format!("@{} has no float inputs", signature.name))
    } else if output_count(signature, inputs) == 0 {
        Some(format!(
            "@{} has no float outputs (float scalar results or memref-of-floats arguments)",
            signature.name
        ))
    } else {
        None
    }
}

/// The report's first lines: what is checked (with respect to `wrt`), at
/// which point.
fn print_header(signature: &Signature, inputs: &Inputs, origin: &str, wrt: &Wrt) {
    let (dimension, outputs) = (inputs.dimension(), output_count(signature, inputs));
    let listed = wrt.listed().map_or(String::new(), |list| {
        let list: Vec<String> = list.iter().map(usize::to_string).collect();
        format!(" (--wrt {})", list.join(","))
    });
    println!(
        "check @{}: {dimension} float input{}{listed}, {outputs} float output{}",
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
    compiled: &Compiled,
    inputs: &Inputs,
    mode: CheckMode,
    rng: &mut SplitMix64,
) -> Outcome<Vec<(String, Verdict)>> {
    let directions: Vec<Vec<f64>> = match inputs.dimension() {
        0 => vec![vec![]],
        n => (0..DIRECTIONS).map(|_| random_direction(n, rng)).collect(),
    };
    let plain = compiled.primal(inputs)?;
    let mut verdicts = vec![(
        "determinism".to_string(),
        determinism(compiled, inputs, &plain)?,
    )];
    let jvps = if mode.forward() {
        forward_checks(compiled, inputs, &plain, &directions, &mut verdicts)?
    } else {
        vec![]
    };
    let dot_product_name = "dot product (forward vs reverse)".to_string();
    if !mode.reverse() {
        let reason = "--mode forward checks forward mode only".to_string();
        verdicts.push((dot_product_name, Verdict::Skipped(reason)));
        return Ok(verdicts);
    }
    if let Some(reason) = nothing_to_reverse(&compiled.primal, inputs) {
        verdicts.push(("vjp primal".to_string(), Verdict::Skipped(reason.clone())));
        verdicts.push((dot_product_name, Verdict::Skipped(reason)));
        return Ok(verdicts);
    }
    // The directions are rounded as the JVP binds them, so that both sides
    // of the dot product multiply the same numbers.
    let elements = input_elements(inputs);
    let directions: Vec<Vec<f64>> = directions.iter().map(|d| rounded(&elements, d)).collect();
    let (cotangents, vjps) = reverse_checks(compiled, inputs, &plain, rng, &mut verdicts)?;
    if mode.forward() {
        let pairs: Vec<Pair> = directions
            .iter()
            .zip(&jvps)
            .zip(cotangents.iter().zip(&vjps))
            .map(|((direction, jvp), (cotangent, vjp))| Pair {
                direction,
                jvp,
                cotangent,
                vjp,
            })
            .collect();
        verdicts.push((dot_product_name, dot_product(&compiled.primal, &pairs)));
    } else {
        let checks = directions.iter().zip(cotangents.iter().zip(&vjps));
        for (index, (direction, (cotangent, vjp))) in checks.enumerate() {
            verdicts.push((
                format!("vjp vs finite differences, direction {}", index + 1),
                vjp_finite_differences(compiled, inputs, direction, cotangent, vjp)?,
            ));
        }
        let reason = "--mode reverse checks reverse mode only".to_string();
        verdicts.push((dot_product_name, Verdict::Skipped(reason)));
    }
    Ok(verdicts)
}

/// The JVP's checks (primal, finite differences) in each of `directions`,
/// added to `verdicts`; returns the JVPs.
fn forward_checks(
    compiled: &Compiled,
    inputs: &Inputs,
    plain: &Evaluation,
    directions: &[Vec<f64>],
    verdicts: &mut Vec<(String, Verdict)>,
) -> Outcome<Vec<Jvp>> {
    let jvps = directions
        .iter()
        .map(|d| compiled.jvp(inputs, d))
        .collect::<Outcome<Vec<Jvp>>>()?;
    let from_jvps = jvps.iter().map(|jvp| &jvp.primal);
    verdicts.push((
        "primal".to_string(),
        primal(&compiled.primal, plain, from_jvps, "JVP"),
    ));
    for (index, (direction, jvp)) in directions.iter().zip(&jvps).enumerate() {
        verdicts.push((
            format!("jvp vs finite differences, direction {}", index + 1),
            finite_differences(compiled, inputs, direction, jvp)?,
        ));
    }
    Ok(jvps)
}

/// One VJP per direction with a random cotangent over the outputs, and
/// their checks (primal, tape), added to `verdicts`; returns the
/// cotangents and the VJPs.
fn reverse_checks(
    compiled: &Compiled,
    inputs: &Inputs,
    plain: &Evaluation,
    rng: &mut SplitMix64,
    verdicts: &mut Vec<(String, Verdict)>,
) -> Outcome<(Vec<Vec<f64>>, Vec<Vjp>)> {
    let signature = &compiled.primal;
    let elements = output_elements(signature, inputs);
    let cotangents: Vec<Vec<f64>> = (0..DIRECTIONS)
        .map(|_| random_vector(&elements, rng))
        .collect();
    // The cotangents of the results come first, then those of the memrefs'
    // final contents: the shadows on entry.
    let results = signature
        .results
        .iter()
        .filter(|t| is_active_result(t))
        .count();
    let vjps = cotangents
        .iter()
        .map(|c| compiled.vjp(inputs, &c[..results], &c[results..]))
        .collect::<Outcome<Vec<Vjp>>>()?;
    let from_vjps = vjps.iter().map(|vjp| &vjp.primal);
    verdicts.push((
        "vjp primal".to_string(),
        primal(signature, plain, from_vjps, "VJP"),
    ));
    verdicts.push(("vjp tape".to_string(), tape(signature, &vjps)));
    Ok((cotangents, vjps))
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
fn determinism(compiled: &Compiled, inputs: &Inputs, first: &Evaluation) -> Outcome<Verdict> {
    let second = compiled.primal(inputs)?;
    let names = ("the first plain call", "the second");
    Ok(
        match first_difference(&compiled.primal, (first, &second), names, Tensor::same_bits) {
            None => Verdict::Pass("two plain calls agree bit for bit".into()),
            Some(difference) => Verdict::Fail(difference),
        },
    )
}

/// How far apart, in units in the last place, a derivative's primal may
/// be from a plain call's. Not 0: LLVM vectorizes the plain function and
/// the derivative function differently, so the same `math.sin` may run as
/// glibc's scalar `sin` in one and as libmvec's vector `_ZGVbN2v_sin` in
/// the other, which differ by up to 4 ulp (seen: 1 ulp on a 3-element loop).
const PRIMAL_ULPS: f64 = 4.0;

/// The primal results and final memref contents of every derivative call
/// (`calls`, of the `what` wrapper: "JVP" or "VJP") are a plain call's, to
/// within [`PRIMAL_ULPS`].
fn primal<'a>(
    signature: &Signature,
    plain: &Evaluation,
    calls: impl IntoIterator<Item = &'a Evaluation>,
    what: &str,
) -> Verdict {
    let same = |x: &Tensor, y: &Tensor| x.within_ulps(y, PRIMAL_ULPS);
    for call in calls {
        let names = ("a plain call", &*format!("the {what}"));
        if let Some(difference) = first_difference(signature, (plain, call), names, same) {
            return Verdict::Fail(format!("{difference} (more than {PRIMAL_ULPS} ulp apart)"));
        }
    }
    Verdict::Pass(format!(
        "the {what} computes the plain call's results and memref contents (to {PRIMAL_ULPS} ulp)"
    ))
}

/// Every VJP call popped all it pushed on moonrt's tape and reported no
/// error through moonrt.
fn tape(signature: &Signature, vjps: &[Vjp]) -> Verdict {
    for vjp in vjps {
        if let Some(problem) = vjp.tape.problem(&signature.name) {
            return Verdict::Fail(problem);
        }
    }
    let peak = vjps.iter().map(|vjp| vjp.tape.peak).max().unwrap_or(0);
    Verdict::Pass(format!(
        "every VJP popped all it pushed, with no error (peak {peak} bytes)"
    ))
}
