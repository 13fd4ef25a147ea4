//! `--moon-reverse-loops`: asks LLVM not to unroll the loops of reverse
//! sweeps whose trip counts are known only at run time.
//!
//! Reverse mode turns each loop of a helper over a dimension (`Qtimesx`,
//! `sqnorm` or `subtract` over `d` in GradBench's gmm) into a descending
//! loop of loads, stores and accumulations, run once per call. LLVM's
//! unroller and the loop vectorizer's interleaving assume such a loop is
//! long: they add an unrolled body, a remainder loop and the tests between
//! them, which a loop of one to a few iterations pays for at every call.
//! GradBench's gmm in its reference's form is the case measured
//! (`bench/results/gradbench-harness.md`; docs/autodiff.md).

use crate::loop_annotation::{NO_UNROLL, add_setting};
use moonc_autodiff::REVERSE_LOOP;
use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};

/// The registration of `--moon-reverse-loops`.
pub static REVERSE_LOOPS: PassInfo = PassInfo {
    argument: "moon-reverse-loops",
    summary: "Keep LLVM from unrolling the reverse sweep's loops of run-time trip counts",
    description: r#"
Marks every `scf.for` that reverse mode made (attribute `moon.reverse`)
whose bounds are not all constants with `loop_annotation =
#llvm.loop_annotation<unroll = <disable = true>>`, which `convert-scf-to-cf`
carries to the loop's back edge as the `!llvm.loop` metadata
`llvm.loop.unroll.disable`: LLVM neither unrolls the loop nor interleaves
its vectorized body, and a reverse loop of a few iterations (the adjoint
of a helper over a small dimension) no longer pays for an unrolled body
and its remainder at every call. LLVM still vectorizes the loop. A loop
that already has a `loop_annotation` (from `moon-blocked-loops`) keeps it
and gains the unroll setting. Loops with constant bounds are left to
LLVM, which unrolls short ones fully. `moon-cpu-pipeline` runs it after
`moon-blocked-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "no-unroll",
        description: "1 to mark the loops, 0 to turn the pass off",
        default: 1,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    if options.get("no-unroll") == 0 {
        return pass::unchanged();
    }
    let mut marked = 0;
    for l in module.walk() {
        if l.name() == "scf.for"
            && l.attr(REVERSE_LOOP).is_some()
            && !constant_bounds(l)
            && add_setting(l, NO_UNROLL, "unroll")
        {
            marked += 1;
        }
    }
    if marked == 0 {
        return pass::unchanged();
    }
    tracing::debug!(target: "moonc_passes", marked, "reverse loops kept from unrolling");
    Ok(())
}

/// Whether the bounds and step of the `scf.for` `l` are all constants.
fn constant_bounds(l: Op) -> bool {
    l.operands()[..3].iter().all(|v| {
        v.defining_op()
            .is_some_and(|o| o.name() == "arith.constant")
    })
}
