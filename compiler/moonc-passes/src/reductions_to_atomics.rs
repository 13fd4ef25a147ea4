//! `--moon-reductions-to-atomics`: rewrites each `linalg.generic` with
//! reduction loops into an `scf.parallel` over all its loops, in which every
//! iteration adds its term to the reduced output with `memref.atomic_rmw
//! addf` and stores the outputs it owns plainly.
//!
//! For the GPU: a reduction is a loop nest that a parallel-loop mapping
//! leaves sequential, while one thread per iteration with atomic adds runs
//! on every thread at once. Reverse mode makes such reductions wherever an
//! input is read by several iterations: the adjoint of a broadcast `x[j]` in
//! `y[i, j] = f(x[j])` sums over `i`, and the fused path's primal-and-
//! partials generic sums the primal while it writes one partial per
//! iteration. Outputs indexed by every loop are written by one iteration
//! each, so they need no atomics.

use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::{indexing_maps, projected_dims, split_ins_outs};
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo, PassOption},
};
use std::collections::HashMap;

/// The registration of `--moon-reductions-to-atomics`.
pub static REDUCTIONS_TO_ATOMICS: PassInfo = PassInfo {
    argument: "moon-reductions-to-atomics",
    summary: "Rewrite linalg reductions as parallel loops that add with atomics",
    description: r#"
Rewrites each `linalg.generic` on memrefs that has reduction loops into an
`scf.parallel` over all of its loops (one iteration per element of the
iteration space). Each output must be either

- indexed by every loop (each iteration owns its element): the iteration
  stores its value plainly; or
- accumulated, `out + e` (or `e + out`) with `out` read nowhere else, in a
  float type: the iteration adds `e` with `memref.atomic_rmw addf`.

Maps must be projected permutations. Other generics are left alone, or,
with `gpu=1`, get a located error: `moon-gpu-pipeline` runs the pass so
(after `moon-gpu-reduce` has taken the sums into rank-0 outputs), before parallel loops are
mapped to the GPU, so that reductions (and the adjoints reverse mode makes
of broadcast inputs) run on every thread and none is left to become a
sequential host loop. The result differs from a sequential sum only by the
order of the additions.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "gpu",
        description: "1: a reduction this pass cannot rewrite is an error (it could not run on the GPU)",
        default: 0,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    for op in module.walk() {
        if op.name() != "linalg.generic" {
            continue;
        }
        match plan(op) {
            Some(plan) => rewrite(op, &plan),
            None if options.get("gpu") != 0 && has_reduction(op) && !in_kernel(op) => {
                return Err(error_at(
                    op,
                    "unsupported reduction on the GPU: expected sums (each output either \
                     `out + value`, or indexed by every loop), with projected-permutation maps",
                ));
            }
            None => {}
        }
    }
    Ok(())
}

/// Whether the generic `op` has a reduction loop.
fn has_reduction(op: Op) -> bool {
    op.attr("iterator_types").is_some_and(|kinds| {
        kinds
            .elements()
            .iter()
            .any(|k| k.to_string().contains("reduction"))
    })
}

/// Whether `op` is inside a kernel the user wrote (whose reductions are its
/// own business).
fn in_kernel(op: Op) -> bool {
    let mut at = op.parent();
    while let Some(parent) = at {
        if matches!(parent.name().as_str(), "gpu.launch" | "gpu.func") {
            return true;
        }
        at = parent.parent();
    }
    false
}

/// How an output of the generic is written by each iteration.
enum Output {
    /// Stored plainly: the output is indexed by every loop.
    Owned,
    /// `out + term`: `term` added atomically, `add` the body's addition.
    Accumulated { add: Op, term: Value },
}

/// What [`rewrite`] needs of a generic it can rewrite.
struct Plan {
    /// For each operand, the loop dimension of each of its dimensions.
    dims: Vec<Vec<usize>>,
    /// For each loop, an operand and dimension whose size is its count.
    extents: Vec<(usize, usize)>,
    outputs: Vec<Output>,
}

