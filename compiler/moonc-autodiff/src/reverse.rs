//! Reverse mode: generates the adjoint function of a function for one
//! choice of activities, and replaces `moon.vjp` operations by calls to it.
//!
//! The adjoint function runs the primal code (the *forward sweep*) and then
//! the *reverse sweep*, which visits the operations backwards, each adding
//! its operands' adjoints by the rule of its operation (see
//! [`crate::rules`]). Structured control flow is reversed structurally: a
//! `scf.for` becomes a loop running backwards, a `scf.while` a counted loop
//! over the iterations the forward sweep counted, a `scf.if` an `scf.if` on
//! the same condition. Unstructured control flow (`cf`) is first lifted to
//! `scf` (MLIR's `lift-cf-to-scf`) and named linalg operations generalized.
//!
//! A primal value the reverse sweep needs is obtained, once per block of
//! the reverse sweep, in that block's *prologue*, by the first way that
//! applies:
//! - values of the function's top-level block are used directly (they
//!   dominate the whole reverse sweep);
//! - cheap pure operations (arith, index, views, loads from memory nothing
//!   writes from then on) are recomputed from their materialized operands, loop
//!   induction variables from the reverse iteration number;
//! - other values are saved on a *tape* by the forward sweep: a buffer
//!   allocated before the outermost loop when every enclosing loop is a
//!   `scf.for` whose trip count is known there (indexed by iteration
//!   numbers; see `Record` for how a block's values share buffers),
//!   and otherwise moonrt's LIFO tape (pushed at the end of each
//!   block instance, popped at the start of its reverse, so that nested
//!   blocks' pushes and pops pair up).
//!
//! Loads whose memory may be overwritten later in the forward sweep are
//! taped, never reloaded, so mutation and aliasing of memrefs need no
//! restoring of memory: after the call the primal memrefs hold what a plain
//! call leaves in them. A load after the last write to its memory is read
//! again (see `ReverseState::unchanged_after`).
//!
//! Calls to differentiated functions use a *split* pair generated on
//! demand: `@g_fwd_…` (the forward sweep, taping on moonrt's tape) and
//! `@g_rev_…` (the reverse sweep, popping it), so that recursion works and
//! no callee runs twice.

use crate::{
    activity::{Activity, VIEW_OPS, root},
    expr::{self, Env, Expr, Term},
    ir::{Block, Builder, Ctx, Op, Region, Type, Value},
    request::{Differentiator, Key, Names, requested_key},
    rules::{self, Reverse},
};
use mlir_sys as sys;
use moonc_ir::ir::error_at;
use moonc_ir::linalg::split_ins_outs;
use moonc_ir::{Error, moon::Activity as Act};
use std::collections::{HashMap, HashSet};

/// Where one block of the reverse sweep keeps what its reverse code needs.
struct Scope {
    /// Pops of moonrt's tape (the latest-defined value first), each given
    /// by the value it restores and its first operation.
    pops: Vec<(Value, Op)>,
    /// Pops go before this marker…
    pop_end: Op,
    /// …and recomputed values, tape loads and shadows before this one.
    prologue_end: Op,
}

/// The per-function state of generating one adjoint function; structural
/// rules (`rules::Reverse::Custom`) work through it.
pub struct ReverseState<'d> {
    pub diff: &'d mut Differentiator,
    pub activity: Activity,
    /// Where reverse code is being emitted.
    pub b: Builder,
    /// The function's (single) block.
    body: Block,
    /// Whether this is the split pair of a call (everything the reverse
    /// sweep needs goes through moonrt's tape).
    split: bool,
    /// Blocks whose values the reverse code may use directly.
    direct: HashSet<Block>,
    /// The reverse-sweep scope of each primal block being reversed.
    scopes: HashMap<Block, Scope>,
    /// The primal block whose reverse is being emitted.
    current: Block,
    /// Primal values as available in the reverse sweep.
    materialized: HashMap<Value, Value>,
    /// Adjoints accumulated in SSA form (contributions from the value's own
    /// block; [`Self::take_adjoint`] adds its slot's).
    adjoints: HashMap<Value, Value>,
    /// Adjoints of values used in blocks nested below their definition,
    /// accumulated in memory (`memref<T>`, promoted to registers by LLVM).
    slots: HashMap<Value, Value>,
    /// Slots are created before this marker (the start of the reverse sweep).
    slot_anchor: Op,
    /// The end of the forward part of the top-level block.
    split_marker: Op,
    /// Tape pushes at the end of each block, earliest-defined first.
    pushes: HashMap<Block, Vec<(Value, Op)>>,
    /// Buffers whose contents may change during the call: roots written by
    /// the function (all memref arguments when any argument is written,
    /// since they may alias).
    written: HashSet<Value>,
    args_written: bool,
    /// When each buffer stops changing: see [`LastWrites`].
    last_writes: LastWrites,
    /// Written buffers whose loads the reverse sweep repeats (see
    /// [`Self::unchanged_after`]); their deallocations move to its end.
    reread: HashSet<Value>,
    /// Iteration numbers of `scf.for` loops in the forward sweep.
    forward_iteration: HashMap<Op, Value>,
    /// Iteration numbers of loops in the reverse sweep.
    pub reverse_iteration: HashMap<Op, Value>,
    /// Shadows of memrefs, as available in the reverse sweep.
    shadows: HashMap<Value, Value>,
    /// Buffers to free (with their sizes in bytes, for moonrt's
    /// accounting) at the end of the reverse sweep.
    to_free: Vec<(Value, Option<Value>)>,
    /// The tape record of each block (and element type) taping in a
    /// buffer; see [`Self::tape_in_buffer`].
    records: HashMap<(Block, String), Record>,
    /// The callee pair (or custom rule) of each active call.
    pub calls: HashMap<Op, CallRule>,
    /// The nest whose reverse is being emitted as an `scf.parallel`.
    parallel: Option<ParallelNest>,
    /// Nests reversed in parallel, whose forward sweep becomes an
    /// `scf.parallel` again once the reverse sweep is done.
    parallel_forwards: Vec<Vec<Op>>,
}

/// The tape of the values one block tapes with one element type. With at
/// least [`RECORD_SLOTS`] values, one buffer `memref<N1x…xNkxSxT>`: a
/// record of `S` slots per iteration of the enclosing loops, which an
/// iteration writes (and its reverse reads) contiguously from one base
/// address, where a buffer per value would take a stream and a base
/// register each. Fewer values keep a buffer `memref<N1x…xNkxT>` each, so
/// that a vectorized loop stores and loads them with unit stride.
struct Record {
    /// A placeholder `memref<N1x…xNkx?xT>` until every value is taped.
    buffer: Value,
    /// The `arith.constant` giving the bytes of a record to moonrt's
    /// accounting, set once every value is taped.
    unit: Op,
    /// The stores and loads of each slot, in slot order.
    accesses: Vec<[Op; 2]>,
}

/// The fewest values a block tapes in one record (see [`Record`]).
const RECORD_SLOTS: usize = 8;

/// Where in the function's block each buffer is written last, so that a
/// load after that point can be repeated by the reverse sweep (which runs
/// after the whole forward sweep) instead of taped.
struct LastWrites {
    /// The position of each top-level operation of the primal function.
    position: HashMap<Op, usize>,
    /// For each root written, the position of the last top-level
    /// operation that may write it.
    root: HashMap<Value, usize>,
    /// The same for the arguments taken together (they may alias).
    args: Option<usize>,
    /// Roots deallocated inside a loop or branch (whose deallocation
    /// cannot simply move to the end of the reverse sweep).
    pinned: HashSet<Value>,
}

