//! `moonc bench`: times a compiled function in-process, and its value and
//! gradient through the VJP wrapper. After a warm-up, calls are timed in
//! samples of several calls each (so that one sample lasts about a
//! millisecond and the clock's cost vanishes), for a given time, primal
//! and gradient samples taken in turn (so that a change in the machine's
//! speed affects both alike), at 16 positions of the stack in turn (the
//! speed of code that spills vectors depends on where its stack lies
//! relative to the data); the median time per call at each position,
//! averaged over the positions, and the minimum are reported.
//!
//! The arguments are not restored between calls: a function that mutates
//! its memref arguments is timed on whatever they hold by then. Memref
//! results that do not alias an argument are freed after each call.
//!
//! The gradient's shadows must be zero before each call (the VJP adds to
//! them). They are zeroed in place before every call, and that cost is
//! taken out: each gradient sample is followed by a sample of the zeroing
//! alone, with as many calls, and `grad_ns` is taken over the
//! differences. `--wrt` restricts the gradient to some arguments (the
//! others are constants in the VJP wrapper).
//!
//! The time spent inside moonrt's BLAS and LAPACK routines
//! (`moonrt_blas_time_ns`) is read around each sample too, and reported
//! per call like the times, as the mean over the stack positions of the
//! median at each (`primal_blas_ns` and `grad_blas_ns`, when not zero).

use crate::CallOptions;
use moonc_call::{
    compiled::{Compiled, Wrappers},
    failure::{Failure, Outcome},
    frame::frame,
    json::Json,
    tensor::Inputs,
    values::{self, Arguments, Results},
    vjp::{TapeUse, shadow_dimension, vjp_values},
    wrapper::{Wrt, is_active_result},
};
use std::time::{Duration, Instant};

/// Runs the benchmark, the gradient with respect to `wrt`, and returns
/// its JSON report.
pub fn bench(call: &CallOptions, wrt: &Wrt, time_ms: u64, primal_only: bool) -> Outcome<Json> {
    let mut prepared = crate::prepare(call)?;
    let signature = prepared.signature.clone();
    wrt.check(&signature)?;
    let with_grad =
        !primal_only && matches!(signature.results.as_slice(), [t] if is_active_result(t));
    let grad_start = Instant::now();
    let mut gradient = with_grad
        .then(|| Gradient::compile(call, wrt))
        .transpose()?;
    let grad_compile_ms = grad_start.elapsed().as_secs_f64() * 1e3;

    let mut results = Results::new(&signature);
    let (entry, mut slots) = prepared.frame(&mut results)?;
    let arguments = &prepared.arguments;
    let mut call_primal = |_: bool| {
        // SAFETY: the slots were laid out for this entry point's signature.
        unsafe { entry(slots.as_mut_ptr()) };
        results.release_fresh(arguments);
    };
    // Timing interleaves calls of compiled code with moonc's bookkeeping; a
    // crash here is reported as the program's.
    moonc_call::crash::set_running_program();
    let (primal, grad) = match &mut gradient {
        Some(gradient) => {
            let (primal, grad, tape) = gradient.time(time_ms, &mut call_primal)?;
            (primal, Some((grad, tape)))
        }
        None => (
            time(time_ms, &mut [(&mut call_primal, false)]).remove(0),
            None,
        ),
    };
    moonc_call::crash::set_phase("reporting the results");
    let mut report = vec![
        ("entry", Json::Str(signature.name.clone())),
        ("primal_ns", Json::f64(round(primal.median))),
        ("primal_min_ns", Json::f64(round(primal.min))),
        ("compile_ms", Json::f64(round(prepared.compile_ms))),
        ("samples", Json::int(primal.samples as i64)),
        (
            "calls_per_sample",
            Json::int(primal.calls_per_sample as i64),
        ),
    ];
    if let Some((grad, tape_peak_bytes)) = &grad {
        report.extend([
            ("grad_ns", Json::f64(round(grad.median))),
            ("ratio", Json::f64(round(grad.median / primal.median))),
            ("tape_peak_bytes", Json::int(*tape_peak_bytes)),
            ("grad_compile_ms", Json::f64(round(grad_compile_ms))),
        ]);
    }
    let blas = [
        ("primal_blas_ns", Some(primal.blas)),
        ("grad_blas_ns", grad.map(|(grad, _)| grad.blas)),
    ];
    for (key, ns) in blas {
        if let Some(ns) = ns.filter(|&ns| ns > 0.0) {
            report.push((key, Json::f64(round(ns))));
        }
    }
    let report = report.into_iter().map(|(k, v)| (k.to_string(), v));
    Ok(Json::Object(report.collect()))
}

