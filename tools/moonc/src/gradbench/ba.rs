//! GradBench's `ba`: not implemented yet (its workload,
//! `bench/suite/workloads/ba.mlir`, is not written).

use super::evals::Eval;

pub static EVAL: Eval = Eval {
    name: "ba",
    file: "bench/suite/workloads/ba.mlir",
    source: None,
    functions: &[],
};
