//! The state of reverse mode inside one adjoint function being generated
//! ([`ReverseState`]): the adjoint of each active value, the shadows of
//! buffers, and how the reverse sweep gets the primal values it needs.
//! Structural rules (`rules::Reverse::Custom`) work through it; reverse
//! mode ([`crate::reverse`]) drives it.
//!
//! - `primal`: a primal value in the reverse sweep, used directly,
//!   recomputed or taped;
//! - `tape`: tape records, buffers and moonrt's LIFO tape;
//! - `reread`: loads repeated after the last write to their memory;
//! - `runtime`: calls of moonrt and index arithmetic the others share.

mod checkpoint;
mod primal;
mod reread;
mod runtime;
mod tape;

pub use self::checkpoint::{CHECKPOINT, WRITES};
pub(crate) use self::{
    checkpoint::element_count,
    primal::primal_uses,
    reread::LastWrites,
    runtime::{cast_index_from, runtime_call, trip_count},
    tape::{Record, element_bytes},
};

use crate::{
    activity::{Activity, VIEW_OPS, root},
    request::{Differentiator, Key},
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Ctx, Op, Value, error_at},
};
use std::{
    cell::RefCell,
    collections::{HashMap, HashSet},
};

/// Where one block of the reverse sweep keeps what its reverse code needs.
pub(crate) struct Scope {
    /// Pops of moonrt's tape (the latest-defined value first), each given
    /// by the value it restores and its first operation.
    pub(crate) pops: Vec<(Value, Op)>,
    /// Pops go before this marker…
    pub(crate) pop_end: Op,
    /// …and recomputed values, tape loads and shadows before this one.
    pub(crate) prologue_end: Op,
}

/// The per-function state of generating one adjoint function; structural
/// rules (`rules::Reverse::Custom`) work through it.
pub struct ReverseState<'d> {
    pub diff: &'d mut Differentiator,
    pub activity: Activity,
    /// Where reverse code is being emitted.
    pub b: Builder,
    /// The function's (single) block.
    pub(crate) body: Block,
    /// Whether this is the split pair of a call (everything the reverse
    /// sweep needs goes through moonrt's tape).
    pub(crate) split: bool,
    /// Blocks whose values the reverse code may use directly.
    pub(crate) direct: HashSet<Block>,
    /// The reverse-sweep scope of each primal block being reversed.
    pub(crate) scopes: HashMap<Block, Scope>,
    /// The primal block whose reverse is being emitted.
    pub(crate) current: Block,
    /// Primal values as available in the reverse sweep.
    pub(crate) materialized: HashMap<Value, Value>,
    /// Adjoints accumulated in SSA form (contributions from the value's own
    /// block; [`Self::take_adjoint`] adds its slot's).
    pub(crate) adjoints: HashMap<Value, Value>,
    /// Adjoints of values used in blocks nested below their definition,
    /// accumulated in memory (`memref<T>`, promoted to registers by LLVM).
    pub(crate) slots: HashMap<Value, Value>,
    /// Slots are created before this marker (the start of the reverse sweep).
    pub(crate) slot_anchor: Op,
    /// The end of the forward part of the top-level block.
    pub(crate) split_marker: Op,
    /// Tape pushes at the end of each block, earliest-defined first.
    pub(crate) pushes: HashMap<Block, Vec<(Value, Op)>>,
    /// Buffers whose contents may change during the call: roots written by
    /// the function (all memref arguments when any argument is written,
    /// since they may alias).
    pub(crate) written: HashSet<Value>,
    pub(crate) args_written: bool,
    /// When each buffer stops changing: see [`LastWrites`].
    pub(crate) last_writes: LastWrites,
    /// Written buffers whose loads the reverse sweep repeats (see
    /// [`Self::unchanged_after`]); their deallocations move to its end.
    pub(crate) reread: HashSet<Value>,
    /// Iteration numbers of `scf.for` loops in the forward sweep.
    pub(crate) forward_iteration: HashMap<Op, Value>,
    /// Iteration numbers of loops in the reverse sweep.
    pub reverse_iteration: HashMap<Op, Value>,
    /// Shadows of memrefs, as available in the reverse sweep.
    pub(crate) shadows: HashMap<Value, Value>,
    /// Buffers to free (with their sizes in bytes, for moonrt's
    /// accounting) at the end of the reverse sweep.
    pub(crate) to_free: Vec<(Value, Option<Value>)>,
    /// The tape record of each block (and element type) taping in a
    /// buffer; see [`Self::tape_in_buffer`].
    pub(crate) records: HashMap<(Block, String), Record>,
    /// The callee pair (or custom rule) of each active call.
    pub calls: HashMap<Op, CallRule>,
    /// The nest whose reverse is being emitted as an `scf.parallel`.
    pub(crate) parallel: Option<ParallelNest>,
    /// Nests reversed in parallel, whose forward sweep becomes an
    /// `scf.parallel` again once the reverse sweep is done.
    pub(crate) parallel_forwards: Vec<Vec<Op>>,
    /// What [`Self::touches_active`] found of each primal operation.
    pub(crate) touches: RefCell<HashMap<Op, bool>>,
}

