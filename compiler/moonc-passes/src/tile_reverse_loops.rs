//! `--moon-tile-reverse-loops`: runs the reverse sweep of a loop nest a
//! block of outer iterations at a time, each inner iteration for the whole
//! block, so that the rows an inner iteration accumulates into stay in
//! cache from one outer iteration to the next.
//!
//! GradBench's gmm loops over points, and for each point over the mixture's
//! components; the reverse of one (point, component) pair adds into the
//! component's rows of the adjoints (16 KiB of `dL` at d = 64) while it
//! reads the component's 16 KiB of `L`. One point's reverse sweep walks
//! every component's rows: beyond a few components they no longer fit the
//! first-level cache, and each pair reads them from farther away. Taking
//! the components outermost for a block of points reads each row once per
//! block instead of once per point.

use crate::ascending_reverse_loops::{CALL_DEPTH, written_roots};
use crate::fuse_adjoint_loops::{self, linear};
use crate::memory::{element_bytes, fresh, root};
use crate::zero_loads::Buffer;
use moonc_autodiff::{DISTINCT_ARGS, REVERSE_LOOP};
use moonc_ir::ir::{Block, Builder, Op, Region, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-tile-reverse-loops`.
pub static TILE_REVERSE_LOOPS: PassInfo = PassInfo {
    argument: "moon-tile-reverse-loops",
    summary: "Run a reverse loop nest in blocks of outer iterations, the inner loop outermost in each",
    description: r#"
Finds an `scf.for` that reverse mode made (attribute `moon.reverse`; from
0 by 1; values it carries, if any, yielded unchanged) whose body ends
with another such loop without results (its bounds defined outside the
outer loop, after moving the outer body's invariant index arithmetic out),
and runs it in blocks of `points` outer iterations: for each block, first
the operations before the inner loop (P) for every outer iteration of the
block, in order, then the inner loop, whose body (I) runs for each outer
iteration of the block in turn:

    for %b in blocks:                        // was: for %r:
      for %r in block %b: P(%r)              //   P(%r)
      for %s: for %r in block %b: I(%r, %s)  //   for %s: I(%r, %s)

The tiled nest runs when the rows one inner iteration accumulates into
(see below) span at least `min-row-bytes` bytes together, tested at run
time; otherwise a copy of the original nest runs (`scf.if`). GradBench's
gmm at d = 64 (16 KiB of `dL` per component) then reads each component's
rows once per 16 points instead of once per point; at d = 20 and below,
where a row is small, the reordered loads of the tape measured slower.

Reordering the inner bodies of different outer iterations is allowed when
each buffer the inner loop writes is

- a handoff: a buffer P writes and I reads, zero whenever the outer loop
  starts and left zero by every iteration of it (as `--moon-zero-loads`
  follows zeros): a local allocation, seen through `scf.if`s, or an
  argument the loop lists in `moon.zero_shadows`. It gets one copy per
  outer iteration of a block (a new leading dimension), zeroed once;
- scratch: a buffer P does not touch, zero whenever the outer loop starts
  and left zero by every inner iteration (reverse mode's adjoints of a
  primal's scratch buffers);
- its own rows: every access of it in I indexes its first dimension
  (directly or through a `memref.subview` of one row) by one value that
  changes by a nonzero multiple of the inner induction variable and
  depends on nothing else of the outer iteration. Different inner
  iterations touch different rows, and each row sees the outer iterations
  in the original order: the results do not change, to the bit;

and nothing P accesses. I may use values of P only when they are computed
without memory (the outer induction variable, index arithmetic,
subviews): they are computed again inside. The operations may be only
arith and math operations, `memref.load`, `memref.store`,
`memref.subview`, `memref.cast`, `memref.dim`, `scf.for`, `scf.if` and
`scf.yield`. A buffer written that is a function argument must be
accumulated into only (`memref.store` of an `arith.addf` of a
`memref.load` of the same element), and every argument the nest accesses
must be one the function never writes or such an accumulated one (or the
function's arguments are distinct, `moon.distinct_args`): overlapping
shadows would only see their sums added in another order.

With `points` = 0 the pass does nothing. `moon-cpu-pipeline` runs it after
`--moon-zero-loads`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[
        PassOption {
            name: "points",
            description: "Outer iterations per block (0 turns the pass off)",
            default: 16,
        },
        PassOption {
            name: "min-row-bytes",
            description: "Tile only when an inner iteration's rows span this many bytes",
            default: 4096,
        },
    ],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let points = options.get("points") as i64;
    if points == 0 {
        return pass::unchanged();
    }
    // Tiling erases loads and stores only: the loops found stay valid.
    let loops: Vec<Op> = module
        .walk()
        .into_iter()
        .filter(|l| l.name() == "scf.for" && l.attr(REVERSE_LOOP).is_some())
        .collect();
    if loops.is_empty() {
        return pass::unchanged();
    }
    let mut tiled: Vec<Block> = Vec::new();
    for l in loops {
        if tiled.iter().any(|&b| l.block().is_within(b)) {
            continue;
        }
        hoist_invariants(l);
        if let Some(nest) = Nest::of(l) {
            nest.tile(points, options.get("min-row-bytes") as i64);
            tiled.push(l.regions()[0].blocks()[0]);
        }
    }
    if !tiled.is_empty() {
        tracing::debug!(target: "moonc_passes", tiled = tiled.len(), "reverse loop nests tiled");
    }
    Ok(())
}

/// A loop nest the pass tiles (see the pass's description).
struct Nest {
    outer: Op,
    /// The operations of the outer body before the inner loop.
    prefix: Vec<Op>,
    inner: Op,
    /// The local buffers the prefix hands to the inner loop.
    handoffs: Vec<Value>,
    /// The prefix's operations that the inner body uses the results of, in
    /// order (pure: computed again inside).
    slice: Vec<Op>,
    /// The buffers each inner iteration accumulates into its own rows of.
    rows: Vec<Value>,
}

/// A load or store nested in some operations: the operation, the buffer it
/// accesses (a view or the root), and whether it writes.
type Access = (Op, Value, bool);

impl Nest {
    fn of(outer: Op) -> Option<Nest> {
        let body = outer.regions()[0].entry()?;
        // Values carried unchanged (reverse mode's adjoint of an
        // accumulator) are the same in every iteration.
        let carried_unchanged = body
            .terminator()?
            .operands()
            .into_iter()
            .zip(body.args().into_iter().skip(1))
            .all(|(y, a)| y == a);
        if !bounds_from_zero(outer) || !carried_unchanged {
            return None;
        }
        let ops = body.ops();
        let (&inner, prefix) = ops.split_last()?.1.split_last()?;
        let invariant = |v: Value| !v.block().is_within(body);
        if inner.name() != "scf.for"
            || inner.attr(REVERSE_LOOP).is_none()
            || !bounds_from_zero(inner)
            || inner.operands().len() != 3
            || !inner.operands().into_iter().all(invariant)
        {
            return None;
        }
        let inner_body = inner.regions()[0].entry()?;
        let inner_ops = inner_body.ops();
        if !prefix.iter().chain(&inner_ops).all(|&op| allowed(op)) {
            return None;
        }
        let before = accesses(prefix);
        let within = accesses(&inner_ops);
        let roots = |a: &[Access], writes: bool| -> HashSet<Value> {
            a.iter()
                .filter(|x| x.2 || !writes)
                .map(|x| root(x.1))
                .collect()
        };
        let (written_before, touched_before) = (roots(&before, true), roots(&before, false));
        let (written_within, touched_within) = (roots(&within, true), roots(&within, false));
        let handoffs: Vec<Value> = written_before
            .iter()
            .copied()
            .filter(|r| touched_within.contains(r))
            .collect();
        for &h in &handoffs {
            let direct = before
                .iter()
                .chain(&within)
                .all(|x| root(x.1) != h || x.1 == h);
            let (buffer, zero) = zero_state(h, outer)?;
            if !direct || !zero || !buffer.zero_after(&ops, true) {
                return None;
            }
        }
        let function = outer.enclosing_function()?;
        let distinct = function.attr(DISTINCT_ARGS).is_some();
        let written_anywhere = written_roots(function, CALL_DEPTH);
        let mut rows = Vec::new();
        for &r in &written_within {
            if handoffs.contains(&r) {
                continue;
            }
            if touched_before.contains(&r) {
                return None;
            }
            let scratch = zero_state(r, outer)
                .is_some_and(|(buffer, zero)| zero && buffer.zero_after(&inner_ops, true));
            if !scratch {
                if !own_rows(r, &within, inner_body, body) {
                    return None;
                }
                rows.push(r);
            }
        }
        if rows.is_empty() {
            // Nothing stays in cache from one outer iteration to the next.
            return None;
        }
        if !distinct {
            // Arguments: written ones accumulated into, read ones never
            // written by the function.
            let accumulated = |r: Value| accumulated_only(r, &within);
            let arguments = touched_before
                .union(&touched_within)
                .filter(|r| !fresh(**r));
            for &a in arguments {
                let ok = if written_within.contains(&a) || written_before.contains(&a) {
                    !written_before.contains(&a) && accumulated(a)
                } else {
                    !written_anywhere.contains(&a)
                };
                if !ok {
                    return None;
                }
            }
        }
        let slice = slice(prefix, inner_body, body)?;
        Some(Nest {
            outer,
            prefix: prefix.to_vec(),
            inner,
            handoffs,
            slice,
            rows,
        })
    }

    /// Rewrites the nest into blocks of `points` outer iterations, taken
    /// when the rows one inner iteration accumulates into span at least
    /// `min_bytes` (else the nest runs as it was).
    fn tile(&self, points: i64, min_bytes: i64) {
        let (outer, inner) = (self.outer, self.inner);
        let body = outer.regions()[0].blocks()[0];
        let inner_body = inner.regions()[0].blocks()[0];
        let iv = body.args()[0];
        let iv_users = iv.users();
        // Values carried unchanged are their initial values after the loop.
        for (i, r) in outer.results().into_iter().enumerate() {
            r.replace_uses(outer.operand(3 + i));
        }
        let mut b = Builder::before(outer);
        let index = b.ctx.index();
        let wide = self.row_bytes(&mut b);
        let min = b.index(min_bytes);
        let uge = b.ctx.attr("9 : i64");
        let i1 = b.ctx.ty("i1");
        let taken = b.value("arith.cmpi", &[wide, min], i1, &[("predicate", uge)]);
        let (_, then_block, else_block) = b.if_else(taken, &[]);
        let then_end =
            Builder::at_end(then_block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
        let else_end =
            Builder::at_end(else_block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
        Builder::before(else_end).insert(outer.clone_detached());
        outer.move_before(then_end);
        let mut b = Builder::before(outer);
        let block = b.index(points);
        let n = outer.operand(1);
        let blocks = b.value("arith.ceildivsi", &[n, block], index, &[]);
        // One copy of each handoff buffer per point of a block, zeroed.
        let mut copies = HashMap::new();
        for &h in &self.handoffs {
            let ty = h.ty();
            let dims: String = ty
                .shape()
                .iter()
                .map(|d| d.map_or("?".to_string(), |n| n.to_string()) + "x")
                .collect();
            let copy_ty = b
                .ctx
                .ty(&format!("memref<{points}x{dims}{}>", ty.element()));
            let copy = b.alloc_like("memref.alloc", h, copy_ty);
            zero_fill(&mut b, copy);
            Builder::after(outer).create("memref.dealloc", &[copy], &[], &[], &[], &[]);
            copies.insert(h, copy);
        }
        // The block's first iteration and its number of iterations.
        let mut b = Builder::before(body.ops()[0]);
        let start = b.value("arith.muli", &[iv, block], index, &[]);
        let left = b.value("arith.subi", &[n, start], index, &[]);
        let count = b.value("arith.minsi", &[left, block], index, &[]);
        // The prefix, for each point of the block.
        let (prefix_loop, prefix_point, prefix_iv) = point_loop(&mut b, start, count);
        prefix_loop.set_attr(
            REVERSE_LOOP,
            outer.attr(REVERSE_LOOP).expect("a reverse loop"),
        );
        let prefix_end = prefix_loop.regions()[0].blocks()[0]
            .terminator()
            .expect("a yield");
        for &op in &self.prefix {
            op.move_before(prefix_end);
        }
        // The inner body, for each point of the block.
        let inner_ops = inner_body.ops();
        let (body_ops, inner_end) = inner_ops.split_at(inner_ops.len() - 1);
        let mut b = Builder::before(inner_end[0]);
        let (body_loop, body_point, body_iv) = point_loop(&mut b, start, count);
        body_loop.set_attr(
            REVERSE_LOOP,
            outer.attr(REVERSE_LOOP).expect("a reverse loop"),
        );
        let body_end = body_loop.regions()[0].blocks()[0]
            .terminator()
            .expect("a yield");
        let mut mapping = HashMap::from([(iv, body_iv)]);
        Builder::before(body_end).clone_remapped(&self.slice, &mut mapping);
        for &op in body_ops {
            op.move_before(body_end);
        }
        let moved = body_loop.regions()[0].blocks()[0];
        for user in iv_users {
            let to = if user.block().is_within(moved) {
                body_iv
            } else {
                prefix_iv
            };
            user.replace_operand(iv, to);
        }
        for s in &self.slice {
            for r in s.results() {
                for user in r.users() {
                    if user.block().is_within(moved) {
                        user.replace_operand(r, mapping[&r]);
                    }
                }
            }
        }
        // Each point's own copy of the handoff buffers.
        for (&h, &copy) in &copies {
            for user in h.users() {
                let point = if user.block().is_within(moved) {
                    body_point
                } else if user.block().is_within(prefix_loop.regions()[0].blocks()[0]) {
                    prefix_point
                } else {
                    continue;
                };
                redirect(user, h, copy, point);
            }
        }
        outer.set_operand(1, blocks);
    }

    /// The bytes of one row of each buffer in [`Nest::rows`], summed, built
    /// at `b`.
    fn row_bytes(&self, b: &mut Builder) -> Value {
        let index = b.ctx.index();
        let mut total = b.index(0);
        for &r in &self.rows {
            let mut bytes = b.index(element_bytes(r.ty().element()));
            for (i, d) in r.ty().shape().into_iter().enumerate().skip(1) {
                let size = match d {
                    Some(n) => b.index(n),
                    None => {
                        let i = b.index(i as i64);
                        b.value("memref.dim", &[r, i], index, &[])
                    }
                };
                bytes = b.value("arith.muli", &[bytes, size], index, &[]);
            }
            total = b.value("arith.addi", &[total, bytes], index, &[]);
        }
        total
    }
}

/// Whether the `scf.for` `l` counts from 0 by 1.
fn bounds_from_zero(l: Op) -> bool {
    let operands = l.operands();
    operands[0].index_constant() == Some(0) && operands[2].index_constant() == Some(1)
}

/// Moves the arith operations at the top of the loop `l`'s body whose
/// operands are defined outside it (or by operations moved) to before it
/// (not divisions, which may trap where the loop would not have run).
fn hoist_invariants(l: Op) {
    let body = l.regions()[0].blocks()[0];
    for op in body.ops() {
        let name = op.name();
        let hoistable = name.starts_with("arith.")
            && !name.contains("div")
            && !name.contains("rem")
            && op.regions().is_empty()
            && op.operands().iter().all(|v| v.block() != body);
        if hoistable {
            op.move_before(l);
        }
    }
}

/// Whether the pass understands `op` and every operation nested in it.
fn allowed(op: Op) -> bool {
    std::iter::once(op).chain(op.walk()).all(|o| {
        let name = o.name();
        name.starts_with("arith.")
            || name.starts_with("math.")
            || matches!(
                name.as_str(),
                "memref.load"
                    | "memref.store"
                    | "memref.subview"
                    | "memref.cast"
                    | "memref.dim"
                    | "scf.for"
                    | "scf.if"
                    | "scf.yield"
            )
    })
}

/// The loads and stores in `ops` and the operations nested in them.
fn accesses(ops: &[Op]) -> Vec<Access> {
    ops.iter()
        .flat_map(|&op| std::iter::once(op).chain(op.walk()))
        .filter_map(|o| match o.name().as_str() {
            "memref.load" => Some((o, o.operand(0), false)),
            "memref.store" => Some((o, o.operand(1), true)),
            _ => None,
        })
        .collect()
}

/// The buffer `h` as followed to the loop `l`, and whether it is all zero
/// whenever `l` starts: an argument the loop lists in `moon.zero_shadows`
/// (in a function of distinct arguments), or a local buffer allocated in
/// `l`'s block or in the block of `scf.if`s around `l`, zero after what
/// comes between (its uses in the other branches do not matter).
fn zero_state(h: Value, l: Op) -> Option<(Buffer, bool)> {
    let Some(alloc) = h.defining_op() else {
        let listed = fuse_adjoint_loops::zero_on_entry(l.regions()[0].blocks()[0]).contains(&h);
        return Some((Buffer::new(h)?, listed));
    };
    if !fresh(h) {
        return None;
    }
    // The operations from `l` out to the one in the allocation's block.
    let mut path = vec![l];
    while path.last()?.block() != alloc.block() {
        match path.last()?.parent() {
            Some(up) if up.name() == "scf.if" => path.push(up),
            _ => return None,
        }
    }
    let other_branch = |u: Op| {
        path.windows(2).any(|w| {
            let (child, branch) = (w[0], w[1]);
            branch
                .regions()
                .iter()
                .flat_map(|r| r.blocks())
                .any(|b| u.block().is_within(b))
                && !u.block().is_within(child.block())
        })
    };
    let buffer = Buffer::ignoring(h, other_branch)?;
    let before = |op: Op, from: Option<Op>| -> Vec<Op> {
        op.block()
            .ops()
            .into_iter()
            .skip_while(|o| from.is_some_and(|f| *o != f))
            .skip(usize::from(from.is_some()))
            .take_while(|o| *o != op)
            .collect()
    };
    let mut outward = path.iter().rev();
    let top = *outward.next()?;
    let mut zero = buffer.zero_after(&before(top, Some(alloc)), false);
    for &op in outward {
        zero = buffer.zero_after(&before(op, None), zero);
    }
    Some((buffer, zero))
}

/// Whether every access in `within` (the inner body `inner`, in the outer
/// body `outer`) of the buffer `r` indexes its first dimension by one value
/// that varies with the inner induction variable and with nothing else of
/// the outer iteration.
fn own_rows(r: Value, within: &[Access], inner: Block, outer: Block) -> bool {
    if !r.ty().has_identity_layout() || r.ty().shape().is_empty() {
        return false;
    }
    let mut row = None;
    for &(op, m, write) in within.iter().filter(|x| root(x.1) == r) {
        let first = if m == r {
            op.operands().get(if write { 2 } else { 1 }).copied()
        } else {
            m.defining_op().and_then(|v| {
                (v.name() == "memref.subview"
                    && v.operand(0) == r
                    && v.int_array("static_offsets").first() == Some(&i64::MIN)
                    && v.int_array("static_sizes").first() == Some(&1))
                .then(|| v.operand(1))
            })
        };
        match (first, row) {
            (None, _) => return false,
            (Some(f), Some(seen)) if f != seen => return false,
            (Some(f), _) => row = Some(f),
        }
    }
    let Some(row) = row else {
        return false;
    };
    let iv = inner.args()[0];
    linear(row, iv, inner).is_some_and(|l| {
        l.coefficient(iv) != 0 && l.atoms().all(|a| a == iv || !a.block().is_within(outer))
    })
}

/// Whether every access in `within` of the buffer `r` is part of adding
/// into an element: a store of an `arith.addf` of a load of the same
/// element used only there.
fn accumulated_only(r: Value, within: &[Access]) -> bool {
    let mut loads = HashSet::new();
    for &(store, m, _) in within.iter().filter(|x| x.2 && root(x.1) == r) {
        let Some(add) = store
            .operand(0)
            .defining_op()
            .filter(|a| a.name() == "arith.addf")
        else {
            return false;
        };
        let load = add.operands().into_iter().find_map(|v| {
            let d = v.defining_op()?;
            (d.name() == "memref.load"
                && d.operand(0) == m
                && d.operands()[1..] == store.operands()[2..]
                && v.users().len() == 1)
                .then_some(d)
        });
        match load {
            Some(load) => loads.insert(load),
            None => return false,
        };
    }
    within
        .iter()
        .filter(|x| !x.2 && root(x.1) == r)
        .all(|x| loads.contains(&x.0))
}

/// The operations of `prefix` whose results the inner body `inner` uses,
/// directly or through each other, in order; `None` when one of them reads
/// memory or holds a region (it cannot be computed again inside).
fn slice(prefix: &[Op], inner: Block, outer: Block) -> Option<Vec<Op>> {
    let mut needed: HashSet<Op> = HashSet::new();
    let mut work: Vec<Value> = inner
        .ops()
        .into_iter()
        .flat_map(|op| std::iter::once(op).chain(op.walk()))
        .flat_map(|op| op.operands())
        .filter(|v| v.block() == outer)
        .collect();
    while let Some(v) = work.pop() {
        let Some(op) = v.defining_op() else {
            continue;
        };
        if needed.insert(op) {
            let name = op.name();
            let pure = (name.starts_with("arith.")
                || name.starts_with("math.")
                || matches!(
                    name.as_str(),
                    "memref.subview" | "memref.cast" | "memref.dim"
                ))
                && op.regions().is_empty();
            if !pure {
                return None;
            }
            work.extend(op.operands().into_iter().filter(|v| v.block() == outer));
        }
    }
    Some(
        prefix
            .iter()
            .copied()
            .filter(|op| needed.contains(op))
            .collect(),
    )
}

/// An `scf.for` at `b` over the `count` points of a block from `start`:
/// the loop, its induction variable (the point) and `start + point`.
fn point_loop(b: &mut Builder, start: Value, count: Value) -> (Op, Value, Value) {
    let index = b.ctx.index();
    let zero = b.index(0);
    let one = b.index(1);
    let (region, block) = Region::with_block(&[index], b.loc);
    let l = b.create("scf.for", &[zero, count, one], &[], &[], &[region], &[]);
    region.destroy();
    let end = Builder::at_end(block, b.loc).create("scf.yield", &[], &[], &[], &[], &[]);
    let point = block.args()[0];
    let iv = Builder::before(end).value("arith.addi", &[start, point], index, &[]);
    (l, point, iv)
}

/// Stores zero into every element of `buffer`, with a loop nest at `b`.
fn zero_fill(b: &mut Builder, buffer: Value) {
    let index = b.ctx.index();
    let zero = b.float(buffer.ty().element(), 0.0);
    let (c0, c1) = (b.index(0), b.index(1));
    let mut inner = *b;
    let mut ivs = Vec::new();
    for d in 0..buffer.ty().shape().len() {
        let at = inner.index(d as i64);
        let size = inner.value("memref.dim", &[buffer, at], index, &[]);
        let (region, block) = Region::with_block(&[index], inner.loc);
        inner.create("scf.for", &[c0, size, c1], &[], &[], &[region], &[]);
        region.destroy();
        let end = Builder::at_end(block, inner.loc).create("scf.yield", &[], &[], &[], &[], &[]);
        ivs.push(block.args()[0]);
        inner = Builder::before(end);
    }
    let mut operands = vec![zero, buffer];
    operands.extend(ivs);
    inner.create("memref.store", &operands, &[], &[], &[], &[]);
}

/// Makes the load or store `op` of `buffer` access row `point` of `copy`.
fn redirect(op: Op, buffer: Value, copy: Value, point: Value) {
    let operands = op.operands();
    let at = operands
        .iter()
        .position(|&v| v == buffer)
        .expect("an access");
    let mut renamed = operands[..at].to_vec();
    renamed.push(copy);
    renamed.push(point);
    renamed.extend_from_slice(&operands[at + 1..]);
    let b = &mut Builder::before(op);
    let clone = b.create(
        &op.name(),
        &renamed,
        &op.results().iter().map(|r| r.ty()).collect::<Vec<_>>(),
        &[],
        &[],
        &[],
    );
    for (old, new) in op.results().into_iter().zip(clone.results()) {
        old.replace_uses(new);
    }
    op.erase();
}
