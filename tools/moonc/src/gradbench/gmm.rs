//! GradBench's `gmm`: not implemented yet (its workload,
//! `bench/suite/workloads/gmm.mlir`, is not written).

use super::evals::Eval;

pub static EVAL: Eval = Eval {
    name: "gmm",
    file: "bench/suite/workloads/gmm.mlir",
    source: None,
    functions: &[],
};
