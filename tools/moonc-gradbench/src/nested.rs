//! GradBench's nested-derivative evals, `saddle` and `particle`: each of
//! the four functions (`ff`, `fr`, `rf`, `rr`: the outer derivative's mode,
//! then the inner's) calls its own entry, which holds the nested
//! `moon.jvp`/`moon.grad` requests (see `workloads/nested.py`, which
//! prints both workloads).

use super::buffers::Arg;
use super::evals::{Called, Eval, Function, How, Input, first_result};
use moonc_call::json::Json;

pub static SADDLE: Eval = Eval {
    name: "saddle",
    file: "tools/moonc-gradbench/workloads/saddle.mlir",
    source: Some(include_str!("../workloads/saddle.mlir")),
    functions: &[
        saddle("ff", "saddle_ff"),
        saddle("fr", "saddle_fr"),
        saddle("rf", "saddle_rf"),
        saddle("rr", "saddle_rr"),
    ],
};

pub static PARTICLE: Eval = Eval {
    name: "particle",
    file: "tools/moonc-gradbench/workloads/particle.mlir",
    source: Some(include_str!("../workloads/particle.mlir")),
    functions: &[
        particle("ff", "particle_ff"),
        particle("fr", "particle_fr"),
        particle("rf", "particle_rf"),
        particle("rr", "particle_rr"),
    ],
};

const fn saddle(name: &'static str, entry: &'static str) -> Function {
    Function {
        name,
        entry,
        how: How::Call,
        arguments: start,
        output: points,
    }
}

const fn particle(name: &'static str, entry: &'static str) -> Function {
    Function {
        name,
        entry,
        how: How::Call,
        arguments: w,
        output: first_result,
    }
}

/// `{start: double[2]}` → `(start[0], start[1])`.
fn start(input: &Input) -> Result<Vec<Arg>, String> {
    Ok(input
        .fixed("start", 2)?
        .into_iter()
        .map(Arg::Float)
        .collect())
}

/// `double[4]`: the four results, x then y.
fn points(_: &Input, called: &Called) -> Result<Json, String> {
    let xy = (0..4).map(|i| Ok(called.result(i)?.to_json()));
    Ok(Json::List(xy.collect::<Result<_, String>>()?))
}

/// `{w: double}` → `(w)`.
fn w(input: &Input) -> Result<Vec<Arg>, String> {
    Ok(vec![Arg::Float(input.number("w")?)])
}
