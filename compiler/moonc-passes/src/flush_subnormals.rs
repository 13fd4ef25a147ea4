//! `--moon-flush-subnormals`: runs the reverse sweep's loop nests with
//! subnormal numbers flushed to zero (x86-64's FTZ and DAZ modes).
//!
//! An adjoint scaled by a vanishing weight (the softmax weight of a far
//! component in GradBench's gmm, `exp` of a large negative number) gives
//! products below the smallest normal double, and Intel cores take a
//! microcode assist of about a hundred cycles for each operation that
//! makes or reads one. Added into adjoints of ordinary size, such a
//! product changes nothing; computing it cost half the gradient of gmm at
//! d = 64 on an Intel Xeon. JAX's CPU runtime runs everything this way.

use crate::kernel::Kernel;
use moonc_autodiff::REVERSE_LOOP;
use moonc_ir::ir::{Builder, Op};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};

/// The registration of `--moon-flush-subnormals`.
pub static FLUSH_SUBNORMALS: PassInfo = PassInfo {
    argument: "moon-flush-subnormals",
    summary: "Run the reverse sweep's loop nests with subnormals flushed to zero",
    description: r#"
On x86-64 (the host moonc compiles for), runs each loop nest of the
reverse sweep at the top level of a function — an `scf.for` that reverse
mode made (`moon.reverse`) holding another loop and floating-point
arithmetic and no call, or such loops in the branches of an `scf.if`
(`--moon-tile-reverse-loops`' two versions) — with MXCSR's flush-to-zero
and denormals-are-zero flags set: a result below the smallest normal
number (about 2.2e-308 in f64, 1.2e-38 in f32) is 0, and such an operand
reads as 0. The caller's mode is read before the nest
(`@moon_fp_mode`), the flags are set at the start of the outer loop's
body when they are not set yet (`@moon_ensure_fp_mode`: reading MXCSR
costs a few cycles, writing it tens) and the mode is restored after the
nest (`@moon_set_fp_mode`). Setting them inside the loop, where LLVM
never moves the forward sweep's arithmetic, keeps every primal value
IEEE; a reverse operation LLVM moves out of the loop only runs with
subnormals kept.

Such numbers in a reverse sweep are products of an adjoint by a vanishing
weight (the softmax weight of a far component of GradBench's gmm); added
into adjoints of ordinary size they change nothing, and Intel cores take
about a hundred cycles for each operation that makes or reads one (half
of gmm's gradient at d = 64 on an Intel Xeon). A derivative whose true
value is itself subnormal comes out 0. JAX's CPU runtime flushes
subnormals everywhere. `flush=0` turns the pass off (`moonc
--keep-subnormals`). `moon-cpu-pipeline` runs it after
`--moon-ascending-reverse-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "flush",
        description: "1 to flush subnormals in reverse loop nests, 0 to turn the pass off",
        default: 1,
    }],
    run,
};

/// The mode switches, `flush_subnormals/mode.mlir`.
const MODE: &str = concat!(include_str!("flush_subnormals/mode.mlir"), "\0");

/// MXCSR's flush-to-zero (bit 15) and denormals-are-zero (bit 6) flags.
const FLUSH: i64 = 0x8040;

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    if options.get("flush") == 0 || !cfg!(target_arch = "x86_64") {
        return pass::unchanged();
    }
    let body = module.regions()[0].blocks()[0];
    let nests: Vec<(Op, Vec<Op>)> = body
        .ops()
        .into_iter()
        .filter(|f| f.name() == "func.func")
        .flat_map(|f| f.regions()[0].blocks())
        .flat_map(|b| b.ops())
        .filter_map(|op| reverse_nest(op).map(|loops| (op, loops)))
        .collect();
    if nests.is_empty() {
        return pass::unchanged();
    }
    for (nest, loops) in &nests {
        let mut b = Builder::before(*nest);
        let ctx = b.ctx;
        let i32 = ctx.ty("i32");
        let saved = b.value(
            "func.call",
            &[],
            i32,
            &[("callee", ctx.attr("@moon_fp_mode"))],
        );
        let flags = b.value(
            "arith.constant",
            &[],
            i32,
            &[("value", ctx.attr(&format!("{FLUSH} : i32")))],
        );
        let flushing = b.value("arith.ori", &[saved, flags], i32, &[]);
        let ensure = ctx.attr("@moon_ensure_fp_mode");
        for l in loops {
            let first = l.regions()[0].blocks()[0].ops()[0];
            Builder::before(first).create(
                "func.call",
                &[flushing],
                &[],
                &[("callee", ensure)],
                &[],
                &[],
            );
        }
        let set = ctx.attr("@moon_set_fp_mode");
        Builder::after(*nest).create("func.call", &[saved], &[], &[("callee", set)], &[], &[]);
    }
    Kernel::parse(module, MODE, "flush_subnormals/mode.mlir").copy_into(module);
    tracing::debug!(target: "moonc_passes", nests = nests.len(), "reverse loop nests run flushing subnormals");
    Ok(())
}

/// The outer loops of `op` when it is a reverse loop nest with
/// floating-point arithmetic and no call, or an `scf.if` whose branches
/// hold such nests and nothing else that computes in floating point.
fn reverse_nest(op: Op) -> Option<Vec<Op>> {
    let floating = |o: &Op| {
        let name = o.name();
        name.starts_with("math.")
            || name.starts_with("arith.") && name.ends_with('f') && name != "arith.cmpf"
    };
    let nest = |l: &Op| {
        let inside = l.walk();
        l.name() == "scf.for"
            && l.attr(REVERSE_LOOP).is_some()
            && inside.iter().any(|o| o.name() == "scf.for")
            && inside.iter().any(floating)
            && !inside.iter().any(|o| o.name() == "func.call")
    };
    match op.name().as_str() {
        "scf.for" => nest(&op).then(|| vec![op]),
        "scf.if" => {
            let ops: Vec<Op> = op
                .regions()
                .into_iter()
                .flat_map(|r| r.blocks())
                .flat_map(|b| b.ops())
                .collect();
            let loops: Vec<Op> = ops.iter().copied().filter(nest).collect();
            let rest_exact = ops.iter().all(|o| {
                nest(o)
                    || !std::iter::once(*o)
                        .chain(o.walk())
                        .any(|x| floating(&x) || x.name() == "func.call")
            });
            (!loops.is_empty() && rest_exact).then_some(loops)
        }
        _ => None,
    }
}
