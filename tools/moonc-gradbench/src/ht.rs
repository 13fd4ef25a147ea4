//! GradBench's `ht` (hand tracking): `objective` calls `@ht_objective`,
//! which writes the residuals into `err`, and `jacobian` `@ht_jacobian`,
//! which writes the Jacobian into `jac` with moonc's forward mode inside
//! (see `workloads/ht.mlir`). The complicated variant when the input's
//! `us` has rows, the simple one otherwise.

use super::{
    buffers::{Arg, Array, Data},
    evals::{Called, Eval, Function, How, Input, flat},
};
use moonc_call::json::Json;

pub static EVAL: Eval = Eval {
    name: "ht",
    file: "tools/moonc-gradbench/workloads/ht.mlir",
    source: Some(include_str!("../workloads/ht.mlir")),
    functions: &[
        Function {
            name: "objective",
            entry: "ht_objective",
            how: How::Call,
            arguments: objective_arguments,
            output: objective,
        },
        Function {
            name: "jacobian",
            entry: "ht_jacobian",
            how: How::Call,
            arguments: jacobian_arguments,
            output: jacobian,
        },
    ],
};

/// The pose parameters.
const THETA: usize = 26;
/// The bones `to_pose_params` needs: it sets 5 fingers' columns up to 24
/// of the pose's bones + 3.
const MIN_BONES: usize = 22;

/// The arguments both entries share (see `workloads/ht.mlir`), and the
/// number of correspondences.
fn problem(input: &Input) -> Result<(usize, Vec<Arg>), String> {
    let theta = input.fixed("theta", THETA)?;
    let data = Input::new(input.field("data")?).map_err(|e| format!("field `data`: {e}"))?;
    let model = Input::new(data.field("model")?).map_err(|e| format!("field `model`: {e}"))?;
    let parents = integers(&model, "parents", 1)?;
    let bones = parents.shape[0];
    let base_relatives = model.array("base_relatives", 3)?;
    let inverse_base_absolutes = model.array("inverse_base_absolutes", 3)?;
    let base_positions = model.array("base_positions", 2)?;
    let vertices = base_positions.shape[0];
    let weights = model.array("weights", 2)?;
    let triangles = match integers(&model, "triangles", 2)? {
        none if none.shape[0] == 0 => Array::i32(&[0, 3], vec![]),
        triangles => triangles,
    };
    let is_mirrored = match model.field("is_mirrored")? {
        serde_json::Value::Bool(b) => *b as i64,
        other => {
            return Err(format!(
                "input field `is_mirrored` must be true or false, not `{other}`"
            ));
        }
    };
    let correspondences = integers(&data, "correspondences", 1)?;
    let points = data.array("points", 2)?;
    let n = correspondences.shape[0];
    let us = match input.array("us", 2)? {
        us if us.shape[0] == 0 => Array::f64(&[0, 2], vec![]),
        us => us,
    };
    let complicated = us.shape[0] != 0;

    let shaped = |what: &str, array: &Array, shape: &[usize]| {
        if array.shape == shape {
            Ok(())
        } else {
            Err(format!(
                "input field `{what}` must be shaped {shape:?}, not {:?}",
                array.shape
            ))
        }
    };
    if bones < MIN_BONES {
        return Err(format!(
            "the model has {bones} bones; the pose parameters need at least {MIN_BONES}"
        ));
    }
    shaped("base_relatives", &base_relatives, &[bones, 4, 4])?;
    shaped(
        "inverse_base_absolutes",
        &inverse_base_absolutes,
        &[bones, 4, 4],
    )?;
    shaped("base_positions", &base_positions, &[vertices, 4])?;
    shaped("weights", &weights, &[vertices, bones])?;
    shaped("points", &points, &[n, 3])?;
    shaped("triangles", &triangles, &[triangles.shape[0], 3])?;
    if complicated {
        shaped("us", &us, &[n, 2])?;
    }
    let parents_ok = ints(&parents)
        .iter()
        .enumerate()
        .all(|(b, &p)| p == -1 || (0..b as i32).contains(&p));
    if !parents_ok {
        return Err("each bone's parent must be -1 or an earlier bone".into());
    }
    in_range("triangles", &triangles, vertices)?;
    let targets = if complicated {
        triangles.shape[0]
    } else {
        vertices
    };
    in_range("correspondences", &correspondences, targets)?;
    let arguments = vec![
        Arg::Array(Array::f64(&[THETA], theta)),
        Arg::Array(us),
        Arg::Array(parents),
        Arg::Array(base_relatives),
        Arg::Array(inverse_base_absolutes),
        Arg::Array(base_positions),
        Arg::Array(weights),
        Arg::Array(triangles),
        Arg::Int(is_mirrored),
        Arg::Array(correspondences),
        Arg::Array(points),
    ];
    Ok((n, arguments))
}

