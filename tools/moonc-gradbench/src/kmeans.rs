//! GradBench's `kmeans`: `cost` calls `@kmeans_cost(points, centroids)`,
//! `dir` calls `@kmeans_dir(points, centroids, dir)`, which computes the
//! gradient and the Hessian's diagonal with moonc's AD inside (see
//! `workloads/kmeans.mlir`).

use super::buffers::{Arg, Array};
use super::evals::{Called, Eval, Function, How, Input, first_result};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "kmeans",
    file: "tools/moonc-gradbench/workloads/kmeans.mlir",
    source: Some(include_str!("../workloads/kmeans.mlir")),
    functions: &[
        Function {
            name: "cost",
            entry: "kmeans_cost",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "dir",
            entry: "kmeans_dir",
            how: How::Call,
            arguments: dir_arguments,
            output: dir,
        },
    ],
};

/// `{points: double[n][d], centroids: double[k][d]}` → `(points,
/// centroids)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let points = input.array("points", 2)?;
    let centroids = input.array("centroids", 2)?;
    if points.shape[0] == 0 || centroids.shape[0] == 0 {
        return Err("input fields `points` and `centroids` must not be empty".into());
    }
    if points.shape[1] != centroids.shape[1] {
        return Err(format!(
            "the points have {} coordinates but the centroids {}",
            points.shape[1], centroids.shape[1]
        ));
    }
    Ok(vec![Arg::Array(points), Arg::Array(centroids)])
}

/// The same, then `dir`, k x d zeros.
fn dir_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let mut values = arguments(input)?;
    let shape = match &values[1] {
        Arg::Array(centroids) => centroids.shape.clone(),
        _ => unreachable!("the centroids are an array"),
    };
    values.push(Arg::Array(Array::zeros(&shape)));
    Ok(values)
}

/// `double[k][d]`: what `@kmeans_dir` wrote into `dir`.
fn dir(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(called.argument(2)?.to_json())
}
