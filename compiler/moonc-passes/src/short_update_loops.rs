//! `--moon-short-update-loops`: gives each innermost loop that updates a
//! buffer in place a scalar copy for runs of few iterations.
//!
//! A loop such as GradBench gmm's `Qtimesx`, `out[j] += L[k] * x[i]` for
//! `j` from `i + 1` to `d`, rewrites elements that the previous run of the
//! same loop (the previous `i`) has just stored, starting one element
//! further on. Vectorized, each vector load spans the tails of two vector
//! stores still in the store buffer, which cannot forward them, and waits
//! for both to reach the cache: at d = 10 this made plain gmm's objective
//! 1.8 times slower than the same loop kept scalar. Runs of many
//! iterations do not wait (their stores are long written when they are
//! read again), and there the vector loop is faster (d = 64).

use crate::loop_annotation::{NO_UNROLL, NO_VECTORIZE, add_setting};
use moonc_autodiff::REVERSE_LOOP;
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::HashSet;

/// The registration of `--moon-short-update-loops`.
pub static SHORT_UPDATE_LOOPS: PassInfo = PassInfo {
    argument: "moon-short-update-loops",
    summary: "Run loops that update a buffer in place scalar when they have few iterations",
    description: r#"
Versions every innermost `scf.for` with one bound that changes with the
loop around it and one that does not (`for j in i + 1 .. d` inside `for
i`), a positive constant step, and a `memref.load` and `memref.store` of
the same buffer at the same indices, one of which varies in the loop
(`%out[%j] = %out[%j] + ...`): `scf.if` on the trip count runs, below
`below` iterations, a copy whose `loop_annotation` keeps LLVM from
vectorizing and from unrolling it, and otherwise the loop as it was.
Such a loop runs again and again over overlapping elements starting at
shifting places (a triangular loop nest over a small dimension): its
vectorized loads read elements that the run before has just stored at
another alignment, and wait for those stores to reach the cache; scalar,
each load is forwarded from the store before it. Loops whose bounds stay
the same (an update of a whole row per time step) are left alone: their
vector loads read exactly what vector stores wrote, which the store buffer
forwards, and the copy only made them larger; so are tiles, whose runs
do not overlap, and bodies of more than 32 operations, which have the work
to hide the wait (copying ode's checkpointed gradient's edge loops made it
slower). The reverse sweep's loops (`moon.reverse`) are left alone,
measured slower so, as are loops whose annotation already says whether to
vectorize (`moon-blocked-loops`).
`moon-cpu-pipeline` runs it after `moon-reverse-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "below",
        description: "the trip count below which the scalar copy runs (0 turns the pass off)",
        default: 16,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let below = i64::try_from(options.get("below")).unwrap_or(i64::MAX);
    if below == 0 {
        return pass::unchanged();
    }
    let mut versioned = 0;
    for l in module.walk() {
        if l.name() != "scf.for"
            || l.attr(REVERSE_LOOP).is_some()
            || l.attr("loop_annotation")
                .is_some_and(|a| a.to_string().contains("vectorize"))
            || !one_bound_moves(l)
            || !updates_in_place(l)
        {
            continue;
        }
        let Some(step) = l.operand(2).index_constant().filter(|&s| s > 0) else {
            continue;
        };
        version(l, below.saturating_mul(step));
        versioned += 1;
    }
    if versioned == 0 {
        return pass::unchanged();
    }
    tracing::debug!(target: "moonc_passes", versioned, "in-place update loops given a scalar copy");
    Ok(())
}

/// The most operations a versioned loop's body may have: a larger body has
/// the work to hide the wait, and copying it costs code (the edge loops of
/// ode's checkpointed gradient, hundreds of operations, ran slower).
const MAX_BODY_OPS: usize = 32;

/// Whether `l` has at most [`MAX_BODY_OPS`] operations and no nested loop,
/// and stores to a buffer at indices it also loads from, one of them
/// defined in the loop (its induction variable or a value computed from
/// it).
fn updates_in_place(l: Op) -> bool {
    let body = l.regions()[0].blocks()[0];
    let ops = l.walk();
    if ops.len() > MAX_BODY_OPS
        || ops
            .iter()
            .any(|o| matches!(o.name().as_str(), "scf.for" | "scf.while" | "scf.parallel"))
    {
        return false;
    }
    let loaded: HashSet<Vec<Value>> = ops
        .iter()
        .filter(|o| o.name() == "memref.load")
        .map(|o| o.operands())
        .collect();
    ops.iter().filter(|o| o.name() == "memref.store").any(|o| {
        let place = &o.operands()[1..];
        place[1..].iter().any(|i| i.block().is_within(body)) && loaded.contains(place)
    })
}

/// Whether one bound of `l`, and only one, changes from one iteration of
/// the loop around it to the next (`for j in i + 1 .. d` inside `for i`),
/// so that its runs overlap, starting (or ending) at shifting elements.
/// Tiles (`for j in i * b .. (i + 1) * b`) do not overlap.
fn one_bound_moves(l: Op) -> bool {
    let mut op = l;
    while let Some(parent) = op.parent() {
        match parent.name().as_str() {
            "scf.for" | "scf.while" | "scf.parallel" | "scf.forall" => {
                let body = parent.regions().last().expect("a loop body").blocks()[0];
                let moves = |b: &Value| b.block().is_within(body);
                return moves(&l.operand(0)) != moves(&l.operand(1));
            }
            "func.func" => return false,
            _ => op = parent,
        }
    }
    false
}

/// Replaces `l` by `scf.if (ub - lb < limit)` between a copy of `l` that
/// LLVM neither vectorizes nor unrolls, and `l` itself.
fn version(l: Op, limit: i64) {
    let mut b = Builder::before(l);
    let index = b.ctx.index();
    let i1 = b.ctx.ty("i1");
    let span = b.value("arith.subi", &[l.operand(1), l.operand(0)], index, &[]);
    let limit = b.index(limit);
    let slt = b.ctx.attr("2 : i64");
    let short = b.value("arith.cmpi", &[span, limit], i1, &[("predicate", slt)]);
    let types: Vec<_> = l.results().iter().map(|r| r.ty()).collect();
    let (branch, then_block, else_block) = b.if_else(short, &types);
    for (old, new) in l.results().into_iter().zip(branch.results()) {
        old.replace_uses(new);
    }
    let scalar = Builder::at_end(then_block, b.loc).insert(l.clone_detached());
    add_setting(scalar, NO_VECTORIZE, "vectorize");
    add_setting(scalar, NO_UNROLL, "unroll");
    Builder::at_end(then_block, b.loc).create("scf.yield", &scalar.results(), &[], &[], &[], &[]);
    let yield_ = Builder::at_end(else_block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
    l.move_before(yield_);
    yield_.set_operands(&l.results());
}
