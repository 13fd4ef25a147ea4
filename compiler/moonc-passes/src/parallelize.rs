//! `--moon-parallelize`: runs `scf.for` loops whose iterations are
//! independent on all cores, as `scf.parallel` loops over a fixed number of
//! chunks that `convert-scf-to-openmp` turns into OpenMP loops.
//!
//! A loop qualifies when every iteration touches memory of its own (each
//! buffer it stores into is accessed only at one index that is a one-to-one
//! function of the induction variable), and everything it carries from one
//! iteration to the next is a reduction (`acc = acc op f`, in a carried value
//! or in one memory cell) with an associative operation. Each chunk runs the
//! loop over its share of the range from the operation's identity; the
//! chunks' results are then combined in chunk order, so the result does not
//! depend on the number of threads.

use crate::memory::{disjoint, fresh, root};
use moonc_ir::ir::{Attr, Block, Builder, Op, Region, Type, Value};
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo},
};

/// The registration of `--moon-parallelize`.
pub static PARALLELIZE: PassInfo = PassInfo {
    argument: "moon-parallelize",
    summary: "Run scf.for loops whose iterations are independent on all cores (OpenMP)",
    description: r#"
For every `scf.for` over `index` (the outermost one possible, not inside an
`scf.parallel`) whose iterations are independent, this pass versions the
loop: when it takes at least `--moon-parallel-min-trips` iterations (0, the
default, leaves every loop alone) and, at run time, no buffer it stores into
overlaps another buffer it reads or writes, an `scf.parallel` runs it as 64
chunks of consecutive iterations; otherwise the original loop runs.
`convert-scf-to-openmp` then makes the chunks an OpenMP loop over all cores.

A loop qualifies when its body (at any depth) holds only `arith`, `math`,
`index` and `ub` operations, `memref.load`, `memref.store`, `memref.dim`,
and `scf.for`/`scf.if`/`scf.yield`, and:

- each buffer it stores into is accessed (loaded or stored) only at indices
  whose value in one position is the same one-to-one function of the
  induction variable (the variable itself, plus or minus loop-invariant
  values), so that iterations touch disjoint elements; buffers allocated in
  the function are known apart, others are checked not to overlap at run
  time;
- each value it carries is a reduction: used only by one operation
  `acc op f` in the loop's body whose result is yielded and used nowhere
  else;
- a buffer element read and written at loop-invariant indices is a
  reduction too: loaded once, combined once (`load op f`) and stored back,
  and accessed nowhere else in the loop.

The reduction operations are `arith.addf` and `arith.mulf` when their
fastmath flags allow reassociation (`reassoc` or `fast`), `maximumf`,
`minimumf`, `maxnumf`, `minnumf`, and the integer `addi`, `muli`, `andi`,
`ori`, `xori`, `maxsi`, `minsi`, `maxui`, `minui`. Each chunk starts from the
operation's identity; the chunks' results are combined with the initial
value in chunk order, so results do not depend on the number of threads
(a reassociated sum differs from the sequential one by rounding).

Before:

```mlir
%s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
  %v = memref.load %x[%i] : memref<?xf64>
  %a = arith.addf %acc, %v fastmath<reassoc> : f64
  scf.yield %a : f64
}
```

After:

```mlir
%big = (trip count >= min trips)
%s = scf.if %big -> f64 {
  %parts = memref.alloca() : memref<64xf64>
  scf.parallel (%c) = (%c0) to (%c64) step (%c1) {
    %r = scf.for %i = (chunk %c's range) iter_args(%acc = -0.0) ... // the body
    memref.store %r, %parts[%c] : memref<64xf64>
    scf.reduce
  }
  %r = scf.for %c = %c0 to %c64 ... // %z + parts[0] + parts[1] + ...
  scf.yield %r : f64
} else {
  %r = scf.for ... // the original loop
  scf.yield %r : f64
}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

/// How many chunks a parallel loop is cut into.
const CHUNKS: i64 = 64;

/// Operations allowed in a loop's body besides `arith`, `math`, `index` and
/// `ub` ones.
const BODY_OPS: &[&str] = &[
    "memref.load",
    "memref.store",
    "memref.dim",
    "scf.for",
    "scf.if",
    "scf.yield",
];

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let min_trips = moonc_ir::options::parallel_min_trips();
    if min_trips == 0 {
        return Ok(());
    }
    for function in module.regions()[0].blocks()[0].ops() {
        if function.name() == "func.func" {
            for region in function.regions() {
                for block in region.blocks() {
                    visit(block, min_trips);
                }
            }
        }
    }
    Ok(())
}

/// Parallelizes the outermost qualifying loops in `block`.
fn visit(block: Block, min_trips: u64) {
    for op in block.ops() {
        if op.name() == "scf.parallel" {
            continue;
        }
        if op.name() == "scf.for" {
            if let Some(plan) = plan(op) {
                parallelize(op, &plan, min_trips);
                continue;
            }
        }
        for region in op.regions() {
            for inner in region.blocks() {
                visit(inner, min_trips);
            }
        }
    }
}

/// One reduction of a qualifying loop: `acc op f` in a carried value or in
/// a memory cell.
struct Reduction {
    /// The combining operation in the loop's body.
    combine: Op,
    /// The cell's load and store, for a reduction in memory.
    cell: Option<(Op, Op)>,
}

/// What parallelizing a qualifying loop needs.
struct Plan {
    /// One per carried value, in order, then the cells.
    reductions: Vec<Reduction>,
    /// Pairs of buffers to check apart at run time: (stored, accessed).
    overlaps: Vec<(Value, Value)>,
}

/// Whether `value` is defined outside `lp`.
fn invariant(value: Value, lp: Op) -> bool {
    let body = lp.regions()[0].blocks()[0];
    !value.block().is_within(body)
}

/// Whether `value` is a one-to-one function of `iv`: `iv` itself, or plus or
/// minus a value defined outside `lp`.
fn one_to_one(value: Value, iv: Value, lp: Op) -> bool {
    if value == iv {
        return true;
    }
    let Some(op) = value.defining_op() else {
        return false;
    };
    let (a, b) = match op.name().as_str() {
        "arith.addi" | "arith.subi" | "index.add" | "index.sub" => (op.operand(0), op.operand(1)),
        _ => return false,
    };
    (one_to_one(a, iv, lp) && invariant(b, lp)) || (invariant(a, lp) && one_to_one(b, iv, lp))
}

/// The identity of a reduction operation on `ty`, as an attribute's text;
/// `None` for operations that are not reductions (or floats that may not be
/// reassociated).
fn identity(op: Op, ty: Type) -> Option<String> {
    let name = op.name();
    let ty_text = ty.to_string();
    let float = |f64_bits: u64, f32_bits: u32| match ty_text.as_str() {
        "f64" => Some(format!("0x{f64_bits:016X} : f64")),
        "f32" => Some(format!("0x{f32_bits:08X} : f32")),
        _ => None,
    };
    let reassociable = || {
        op.attr("fastmath")
            .map(|a| a.to_string())
            .is_some_and(|flags| flags.contains("reassoc") || flags.contains("fast>"))
    };
    let int = |v: &str| (ty.is_integer() || ty.is_index()).then(|| format!("{v} : {ty_text}"));
    let bits = if ty.is_index() {
        64
    } else {
        ty_text.trim_start_matches('i').parse::<u32>().unwrap_or(64)
    };
    let (min, max) = if bits >= 64 {
        (i64::MIN.to_string(), i64::MAX.to_string())
    } else {
        (
            (-(1i64 << (bits - 1))).to_string(),
            ((1i64 << (bits - 1)) - 1).to_string(),
        )
    };
    match name.as_str() {
        "arith.addf" if reassociable() => float(0x8000_0000_0000_0000, 0x8000_0000),
        "arith.mulf" if reassociable() => float(0x3FF0_0000_0000_0000, 0x3F80_0000),
        "arith.maximumf" => float(0xFFF0_0000_0000_0000, 0xFF80_0000),
        "arith.minimumf" => float(0x7FF0_0000_0000_0000, 0x7F80_0000),
        "arith.maxnumf" | "arith.minnumf" => float(0x7FF8_0000_0000_0000, 0x7FC0_0000),
        "arith.addi" | "arith.ori" | "arith.xori" | "arith.maxui" => int("0"),
        "arith.muli" => int("1"),
        "arith.andi" | "arith.minui" => int("-1"),
        "arith.maxsi" => int(&min),
        "arith.minsi" => int(&max),
        _ => None,
    }
}

/// `combine`'s operand other than `acc`, when `combine` is `acc op f` (in
/// either order, one result) with `f` not `acc`.
fn other_operand(combine: Op, acc: Value) -> Option<Value> {
    if combine.results().len() != 1 {
        return None;
    }
    match combine.operands()[..] {
        [a, f] if a == acc && f != acc => Some(f),
        [f, a] if a == acc && f != acc => Some(f),
        _ => None,
    }
}

/// The plan for `lp` when its iterations are independent.
fn plan(lp: Op) -> Option<Plan> {
    let body = lp.regions()[0].blocks()[0];
    let args = body.args();
    let iv = args[0];
    if !iv.ty().is_index() {
        return None;
    }
    let yields = body.terminator()?.operands();
    let all = lp.walk();
    for op in &all {
        let name = op.name();
        let dialect = name.split('.').next().unwrap_or("");
        if !(["arith", "math", "index", "ub"].contains(&dialect)
            || BODY_OPS.contains(&name.as_str()))
        {
            return None;
        }
    }
    // Carried values.
    let mut reductions = vec![];
    for (k, acc) in args[1..].iter().enumerate() {
        let users = acc.users();
        let [combine] = users[..] else {
            return None;
        };
        other_operand(combine, *acc)?;
        let result = combine.result(0);
        if combine.block() != body
            || yields[k] != result
            || result.users().len() != 1
            || identity(combine, acc.ty()).is_none()
        {
            return None;
        }
        reductions.push(Reduction {
            combine,
            cell: None,
        });
    }
    // Memory: accesses as (op, memref, indices).
    let accesses: Vec<(Op, Value, Vec<Value>)> = all
        .iter()
        .filter(|op| ["memref.load", "memref.store"].contains(&op.name().as_str()))
        .map(|op| {
            let store = op.name() == "memref.store";
            let operands = op.operands();
            let at = usize::from(store);
            (*op, operands[at], operands[at + 1..].to_vec())
        })
        .collect();
    let is_store = |op: Op| op.name() == "memref.store";
    // Cells: a load at invariant indices, combined once, stored back.
    let mut in_cells: Vec<Op> = vec![];
    let mut overlaps: Vec<(Value, Value)> = vec![];
    for &(load, buffer, ref indices) in &accesses {
        if is_store(load)
            || load.block() != body
            || !invariant(load.operand(0), lp)
            || !indices.iter().all(|v| invariant(*v, lp))
            || !accesses
                .iter()
                .any(|(s, m, _)| is_store(*s) && *m == buffer)
        {
            continue;
        }
        let value = load.result(0);
        let users = value.users();
        let [combine] = users[..] else {
            return None;
        };
        other_operand(combine, value)?;
        let stored = combine.result(0).users();
        let [store] = stored[..] else {
            return None;
        };
        let same_place = store.name() == "memref.store"
            && store.operand(0) == combine.result(0)
            && store.operands()[1..] == load.operands()[..];
        let only_these = accesses
            .iter()
            .filter(|(_, m, _)| root(*m) == root(buffer))
            .all(|(op, _, _)| *op == load || *op == store);
        if combine.block() != body
            || store.block() != body
            || !same_place
            || !only_these
            || identity(combine, value.ty()).is_none()
        {
            return None;
        }
        in_cells.extend([load, store]);
        if !fresh(root(buffer)) {
            for &(_, m, _) in &accesses {
                if root(m) != root(buffer) && !fresh(root(m)) {
                    if !invariant(m, lp) {
                        return None;
                    }
                    overlaps.push((buffer, m));
                }
            }
        }
        reductions.push(Reduction {
            combine,
            cell: Some((load, store)),
        });
    }
    // Every other store: one position indexed one-to-one by the induction
    // variable, the same in every access to the buffer.
    for &(store, buffer, ref indices) in &accesses {
        if !is_store(store) || in_cells.contains(&store) {
            continue;
        }
        let p = indices.iter().position(|v| one_to_one(*v, iv, lp))?;
        for &(other, m, ref other_indices) in &accesses {
            if other == store || in_cells.contains(&other) {
                continue;
            }
            if m == buffer {
                if other_indices.get(p) != Some(&indices[p]) {
                    return None;
                }
            } else if root(m) == root(buffer) {
                // Two views of one buffer: their elements may coincide.
                return None;
            } else if !fresh(root(buffer)) && !fresh(root(m)) {
                // Buffers not allocated here may overlap: check at run time.
                if !invariant(buffer, lp) || !invariant(m, lp) {
                    return None;
                }
                if !overlaps.contains(&(buffer, m)) && !overlaps.contains(&(m, buffer)) {
                    overlaps.push((buffer, m));
                }
            }
        }
    }
    Some(Plan {
        reductions,
        overlaps,
    })
}

/// A constant of type `ty` from its attribute's text.
fn constant(b: &mut Builder, text: &str, ty: Type) -> Value {
    let attr = b.ctx.attr(text);
    b.value("arith.constant", &[], ty, &[("value", attr)])
}

/// `combine`'s operation applied to `x` and `y`, with its attributes.
fn apply(b: &mut Builder, combine: Op, x: Value, y: Value) -> Value {
    let attrs = combine.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    b.value(&combine.name(), &[x, y], x.ty(), &attrs)
}

/// Versions `lp` on its trip count (and on its buffers not overlapping):
/// the parallel chunks in the `then` branch, the original loop in `else`.
fn parallelize(lp: Op, plan: &Plan, min_trips: u64) {
    let mut b = Builder::before(lp);
    let ctx = b.ctx;
    let (index, i1) = (ctx.index(), ctx.ty("i1"));
    let operands = lp.operands();
    let (lb, ub, step) = (operands[0], operands[1], operands[2]);
    let inits = &operands[3..];
    // Trip count: max(ub - lb, 0) ceildiv step.
    let c0 = b.index(0);
    let span = b.value("arith.subi", &[ub, lb], index, &[]);
    let span = b.value("arith.maxsi", &[span, c0], index, &[]);
    let trips = b.value("arith.ceildivsi", &[span, step], index, &[]);
    let min = b.index(min_trips.min(i64::MAX as u64) as i64);
    let sge = ctx.attr("5 : i64");
    let mut ok = b.value("arith.cmpi", &[trips, min], i1, &[("predicate", sge)]);
    for &(w, m) in &plan.overlaps {
        let apart = disjoint(&mut b, w, m);
        ok = b.value("arith.andi", &[ok, apart], i1, &[]);
    }
    let types: Vec<Type> = lp.results().iter().map(|v| v.ty()).collect();
    let (branch, then_block, else_block) = b.if_else(ok, &types);
    for (old, new) in lp.results().iter().zip(branch.results()) {
        old.replace_uses(new);
    }
    let copy = lp.clone_detached();
    let mut at = Builder::at_end(else_block, lp.loc());
    let yield_else = at.create("scf.yield", &lp.results(), &[], &[], &[], &[]);
    lp.move_before(yield_else);

    // then: one partial result per chunk and reduction.
    let mut at = Builder::at_end(then_block, lp.loc());
    let chunks = at.index(CHUNKS);
    let c1 = at.index(1);
    let c0 = at.index(0);
    let parts: Vec<Value> = plan
        .reductions
        .iter()
        .map(|r| {
            let ty = r.combine.result(0).ty();
            at.alloc(
                "memref.alloca",
                &[],
                ctx.ty(&format!("memref<{CHUNKS}x{ty}>")),
            )
        })
        .collect();
    let (region, chunk_block) = Region::with_block(&[index], lp.loc());
    at.create(
        "scf.parallel",
        &[c0, chunks, c1],
        &[],
        &[("operandSegmentSizes", ctx.attr("array<i32: 1, 1, 1, 0>"))],
        &[region],
        &[],
    );
    region.destroy();
    let c = chunk_block.args()[0];
    let mut inner = Builder::at_end(chunk_block, lp.loc());
    // Chunk c runs iterations [trips * c / CHUNKS, trips * (c + 1) / CHUNKS).
    let bound = |inner: &mut Builder, c: Value| {
        let scaled = inner.value("arith.muli", &[trips, c], index, &[]);
        let first = inner.value("arith.divui", &[scaled, chunks], index, &[]);
        let offset = inner.value("arith.muli", &[first, step], index, &[]);
        inner.value("arith.addi", &[lb, offset], index, &[])
    };
    let lo = bound(&mut inner, c);
    let next = inner.value("arith.addi", &[c, c1], index, &[]);
    let hi = bound(&mut inner, next);
    let identities: Vec<Value> = plan
        .reductions
        .iter()
        .map(|r| {
            let ty = r.combine.result(0).ty();
            let text = identity(r.combine, ty).expect("planned reductions have identities");
            constant(&mut inner, &text, ty)
        })
        .collect();
    // The chunk's loop: the original body, with each cell's element carried
    // in a value instead (a loaded and stored cell would be shared between
    // threads and kept in memory).
    let carried = inits.len();
    let original = lp.walk();
    let cloned = copy.walk();
    let twin = |op: Op| cloned[original.iter().position(|o| *o == op).expect("op in loop")];
    let body = copy.regions()[0].blocks()[0];
    let terminator = body.terminator().expect("scf.yield");
    let mut yields = terminator.operands();
    for r in &plan.reductions[carried..] {
        let (load, store) = r.cell.expect("reductions after the carried ones are cells");
        let (load, store) = (twin(load), twin(store));
        let arg = body.add_arg(load.result(0).ty(), lp.loc());
        load.result(0).replace_uses(arg);
        yields.push(store.operand(0));
        store.erase();
        load.erase();
    }
    terminator.set_operands(&yields);
    let mut chunk_operands = vec![lo, hi, step];
    chunk_operands.extend(&identities);
    let types: Vec<Type> = identities.iter().map(|v| v.ty()).collect();
    let chunk_loop = inner.create(
        "scf.for",
        &chunk_operands,
        &types,
        &[],
        &copy.regions(),
        &[],
    );
    copy.erase();
    for (k, result) in chunk_loop.results().iter().enumerate() {
        inner.create("memref.store", &[*result, parts[k], c], &[], &[], &[], &[]);
    }
    inner.create("scf.reduce", &[], &[], &[], &[], &[]);

    // The combination, in chunk order, from the initial values.
    let mut starts: Vec<Value> = inits.to_vec();
    for r in &plan.reductions[carried..] {
        let (load, _) = r.cell.expect("a cell");
        starts.push(at.value("memref.load", &load.operands(), load.result(0).ty(), &[]));
    }
    let types: Vec<Type> = starts.iter().map(|v| v.ty()).collect();
    let mut region_types = vec![index];
    region_types.extend(&types);
    let (region, combine_block) = Region::with_block(&region_types, lp.loc());
    let mut loop_operands = vec![c0, chunks, c1];
    loop_operands.extend(&starts);
    let combined = at.create("scf.for", &loop_operands, &types, &[], &[region], &[]);
    region.destroy();
    let mut body = Builder::at_end(combine_block, lp.loc());
    let args = combine_block.args();
    let next: Vec<Value> = plan
        .reductions
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let ty = types[k];
            let part = body.value("memref.load", &[parts[k], args[0]], ty, &[]);
            apply(&mut body, r.combine, args[1 + k], part)
        })
        .collect();
    body.create("scf.yield", &next, &[], &[], &[], &[]);
    let results = combined.results();
    for (k, r) in plan.reductions.iter().enumerate().skip(carried) {
        let (_, store) = r.cell.expect("a cell");
        let mut operands = vec![results[k]];
        operands.extend(&store.operands()[1..]);
        at.create("memref.store", &operands, &[], &[], &[], &[]);
    }
    at.create("scf.yield", &results[..carried], &[], &[], &[], &[]);
}