/// What the reverse of a parallel nest needs to know about its accesses.
pub(crate) struct ParallelNest {
    /// The roots of the buffers of which each iteration accesses only its
    /// own element (indexed by the nest's induction variables, and at no
    /// other indices in the nest).
    pub(crate) owned: HashSet<Value>,
}

/// How the reverse sweep differentiates one call.
#[derive(Clone)]
pub enum CallRule {
    /// `@g_rev_…` of the split pair, with the key of its activities.
    Split(Key, String),
    /// The user's vjp function (default activities).
    Custom(Key, String),
    /// The user's jvp function of a function of float scalars, called once
    /// per active argument with a unit tangent (default activities).
    CustomJvp(Key, String),
    /// The adjoint function of a segment function (`reverse/checkpoint.rs`),
    /// called after restoring the segment's checkpoint: it recomputes the
    /// segment, then reverses it (default activities).
    Joint(Key, String),
    /// A moonrt BLAS routine's own reverse rule (`rules/blas/`).
    Foreign(fn(&mut ReverseState, Op) -> Result<(), Error>),
}

impl ReverseState<'_> {
    /// The context.
    pub fn ctx(&self) -> Ctx {
        self.diff.ctx()
    }

    /// Whether `value` is active and of a type that has an adjoint.
    pub fn has_adjoint(&self, value: Value) -> bool {
        let ty = value.ty();
        self.activity.is_active(value)
            && (ty.is_float() || (ty.is_vector() && ty.element().is_float()))
    }

    /// Whether `op` (or an operation nested in it) uses an active value.
    /// The answer for every operation of the nest is kept: the reverse of
    /// each nested `scf.if` or loop asks again, which walked 5000 nested
    /// `scf.if` 5000 times.
    pub fn touches_active(&self, op: Op) -> bool {
        if let Some(&known) = self.touches.borrow().get(&op) {
            return known;
        }
        let mut touches = self.touches.borrow_mut();
        // Innermost first: each operation's nested ones are known by then.
        for o in op.walk().into_iter().rev().chain([op]) {
            if touches.contains_key(&o) {
                continue;
            }
            let nested = o
                .regions()
                .into_iter()
                .flat_map(|r| r.blocks())
                .flat_map(|b| b.ops());
            let answer = o.operands().iter().any(|&v| self.activity.is_active(v))
                || nested.into_iter().any(|n| touches[&n]);
            touches.insert(o, answer);
        }
        touches[&op]
    }

    /// Adds `contribution` to the adjoint of `value`.
    pub fn add_adjoint(&mut self, value: Value, contribution: Value) {
        if !self.has_adjoint(value) {
            return;
        }
        if value.block() == self.current {
            let sum = match self.adjoints.get(&value) {
                Some(&old) => self
                    .b
                    .value("arith.addf", &[old, contribution], value.ty(), &[]),
                None => contribution,
            };
            self.adjoints.insert(value, sum);
            return;
        }
        // A value defined outside the current block gets a contribution
        // on every iteration of the loops between them; the order of those
        // additions is the reverse sweep's choice, so it is marked as free
        // to reassociate, which lets LLVM vectorize the (promoted) sum.
        let slot = self.slot(value);
        let old = self.b.value("memref.load", &[slot], value.ty(), &[]);
        let reassoc = self.b.ctx.attr("#arith.fastmath<reassoc>");
        let sum = self.b.value(
            "arith.addf",
            &[old, contribution],
            value.ty(),
            &[("fastmath", reassoc)],
        );
        self.b
            .create("memref.store", &[sum, slot], &[], &[], &[], &[]);
    }

    /// The adjoint slot of `value`, created zero at the start of the
    /// reverse sweep.
    pub(crate) fn slot(&mut self, value: Value) -> Value {
        if let Some(&slot) = self.slots.get(&value) {
            return slot;
        }
        let slot = Builder::before(self.slot_anchor).zero_cell(value.ty());
        self.slots.insert(value, slot);
        slot
    }

    /// Takes the adjoint of `value` (all its uses have been reversed):
    /// `None` when it is zero. A slot is reset for the next instance.
    pub fn take_adjoint(&mut self, value: Value) -> Option<Value> {
        let ssa = self.adjoints.remove(&value);
        let Some(&slot) = self.slots.get(&value) else {
            return ssa;
        };
        let stored = self.b.value("memref.load", &[slot], value.ty(), &[]);
        let zero = self.b.float(value.ty(), 0.0);
        self.b
            .create("memref.store", &[zero, slot], &[], &[], &[], &[]);
        Some(match ssa {
            Some(v) => self.b.value("arith.addf", &[v, stored], value.ty(), &[]),
            None => stored,
        })
    }

    /// The adjoint of `value`, or an explicit zero.
    pub fn take_adjoint_or_zero(&mut self, value: Value) -> Value {
        match self.take_adjoint(value) {
            Some(v) => v,
            None => self.b.float(value.ty(), 0.0),
        }
    }

    /// The iteration number of `l` (a `scf.for`) in the forward sweep,
    /// computed at the top of its body.
    pub fn forward_iteration(&mut self, l: Op) -> Value {
        if let Some(&k) = self.forward_iteration.get(&l) {
            return k;
        }
        let body = l.regions()[0].entry().expect("a loop body");
        let mut b = Builder::before(body.ops()[0]);
        let iv = body.args()[0];
        let index = self.ctx().index();
        let iv = cast_index_from(&mut b, iv);
        let lb = cast_index_from(&mut b, l.operand(0));
        let step = cast_index_from(&mut b, l.operand(2));
        let offset = b.value("arith.subi", &[iv, lb], index, &[]);
        let k = b.value("arith.divui", &[offset, step], index, &[]);
        self.forward_iteration.insert(l, k);
        k
    }

    /// The shadow of the memref `value` in the reverse sweep, or a located
    /// error when it has none.
    pub fn shadow(&mut self, at: Op, value: Value) -> Result<Value, Error> {
        if let Some(&s) = self.shadows.get(&value) {
            return Ok(s);
        }
        let no_shadow = || {
            error_at(
                at,
                "this memref receives derivatives but has no shadow: pass it as `dup` (or \
                 allocate it inside the differentiated function)",
            )
        };
        let Some(op) = value.defining_op() else {
            return Err(no_shadow());
        };
        let name = op.name();
        let shadow = if VIEW_OPS.contains(&name.as_str()) {
            let source = self.shadow(at, op.operand(0))?;
            let mut operands = vec![source];
            for &v in &op.operands()[1..] {
                operands.push(self.get(v)?);
            }
            let mut b = self.prologue(value.block()).ok_or_else(no_shadow)?;
            let clone = b.insert(op.clone_detached());
            clone.set_operands(&operands);
            clone.result(0)
        } else if name == "func.call" {
            self.returned_view_shadow(at, op, value)?.ok_or_else(|| {
                error_at(
                    op,
                    "reverse mode differentiates a memref returned by a call only when the \
                     callee returns views of its arguments",
                )
            })?
        } else if name == "memref.alloc" || name == "memref.alloca" {
            let sizes = op
                .operands()
                .into_iter()
                .map(|v| self.get(v))
                .collect::<Result<Vec<_>, _>>()?;
            let mut b = self.prologue(value.block()).ok_or_else(no_shadow)?;
            let buffer = b.alloc(&name, &sizes, value.ty());
            let zero = b.float(value.ty().element(), 0.0);
            b.fill(zero, buffer);
            buffer
        } else {
            let message = match name.as_str() {
                "scf.for" | "scf.while" => {
                    "reverse mode cannot differentiate memrefs carried by a loop yet".to_string()
                }
                "scf.if" | "scf.index_switch" | "scf.execute_region" => {
                    "reverse mode cannot differentiate memrefs yielded by a branch yet".to_string()
                }
                _ => format!("`{name}` of active buffers cannot be differentiated yet"),
            };
            return Err(error_at(op, &message));
        };
        self.shadows.insert(value, shadow);
        Ok(shadow)
    }

    /// The shadow of a memref that `call` returns when the callee only
    /// computes views of its arguments (view operations, `memref.dim` and
    /// integer arithmetic): the same views of the arguments' shadows. `None` for
    /// any other callee.
    pub(crate) fn returned_view_shadow(
        &mut self,
        at: Op,
        call: Op,
        value: Value,
    ) -> Result<Option<Value>, Error> {
        let callee = match self.calls.get(&call) {
            Some(CallRule::Split(key, _)) => key.function.clone(),
            _ => return Ok(None),
        };
        let Some(body) = self
            .diff
            .function(&callee)
            .and_then(|f| f.regions()[0].entry())
        else {
            return Ok(None);
        };
        let ops = body.ops();
        let viewing = |op: &Op| {
            let name = op.name();
            VIEW_OPS.contains(&name.as_str())
                || name == "func.return"
                || name == "memref.dim"
                || name.starts_with("arith.")
                    && op
                        .results()
                        .iter()
                        .all(|r| r.ty().is_index() || r.ty().is_integer())
        };
        if body.parent_op().regions()[0].blocks().len() != 1 || !ops.iter().all(viewing) {
            return Ok(None);
        }
        let mut mapping: HashMap<Value, Value> = HashMap::new();
        for (arg, operand) in body.args().into_iter().zip(call.operands()) {
            let inner = if operand.ty().is_memref() {
                self.shadow(at, operand)?
            } else {
                self.get(operand)?
            };
            mapping.insert(arg, inner);
        }
        let Some(mut b) = self.prologue(value.block()) else {
            return Ok(None);
        };
        for op in &ops[..ops.len() - 1] {
            let clone = b.insert(op.clone_detached());
            let operands: Vec<Value> = op.operands().iter().map(|v| mapping[v]).collect();
            clone.set_operands(&operands);
            for (r, c) in op.results().into_iter().zip(clone.results()) {
                mapping.insert(r, c);
            }
        }
        let k = call.results().iter().position(|&r| r == value);
        let returned = ops[ops.len() - 1].operand(k.expect("a result of the call"));
        Ok(Some(mapping[&returned]))
    }

    /// Whether adjoints added into the element of `memref` a load reads
    /// may be added by several iterations at once: in the reverse of a
    /// parallel nest, when the iteration does not own the element.
    pub fn shared_in_parallel(&self, memref: Value) -> bool {
        self.parallel
            .as_ref()
            .is_some_and(|p| !p.owned.contains(&root(memref)))
    }

    /// Makes the forward sweep count the iterations of the `scf.while`
    /// `op` (the number of times its `after` region runs) in a counter
    /// allocated at the top of the function; returns the count, read right
    /// after the loop.
    pub fn count_iterations(&mut self, op: Op) -> Value {
        let ctx = self.ctx();
        let index = ctx.index();
        let counter = Builder::before(self.body.ops()[0]).alloc(
            "memref.alloca",
            &[],
            ctx.ty("memref<index>"),
        );
        self.written.insert(counter);
        // Reset on every entry to the loop.
        let mut b = Builder::before(op);
        let zero = b.index(0);
        b.create("memref.store", &[zero, counter], &[], &[], &[], &[]);
        let after = op.regions()[1].entry().expect("an after region");
        let mut b = Builder::before(after.ops()[0]);
        let old = b.value("memref.load", &[counter], index, &[]);
        let one = b.index(1);
        let new = b.value("arith.addi", &[old, one], index, &[]);
        b.create("memref.store", &[new, counter], &[], &[], &[], &[]);
        Builder::after(op).value("memref.load", &[counter], index, &[])
    }

    /// Whether the memref `value` can have a shadow: it views an argument
    /// passed with one or a buffer the function allocates. Buffers without
    /// (`const` arguments, globals) receive no derivatives.
    pub fn can_shadow(&self, value: Value) -> bool {
        let r = root(value);
        self.shadows.contains_key(&r)
            || r.defining_op()
                .is_some_and(|op| matches!(op.name().as_str(), "memref.alloc" | "memref.alloca"))
    }

    /// The shadow of `value` if the reverse sweep has made one.
    pub fn existing_shadow(&self, value: Value) -> Option<Value> {
        self.shadows.get(&value).copied()
    }

    /// Frees `buffer` at the end of the reverse sweep.
    pub fn free_at_end(&mut self, buffer: Value) {
        self.to_free.push((buffer, None));
    }

    /// Whether the contents of `buffer` may change during the call.
    pub fn is_written(&self, buffer: Value) -> bool {
        let r = root(buffer);
        let is_arg = r.block() == self.body && r.defining_op().is_none();
        self.split || self.written.contains(&r) || (is_arg && self.args_written)
    }

    /// Whether the function writes memory that has a shadow (then the
    /// order in which the reverse sweep updates shadows matters).
    pub fn writes_memory(&self) -> bool {
        self.split || self.args_written || self.written.iter().any(|&r| self.activity.is_active(r))
    }

    /// Whether values of `block` are used directly by the reverse code.
    pub fn is_direct(&self, block: Block) -> bool {
        self.direct.contains(&block)
    }

    /// Lets the reverse code use the values of `block` directly.
    pub fn set_direct(&mut self, block: Block) {
        self.direct.insert(block);
    }

    /// The function's top-level block.
    pub fn body(&self) -> Block {
        self.body
    }
}
