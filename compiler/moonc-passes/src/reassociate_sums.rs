//! `--moon-reassociate-sums`: lets the sums a program carries through a
//! loop be added in any order, as XLA's reductions are.
//!
//! moonc keeps the order of every sum a program writes (docs/autodiff.md,
//! "Reduction order"): LLVM then adds one element after another, one
//! addition latency per element, and the loop cannot use more than one
//! vector lane for the sum. A user who accepts other roundings of such
//! sums asks for this pass (`moonc --moon-reassociate-sums`); the program
//! stays as written.

use crate::contract_adjoints::{fastmath_flags, set_fastmath_flags};
use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo},
};

/// The registration of `--moon-reassociate-sums`.
pub static REASSOCIATE_SUMS: PassInfo = PassInfo {
    argument: "moon-reassociate-sums",
    summary: "Let the sums loops carry be added in any order",
    description: r#"
Adds `reassoc` to the fast-math flags of every `arith.addf` that an
`scf.for` carries as a sum: the loop yields it for an iteration argument
that is one of its operands and has no other use. LLVM then vectorizes
the sum with a partial sum per lane (and several vectors), and reverse
mode's loops of such sums likewise. The sum's rounding then depends on the
order LLVM picks, the same on every call of the same code. `moonc` runs it
before differentiating when given `--moon-reassociate-sums`; it is not part
of `moon-cpu-pipeline`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let mut marked = 0;
    for l in module.walk().into_iter().filter(|l| l.name() == "scf.for") {
        let body = l.regions()[0].blocks()[0];
        let Some(yield_op) = body.terminator() else {
            continue;
        };
        let carried = body.args().into_iter().skip(1);
        for (arg, next) in carried.zip(yield_op.operands()) {
            let Some(add) = next.defining_op() else {
                continue;
            };
            let sum = add.name() == "arith.addf"
                && add.block() == body
                && add.operands().contains(&arg)
                && arg.users() == vec![add];
            let mut flags = fastmath_flags(add);
            if sum && !flags.iter().any(|f| f == "reassoc" || f == "fast") {
                flags.push("reassoc".into());
                set_fastmath_flags(add, &flags);
                marked += 1;
            }
        }
    }
    if marked > 0 {
        tracing::debug!(target: "moonc_passes", marked, "carried sums reassociable");
    }
    Ok(())
}
