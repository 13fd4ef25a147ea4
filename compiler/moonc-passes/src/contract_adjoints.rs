//! `--moon-contract-adjoints`: lets LLVM fuse the multiplies and adds of
//! the reverse sweep's loops into fused multiply-adds.
//!
//! moonc keeps the rounding of every operation a program writes, so LLVM
//! contracts nothing by default. A reverse loop computes only adjoints
//! (and the primal values they need, recomputed): its results are
//! derivatives, which no program can expect rounded one way or another,
//! and each `a * b + c` there is one instruction instead of two, with one
//! rounding instead of two. GradBench's ode (the fused reverse loop of a
//! Runge-Kutta step: chains of products and sums of neighbours' adjoints)
//! and gmm (`dx[i] += dout[j] * L[k]`) are the cases measured
//! (`bench/results/suite-ab.txt`).

use moonc_autodiff::REVERSE_LOOP;
use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};

/// The registration of `--moon-contract-adjoints`.
pub static CONTRACT_ADJOINTS: PassInfo = PassInfo {
    argument: "moon-contract-adjoints",
    summary: "Let LLVM fuse the reverse sweep's multiplies and adds into fused multiply-adds",
    description: r#"
Adds `contract` to the fast-math flags of every `arith.addf`, `arith.subf`,
`arith.mulf` and `arith.negf` inside an `scf.for` that reverse mode made
(attribute `moon.reverse`), keeping the flags it has, except the sums
marked `reassoc` (reverse mode's derivative sums, carried from iteration
to iteration: fused into their multiplies, each step of the chain would
wait for a multiply-add instead of an add). LLVM then fuses a
multiply and the add or subtract that uses it into one fused multiply-add
(one rounding instead of two). Such loops compute adjoints, and the primal
values they need again, only for the derivative: the primal results of a
function are computed before its reverse sweep, by code this pass leaves
as written, so they keep the rounding of every operation the program
writes. A derivative may differ in its last bits from the unfused one.
`moon-cpu-pipeline` runs it after `moon-reverse-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "contract",
        description: "1 to mark the reverse loops' arithmetic, 0 to turn the pass off",
        default: 1,
    }],
    run,
};

/// The floating-point operations LLVM may fuse into a multiply-add.
const FUSIBLE: [&str; 4] = ["arith.addf", "arith.subf", "arith.mulf", "arith.negf"];

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    if options.get("contract") == 0 {
        return pass::unchanged();
    }
    let mut marked = 0;
    for l in module.walk() {
        if l.name() != "scf.for" || l.attr(REVERSE_LOOP).is_none() {
            continue;
        }
        for op in l.walk() {
            if FUSIBLE.contains(&op.name().as_str()) && add_contract(op) {
                marked += 1;
            }
        }
    }
    if marked == 0 {
        return pass::unchanged();
    }
    tracing::debug!(target: "moonc_passes", marked, "reverse-sweep operations contractable");
    Ok(())
}

/// The fast-math flags of the arith operation `op` (`reassoc`, ...).
pub(crate) fn fastmath_flags(op: Op) -> Vec<String> {
    op.attr("fastmath")
        .map(|a| a.to_string())
        .and_then(|text| {
            let inner = text.split_once('<')?.1.strip_suffix('>')?.to_string();
            Some(
                inner
                    .split(',')
                    .map(|f| f.trim().to_string())
                    .filter(|f| !f.is_empty() && f != "none")
                    .collect(),
            )
        })
        .unwrap_or_default()
}

/// Adds `contract` to `op`'s fast-math flags; false when it had it (or
/// `fast`, which includes it) or is a reassociable sum.
fn add_contract(op: Op) -> bool {
    let mut flags = fastmath_flags(op);
    // A reassociable sum is a carried accumulation (reverse mode marks
    // its derivative sums so): fused into its multiply, each step of the
    // chain would wait for a multiply-add instead of an add.
    let sum = op.name() != "arith.mulf" && flags.iter().any(|f| f == "reassoc");
    if sum || flags.iter().any(|f| f == "contract" || f == "fast") {
        return false;
    }
    flags.push("contract".into());
    set_fastmath_flags(op, &flags);
    true
}

/// Sets the fast-math flags of the arith operation `op` to `flags`.
pub(crate) fn set_fastmath_flags(op: Op, flags: &[String]) {
    let attr = op
        .ctx()
        .attr(&format!("#arith.fastmath<{}>", flags.join(",")));
    op.set_attr("fastmath", attr);
}
