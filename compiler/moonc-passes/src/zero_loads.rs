//! `--moon-zero-loads`: replaces loads of buffer elements that are known to
//! hold zero by the constant zero.
//!
//! Reverse mode gives a scratch buffer of the primal (gmm's `Qxcentered`,
//! `main_term`) an adjoint buffer that every iteration of the reverse sweep
//! adds into, then reads and zeroes again (the reverse of the loop that
//! overwrote the scratch). Each iteration's first loop thus loads elements
//! that are zero, and when that loop is vectorized and the zeroing was
//! scalar, its vector loads wait for the scalar stores to reach the cache:
//! the store buffer cannot forward several stores to one load.

use crate::fuse_adjoint_loops::{is_zero_constant, zero_on_entry};
use moonc_autodiff::{DISTINCT_ARGS, ZERO_SHADOWS};
use moonc_ir::ir::{Block, Builder, Op, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo},
};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-zero-loads`.
pub static ZERO_LOADS: PassInfo = PassInfo {
    argument: "moon-zero-loads",
    summary: "Replace loads of buffer elements known to be zero by zero",
    description: r#"
Follows, through each function's structured control flow, whether a local
buffer (`memref.alloc` or `memref.alloca` used only by `memref.load`,
`memref.store`, `memref.dim`, `memref.dealloc` and `linalg.fill`) holds
zero in every element, and replaces a `memref.load` of it where it does by
`arith.constant 0.0`. A buffer holds zero after a `linalg.fill` with +0.0,
and after an `scf.for` from 0 to its size (its `memref.dim`, the size it was
allocated with, or that size's `arith.maxsi` with 0) by 1 whose body
accesses the (one-dimensional) buffer only at the induction variable `%i`
(or at `%n - 1 - %i`, as reverse mode counts down) and stores +0.0 there
last, and after a store of +0.0 into a buffer of rank 0. A store of
anything but +0.0 ends it. A loop keeps it when its body,
entered with the buffer zero, leaves it zero; then the body's loads of the
buffer become zero too, on every iteration.

When the buffer is zero on entering a loop that does not keep it so, the
loads of the loop's first accesses are still replaced if the body touches
the one-dimensional buffer only at one index that takes a different value
on each iteration (`%i + c` or `c - %i`) and the load comes before any
store to it: each iteration then reads an element that no earlier
iteration wrote. Reverse mode's adjoint of a scratch buffer the primal
overwrites on every iteration is such a buffer (the adjoint of `sqnorm`
adding into the zeroed adjoint of gmm's `Qxcentered`): the loop that adds
into it stores without loading it, and, vectorized, no longer waits on the
scalar stores that zeroed it.

The shadows that a checkpointed segment's reverse loop lists in
`moon.zero_shadows` (arguments of a function marked `moon.distinct_args`,
zero at the start of each iteration) are followed the same way through
the loop's body.

`moon-cpu-pipeline` runs it after `moon-fuse-adjoint-loops`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let mut loads = Vec::new();
    for alloc in module.walk() {
        if matches!(alloc.name().as_str(), "memref.alloc" | "memref.alloca") {
            if let Some(buffer) = Buffer::new(alloc.result(0)) {
                let rest: Vec<Op> = alloc
                    .block()
                    .ops()
                    .into_iter()
                    .skip_while(|o| *o != alloc)
                    .skip(1)
                    .collect();
                buffer.ops(&rest, false, &mut loads);
            }
        }
    }
    // A segment's reverse loop lists the shadows that are zero at the start
    // of each of its iterations.
    for l in module.walk() {
        let segment = l.name() == "scf.for"
            && l.attr(ZERO_SHADOWS).is_some()
            && l.enclosing_function()
                .is_some_and(|f| f.attr(DISTINCT_ARGS).is_some());
        if segment {
            let body = l.regions()[0].blocks()[0];
            for arg in zero_on_entry(body) {
                if let Some(buffer) = Buffer::new(arg) {
                    buffer.ops(&body.ops(), true, &mut loads);
                }
            }
        }
    }
    let mut replaced = 0;
    let mut seen = HashSet::new();
    for load in loads {
        if seen.insert(load) {
            let zero = Builder::before(load).float(load.result(0).ty(), 0.0);
            load.result(0).replace_uses(zero);
            load.erase();
            replaced += 1;
        }
    }
    if replaced == 0 {
        return pass::unchanged();
    }
    tracing::debug!(target: "moonc_passes", replaced, "loads of zero elements replaced");
    Ok(())
}

/// Whether a buffer is all zero after a loop, and the loads in the loop
/// that read zero.
type LoopResult = (bool, Vec<Op>);

/// A buffer (a local allocation, or an argument of a function whose memref
/// arguments are distinct) whose every use the pass understands.
pub(crate) struct Buffer {
    value: Value,
    /// The operations that use the buffer and every operation that holds
    /// one of them in a region.
    touching: HashSet<Op>,
    /// [`Buffer::for_loop`]'s results.
    loops: RefCell<HashMap<(Op, bool), LoopResult>>,
}

impl Buffer {
    pub(crate) fn new(value: Value) -> Option<Buffer> {
        Buffer::ignoring(value, |_| false)
    }

    /// The buffer, leaving out the uses `ignore` picks (operations on a
    /// path the caller never follows).
    pub(crate) fn ignoring(value: Value, ignore: impl Fn(Op) -> bool) -> Option<Buffer> {
        let users: Vec<Op> = value.users().into_iter().filter(|&u| !ignore(u)).collect();
        let understood = users.iter().all(|u| match u.name().as_str() {
            "memref.load" | "memref.dim" | "memref.dealloc" => u.operand(0) == value,
            "memref.store" => u.operand(1) == value && u.operand(0) != value,
            "linalg.fill" => u.operands().len() == 2 && u.operand(1) == value,
            _ => false,
        });
        if !understood {
            return None;
        }
        let home = value.block();
        let mut touching = HashSet::new();
        for u in users {
            let mut op = u;
            while touching.insert(op) && op.block() != home {
                match op.parent() {
                    Some(p) => op = p,
                    None => break,
                }
            }
        }
        Some(Buffer {
            value,
            touching,
            loops: RefCell::default(),
        })
    }

    /// Whether the buffer is all zero after `ops`, entered all zero when
    /// `zero`.
    pub(crate) fn zero_after(&self, ops: &[Op], zero: bool) -> bool {
        self.ops(ops, zero, &mut Vec::new())
    }

    /// Runs through `ops` with the buffer all zero on entry when `zero`,
    /// collecting in `loads` the loads that read zero; whether the buffer
    /// is all zero after them.
    fn ops(&self, ops: &[Op], mut zero: bool, loads: &mut Vec<Op>) -> bool {
        for &op in ops {
            if !self.touching.contains(&op) {
                continue;
            }
            zero = match op.name().as_str() {
                "memref.load" => {
                    if zero {
                        loads.push(op);
                    }
                    zero
                }
                "memref.dim" | "memref.dealloc" => zero,
                // A zero stored into a scalar buffer zeroes all of it.
                "memref.store" => {
                    is_zero(op.operand(0)) && (zero || self.value.ty().shape().is_empty())
                }
                "linalg.fill" => is_zero(op.operand(0)),
                "scf.for" => {
                    let (after, found) = self.for_loop(op, zero);
                    loads.extend(found);
                    after
                }
                "scf.if" => {
                    let mut after = true;
                    for region in op.regions() {
                        after &= match region.blocks().first() {
                            Some(&b) => self.ops(&b.ops(), zero, loads),
                            None => zero,
                        };
                    }
                    after
                }
                _ => false,
            };
        }
        zero
    }

    /// The buffer's state after the `scf.for` `l`, entered with it all zero
    /// when `zero`, and the loads in `l` that read zero (computed once for
    /// each loop and state: loops nested in loops are visited again).
    fn for_loop(&self, l: Op, zero: bool) -> LoopResult {
        if let Some(known) = self.loops.borrow().get(&(l, zero)) {
            return known.clone();
        }
        let body = l.regions()[0].blocks()[0];
        let mut loads = Vec::new();
        let after = if zero && self.ops(&body.ops(), true, &mut loads) {
            true
        } else {
            loads = if zero {
                self.first_loads(l, body)
            } else {
                Vec::new()
            };
            self.ops(&body.ops(), false, &mut loads);
            self.zeroes(l, body)
        };
        self.loops
            .borrow_mut()
            .insert((l, zero), (after, loads.clone()));
        (after, loads)
    }

    /// The accesses of the loop `l`'s body to the buffer, when they are all
    /// loads and stores in `body` itself at one index: the accesses and the
    /// index.
    fn accesses(&self, body: Block) -> Option<(Vec<Op>, Value)> {
        if self.value.ty().shape().len() != 1 {
            return None;
        }
        let ops: Vec<Op> = body
            .ops()
            .into_iter()
            .filter(|o| self.touching.contains(o))
            .collect();
        let index = |o: &Op| match o.name().as_str() {
            "memref.load" => Some(o.operand(1)),
            "memref.store" => Some(o.operand(2)),
            _ => None,
        };
        let first = index(ops.first()?)?;
        ops.iter()
            .all(|o| index(o) == Some(first))
            .then_some((ops, first))
    }

    /// The loads of the loop `l` that come before any store to the buffer
    /// in its body, when the body accesses the buffer at one index that
    /// differs from iteration to iteration: each reads what the buffer held
    /// before the loop.
    fn first_loads(&self, l: Op, body: Block) -> Vec<Op> {
        let Some((ops, index)) = self.accesses(body) else {
            return Vec::new();
        };
        let iv = body.args()[0];
        if step_of(iv, index, body).is_none() || l.operand(2).index_constant().is_none() {
            return Vec::new();
        }
        ops.into_iter()
            .take_while(|o| o.name() == "memref.load")
            .collect()
    }

    /// Whether the loop `l` leaves every element of the buffer zero: it runs
    /// from 0 to the buffer's size by 1, accesses it only at `%i` or
    /// `size - 1 - %i`, and the last store there stores +0.0.
    fn zeroes(&self, l: Op, body: Block) -> bool {
        let Some((ops, index)) = self.accesses(body) else {
            return false;
        };
        let iv = body.args()[0];
        let ub = l.operand(1);
        let covers = index == iv
            || index.defining_op().is_some_and(|o| {
                o.name() == "arith.subi"
                    && o.operand(1) == iv
                    && o.operand(0).defining_op().is_some_and(|m| {
                        m.name() == "arith.subi"
                            && m.operand(0) == ub
                            && m.operand(1).index_constant() == Some(1)
                    })
            });
        covers
            && l.operand(0).index_constant() == Some(0)
            && l.operand(2).index_constant() == Some(1)
            && self.is_size(ub)
            && ops
                .iter()
                .rev()
                .find(|o| o.name() == "memref.store")
                .is_some_and(|s| is_zero(s.operand(0)))
    }

    /// Whether `v` is the number of elements of the one-dimensional buffer.
    fn is_size(&self, v: Value) -> bool {
        if let Some(n) = v.index_constant() {
            return self.value.ty().shape().first() == Some(&Some(n));
        }
        self.allocated_size(v)
            || v.defining_op().is_some_and(|o| {
                o.name() == "memref.dim" && o.operand(0) == self.value
                    || o.name() == "arith.maxsi"
                        && o.operands().iter().any(|x| x.index_constant() == Some(0))
                        && o.operands().iter().any(|&x| self.allocated_size(x))
            })
    }

    /// Whether `v` is the dynamic size the buffer was allocated with.
    fn allocated_size(&self, v: Value) -> bool {
        self.value
            .defining_op()
            .and_then(|a| a.operands().first().copied())
            .is_some_and(|size| same_size(size, v))
    }
}

/// Whether the index values `a` and `b` are equal: the same value, or the
/// same dimension of the same memref (`memref.dim` computed twice).
fn same_size(a: Value, b: Value) -> bool {
    let dim = |v: Value| {
        v.defining_op()
            .filter(|o| o.name() == "memref.dim")
            .map(|o| (o.operand(0), o.operand(1).index_constant()))
    };
    a == b || dim(a).is_some_and(|(m, i)| i.is_some() && dim(b) == Some((m, i)))
}

/// Whether `v` is the float constant +0.0.
fn is_zero(v: Value) -> bool {
    v.defining_op().is_some_and(is_zero_constant)
}

/// The coefficient (1 or -1) of the induction variable `iv` in `index`,
/// an `arith.addi`/`arith.subi` chain of `iv` and values that do not vary
/// in the loop body `body`.
fn step_of(iv: Value, index: Value, body: Block) -> Option<i64> {
    if index == iv {
        return Some(1);
    }
    let op = index
        .defining_op()
        .filter(|o| matches!(o.name().as_str(), "arith.addi" | "arith.subi"))?;
    let (a, b) = (op.operand(0), op.operand(1));
    let (va, vb) = (varies(a, iv, body, 0), varies(b, iv, body, 0));
    match op.name().as_str() {
        "arith.addi" if va && !vb => step_of(iv, a, body),
        "arith.addi" if vb && !va => step_of(iv, b, body),
        "arith.subi" if va && !vb => step_of(iv, a, body),
        "arith.subi" if vb && !va => step_of(iv, b, body).map(|s| -s),
        _ => None,
    }
}

/// How deep [`varies`] looks into the arithmetic that computes a value.
const MAX_DEPTH: usize = 8;

/// Whether `v` may take different values on different iterations of the
/// loop body `body` whose induction variable is `iv`: it is defined in the
/// body and is not `arith` arithmetic of values that do not (looked for
/// through at most [`MAX_DEPTH`] operations).
fn varies(v: Value, iv: Value, body: Block, depth: usize) -> bool {
    if v == iv {
        return true;
    }
    if !v.block().is_within(body) {
        return false;
    }
    match v.defining_op() {
        Some(op) if op.name().starts_with("arith.") && depth < MAX_DEPTH => op
            .operands()
            .into_iter()
            .any(|x| varies(x, iv, body, depth + 1)),
        _ => true,
    }
}
