//! GradBench's `ode`: not implemented yet (its workload,
//! `bench/suite/workloads/ode.mlir`, is not written).

use super::evals::Eval;

pub static EVAL: Eval = Eval {
    name: "ode",
    file: "bench/suite/workloads/ode.mlir",
    source: None,
    functions: &[],
};
