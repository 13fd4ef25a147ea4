//! `moonc bench`: times a compiled function in-process. After a warm-up,
//! calls are timed in samples of several calls each (so that one sample
//! lasts about a millisecond and the clock's cost vanishes), for a given
//! time; the median and the minimum time per call are reported.
//!
//! The arguments are not restored between calls: a function that mutates
//! its memref arguments is timed on whatever they hold by then. Memref
//! results that do not alias an argument are freed after each call.

use crate::{Prepared, failure::Outcome, json::Json, values::Results};
use std::time::{Duration, Instant};

/// Runs the benchmark and returns its JSON report.
pub fn bench(mut prepared: Prepared, time_ms: u64) -> Outcome<Json> {
    let mut results = Results::new(&prepared.signature);
    let (entry, mut slots) = prepared.frame(&mut results)?;
    let arguments = &prepared.arguments;
    let mut call = || {
        // SAFETY: the slots were laid out for this entry point's signature.
        unsafe { entry(slots.as_mut_ptr()) };
        results.release_fresh(arguments);
    };

    // Warm-up: caches, branch predictors, page faults; at least 50 ms.
    let warm_up = Instant::now();
    let mut warm_calls = 0u64;
    while warm_calls < 10 || warm_up.elapsed() < Duration::from_millis(50) {
        call();
        warm_calls += 1;
    }
    let per_call = warm_up.elapsed().as_secs_f64() / warm_calls as f64;
    let calls_per_sample = ((1e-3 / per_call).ceil() as u64).max(1);

    let mut samples = vec![];
    let start = Instant::now();
    while samples.len() < 11
        || (start.elapsed() < Duration::from_millis(time_ms) && samples.len() < 100_000)
    {
        let sample = Instant::now();
        for _ in 0..calls_per_sample {
            call();
        }
        samples.push(sample.elapsed().as_secs_f64() * 1e9 / calls_per_sample as f64);
    }
    samples.sort_by(f64::total_cmp);
    let median = samples[samples.len() / 2];
    Ok(Json::object([
        ("entry", Json::Str(prepared.signature.name.clone())),
        ("primal_ns", Json::f64(round(median))),
        ("primal_min_ns", Json::f64(round(samples[0]))),
        ("compile_ms", Json::f64(round(prepared.compile_ms))),
        ("samples", Json::int(samples.len() as i64)),
        ("calls_per_sample", Json::int(calls_per_sample as i64)),
    ]))
}

/// Keeps three decimals: timings are not more precise than that.
fn round(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}
