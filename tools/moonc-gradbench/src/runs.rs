//! How often `moonc gradbench` runs a function, and the timed runs.

use crate::buffers::{Arg, Cells};
use crate::evals::Input;
use moonc_call::{tensor::Tensor, values::Results, vjp::TapeUse};
use moonc_codegen::{Jit, Signature};
use std::time::{Duration, Instant};

/// How often to run a function: at least `min_runs` times, and until the
/// runs took `min_seconds` in all (GradBench's `Runs`; 1 and 0 when left
/// out). There is always at least one run, for the output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Runs {
    min_runs: u64,
    min_seconds: f64,
}

impl Runs {
    /// The runs `input` asks for (its `min_runs` and `min_seconds`).
    pub fn of(input: &Input) -> Result<Runs, String> {
        let min_runs = match input.get("min_runs") {
            None => 1,
            Some(v) => v
                .as_u64()
                .ok_or_else(|| format!("min_runs must be a non-negative integer, not `{v}`"))?,
        };
        let min_seconds = match input.get("min_seconds") {
            None => 0.0,
            Some(v) => v
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("min_seconds must be a non-negative number, not `{v}`"))?,
        };
        Ok(Runs {
            min_runs,
            min_seconds,
        })
    }

    /// Whether `count` runs that took `total` are enough.
    fn done(&self, count: u64, total: Duration) -> bool {
        count >= self.min_runs.max(1) && total.as_secs_f64() >= self.min_seconds
    }
}

/// What the last of several timed calls left.
pub struct Run {
    /// Every result of the called function.
    pub results: Vec<Tensor>,
    /// The final value of every argument of the called function.
    pub arguments: Vec<Tensor>,
    /// The time of each call, in nanoseconds.
    pub timings: Vec<u128>,
}

/// Calls `signature`'s entry point in `jit` on `args` as often as `runs`
/// asks, timing each call. The arguments are bound once: a function that
/// changes its memref arguments sees what the previous call left (a VJP
/// sets its shadows: `moon.overwrite_shadows`).
pub fn timed(
    jit: &Jit,
    signature: &Signature,
    args: &mut [Arg],
    runs: Runs,
) -> Result<Run, String> {
    let mut cells = Cells::bind(signature, args)?;
    let mut results = Results::new(signature);
    let entry = jit.packed(signature).map_err(|e| e.to_string())?;
    let mut slots = cells.slots();
    slots.extend(results.slots());
    let mut timings = vec![];
    let mut total = Duration::ZERO;
    let ((), tape) = TapeUse::around(|| {
        loop {
            let start = Instant::now();
            // SAFETY: the slots were laid out for this entry point's
            // signature; the arrays stay where they are, and `cells`
            // outlives the calls.
            unsafe { entry(slots.as_mut_ptr()) };
            let elapsed = start.elapsed();
            timings.push(elapsed.as_nanos());
            total += elapsed;
            if runs.done(timings.len() as u64, total) {
                break;
            }
        }
    });
    drop(cells);
    if let Some(error) = &tape.error {
        return Err(format!("@{} reported an error: {error}", signature.name));
    }
    if tape.left != 0 {
        return Err(format!(
            "@{} left {} bytes on moonrt's tape (a bug in the generated reverse code)",
            signature.name, tape.left
        ));
    }
    Ok(Run {
        // SAFETY: the last call stored every result (scalars only, as
        // `compile_workload` checked).
        results: unsafe { results.tensors() },
        arguments: args
            .iter()
            .map(|arg| match arg {
                Arg::Array(array) => array.tensor(),
                Arg::Float(x) => Tensor::new(moonc_codegen::Scalar::F64, &[], vec![*x]),
                Arg::Int(n) => Tensor::new(moonc_codegen::Scalar::I64, &[], vec![*n as f64]),
            })
            .collect(),
        timings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn runs_default_to_one_and_are_checked() {
        let runs = |v: Value| Runs::of(&Input::new(&v).unwrap());
        assert_eq!(
            runs(json!({})),
            Ok(Runs {
                min_runs: 1,
                min_seconds: 0.0
            })
        );
        let some = runs(json!({"min_runs": 3, "min_seconds": 0.5})).unwrap();
        assert!(!some.done(2, Duration::from_secs(1)));
        assert!(!some.done(3, Duration::from_millis(100)));
        assert!(some.done(3, Duration::from_millis(500)));
        assert!(
            runs(json!({"min_runs": 0}))
                .unwrap()
                .done(1, Duration::ZERO)
        );
        assert!(
            !runs(json!({"min_runs": 0}))
                .unwrap()
                .done(0, Duration::ZERO)
        );
        assert!(runs(json!({"min_runs": -1})).is_err());
        assert!(runs(json!({"min_seconds": "1"})).is_err());
    }
}
