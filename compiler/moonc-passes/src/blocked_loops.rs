//! `--moon-blocked-loops`: asks LLVM not to vectorize across the iterations
//! of loops whose bodies already work on a block of adjacent elements.
//!
//! Such a body (a program blocked by hand, or the reverse sweep moonc
//! derives from one) is vectorized best within itself, by LLVM's SLP
//! vectorizer. LLVM 22's loop vectorizer, which MLIR 22's `inbounds nuw`
//! addresses let analyze these loops, instead runs eight blocks at once
//! with strided gathers and the whole unrolled body live in vector
//! registers: on `bench/suite`'s ode it made the gradient 1.3–2× slower.

use crate::loop_annotation::NO_VECTORIZE;
use melior::ir::attribute::{Attribute, IntegerAttribute};
use moonc_ir::ir::{Op, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-blocked-loops`.
pub static BLOCKED_LOOPS: PassInfo = PassInfo {
    argument: "moon-blocked-loops",
    summary: "Keep LLVM's loop vectorizer off loops whose bodies work on blocks of adjacent elements",
    description: r#"
Marks every `scf.for` whose body (nested loops excluded) loads or stores
one buffer at `min-offsets` or more distinct constant offsets from the same
index (`%x[%i + 0]`, `%x[%i + 1]`, ..., or `%tape[%j, 0]`, `%tape[%j, 1]`,
...) with `loop_annotation = #llvm.loop_annotation<vectorize =
#llvm.loop_vectorize<disable = true>>`: `convert-scf-to-cf` carries the
`scf.for`'s attributes of the LLVM dialect to the loop's back edge, where
`llvm.br`'s `loop_annotation` becomes the `!llvm.loop` metadata
`llvm.loop.vectorize.enable false`. LLVM's SLP vectorizer still vectorizes the body;
its loop vectorizer no longer runs several iterations at once with strided
gathers (which, on a body of 64 adjacent elements, kept hundreds of vectors
live). Loops that already carry a `loop_annotation` are left alone.
`moon-cpu-pipeline` runs it before lowering `scf`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "min-offsets",
        description: "the fewest distinct constant offsets from one index into one buffer that make a loop body a block (0 turns the pass off)",
        default: 16,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let min_offsets = options.get("min-offsets") as usize;
    if min_offsets == 0 {
        return pass::unchanged();
    }
    let no_vectorize = module
        .ctx()
        .attr(&format!("#llvm.loop_annotation<{NO_VECTORIZE}>"));
    let mut marked = 0;
    for l in module.walk() {
        if l.name() == "scf.for"
            && l.attr("loop_annotation").is_none()
            && widest_block(l) >= min_offsets
        {
            l.set_attr("loop_annotation", no_vectorize);
            marked += 1;
        }
    }
    if marked == 0 {
        return pass::unchanged();
    }
    Ok(())
}

/// A buffer and its indices, with the one that varies by a constant
/// offset replaced by its base (`None` for a constant).
type Row = (Value, Vec<Option<Value>>);

/// The most distinct constant offsets at which `l`'s body (outside nested
/// loops) accesses one buffer from the same indices.
fn widest_block(l: Op) -> usize {
    let mut offsets: HashMap<Row, HashSet<i64>> = HashMap::new();
    for op in body_ops(l) {
        let (buffer, indices) = match op.name().as_str() {
            "memref.load" => (op.operand(0), &op.operands()[1..]),
            "memref.store" => (op.operand(1), &op.operands()[2..]),
            _ => continue,
        };
        for (position, &index) in indices.iter().enumerate() {
            let (base, offset) = base_and_offset(index);
            let mut key: Vec<Option<Value>> = indices.iter().map(|&index| Some(index)).collect();
            key[position] = base;
            offsets.entry((buffer, key)).or_default().insert(offset);
        }
    }
    offsets.values().map(HashSet::len).max().unwrap_or(0)
}

/// The operations in `l`'s body at any depth, except inside nested loops.
fn body_ops(l: Op) -> Vec<Op> {
    let mut ops = vec![];
    let mut stack: Vec<Op> = l.regions()[0].blocks()[0].ops();
    while let Some(op) = stack.pop() {
        ops.push(op);
        if !matches!(op.name().as_str(), "scf.for" | "scf.while" | "scf.parallel") {
            for region in op.regions() {
                for block in region.blocks() {
                    stack.extend(block.ops());
                }
            }
        }
    }
    ops
}

/// `index` as a base plus a constant offset: `(Some(b), c)` for `b + c`
/// or `c + b`, `(None, c)` for a constant, `(Some(index), 0)` otherwise.
fn base_and_offset(index: Value) -> (Option<Value>, i64) {
    let Some(op) = index.defining_op() else {
        return (Some(index), 0);
    };
    if let Some(c) = constant(op) {
        return (None, c);
    }
    if op.name() == "arith.addi" {
        for (base, offset) in [(0, 1), (1, 0)] {
            if let Some(c) = op.operand(offset).defining_op().and_then(constant) {
                return (Some(op.operand(base)), c);
            }
        }
    }
    (Some(index), 0)
}

/// The value of an integer `arith.constant`.
fn constant(op: Op) -> Option<i64> {
    if op.name() != "arith.constant" {
        return None;
    }
    // SAFETY: the attribute belongs to a live operation.
    let value = unsafe { Attribute::from_raw(op.attr("value")?.0) };
    IntegerAttribute::try_from(value).ok().map(|v| v.value())
}