/// The plan for `op` when it is a generic on memrefs with reduction loops
/// whose outputs are all owned or accumulated.
fn plan(op: Op) -> Option<Plan> {
    let (ins, outs) = split_ins_outs(op);
    let operands = op.operands();
    if !op.results().is_empty() || outs == 0 || !operands.iter().all(|v| v.ty().is_memref()) {
        return None;
    }
    let iterators = op.attr("iterator_types")?.elements();
    if !iterators
        .iter()
        .any(|k| k.to_string().contains("reduction"))
    {
        return None;
    }
    let loops = iterators.len();
    let dims = indexing_maps(op)
        .iter()
        .map(|m| projected_dims(m))
        .collect::<Option<Vec<_>>>()?;
    let extents = (0..loops)
        .map(|d| {
            dims.iter().enumerate().find_map(|(operand, ds)| {
                ds.iter()
                    .position(|&x| x == d)
                    .map(|position| (operand, position))
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let body = op.regions().first()?.entry()?;
    let args = body.args();
    let yielded = body.terminator()?.operands();
    let outputs = (0..outs)
        .map(|k| {
            let arg = args[ins + k];
            if dims[ins + k].len() == loops {
                return Some(Output::Owned);
            }
            let add = yielded[k]
                .defining_op()
                .filter(|d| d.name() == "arith.addf")?;
            let term = match add.operands()[..] {
                [a, t] if a == arg => t,
                [t, a] if a == arg => t,
                _ => return None,
            };
            let only_yielded = add.result(0).users() == [body.terminator()?];
            (arg.users() == [add] && term != arg && only_yielded)
                .then_some(Output::Accumulated { add, term })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Plan {
        dims,
        extents,
        outputs,
    })
}

/// Replaces `op` by the `scf.parallel` of `plan`.
fn rewrite(op: Op, plan: &Plan) {
    let (ins, _) = split_ins_outs(op);
    let operands = op.operands();
    let mut b = Builder::before(op);
    let index = b.ctx.index();
    let upper: Vec<Value> = plan
        .extents
        .iter()
        .map(|&(operand, position)| {
            let d = b.index(position as i64);
            b.value("memref.dim", &[operands[operand], d], index, &[])
        })
        .collect();
    let loops = upper.len();
    let (zero, one) = (b.index(0), b.index(1));
    let (ivs, reduce) = b.parallel(&vec![zero; loops], &upper, &vec![one; loops]);
    let mut e = Builder::before(reduce);
    let at = |i: usize| -> Vec<Value> { plan.dims[i].iter().map(|&d| ivs[d]).collect() };
    let body = op.regions()[0].blocks()[0];
    let args = body.args();
    let mut mapping = HashMap::new();
    for (i, &arg) in args.iter().enumerate() {
        if !arg.is_unused() {
            let mut load = vec![operands[i]];
            load.extend(at(i));
            let value = e.value("memref.load", &load, arg.ty(), &[]);
            mapping.insert(arg, value);
        }
    }
    let adds: Vec<Op> = plan
        .outputs
        .iter()
        .filter_map(|o| match o {
            Output::Accumulated { add, .. } => Some(*add),
            Output::Owned => None,
        })
        .collect();
    let terminator = body.terminator().expect("linalg.yield");
    let ops: Vec<Op> = body
        .ops()
        .into_iter()
        .filter(|o| *o != terminator && !adds.contains(o))
        .collect();
    e.clone_remapped(&ops, &mut mapping);
    let mapped = |v: Value| *mapping.get(&v).unwrap_or(&v);
    for (k, (output, &value)) in plan.outputs.iter().zip(&terminator.operands()).enumerate() {
        let out = operands[ins + k];
        let mut place = vec![out];
        place.extend(at(ins + k));
        match output {
            Output::Owned => {
                let mut store = vec![mapped(value)];
                store.extend(place);
                e.create("memref.store", &store, &[], &[], &[], &[]);
            }
            Output::Accumulated { term, .. } => {
                let mut add = vec![mapped(*term)];
                add.extend(place);
                let addf = e.ctx.attr("0 : i64");
                let ty = term.ty();
                e.value("memref.atomic_rmw", &add, ty, &[("kind", addf)]);
            }
        }
    }
    op.erase();
}
