//! GradBench's `det`: `primal` calls `@det(A, ell)`, `gradient` is its
//! gradient with respect to `A` (see `workloads/det.mlir`).

use super::buffers::Arg;
use super::evals::{Eval, Function, How, Input, first_result, gradient_of_first};

pub static EVAL: Eval = Eval {
    name: "det",
    file: "tools/moonc-gradbench/workloads/det.mlir",
    source: Some(include_str!("../workloads/det.mlir")),
    functions: &[
        Function {
            name: "primal",
            entry: "det",
            how: How::Call,
            arguments,
            output: first_result,
        },
        Function {
            name: "gradient",
            entry: "det",
            how: How::Gradient { wrt: Some("0") },
            arguments,
            output: gradient_of_first,
        },
    ],
};

/// `{A: double[ell * ell], ell: int}` → `(A, ell)`.
fn arguments(input: &Input) -> Result<Vec<Arg>, String> {
    let a = input.array("A", 1)?;
    let ell = input.count("ell")?;
    if ell == 0 {
        return Err("input field `ell` must be at least 1".into());
    }
    if ell.checked_mul(ell) != Some(a.shape[0] as u64) {
        return Err(format!(
            "input field `A` must hold ell * ell = {ell} * {ell} numbers, not {}",
            a.shape[0]
        ));
    }
    Ok(vec![Arg::Array(a), Arg::Int(ell as i64)])
}
