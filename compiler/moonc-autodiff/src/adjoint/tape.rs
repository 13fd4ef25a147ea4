//! The tape: values the forward sweep saves for the reverse sweep, in
//! buffers indexed by iteration numbers (shared per block and element type
//! in a [`Record`]) or on moonrt's LIFO tape.

use super::{
    ReverseState,
    primal::positions,
    runtime::{narrow, runtime_call, trip_count, widen},
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Op, Type, Value, error_at},
};

/// The tape of the values one block tapes with one element type. With at
/// least [`RECORD_SLOTS`] values, one buffer `memref<N1x…xNkxSxT>`: a
/// record of `S` slots per iteration of the enclosing loops, which an
/// iteration writes (and its reverse reads) contiguously from one base
/// address, where a buffer per value would take a stream and a base
/// register each. Fewer values keep a buffer `memref<N1x…xNkxT>` each, so
/// that a vectorized loop stores and loads them with unit stride.
pub(crate) struct Record {
    /// A placeholder `memref<N1x…xNkx?xT>` until every value is taped.
    pub(crate) buffer: Value,
    /// The `arith.constant` giving the bytes of a record to moonrt's
    /// accounting, set once every value is taped.
    pub(crate) unit: Op,
    /// The stores and loads of each slot, in slot order.
    pub(crate) accesses: Vec<[Op; 2]>,
}

/// The fewest values a block tapes in one record (see [`Record`]).
pub(crate) const RECORD_SLOTS: usize = 8;

/// The size in bytes of one element of type `ty` on a tape.
pub(crate) fn element_bytes(ty: Type) -> i64 {
    match ty.to_string().as_str() {
        "f32" | "i32" => 4,
        "f16" | "bf16" | "i16" => 2,
        "i8" | "i1" => 1,
        _ => 8,
    }
}

impl ReverseState<'_> {
    /// Saves `value` in the forward sweep and returns it as read back in
    /// the reverse of its block.
    pub(crate) fn tape(&mut self, value: Value) -> Result<Value, Error> {
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
    pub(crate) fn loop_nest(&self, block: Block) -> Option<Vec<Op>> {
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
    pub(crate) fn tape_in_buffer(&mut self, value: Value, nest: &[Op]) -> Result<Value, Error> {
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
            let mut counts: Vec<Value> = nest
                .iter()
                .map(|l| trip_count(&mut b, l.operand(0), l.operand(1), l.operand(2)))
                .collect();
            // In a branch of a top-level `scf.if`, the buffer has rows only
            // when the branch is taken.
            if let (Some(first), "scf.if") = (counts.first_mut(), outer.name().as_str()) {
                let then = outer.regions()[0].entry().expect("a then block");
                let zero = b.index(0);
                let (taken, not) = if block.is_within(then) {
                    (*first, zero)
                } else {
                    (zero, *first)
                };
                let index = b.ctx.index();
                *first = b.value("arith.select", &[outer.operand(0), taken, not], index, &[]);
            }
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
    pub(crate) fn size_records(&mut self) {
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
            // The buffers take the record's place among those freed at the
            // end (so that the order does not depend on the hashing of
            // `records`); the first is freed with the record's byte count.
            let at = self.to_free.iter().position(|(f, _)| *f == record.buffer);
            let at = at.expect("a tape buffer");
            let bytes = self.to_free[at].1;
            let freed = buffers
                .iter()
                .enumerate()
                .map(|(i, &buffer)| (buffer, if i == 0 { bytes } else { None }));
            self.to_free.splice(at..=at, freed);
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
    pub(crate) fn alloc_tape(
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

    /// Pushes `value` on moonrt's tape at the end of its block and pops it
    /// at the start of the block's reverse.
    pub(crate) fn tape_on_arena(&mut self, value: Value) -> Value {
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

    /// Frees the tape buffers at the current point (the end of the
    /// reverse sweep).
    pub(crate) fn free_tapes(&mut self) {
        for (buffer, bytes) in std::mem::take(&mut self.to_free) {
            self.b
                .create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
            if let Some(bytes) = bytes {
                runtime_call(&mut self.b, "moonrt_tape_note_free", &[bytes], None);
            }
        }
    }
}