/// The value and gradient of the entry: its VJP wrapper, compiled apart
/// from the primal (which is timed as `moonc run` compiles it), with the
/// cotangent 1 and the shadows bound.
struct Gradient {
    compiled: Compiled,
    arguments: Arguments,
    /// The indices of the shadows among the wrapper's arguments.
    shadows: std::ops::Range<usize>,
}

impl Gradient {
    /// Compiles the entry with its VJP wrapper (with respect to `wrt`) and
    /// binds `--args`, zero shadows and the cotangent 1.
    fn compile(call: &CallOptions, wrt: &Wrt) -> Outcome<Gradient> {
        let values = values::parse_args(call.args())?;
        let wrappers = |_: &_, _: &_| Wrappers {
            vjp: true,
            ..Wrappers::default()
        };
        let (compiled, inputs) =
            Compiled::compile(&call.file, call.entry.as_deref(), wrt, wrappers, |s| {
                Inputs::from_args(s, &values)
            })
            .map_err(|failure| {
                Failure(format!(
                    "{failure}\n  note: the gradient is timed too; --primal-only times \
                         the primal alone"
                ))
            })?;
        let primal = &compiled.primal;
        let zeros = vec![0.0; shadow_dimension(primal, &inputs)];
        let operands = vjp_values(primal, &inputs, &[1.0], &zeros)?;
        let signature = compiled.wrapper(&compiled.vjp, "VJP")?;
        let arguments = Arguments::bind(signature, &operands)?;
        let first = primal.args.len();
        let dups = operands.len() - first - 1;
        Ok(Gradient {
            arguments,
            shadows: first..first + dups,
            compiled,
        })
    }

    /// Times `primal` and a value-and-gradient call (without the zeroing
    /// of the shadows) with interleaved samples; returns the primal's
    /// timing, the gradient's and the tape's peak bytes in one call.
    fn time(
        &mut self,
        time_ms: u64,
        primal: &mut dyn FnMut(bool),
    ) -> Outcome<(Timing, Timing, i64)> {
        let compiled = &self.compiled;
        let signature = compiled.wrapper(&compiled.vjp, "VJP")?;
        let mut results = Results::new(signature);
        let (entry, mut slots) =
            frame(&compiled.jit, signature, &mut self.arguments, &mut results)?;
        let (arguments, shadows) = (&mut self.arguments, self.shadows.clone());
        let mut call = |differentiate: bool| {
            arguments.zero(shadows.clone());
            if differentiate {
                // SAFETY: the slots were laid out for this entry point's
                // signature; zeroing did not move the shadows' buffers.
                unsafe { entry(slots.as_mut_ptr()) };
                results.release_fresh(arguments);
            }
        };
        let ((), tape) = TapeUse::around(|| call(true));
        tape.require_clean(&compiled.primal.name)?;
        let mut timed = time(time_ms, &mut [(primal, false), (&mut call, true)]);
        let grad = timed.pop().expect("two timings");
        let primal = timed.pop().expect("two timings");
        Ok((primal, grad, tape.peak))
    }
}

/// What [`time`] measured.
struct Timing {
    /// The median time per call at each stack position, averaged over the
    /// positions, in nanoseconds.
    median: f64,
    /// The fastest sample's time per call.
    min: f64,
    samples: usize,
    calls_per_sample: u64,
    /// The time per call inside moonrt's BLAS and LAPACK routines, taken
    /// over the samples like `median`.
    blas: f64,
}

