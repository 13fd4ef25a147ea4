//! `--moon-inline-tape`: pushes and pops of reverse mode's default tape
//! without a call while the tape's current block has room.

use crate::kernel::Kernel;
use moonc_ir::ir::{Block, Builder, Op, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo},
};
use std::collections::HashMap;

/// The registration of `--moon-inline-tape`.
pub static INLINE_TAPE: PassInfo = PassInfo {
    argument: "moon-inline-tape",
    summary: "Push and pop reverse mode's default tape without a call while its block has room",
    description: r#"
Rewrites each call of `@moonrt_tape_push_f64`, `@moonrt_tape_pop_f64` and
their `i64` siblings (what reverse mode emits where it cannot size a
buffer up front: while loops, recursion) into a call of an internal
function (`inline_tape/tape.mlir`, which LLVM inlines) that stores or
loads through the thread's cursor into the tape's current block
(`moonrt_tape_cursor`: top, end, base, high) and moves it, calling moonrt
only when the block is full or empty. The cursor is fetched once at the
start of each function, and of each parallel region (`scf.parallel`,
`scf.forall`, `omp.*`), whose iterations may run on other threads. moonrt
checks `--max-tape-memory` when a block is taken, so such pushes may pass
the limit by less than one 4 KiB block; the peak stays exact.
`moon-cpu-pipeline` runs it after `--moon-outline-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

/// The internal pushes and pops, `inline_tape/tape.mlir`.
const TAPE: &str = concat!(include_str!("inline_tape/tape.mlir"), "\0");

/// moonrt's function for each internal one.
const REWRITES: [(&str, &str); 4] = [
    ("moonrt_tape_push_f64", "moon_tape_push_f64"),
    ("moonrt_tape_pop_f64", "moon_tape_pop_f64"),
    ("moonrt_tape_push_i64", "moon_tape_push_i64"),
    ("moonrt_tape_pop_i64", "moon_tape_pop_i64"),
];

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let calls: Vec<(Op, &str)> = module
        .walk()
        .into_iter()
        .filter(|op| op.name() == "func.call" && !in_internal_function(*op))
        .filter_map(|op| {
            let callee = op.attr("callee")?.to_string();
            let callee = callee.strip_prefix('@')?;
            let (_, internal) = REWRITES.iter().find(|(from, _)| *from == callee)?;
            Some((op, *internal))
        })
        .collect();
    if calls.is_empty() {
        return pass::unchanged();
    }
    let ctx = module.ctx();
    let ptr = ctx.ty("!llvm.ptr");
    let mut cursors: HashMap<Block, Value> = HashMap::new();
    for (call, internal) in calls {
        let scope = thread_scope(call);
        let cursor = *cursors.entry(scope).or_insert_with(|| {
            let first = scope.ops()[0];
            Builder::before(first).value(
                "func.call",
                &[],
                ptr,
                &[("callee", ctx.attr("@moonrt_tape_cursor"))],
            )
        });
        let mut operands = vec![cursor];
        operands.extend(call.operands());
        let types: Vec<_> = call.results().iter().map(|r| r.ty()).collect();
        let callee = ctx.attr(&format!("@{internal}"));
        let new = Builder::before(call).create(
            "func.call",
            &operands,
            &types,
            &[("callee", callee)],
            &[],
            &[],
        );
        for (old, now) in call.results().into_iter().zip(new.results()) {
            old.replace_uses(now);
        }
        call.erase();
    }
    Kernel::parse(module, TAPE, "inline_tape/tape.mlir").copy_missing_into(module);
    Ok(())
}

/// Whether `op` is in one of the internal pushes and pops (whose calls of
/// moonrt are their slow paths: a second run leaves them alone).
fn in_internal_function(op: Op) -> bool {
    let mut current = op.parent();
    while let Some(parent) = current {
        if parent.name() == "func.func" {
            let name = parent.attr("sym_name").map(|n| n.to_string());
            return name.is_some_and(|n| REWRITES.iter().any(|(_, i)| n == format!("\"{i}\"")));
        }
        current = parent.parent();
    }
    false
}

/// The block at whose start a call's cursor is fetched: the first block of
/// the region of its innermost function or parallel operation (whose
/// iterations may run on other threads, each with its own tape).
fn thread_scope(call: Op) -> Block {
    let mut block = call.block();
    loop {
        let parent = block.parent_op();
        let name = parent.name();
        if name == "func.func"
            || name == "scf.parallel"
            || name == "scf.forall"
            || name.starts_with("omp.")
        {
            let region = (parent.regions().into_iter())
                .find(|r| r.blocks().contains(&block))
                .expect("the block is in a region of its parent");
            return region.blocks()[0];
        }
        block = parent.block();
    }
}
