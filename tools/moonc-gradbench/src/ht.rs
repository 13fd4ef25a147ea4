//! GradBench's `ht`: not written yet.

use super::evals::Eval;

pub static EVAL: Eval = Eval {
    name: "ht",
    file: "tools/moonc-gradbench/workloads/ht.mlir",
    source: None,
    functions: &[],
};