/// Times each of `calls` for about `time_ms` (at least 11 samples each,
/// after a warm-up of at least 50 ms each), their samples interleaved (one
/// of each in turn) so that a change in the machine's speed affects them
/// alike. Each turn runs at the next of [`STACK_OFFSETS`] stack positions:
/// where the stack lies relative to the data (modulo 4 KiB) can change the
/// speed of code that spills vectors by half, so a timing is the mean over
/// the positions of the median at each, which does not depend on where
/// this process's stack happens to start. A call marked `true` subtracts the part of `call(true)`'s work
/// that is not to be timed, `call(false)`: each of its samples is followed
/// by one of `call(false)` with as many calls, and its times are the
/// differences.
fn time(time_ms: u64, calls: &mut [(&mut dyn FnMut(bool), bool)]) -> Vec<Timing> {
    // Warm-up: caches, branch predictors, page faults.
    let mut per_sample = vec![];
    for (call, _) in calls.iter_mut() {
        let warm_up = Instant::now();
        let mut warm_calls = 0u64;
        while warm_calls < 10 || warm_up.elapsed() < Duration::from_millis(50) {
            call(true);
            warm_calls += 1;
        }
        let per_call = warm_up.elapsed().as_secs_f64() / warm_calls as f64;
        per_sample.push(((1e-3 / per_call).ceil() as u64).max(1));
    }
    // (time per call, time per call inside BLAS).
    let sample = |call: &mut dyn FnMut(bool), calls: u64, differentiate: bool| {
        let blas = moonrt::moonrt_blas_time_ns();
        let start = Instant::now();
        for _ in 0..calls {
            call(differentiate);
        }
        let elapsed = start.elapsed().as_secs_f64() * 1e9 / calls as f64;
        let blas = moonrt::moonrt_blas_time_ns().wrapping_sub(blas) as f64;
        (elapsed, blas / calls as f64)
    };
    // samples[call][offset]: times per call; blas[call][offset]: times per
    // call inside BLAS.
    let mut samples = vec![vec![vec![]; STACK_OFFSETS]; calls.len()];
    let mut blas = samples.clone();
    let budget = Duration::from_millis(time_ms * calls.len() as u64);
    let start = Instant::now();
    let mut turn = 0;
    while turn < 11 * STACK_OFFSETS || (start.elapsed() < budget && turn < 100_000) {
        let offset = turn % STACK_OFFSETS;
        on_shifted_stack(offset, &mut || {
            for ((call, subtract), ((times, blas), &n)) in calls
                .iter_mut()
                .zip(samples.iter_mut().zip(blas.iter_mut()).zip(&per_sample))
            {
                let full = sample(*call, n, true);
                let part = if *subtract {
                    sample(*call, n, false)
                } else {
                    (0.0, 0.0)
                };
                times[offset].push(full.0 - part.0);
                blas[offset].push(full.1 - part.1);
            }
        });
        turn += 1;
    }
    samples
        .into_iter()
        .zip(per_sample)
        .zip(blas)
        .map(|((mut by_offset, calls_per_sample), mut blas)| Timing {
            median: mean_of_medians(&mut by_offset),
            min: by_offset.iter().map(|t| t[0]).fold(f64::INFINITY, f64::min),
            samples: by_offset.iter().map(Vec::len).sum(),
            calls_per_sample,
            blas: mean_of_medians(&mut blas),
        })
        .collect()
}

/// The mean over the stack positions of the median at each; sorts each
/// position's samples.
fn mean_of_medians(by_offset: &mut [Vec<f64>]) -> f64 {
    let medians: Vec<f64> = by_offset
        .iter_mut()
        .map(|times| {
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        })
        .collect();
    medians.iter().sum::<f64>() / medians.len() as f64
}

/// How many stack positions [`time`] rotates through.
const STACK_OFFSETS: usize = 16;

/// Runs `f` with the stack lowered by `k` * 272 bytes (`k` <
/// [`STACK_OFFSETS`]): 16 offsets spread over a 4 KiB page, each 16 bytes
/// further from a cache line boundary than the one before.
fn on_shifted_stack(k: usize, f: &mut dyn FnMut()) {
    #[inline(never)]
    fn lowered<const BYTES: usize>(f: &mut dyn FnMut()) {
        let pad = [0u8; BYTES];
        std::hint::black_box(&pad);
        f();
        std::hint::black_box(&pad);
    }
    match k {
        0 => lowered::<0>(f),
        1 => lowered::<272>(f),
        2 => lowered::<544>(f),
        3 => lowered::<816>(f),
        4 => lowered::<1088>(f),
        5 => lowered::<1360>(f),
        6 => lowered::<1632>(f),
        7 => lowered::<1904>(f),
        8 => lowered::<2176>(f),
        9 => lowered::<2448>(f),
        10 => lowered::<2720>(f),
        11 => lowered::<2992>(f),
        12 => lowered::<3264>(f),
        13 => lowered::<3536>(f),
        14 => lowered::<3808>(f),
        _ => lowered::<4080>(f),
    }
}

/// Keeps three decimals: timings are not more precise than that.
fn round(x: f64) -> f64 {
    (x * 1e3).round() / 1e3
}
