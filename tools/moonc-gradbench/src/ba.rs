//! GradBench's `ba`: the input's one camera, point, weight and feature are
//! expanded as GradBench's C++ reference does (`n` cameras, `m` points, `p`
//! weights and features, observation i seeing camera i mod n and point
//! i mod m); `objective` calls `@ba_objective` and `jacobian`
//! `@ba_jacobian`, which write the residuals and the Jacobian's blocks into
//! their output arguments (see `workloads/ba.mlir`).
//!
//! The outputs are those of GradBench's C++ reference (the eval validates
//! against it): the objective as `{"reproj_error": {"elements": [2
//! numbers], "repeated": p}, "w_err": {"element": x, "repeated": p}}`
//! (the first observation's residuals; the README's `reproj_err` and
//! `w_err` lists are not what is compared), and the Jacobian as the first
//! 30 entries and the last of the compressed-row sparse matrix's `rows`
//! (row offsets), `cols` and `vals`.

use super::{
    buffers::{Arg, Array},
    evals::{Called, Eval, Function, How, Input},
};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "ba",
    file: "tools/moonc-gradbench/workloads/ba.mlir",
    source: Some(include_str!("../workloads/ba.mlir")),
    functions: &[
        Function {
            name: "objective",
            entry: "ba_objective",
            how: How::Call,
            arguments: objective_arguments,
            output: objective,
        },
        Function {
            name: "jacobian",
            entry: "ba_jacobian",
            how: How::Call,
            arguments: jacobian_arguments,
            output: jacobian,
        },
    ],
};

/// Camera parameters.
const CAMERA: usize = 11;

/// The expanded problem: `(cams, x, w, obs, feats)`.
fn problem(input: &Input) -> Result<(usize, Vec<Arg>), String> {
    let count = |key| match input.count(key)? {
        0 => Err(format!("input field `{key}` must be at least 1")),
        n => usize::try_from(n).map_err(|_| format!("input field `{key}` is too large")),
    };
    let (n, m, p) = (count("n")?, count("m")?, count("p")?);
    if i32::try_from(n.max(m)).is_err() {
        return Err("n and m must fit in i32 (the observations' indices)".into());
    }
    let cam = input.fixed("cam", CAMERA)?;
    let x = input.fixed("x", 3)?;
    let w = input.number("w")?;
    let feat = input.fixed("feat", 2)?;
    let obs = (0..p).flat_map(|i| [(i % n) as i32, (i % m) as i32]);
    Ok((
        p,
        vec![
            Arg::Array(Array::f64(&[n, CAMERA], cam.repeat(n))),
            Arg::Array(Array::f64(&[m, 3], x.repeat(m))),
            Arg::Array(Array::f64(&[p], vec![w; p])),
            Arg::Array(Array::i32(&[p, 2], obs.collect())),
            Arg::Array(Array::f64(&[p, 2], feat.repeat(p))),
        ],
    ))
}

/// The problem, then `reproj_err` (p x 2) and `w_err` (p) to write.
fn objective_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let (p, mut args) = problem(input)?;
    args.push(Arg::Array(Array::zeros(&[p, 2])));
    args.push(Arg::Array(Array::zeros(&[p])));
    Ok(args)
}

/// The problem, then `jac` (p x 2 x 15) and `wjac` (p) to write.
fn jacobian_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let (p, mut args) = problem(input)?;
    args.push(Arg::Array(Array::zeros(&[p, 2, 15])));
    args.push(Arg::Array(Array::zeros(&[p])));
    Ok(args)
}

/// The first observation's residuals and how many there are.
fn objective(_: &Input, called: &Called) -> Result<Json, String> {
    let (reproj, w_err) = (called.argument(5)?, called.argument(6)?);
    let p = w_err.data.len() as i64;
    Ok(Json::object([
        (
            "reproj_error",
            Json::object([
                (
                    "elements",
                    Json::List(reproj.data[..2].iter().map(|&x| Json::f64(x)).collect()),
                ),
                ("repeated", Json::int(p)),
            ]),
        ),
        (
            "w_err",
            Json::object([
                ("element", Json::f64(w_err.data[0])),
                ("repeated", Json::int(p)),
            ]),
        ),
    ]))
}

/// `{rows, cols, vals}`: the first 30 entries and the last of each.
fn jacobian(input: &Input, called: &Called) -> Result<Json, String> {
    let (jac, wjac) = (called.argument(5)?, called.argument(6)?);
    let (n, m) = (input.count("n")? as i64, input.count("m")? as i64);
    let p = wjac.data.len() as i64;
    // Row r < 2p (reprojection errors) holds 15 entries, row 2p + i (the
    // weight errors) one: the row offsets.
    let row_offset = |r: i64| {
        if r <= 2 * p {
            15 * r
        } else {
            30 * p + (r - 2 * p)
        }
    };
    let rows = (0..3 * p + 1).map(row_offset);
    // Observation 0 sees camera 0 and point 0: its two rows' columns.
    let columns_of_row_0 = (0..CAMERA as i64)
        .chain((0..3).map(|j| CAMERA as i64 * n + j))
        .chain([CAMERA as i64 * n + 3 * m]);
    let cols: Vec<i64> = columns_of_row_0.clone().chain(columns_of_row_0).collect();
    let last_col = CAMERA as i64 * n + 3 * m + p - 1;
    let ints = |v: Vec<i64>| Json::List(v.into_iter().map(Json::int).collect());
    let first_and_last = |all: Vec<i64>, last: i64| {
        let mut v: Vec<i64> = all.into_iter().take(30).collect();
        v.push(last);
        v
    };
    let mut vals: Vec<Json> = jac.data.iter().take(30).map(|&x| Json::f64(x)).collect();
    vals.push(Json::f64(*wjac.data.last().ok_or("no observations")?));
    Ok(Json::object([
        (
            "rows",
            ints(first_and_last(rows.take(30).collect(), row_offset(3 * p))),
        ),
        ("cols", ints(first_and_last(cols, last_col))),
        ("vals", Json::List(vals)),
    ]))
}