impl LastWrites {
    fn of(body: Block) -> LastWrites {
        let mut last = LastWrites {
            position: HashMap::new(),
            root: HashMap::new(),
            args: None,
            pinned: HashSet::new(),
        };
        for (at, top) in body.ops().into_iter().enumerate() {
            last.position.insert(top, at);
            for op in top.walk() {
                for t in written_operands(op) {
                    let r = root(t);
                    last.root.insert(r, at);
                    if r.block() == body && r.defining_op().is_none() {
                        last.args = Some(at);
                    }
                }
                if op.name() == "memref.dealloc" && op != top {
                    last.pinned.insert(root(op.operand(0)));
                }
            }
        }
        last
    }
}

/// What the reverse of a parallel nest needs to know about its accesses.
struct ParallelNest {
    /// The roots of the buffers of which each iteration accesses only its
    /// own element (indexed by the nest's induction variables, and at no
    /// other indices in the nest).
    owned: HashSet<Value>,
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
    /// A moonrt BLAS routine's own rule (`rules/blas.rs`).
    Foreign(&'static crate::rules::blas::Foreign),
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
    pub fn touches_active(&self, op: Op) -> bool {
        let uses = |o: Op| o.operands().iter().any(|&v| self.activity.is_active(v));
        uses(op) || op.walk().into_iter().any(uses)
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
    fn slot(&mut self, value: Value) -> Value {
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

    /// A builder for the prologue of the reverse of `block`.
    fn prologue(&self, block: Block) -> Option<Builder> {
        self.scopes
            .get(&block)
            .map(|s| Builder::before(s.prologue_end))
    }

    /// The primal value `value` as available at the current point of the
    /// reverse sweep.
    pub fn get(&mut self, value: Value) -> Result<Value, Error> {
        if let Some(&m) = self.materialized.get(&value) {
            return Ok(m);
        }
        let block = value.block();
        if self.direct.contains(&block) || (block == self.body && value.defining_op().is_none()) {
            return Ok(value);
        }
        let at = block.parent_op();
        if self.prologue(block).is_none() {
            return Err(error_at(
                at,
                "internal error: a value is needed outside the reverse of its block",
            ));
        }
        let m = match value.defining_op() {
            Some(op) if self.recomputable(op) => {
                if op.name() == "memref.load" {
                    self.reread.insert(root(op.operand(0)));
                }
                let operands = op
                    .operands()
                    .into_iter()
                    .map(|v| self.get(v))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut b = self.prologue(block).expect("the scope exists");
                let clone = b.insert(op.clone_detached());
                clone.set_operands(&operands);
                let i = op
                    .results()
                    .iter()
                    .position(|&r| r == value)
                    .expect("a result");
                clone.result(i)
            }
            Some(op) if value.ty().is_memref() => {
                return Err(error_at(
                    op,
                    "reverse mode cannot yet keep a buffer allocated inside a loop or branch \
                     (or in a function called from a differentiated one) for the reverse \
                     sweep; allocate it at the top of the function",
                ));
            }
            Some(_) => self.tape(value)?,
            None => match self.induction(value)? {
                Some(v) => v,
                None => self.tape(value)?,
            },
        };
        self.materialized.insert(value, m);
        Ok(m)
    }

    /// Whether `op` is cheap, pure and recomputable in the reverse sweep.
    fn recomputable(&self, op: Op) -> bool {
        let name = op.name();
        if !op.regions().is_empty() || op.results().len() != 1 {
            return false;
        }
        if name == "memref.load" {
            return !self.is_written(op.operand(0)) || self.unchanged_after(op);
        }
        name.starts_with("arith.")
            || name.starts_with("index.")
            || VIEW_OPS.contains(&name.as_str())
            || matches!(
                name.as_str(),
                "memref.dim" | "memref.get_global" | "ub.poison" | "vector.broadcast"
            )
    }

    /// Whether the memory `load` reads holds the same value for the whole
    /// reverse sweep: every operation that may write it comes before the
    /// top-level operation holding `load` (not in a split pair, whose
    /// caller may write memory between its halves).
    fn unchanged_after(&self, load: Op) -> bool {
        let r = root(load.operand(0));
        let mut top = load;
        while top.block() != self.body {
            top = top.block().parent_op();
        }
        let last = &self.last_writes;
        let Some(&at) = last.position.get(&top) else {
            return false;
        };
        let is_arg = r.block() == self.body && r.defining_op().is_none();
        let written = if is_arg && self.args_written {
            last.args
        } else {
            last.root.get(&r).copied()
        };
        !self.split
            && !last.pinned.contains(&r)
            && written.map_or(!self.written.contains(&r), |w| w < at)
    }

    /// Moves the deallocations of the buffers the reverse sweep reads to
    /// the current point (its end).
    fn keep_reread_buffers(&mut self) {
        let end = self.b.anchor_op();
        for op in self.body.ops() {
            if op.name() == "memref.dealloc" && self.reread.contains(&root(op.operand(0))) {
                op.move_before(end);
            }
        }
    }

    /// The value of a loop's block argument computed from the reverse
    /// iteration number: the induction variable of `scf.for`, and integer
    /// `scf.while` arguments that grow by a fixed step.
    fn induction(&mut self, arg: Value) -> Result<Option<Value>, Error> {
        let block = arg.block();
        let op = block.parent_op();
        let Some(&k) = self.reverse_iteration.get(&op) else {
            return Ok(None);
        };
        let (start, step) = match op.name().as_str() {
            "scf.for" if arg.arg_number() == 0 => (op.operand(0), op.operand(2)),
            "scf.while" => match while_induction(op, block, arg.arg_number()) {
                Some(pair) => pair,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let start = self.get(start)?;
        let mut b = self.prologue(block).expect("the loop's scope exists");
        // A step inside the loop is a constant (see `while_induction`):
        // cloned here, where the other region's reverse may not see it.
        let step = if step.defining_op().is_some_and(|o| op.walk().contains(&o)) {
            b.insert(step.defining_op().expect("a constant").clone_detached())
                .result(0)
        } else {
            self.get(step)?
        };
        let ty = arg.ty();
        let k = cast_index(&mut b, k, ty);
        let offset = b.value("arith.muli", &[k, step], ty, &[]);
        Ok(Some(b.value("arith.addi", &[start, offset], ty, &[])))
    }

    /// Saves `value` in the forward sweep and returns it as read back in
    /// the reverse of its block.
    fn tape(&mut self, value: Value) -> Result<Value, Error> {
        let ty = value.ty();
        let block = value.block();
        if !(ty.is_float() || ty.is_index() || ty.is_integer()) {
            return Err(error_at(
                block.parent_op(),
                &format!("reverse mode cannot save a value of type {ty} for the reverse sweep"),
            ));
        }
        match self.loop_nest(block) {
            Some(nest) => self.tape_in_buffer(value, &nest),
            None => Ok(self.tape_on_arena(value)),
        }
    }

    /// The `scf.for` loops enclosing `block` (outermost first) when a tape
    /// buffer indexed by their iteration numbers can be sized before the
    /// outermost one: every enclosing operation up to the function's block
    /// is a `scf.for` (or a branch) with bounds defined in that block.
    fn loop_nest(&self, block: Block) -> Option<Vec<Op>> {
        if self.split {
            return None;
        }
        let mut nest = vec![];
        let mut b = block;
        while b != self.body {
            let op = b.parent_op();
            match op.name().as_str() {
                "scf.for" => {
                    if !op.operands()[..3].iter().all(|v| v.block() == self.body) {
                        return None;
                    }
                    nest.push(op);
                }
                "scf.if" | "scf.execute_region" | "scf.index_switch" => {}
                _ => return None,
            }
            b = op.block();
        }
        nest.reverse();
        Some(nest)
    }

    /// Tapes `value` in the record of its block (see [`Record`]), allocated
    /// before the outermost loop of `nest`: written at the end of the block
    /// and read in the prologue of its reverse.
    fn tape_in_buffer(&mut self, value: Value, nest: &[Op]) -> Result<Value, Error> {
        let ty = value.ty();
        let block = value.block();
        let key = (block, ty.to_string());
        if !self.records.contains_key(&key) {
            // The top-level operation holding the value.
            let mut outer = block.parent_op();
            while outer.block() != self.body {
                outer = outer.block().parent_op();
            }
            let mut b = Builder::before(outer);
            let counts: Vec<Value> = nest
                .iter()
                .map(|l| trip_count(&mut b, l.operand(0), l.operand(1), l.operand(2)))
                .collect();
            let mut sizes = counts.clone();
            sizes.push(b.index(0));
            let (buffer, unit) = self.alloc_tape(&mut b, &sizes, &counts, ty);
            self.records.insert(
                key.clone(),
                Record {
                    buffer,
                    unit,
                    accesses: vec![],
                },
            );
        }
        let record = &self.records[&key];
        let (buffer, slot) = (record.buffer, record.accesses.len() as i64);

        let mut indices: Vec<Value> = nest.iter().map(|&l| self.forward_iteration(l)).collect();
        let mut b = Builder::before(block.terminator().expect("a terminator"));
        indices.push(b.index(slot));
        let mut operands = vec![value, buffer];
        operands.extend(indices);
        let store = b.create("memref.store", &operands, &[], &[], &[], &[]);

        let mut b = self.prologue(block).expect("the scope exists");
        let mut operands = vec![buffer];
        operands.extend(nest.iter().map(|l| self.reverse_iteration[l]));
        operands.push(b.index(slot));
        let load = b.value("memref.load", &operands, ty, &[]);
        let record = self.records.get_mut(&key).expect("the record exists");
        record
            .accesses
            .push([store, load.defining_op().expect("a load")]);
        Ok(load)
    }

    /// Gives each tape record its number of slots: the constant that sizes
    /// it (for moonrt's accounting) and its buffers, one with a static last
    /// dimension or one per slot (see [`Record`]).
    fn size_records(&mut self) {
        let ctx = self.ctx();
        for record in std::mem::take(&mut self.records).into_values() {
            let count = record.accesses.len();
            let element = record.buffer.ty().element();
            let bytes = element_bytes(element) * count as i64;
            record
                .unit
                .set_attr("value", ctx.attr(&format!("{bytes} : index")));
            let old = record.buffer.defining_op().expect("an alloc");
            let mut sizes = old.operands();
            let placeholder = sizes.pop().expect("a slot count");
            let shape = "?x".repeat(sizes.len());
            let mut b = Builder::before(old);
            let buffers: Vec<Value> = if count >= RECORD_SLOTS {
                let ty = ctx.ty(&format!("memref<{shape}{count}x{element}>"));
                let buffer = b.alloc("memref.alloc", &sizes, ty);
                record.buffer.replace_uses(buffer);
                vec![buffer]
            } else {
                let ty = ctx.ty(&format!("memref<{shape}{element}>"));
                record
                    .accesses
                    .iter()
                    .map(|&[store, load]| {
                        let buffer = b.alloc("memref.alloc", &sizes, ty);
                        for op in [store, load] {
                            let mut operands = op.operands();
                            let slot = operands.pop().expect("a slot index");
                            let at = operands.iter().position(|&v| v == record.buffer);
                            operands[at.expect("the record")] = buffer;
                            op.set_operands(&operands);
                            slot.defining_op().expect("a constant").erase();
                        }
                        buffer
                    })
                    .collect()
            };
            old.erase();
            placeholder.defining_op().expect("a constant").erase();
            // The first buffer is freed with the record's byte count.
            let at = self.to_free.iter().position(|(f, _)| *f == record.buffer);
            let (_, bytes) = self.to_free.remove(at.expect("a tape buffer"));
            for (i, &buffer) in buffers.iter().enumerate() {
                self.to_free
                    .push((buffer, if i == 0 { bytes } else { None }));
            }
        }
    }

    /// A buffer `memref<?x…x?xT>` of the given sizes allocated with `b`,
    /// counted in moonrt's tape statistics and freed at the end of the
    /// reverse sweep.
    pub fn tape_buffer(&mut self, b: &mut Builder, sizes: &[Value], ty: Type) -> Value {
        self.alloc_tape(b, sizes, sizes, ty).0
    }

    /// A buffer `memref<?x…x?xT>` of the given sizes, counted in moonrt's
    /// tape statistics as `unit * counts[0] * …` bytes, `unit` (returned)
    /// being the element's size, and freed at the end of the reverse sweep.
    fn alloc_tape(
        &mut self,
        b: &mut Builder,
        sizes: &[Value],
        counts: &[Value],
        ty: Type,
    ) -> (Value, Op) {
        let ctx = self.ctx();
        let shape = "?x".repeat(sizes.len());
        let buffer = b.alloc(
            "memref.alloc",
            sizes,
            ctx.ty(&format!("memref<{shape}{ty}>")),
        );
        let unit = b.index(element_bytes(ty));
        let mut bytes = unit;
        for &n in counts {
            bytes = b.value("arith.muli", &[bytes, n], ctx.index(), &[]);
        }
        let bytes = b.value("arith.index_cast", &[bytes], ctx.ty("i64"), &[]);
        runtime_call(b, "moonrt_tape_note_alloc", &[bytes], None);
        self.to_free.push((buffer, Some(bytes)));
        (buffer, unit.defining_op().expect("a constant"))
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

    /// Pushes `value` on moonrt's tape at the end of its block and pops it
    /// at the start of the block's reverse.
    fn tape_on_arena(&mut self, value: Value) -> Value {
        let ctx = self.ctx();
        let ty = value.ty();
        let block = value.block();
        let (suffix, wide) = if ty.is_float() {
            (
                if ty.to_string() == "f32" {
                    "f32"
                } else {
                    "f64"
                },
                ty,
            )
        } else {
            ("i64", ctx.ty("i64"))
        };
        // Push, keeping pushes in definition order.
        let end = if block == self.body {
            self.split_marker
        } else {
            block.terminator().expect("a terminator")
        };
        let order = positions(block);
        let position = |v: &Value| order[v];
        let pushes = self.pushes.entry(block).or_default();
        let next = pushes
            .iter()
            .position(|(v, _)| position(v) > position(&value));
        let anchor = next.map_or(end, |i| pushes[i].1);
        let mut b = Builder::before(anchor);
        let widened = widen(&mut b, value, wide);
        let push = runtime_call(
            &mut b,
            &format!("moonrt_tape_push_{suffix}"),
            &[widened],
            None,
        );
        let first = widened
            .defining_op()
            .filter(|_| widened != value)
            .unwrap_or(push);
        pushes.insert(next.unwrap_or(pushes.len()), (value, first));

        // Pop, keeping pops in reverse definition order.
        let scope = self.scopes.get_mut(&block).expect("the scope exists");
        let next = scope
            .pops
            .iter()
            .position(|(v, _)| position(v) < position(&value));
        let anchor = next.map_or(scope.pop_end, |i| scope.pops[i].1);
        let mut b = Builder::before(anchor);
        let pop = runtime_call(
            &mut b,
            &format!("moonrt_tape_pop_{suffix}"),
            &[],
            Some(wide),
        );
        let popped = pop.result(0);
        scope
            .pops
            .insert(next.unwrap_or(scope.pops.len()), (value, pop));
        narrow(&mut b, popped, ty)
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
    fn returned_view_shadow(
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

    /// Emits the reverse of `block` at `at`, seeding the adjoints in
    /// `seeds`, and returns the adjoints of `wanted` (values of the block,
    /// usually its arguments) at the end of it; `None` for zero.
    pub fn reverse_nested(
        &mut self,
        block: Block,
        at: Builder,
        seeds: &[(Value, Value)],
        wanted: &[Value],
    ) -> Result<Vec<Option<Value>>, Error> {
        let saved = (self.b, self.current);
        self.b = at;
        self.open_scope(block);
        self.current = block;
        for &(value, seed) in seeds {
            self.add_adjoint(value, seed);
        }
        let ops = block.ops();
        for &op in ops.iter().rev().skip(1) {
            self.reverse_op(op)?;
        }
        let adjoints = wanted.iter().map(|&v| self.take_adjoint(v)).collect();
        (self.b, self.current) = saved;
        Ok(adjoints)
    }

    /// Whether adjoints added into the element of `memref` a load reads
    /// may be added by several iterations at once: in the reverse of a
    /// parallel nest, when the iteration does not own the element.
    pub fn shared_in_parallel(&self, memref: Value) -> bool {
        self.parallel
            .as_ref()
            .is_some_and(|p| !p.owned.contains(&root(memref)))
    }

    /// Reverses the `scf.for` nest `op` made of an `scf.parallel` (marked
    /// [`PARALLEL_NEST`]) as an `scf.parallel` over its iterations, which
    /// are independent, when it qualifies: a top-level nest of a combined
    /// adjoint function (tapes in buffers indexed by iteration), with
    /// bounds defined at the top, a flat body that uses no scalar with an
    /// adjoint from outside (whose adjoint slot iterations would share),
    /// and stores only into elements the iteration owns. Returns whether
    /// it did.
    pub fn reverse_parallel(&mut self, op: Op) -> Result<bool, Error> {
        if !self.diff.settings.parallel_reverse
            || op.attr(PARALLEL_NEST).is_none()
            || self.split
            || op.block() != self.body
        {
            return Ok(false);
        }
        let body_of = |l: &Op| l.regions()[0].entry().expect("a loop body");
        let mut nest = vec![op];
        while let [next, _] = body_of(&nest[nest.len() - 1]).ops().as_slice() {
            if next.name() != "scf.for" || next.attr(PARALLEL_NEST).is_none() {
                break;
            }
            nest.push(*next);
        }
        let inner = body_of(&nest[nest.len() - 1]);
        let top = |v: &Value| v.block() == self.body;
        if nest
            .iter()
            .any(|l| !l.results().is_empty() || !l.operands()[..3].iter().all(top))
        {
            return Ok(false);
        }
        let ops = inner.ops();
        if ops.iter().any(|o| {
            !o.regions().is_empty()
                || o.operands()
                    .iter()
                    .any(|&v| self.has_adjoint(v) && v.block() != inner)
        }) {
            return Ok(false);
        }
        let ivs: Vec<Value> = nest.iter().map(|l| body_of(l).args()[0]).collect();
        let Some(owned) = owned_roots(&ops, &ivs) else {
            return Ok(false);
        };

        let n = nest.len();
        let mut counts = vec![];
        for l in &nest {
            let (lb, ub, step) = (
                self.get(l.operand(0))?,
                self.get(l.operand(1))?,
                self.get(l.operand(2))?,
            );
            counts.push(trip_count(&mut self.b, lb, ub, step));
        }
        let zero = self.b.index(0);
        let one = self.b.index(1);
        let (iterations, reduce) = self.b.parallel(&vec![zero; n], &counts, &vec![one; n]);
        // Iteration k of each loop: its induction variable is lb + k * step.
        for (l, k) in nest.iter().zip(iterations) {
            self.reverse_iteration.insert(*l, k);
        }
        let saved = self.b;
        self.b = Builder::before(reduce);
        for l in &nest[..n - 1] {
            self.open_scope(body_of(l));
        }
        self.parallel = Some(ParallelNest { owned });
        let at = self.b;
        let reversed = self.reverse_nested(inner, at, &[], &[]);
        self.parallel = None;
        self.b = saved;
        reversed?;
        self.parallel_forwards.push(nest);
        Ok(true)
    }

    /// Makes the forward sweep of each nest reversed in parallel an
    /// `scf.parallel` again (with the tape stores its body has gained,
    /// which are indexed by iteration).
    fn parallel_forward(&mut self) {
        for nest in std::mem::take(&mut self.parallel_forwards) {
            let outer = nest[0];
            let n = nest.len();
            let bound = |k: usize| -> Vec<Value> { nest.iter().map(|l| l.operand(k)).collect() };
            let (ivs, reduce) = Builder::before(outer).parallel(&bound(0), &bound(1), &bound(2));
            let inner = nest[n - 1].regions()[0].entry().expect("a loop body");
            let ops = inner.ops();
            for &o in &ops[..ops.len() - 1] {
                o.move_before(reduce);
            }
            for (l, arg) in nest.iter().zip(ivs) {
                let body = l.regions()[0].entry().expect("a loop body");
                body.args()[0].replace_uses(arg);
                self.forward_iteration.remove(l);
                self.reverse_iteration.remove(l);
                self.scopes.remove(&body);
            }
            outer.erase();
        }
    }

    /// Creates the prologue markers of the reverse of `block` at `self.b`.
    fn open_scope(&mut self, block: Block) {
        let pop_end = self.b.index(0).defining_op().expect("a constant");
        let prologue_end = self.b.index(0).defining_op().expect("a constant");
        self.scopes.insert(
            block,
            Scope {
                pops: vec![],
                pop_end,
                prologue_end,
            },
        );
    }

    /// Emits the reverse of one operation.
    fn reverse_op(&mut self, op: Op) -> Result<(), Error> {
        let name = op.name();
        let rule = rules::lookup(&name);
        if let Some(rules::Rule {
            reverse: Reverse::Custom(reverse),
            ..
        }) = rule
        {
            return reverse(self, op);
        }
        if !self.touches_active(op) {
            return Ok(());
        }
        let Some(rule) = rule else {
            return Err(error_at(
                op,
                &format!(
                    "no derivative rule for `{name}`; attach a custom rule (moon.custom_rule)"
                ),
            ));
        };
        match (rule.reverse, rule.forward) {
            (Reverse::Transpose, rules::Forward::Expr(text)) => self.transpose(op, text),
            (Reverse::Transpose, _) => unreachable!("only element rules transpose"),
            (Reverse::Nothing, _) => Ok(()),
            (Reverse::Custom(_), _) => unreachable!("handled above"),
        }
    }

    /// The reverse of an element operation: its forward rule, transposed.
    fn transpose(&mut self, op: Op, text: &str) -> Result<(), Error> {
        let result = op.result(0);
        if result.ty().is_memref() {
            return Err(error_at(
                op,
                &format!(
                    "`{}` of active buffers cannot be differentiated yet",
                    op.name()
                ),
            ));
        }
        let Some(adjoint) = self.take_adjoint(result) else {
            return Ok(());
        };
        let rule = expr::parse(text);
        // The primal values the active operands' terms read (the terms of
        // operands without adjoints are not built).
        let mut used = HashSet::new();
        for (i, &operand) in op.operands().iter().enumerate() {
            if self.has_adjoint(operand) {
                primal_uses(&rule, i, &mut used);
            }
        }
        let mut operands = op.operands();
        for (i, v) in operands.iter_mut().enumerate() {
            if used.contains(&Some(i)) {
                *v = self.get(*v)?;
            }
        }
        let primal_result = if used.contains(&None) {
            self.get(result)?
        } else {
            result
        };
        let name = op.name();
        for (i, &operand) in op.operands().iter().enumerate() {
            if !self.has_adjoint(operand) {
                continue;
            }
            let mut tangents = vec![None; operands.len()];
            tangents[i] = Some(adjoint);
            let env = Env {
                op_name: &name,
                operands: &operands,
                tangents: &tangents,
                result: primal_result,
                tangent_type: result.ty(),
                width: 1,
            };
            let mut b = self.b;
            match env.eval(&mut b, &rule) {
                Term::Zero => {}
                term => {
                    let contribution = env.tangent_value(&mut b, term);
                    self.b = b;
                    self.add_adjoint(operand, contribution);
                }
            }
        }
        Ok(())
    }

    /// Frees the tape buffers at the current point (the end of the
    /// reverse sweep).
    fn free_tapes(&mut self) {
        for (buffer, bytes) in std::mem::take(&mut self.to_free) {
            self.b
                .create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
            if let Some(bytes) = bytes {
                runtime_call(&mut self.b, "moonrt_tape_note_free", &[bytes], None);
            }
        }
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

/// For a `scf.while`'s argument `i` of `block` (its before or after
/// region), the initial value and step when the argument is an integer
/// that starts at an init and grows by a value defined outside the loop.
fn while_induction(op: Op, block: Block, i: usize) -> Option<(Value, Value)> {
    let regions = op.regions();
    let before = regions[0].entry()?;
    let after = regions[1].entry()?;
    let condition = before.terminator()?.operands();
    // The before argument and the after argument of one induction.
    let (b, a) = if block == before {
        let j = condition[1..].iter().position(|&v| v == before.args()[i])?;
        (i, j)
    } else {
        let arg = condition.get(i + 1)?;
        if arg.block() != before || arg.defining_op().is_some() {
            return None;
        }
        (arg.arg_number(), i)
    };
    let ty = before.args()[b].ty();
    if !(ty.is_index() || ty.is_integer()) {
        return None;
    }
    let next = after.terminator()?.operands()[b];
    let add = next.defining_op().filter(|o| o.name() == "arith.addi")?;
    let [x, y] = add.operands()[..] else {
        return None;
    };
    let step = if x == after.args()[a] {
        y
    } else if y == after.args()[a] {
        x
    } else {
        return None;
    };
    if op.walk().iter().any(|o| o.results().contains(&step)) || block.args().contains(&step) {
        // The step must be defined outside the loop, or be a constant.
        let constant = step
            .defining_op()
            .filter(|o| o.name() == "arith.constant")?;
        let _ = constant;
    }
    Some((op.operand(b), step))
}

/// Positions of the values of `block` in definition order: arguments
/// first, then results in operation order.
fn positions(block: Block) -> HashMap<Value, usize> {
    let mut order = HashMap::new();
    for a in block.args() {
        order.insert(a, order.len());
    }
    for op in block.ops() {
        for r in op.results() {
            order.insert(r, order.len());
        }
    }
    order
}

/// Which operands (`Some(i)`) and whether the result (`None`) the
/// expression `e` reads when only the tangent `dx{live}` is non-zero;
/// returns whether `e` is then zero (and reads nothing).
fn primal_uses(e: &Expr, live: usize, used: &mut HashSet<Option<usize>>) -> bool {
    let mut side = |x: &Expr| {
        let mut uses = HashSet::new();
        let zero = primal_uses(x, live, &mut uses);
        (zero, uses)
    };
    match e {
        Expr::Operand(i) => {
            used.insert(Some(*i));
            false
        }
        Expr::Result => {
            used.insert(None);
            false
        }
        Expr::Tangent(j) => *j != live,
        Expr::Number(_) => false,
        Expr::Neg(x) => primal_uses(x, live, used),
        Expr::Binary(op, l, r) => {
            let ((zl, ul), (zr, ur)) = (side(l), side(r));
            let zero = match op {
                '*' => zl || zr,
                '/' => zl,
                _ => zl && zr,
            };
            if !zero {
                used.extend(if zl { HashSet::new() } else { ul });
                used.extend(if zr && *op != '/' { HashSet::new() } else { ur });
            }
            zero
        }
        Expr::Call(name, args) => {
            let sides: Vec<_> = args.iter().map(&mut side).collect();
            let zero = name == "select" && sides[1].0 && sides[2].0;
            if !zero {
                sides.into_iter().for_each(|(_, u)| used.extend(u));
            }
            zero
        }
    }
}

/// The size in bytes of one element of type `ty` on a tape.
fn element_bytes(ty: Type) -> i64 {
    match ty.to_string().as_str() {
        "f32" | "i32" => 4,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ => 8,
    }
}

/// `value` (an integer or index) as an index.
fn cast_index_from(b: &mut Builder, value: Value) -> Value {
    if value.ty().is_index() {
        value
    } else {
        b.value("arith.index_cast", &[value], b.ctx.index(), &[])
    }
}

/// The index `k` as a value of the integer or index type `ty`.
pub fn cast_index(b: &mut Builder, k: Value, ty: Type) -> Value {
    if ty.is_index() {
        k
    } else {
        b.value("arith.index_cast", &[k], ty, &[])
    }
}

/// The trip count (an index) of `scf.for %i = lb to ub step step`.
pub fn trip_count(b: &mut Builder, lb: Value, ub: Value, step: Value) -> Value {
    let index = b.ctx.index();
    let (lb, ub, step) = (
        cast_index_from(b, lb),
        cast_index_from(b, ub),
        cast_index_from(b, step),
    );
    let span = b.value("arith.subi", &[ub, lb], index, &[]);
    let zero = b.index(0);
    let span = b.value("arith.maxsi", &[span, zero], index, &[]);
    b.value("arith.ceildivsi", &[span, step], index, &[])
}

/// A call of moonrt's `name` with `args`, returning its result if `result`
/// gives its type. The function is declared in the module on first use.
pub fn runtime_call(b: &mut Builder, name: &str, args: &[Value], result: Option<Type>) -> Op {
    let block = Block(
        // SAFETY: the builder's anchor is live, so is its module.
        unsafe { sys::mlirOperationGetBlock(module_of(b)) },
    );
    let declared = block
        .ops()
        .iter()
        .any(|o| o.attr("sym_name").and_then(|a| a.string()).as_deref() == Some(name));
    if !declared {
        let params: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
        let results = result.map(|t| t.to_string()).unwrap_or_default();
        let ty = b
            .ctx
            .attr(&format!("({}) -> ({results})", params.join(", ")));
        let mut top = Builder::at_end(block, b.loc);
        top.create(
            "func.func",
            &[],
            &[],
            &[
                ("sym_name", b.ctx.attr(&format!("\"{name}\""))),
                ("function_type", ty),
                ("sym_visibility", b.ctx.attr("\"private\"")),
            ],
            &[Region::new()],
            &[],
        );
    }
    let callee = b.ctx.attr(&format!("@{name}"));
    let results: Vec<Type> = result.into_iter().collect();
    b.create("func.call", args, &results, &[("callee", callee)], &[], &[])
}

/// The top-level operation (a function) that contains the builder's anchor.
fn module_of(b: &Builder) -> sys::MlirOperation {
    let mut op = b.anchor_op();
    while let Some(parent) = op.parent() {
        if parent.name() == "builtin.module" {
            return op.0;
        }
        op = parent;
    }
    op.0
}

/// `value` widened to `wide` for the tape (integers and indices to i64).
fn widen(b: &mut Builder, value: Value, wide: Type) -> Value {
    let ty = value.ty();
    if ty == wide {
        value
    } else if ty.is_index() {
        b.value("arith.index_castui", &[value], wide, &[])
    } else {
        b.value("arith.extui", &[value], wide, &[])
    }
}

/// A popped value narrowed back to `ty`.
fn narrow(b: &mut Builder, value: Value, ty: Type) -> Value {
    if value.ty() == ty {
        value
    } else if ty.is_index() {
        b.value("arith.index_castui", &[value], ty, &[])
    } else {
        b.value("arith.trunci", &[value], ty, &[])
    }
}

/// Checks that `key`'s activities fit `function`'s type in reverse mode.
fn check_key(key: &Key, ty: &(Vec<Type>, Vec<Type>), at: Op) -> Result<(), Error> {
    let (inputs, outputs) = ty;
    if key.args.len() != inputs.len() || key.results.len() != outputs.len() {
        return Err(error_at(
            at,
            "activities do not match the function's arguments and results",
        ));
    }
    if key.width != 1 {
        return Err(error_at(
            at,
            "reverse mode with `width` above 1 is not supported yet",
        ));
    }
    let fits = |t: &Type, a: &Act, argument: bool| match a {
        Act::Active => t.is_differentiable(),
        Act::ActiveNoNeed => !argument && t.is_differentiable(),
        Act::Dup | Act::DupNoNeed => argument && t.is_float_memref(),
        Act::Const => true,
    };
    for (kind, types, acts, argument) in [
        ("argument", inputs, &key.args, true),
        ("result", outputs, &key.results, false),
    ] {
        for (i, (t, a)) in types.iter().zip(acts.iter()).enumerate() {
            if !fits(t, a, argument) {
                return Err(error_at(
                    at,
                    &format!(
                        "{kind} #{i} of @{} ({t}) cannot be `{}` in reverse mode",
                        key.function,
                        a.keyword()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Runs `pipeline` (a textual pass pipeline anchored on `func.func`) on
/// `function`.
fn run_on_function(ctx: Ctx, function: Op, passes: &[sys::MlirPass]) -> Result<(), Error> {
    // SAFETY: the pass manager is created, used and destroyed here; it
    // takes ownership of the passes; the function is live.
    unsafe {
        let anchor = "func.func";
        let pm = sys::mlirPassManagerCreateOnOperation(
            ctx.0,
            sys::MlirStringRef {
                data: anchor.as_ptr().cast(),
                length: anchor.len(),
            },
        );
        for &pass in passes {
            sys::mlirPassManagerAddOwnedPass(pm, pass);
        }
        let result = sys::mlirPassManagerRunOnOp(pm, function.0);
        sys::mlirPassManagerDestroy(pm);
        if result.value == 0 {
            return Err(error_at(
                function,
                "cannot bring this function into the structured form reverse mode needs",
            ));
        }
    }
    Ok(())
}

/// Lifts unstructured control flow to `scf` and generalizes named linalg
/// operations, when `function` has any; `parallel`: see
/// [`sequential_parallel_loops`].
fn prepare(ctx: Ctx, function: Op, parallel: bool) -> Result<(), Error> {
    let body = function.regions()[0];
    let ops = function.walk();
    let mut passes = vec![];
    if body.blocks().len() > 1 || ops.iter().any(|o| o.name().starts_with("cf.")) {
        // SAFETY: creating a pass has no preconditions.
        passes.push(unsafe { sys::mlirCreateConversionLiftControlFlowToSCFPass() });
    }
    if ops.iter().any(|o| {
        let name = o.name();
        name.starts_with("linalg.")
            && name != "linalg.generic"
            && name != "linalg.yield"
            && name != "linalg.index"
    }) {
        // SAFETY: as above.
        passes.push(unsafe { sys::mlirCreateLinalgLinalgGeneralizeNamedOpsPass() });
    }
    sequential_parallel_loops(ctx, function, parallel);
    if passes.is_empty() {
        return Ok(());
    }
    run_on_function(ctx, function, &passes)
}

/// The discardable attribute marking the `scf.for` loops made of an
/// `scf.parallel` whose reverse may be parallel (`parallel-reverse`).
pub const PARALLEL_NEST: &str = "moon.parallel_nest";

/// Whether the body of an `scf.parallel` is flat: loads, stores and
/// element computations only (no regions, calls or allocations).
fn flat_parallel_body(body: Block) -> bool {
    body.ops().iter().all(|op| {
        let name = op.name();
        if name == "scf.reduce" {
            return op.operands().is_empty();
        }
        op.regions().is_empty()
            && (name.starts_with("arith.")
                || name.starts_with("math.")
                || matches!(name.as_str(), "memref.load" | "memref.store" | "memref.dim"))
    })
}

/// Rewrites each `scf.parallel` without reductions as a nest of `scf.for`
/// (its iterations are independent, so any order is its meaning), which
/// reverse mode knows how to reverse. With `parallel`, the loops of a nest
/// made of an `scf.parallel` with a flat body are marked
/// ([`PARALLEL_NEST`]), so that their reverse may be parallel too.
fn sequential_parallel_loops(ctx: Ctx, function: Op, parallel: bool) {
    for op in function.walk().into_iter().rev() {
        if op.name() != "scf.parallel" || !op.results().is_empty() {
            continue;
        }
        let body = op.regions()[0].entry().expect("a parallel body");
        let mark = parallel && flat_parallel_body(body);
        let operands = op.operands();
        let dims = body.args().len();
        let mut b = Builder::before(op);
        let mut ivs = vec![];
        for d in 0..dims {
            let (region, block) = Region::with_block(&[ctx.index()], op.loc());
            let bounds = [operands[d], operands[dims + d], operands[2 * dims + d]];
            let attrs = if mark {
                vec![(PARALLEL_NEST, ctx.attr("unit"))]
            } else {
                vec![]
            };
            b.create("scf.for", &bounds, &[], &attrs, &[region], &[]);
            region.destroy();
            let yield_ =
                Builder::at_end(block, op.loc()).create("scf.yield", &[], &[], &[], &[], &[]);
            ivs.push(block.args()[0]);
            b = Builder::before(yield_);
        }
        let innermost = b.anchor_op();
        for inner in body.ops() {
            if inner.name() != "scf.reduce" {
                inner.move_before(innermost);
            }
        }
        for (arg, iv) in body.args().into_iter().zip(ivs) {
            arg.replace_uses(iv);
        }
        op.erase();
    }
}

/// The roots of the buffers that the loads and stores among `ops` access
/// only at one list of indices, the induction variables `ivs` in some
/// order, through one memref value: each iteration of the nest owns the
/// element it accesses. `None` when a store is not of that kind.
fn owned_roots(ops: &[Op], ivs: &[Value]) -> Option<HashSet<Value>> {
    let mut accesses: HashMap<Value, Vec<(Value, Vec<Value>)>> = HashMap::new();
    let mut stored = HashSet::new();
    for op in ops {
        let (memref, first) = match op.name().as_str() {
            "memref.load" => (op.operand(0), 1),
            "memref.store" => (op.operand(1), 2),
            _ => continue,
        };
        if op.name() == "memref.store" {
            stored.insert(root(memref));
        }
        let indices = op.operands()[first..].to_vec();
        accesses
            .entry(root(memref))
            .or_default()
            .push((memref, indices));
    }
    let owns = |list: &[(Value, Vec<Value>)]| {
        let (memref, indices) = &list[0];
        let distinct: HashSet<&Value> = indices.iter().collect();
        indices.len() == ivs.len()
            && distinct.len() == ivs.len()
            && ivs.iter().all(|iv| distinct.contains(iv))
            && list.iter().all(|(m, i)| m == memref && i == indices)
    };
    let owned: HashSet<Value> = accesses
        .iter()
        .filter(|(_, list)| owns(list))
        .map(|(r, _)| *r)
        .collect();
    stored.is_subset(&owned).then_some(owned)
}

/// The roots of the buffers `function` may write.
fn written_roots(function: Op) -> HashSet<Value> {
    let mut written = HashSet::new();
    for op in function.walk() {
        for t in written_operands(op) {
            written.insert(root(t));
        }
    }
    written
}

/// The memref operands `op` itself may write (not its nested operations).
pub(crate) fn written_operands(op: Op) -> Vec<Value> {
    let name = op.name();
    let operands = op.operands();
    let foreign = (name == "func.call")
        .then(|| op.attr("callee").and_then(|a| a.string()))
        .flatten()
        .and_then(|callee| crate::rules::blas::lookup(&callee));
    let targets: Vec<Value> = match name.as_str() {
        _ if foreign.is_some() => {
            let writes = foreign.map_or(&[][..], |rule| rule.writes);
            writes.iter().map(|&i| operands[i]).collect()
        }
        "memref.load"
        | "memref.dim"
        | "memref.dealloc"
        | "memref.rank"
        | "memref.extract_strided_metadata" => vec![],
        "memref.store" => vec![operands[1]],
        "memref.copy" => vec![operands[1]],
        _ if VIEW_OPS.contains(&name.as_str()) => vec![],
        _ if name.starts_with("linalg.") => {
            let (ins, _) = split_ins_outs(op);
            operands[ins..].to_vec()
        }
        _ => operands,
    };
    targets.into_iter().filter(|t| t.ty().is_memref()).collect()
}

/// Generates the adjoint function(s) of `primal` for `key`.
pub(crate) fn generate(
    diff: &mut Differentiator,
    primal: Op,
    key: &Key,
    names: &Names,
    at: Op,
) -> Result<Vec<(String, Op)>, Error> {
    let ctx = diff.ctx();
    let ty = diff.function_type(&key.function).expect("a function");
    check_key(key, &ty, at)?;
    let (inputs, outputs) = ty;
    let split = matches!(names, Names::Split { .. });

    let function = primal.clone_detached();
    // SAFETY: both are live; the module block takes the detached clone.
    unsafe {
        sys::mlirBlockInsertOwnedOperationAfter(
            sys::mlirOperationGetBlock(primal.0),
            primal.0,
            function.0,
        );
    }
    let name = match names {
        Names::Combined(name) => name.clone(),
        Names::Split { reverse, .. } => reverse.clone(),
    };
    function.set_attr("sym_name", ctx.attr(&format!("\"{name}\"")));
    function.set_attr("sym_visibility", ctx.attr("\"private\""));
    for attr in ["arg_attrs", "res_attrs", "llvm.emit_c_interface"] {
        function.remove_attr(attr);
    }
    prepare(ctx, function, diff.settings.parallel_reverse)?;
    let region = function.regions()[0];
    if region.blocks().len() != 1 {
        return Err(error_at(
            function,
            "reverse mode needs structured control flow; this function's branches could not be \
             lifted to scf",
        ));
    }
    let body = region.entry().expect("a body");
    let ret = body.terminator().expect("a return");
    let args = body.args();
    let seeds: Vec<Value> = (0..args.len())
        .filter(|&i| key.args[i] != Act::Const)
        .map(|i| args[i])
        .collect();
    let activity = Activity::analyze(function, &seeds);
    let written = written_roots(function);
    let args_written = args.iter().any(|a| written.contains(a));

    let mut marker_builder = Builder::before(ret);
    let split_marker = marker_builder.index(0).defining_op().expect("a constant");
    // Adjoint slots sit at the start of a combined function, so that
    // reverse code fused into a forward loop can add to them (a split
    // pair's reverse function starts at the split marker).
    let first = body.ops()[0];
    let slot_anchor = if split {
        marker_builder.index(0)
    } else {
        Builder::before(first).index(0)
    }
    .defining_op()
    .expect("a constant");
    let mut state = ReverseState {
        diff,
        activity,
        b: Builder::before(ret),
        body,
        split,
        direct: if split {
            HashSet::new()
        } else {
            HashSet::from([body])
        },
        scopes: HashMap::new(),
        current: body,
        materialized: HashMap::new(),
        adjoints: HashMap::new(),
        slots: HashMap::new(),
        slot_anchor,
        split_marker,
        pushes: HashMap::new(),
        written,
        args_written,
        last_writes: LastWrites::of(body),
        reread: HashSet::new(),
        forward_iteration: HashMap::new(),
        reverse_iteration: HashMap::new(),
        shadows: HashMap::new(),
        to_free: vec![],
        records: HashMap::new(),
        calls: HashMap::new(),
        parallel: None,
        parallel_forwards: vec![],
    };
    state.prepare_calls(function)?;

    // Shadow arguments, then result cotangents.
    let loc = function.loc();
    for (i, &a) in args.iter().enumerate() {
        if matches!(key.args[i], Act::Dup | Act::DupNoNeed) {
            let shadow = body.add_arg(a.ty(), loc);
            state.shadows.insert(a, shadow);
        }
    }
    let returned = ret.operands();
    let mut result_seeds = vec![];
    for (j, &r) in returned.iter().enumerate() {
        if matches!(key.results[j], Act::Active | Act::ActiveNoNeed) {
            let cotangent = body.add_arg(outputs[j], loc);
            result_seeds.push((r, cotangent));
        }
    }
    let end = state.reverse_nested_top(body, &result_seeds)?;
    let adjoints: Vec<Value> = (0..args.len())
        .filter(|&i| key.args[i] == Act::Active)
        .map(|i| end[i])
        .collect();
    state.size_records();
    state.keep_reread_buffers();
    state.free_tapes();
    state.parallel_forward();
    for op in function.walk() {
        op.remove_attr(PARALLEL_NEST);
    }

    let kept: Vec<usize> = (0..returned.len())
        .filter(|&j| key.results[j] != Act::ActiveNoNeed)
        .collect();
    let mut operands: Vec<Value> = kept.iter().map(|&j| returned[j]).collect();
    operands.extend(&adjoints);
    state.b.create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();

    let all_inputs: Vec<Type> = body.args().iter().map(|a| a.ty()).collect();
    let kept_types: Vec<Type> = kept.iter().map(|&j| outputs[j]).collect();
    let adjoint_types: Vec<Type> = adjoints.iter().map(|a| a.ty()).collect();
    let signature = |ins: &[Type], outs: &[Type]| {
        let show = |ts: &[Type]| {
            ts.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        ctx.attr(&format!("({}) -> ({})", show(ins), show(outs)))
    };
    match names {
        Names::Combined(name) => {
            split_marker.erase();
            function.set_attr(
                "function_type",
                signature(&all_inputs, &[kept_types, adjoint_types].concat()),
            );
            moonc_ir::ir::remove_dead_code(function);
            tracing::debug!(function = name, "generated an adjoint function");
            Ok(vec![(name.clone(), function)])
        }
        Names::Split { forward, reverse } => {
            let fwd = split_forward(function, split_marker, kept.len(), inputs.len())?;
            fwd.set_attr("sym_name", ctx.attr(&format!("\"{forward}\"")));
            fwd.set_attr("function_type", signature(&inputs, &kept_types));
            let rev = split_reverse(function, split_marker, kept.len())?;
            rev.set_attr("function_type", signature(&all_inputs, &adjoint_types));
            for f in [fwd, rev] {
                moonc_ir::ir::remove_dead_code(f);
            }
            tracing::debug!(function = reverse, "generated a split adjoint pair");
            Ok(vec![(forward.clone(), fwd), (reverse.clone(), rev)])
        }
    }
}

/// The forward function of a split pair: the primal part of `function`
/// (before `marker`), returning the first `kept` results, with the first
/// `inputs` arguments.
fn split_forward(function: Op, marker: Op, kept: usize, inputs: usize) -> Result<Op, Error> {
    let clone = function.clone_detached();
    // SAFETY: both are live; the module block takes the detached clone.
    unsafe {
        sys::mlirBlockInsertOwnedOperationBefore(
            sys::mlirOperationGetBlock(function.0),
            function.0,
            clone.0,
        );
    }
    let position = function.regions()[0]
        .entry()
        .expect("a body")
        .ops()
        .iter()
        .position(|&o| o == marker)
        .expect("the marker");
    let body = clone.regions()[0].entry().expect("a body");
    let ops = body.ops();
    let ret = *ops.last().expect("a return");
    let operands = ret.operands()[..kept].to_vec();
    Builder::before(ret).create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();
    for &op in ops[position..ops.len() - 1].iter().rev() {
        op.erase();
    }
    for i in (inputs..body.args().len()).rev() {
        if !body.args()[i].is_unused() {
            return Err(error_at(
                clone,
                "internal error: the forward sweep uses a shadow",
            ));
        }
        body.erase_arg(i);
    }
    Ok(clone)
}

/// The reverse function of a split pair: `function` without its primal
/// part (before `marker`), returning the adjoints (results from `kept` on).
fn split_reverse(function: Op, marker: Op, kept: usize) -> Result<Op, Error> {
    let body = function.regions()[0].entry().expect("a body");
    let ops = body.ops();
    let ret = *ops.last().expect("a return");
    let operands = ret.operands()[kept..].to_vec();
    Builder::before(ret).create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();
    let position = ops.iter().position(|&o| o == marker).expect("the marker");
    for &op in ops[..=position].iter().rev() {
        if op.results().iter().any(|r| !r.is_unused()) {
            return Err(error_at(
                op,
                "internal error: the reverse sweep of a called function uses a forward value",
            ));
        }
        op.erase();
    }
    Ok(function)
}

impl ReverseState<'_> {
    /// Reverses the function's block: seeds the returned values, reverses
    /// every operation, and returns the adjoints of the arguments (zero
    /// where none flowed) in argument order, for those that have one.
    fn reverse_nested_top(
        &mut self,
        body: Block,
        seeds: &[(Value, Value)],
    ) -> Result<Vec<Value>, Error> {
        let args = body.args();
        let at = self.b;
        let adjoints = self.reverse_nested(body, at, seeds, &args)?;
        Ok(args
            .iter()
            .zip(adjoints)
            .map(|(a, adj)| match adj {
                Some(v) => v,
                None if a.ty().is_differentiable() => self.b.float(a.ty(), 0.0),
                None => *a,
            })
            .collect())
    }

    /// Points every active call at the forward function of its callee's
    /// split pair (or leaves it for a custom rule) and records how the
    /// reverse sweep differentiates it.
    fn prepare_calls(&mut self, function: Op) -> Result<(), Error> {
        for op in function.walk() {
            if op.name() != "func.call" {
                continue;
            }
            let operands = op.operands();
            let results = op.results();
            let active = |v: &Value| self.activity.is_active(*v);
            if !operands.iter().any(active) && !results.iter().any(active) {
                continue;
            }
            let callee = op
                .attr("callee")
                .and_then(|a| a.string())
                .expect("a callee");
            if let Some(rule) = crate::rules::blas::lookup(&callee) {
                self.calls.insert(op, CallRule::Foreign(rule));
                continue;
            }
            let Some(ty) = self.diff.function_type(&callee) else {
                return Err(error_at(
                    op,
                    &format!("no function @{callee} to differentiate"),
                ));
            };
            if let Some(custom) = self.diff.custom_vjp(&callee) {
                let key = Key::default_for(&callee, ty, 1);
                self.calls
                    .insert(op, CallRule::Custom(key, custom.to_string()));
                continue;
            }
            if let Some(jvp) = self.diff.custom_rule(&callee) {
                let scalar =
                    |t: &Type| t.is_float() || !t.is_differentiable() && !t.is_float_memref();
                if !ty.0.iter().chain(&ty.1).all(scalar) {
                    return Err(error_at(
                        op,
                        &format!(
                            "@{callee} has a custom jvp but no vjp; reverse mode can use a jvp \
                             only for functions of float scalars: add a vjp to its \
                             moon.custom_rule"
                        ),
                    ));
                }
                let key = Key::default_for(&callee, ty, 1);
                self.calls
                    .insert(op, CallRule::CustomJvp(key, jvp.to_string()));
                continue;
            }
            let activity = |v: &Value, arg: bool| match (self.activity.is_active(*v), v.ty()) {
                (true, t) if t.is_float_memref() && arg => Act::Dup,
                (true, t) if t.is_differentiable() => Act::Active,
                _ => Act::Const,
            };
            let key = Key {
                function: callee.clone(),
                args: operands.iter().map(|v| activity(v, true)).collect(),
                results: results.iter().map(|v| activity(v, false)).collect(),
                width: 1,
            };
            let (forward, reverse) = self.diff.request_vjp(key.clone(), true, op)?;
            op.set_attr("callee", self.ctx().attr(&format!("@{forward}")));
            self.calls.insert(op, CallRule::Split(key, reverse));
        }
        Ok(())
    }
}

/// Replaces one `moon.vjp` by a call of its adjoint function.
pub(crate) fn replace_vjp(diff: &mut Differentiator, op: Op) -> Result<(), Error> {
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .expect("moon.vjp names a callee");
    let Some(ty) = diff.function_type(&callee) else {
        return Err(error_at(
            op,
            &format!("no function @{callee} to differentiate"),
        ));
    };
    let key = requested_key(op, &callee, ty.clone());
    // Checked here, while `op` (the error's location) still exists.
    check_key(&key, &ty, op)?;
    let default = Key::default_for(&callee, ty, 1);
    let name = match diff.custom_vjp(&callee) {
        Some(custom) if key == default => custom.to_string(),
        Some(_) => {
            return Err(error_at(
                op,
                &format!(
                    "@{callee} has a custom rule, which only serves the default activities at \
                     width 1"
                ),
            ));
        }
        None => diff.request_vjp(key, false, op)?.1,
    };
    let mut b = Builder::before(op);
    let types: Vec<Type> = op.results().iter().map(|r| r.ty()).collect();
    let callee_attr = diff.ctx().attr(&format!("@{name}"));
    let call = b.create(
        "func.call",
        &op.operands(),
        &types,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    for (old, new) in op.results().into_iter().zip(call.results()) {
        old.replace_uses(new);
    }
    op.erase();
    Ok(())
}
