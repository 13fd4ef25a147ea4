//! GradBench's `lstm`: not implemented yet (its workload,
//! `bench/suite/workloads/lstm.mlir`, is not written).

use super::evals::Eval;

pub static EVAL: Eval = Eval {
    name: "lstm",
    file: "bench/suite/workloads/lstm.mlir",
    source: None,
    functions: &[],
};