/// The shared arguments, then `err` (n x 3 zeros).
fn objective_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let (n, mut arguments) = problem(input)?;
    arguments.push(Arg::Array(Array::zeros(&[n, 3])));
    Ok(arguments)
}

/// The shared arguments, then `jac` (3n x 28 zeros, or 3n x 26 for the
/// simple variant).
fn jacobian_arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let (n, mut arguments) = problem(input)?;
    let complicated = matches!(&arguments[1], Arg::Array(us) if us.shape[0] != 0);
    let columns = THETA + if complicated { 2 } else { 0 };
    arguments.push(Arg::Array(Array::zeros(&[3 * n, columns])));
    Ok(arguments)
}

/// `double[3n]`: the residuals `@ht_objective` wrote into `err`, row by row.
fn objective(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(flat(called.argument(11)?))
}

/// `double[3n][C]`: the rows of the Jacobian `@ht_jacobian` wrote into
/// `jac`.
fn jacobian(_: &Input, called: &Called) -> Result<Json, String> {
    Ok(called.argument(11)?.to_json())
}

/// Field `key` of `input`, a nested list of integers of depth `depth`, as
/// i32s.
fn integers(input: &Input, key: &str, depth: usize) -> Result<Array, String> {
    let array = input.array(key, depth)?;
    let Data::F64(numbers) = &array.data else {
        unreachable!("arrays of the input are f64")
    };
    let ints = numbers.iter().map(|&x| {
        (x.fract() == 0.0 && x >= i32::MIN as f64 && x <= i32::MAX as f64)
            .then_some(x as i32)
            .ok_or_else(|| format!("input field `{key}` must hold integers, not {x}"))
    });
    Ok(Array::i32(&array.shape, ints.collect::<Result<_, _>>()?))
}

/// The elements of an i32 array.
fn ints(array: &Array) -> &[i32] {
    match &array.data {
        Data::I32(ints) => ints,
        Data::F64(_) => unreachable!("an array of `integers`"),
    }
}

/// That every element of `array` indexes one of `count` things.
fn in_range(key: &str, array: &Array, count: usize) -> Result<(), String> {
    match ints(array).iter().find(|&&i| i < 0 || i as usize >= count) {
        Some(i) => Err(format!(
            "input field `{key}` holds {i}, which is not below {count}"
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::{Input, objective_arguments};
    use serde_json::{Value, json};

    /// A well-formed input: 22 bones in a chain, 2 vertices, 1 triangle,
    /// 1 correspondence (complicated).
    fn input() -> Value {
        let identity = json!([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]);
        let bones = 22;
        json!({
            "theta": vec![0.1; 26],
            "us": [[0.3, 0.3]],
            "data": {
                "correspondences": [0],
                "points": [[0.0, 1.0, 2.0]],
                "model": {
                    "parents": (0..bones).map(|b| b - 1).collect::<Vec<i64>>(),
                    "base_relatives": vec![identity.clone(); bones as usize],
                    "inverse_base_absolutes": vec![identity; bones as usize],
                    "base_positions": [[0, 0, 0, 1], [1, 0, 0, 1]],
                    "weights": vec![vec![1.0 / bones as f64; bones as usize]; 2],
                    "triangles": [[0, 1, 1]],
                    "is_mirrored": false,
                },
            },
        })
    }

    fn error_of(value: &Value) -> String {
        objective_arguments(&Input::new(value).unwrap()).unwrap_err()
    }

    #[test]
    fn well_formed_input() {
        let value = input();
        let arguments = objective_arguments(&Input::new(&value).unwrap()).unwrap();
        assert_eq!(arguments.len(), 12);
    }

    #[test]
    fn bad_inputs_are_named() {
        let mut value = input();
        value["data"]["correspondences"] = json!([1]);
        assert_eq!(
            error_of(&value),
            "input field `correspondences` holds 1, which is not below 1"
        );
        let mut value = input();
        value["data"]["model"]["triangles"] = json!([[0, 1, 2]]);
        assert_eq!(
            error_of(&value),
            "input field `triangles` holds 2, which is not below 2"
        );
        let mut value = input();
        value["data"]["model"]["parents"][3] = json!(5);
        assert_eq!(
            error_of(&value),
            "each bone's parent must be -1 or an earlier bone"
        );
        let mut value = input();
        value["data"]["model"]["weights"] = json!([[1.0], [1.0]]);
        assert_eq!(
            error_of(&value),
            "input field `weights` must be shaped [2, 22], not [2, 1]"
        );
        let mut value = input();
        value["data"]["correspondences"] = json!([0.5]);
        assert_eq!(
            error_of(&value),
            "input field `correspondences` must hold integers, not 0.5"
        );
        let mut value = input();
        value["data"]["model"]["is_mirrored"] = json!(0);
        assert_eq!(
            error_of(&value),
            "input field `is_mirrored` must be true or false, not `0`"
        );
    }
}
