//! Rereading: a load after the last write to its memory is repeated in the
//! reverse sweep instead of taped ([`LastWrites`] says when each buffer
//! stops changing).

use super::ReverseState;
use crate::activity::root;
use moonc_ir::ir::{Block, Op, Value};
use std::collections::{HashMap, HashSet};

/// Where in the function's block each buffer is written last, so that a
/// load after that point can be repeated by the reverse sweep (which runs
/// after the whole forward sweep) instead of taped.
pub(crate) struct LastWrites {
    /// The position of each top-level operation of the primal function.
    pub(crate) position: HashMap<Op, usize>,
    /// For each root written, the position of the last top-level
    /// operation that may write it.
    pub(crate) root: HashMap<Value, usize>,
    /// The same for the arguments taken together (they may alias).
    pub(crate) args: Option<usize>,
    /// Roots deallocated inside a loop or branch (whose deallocation
    /// cannot simply move to the end of the reverse sweep).
    pub(crate) pinned: HashSet<Value>,
}

impl LastWrites {
    pub(crate) fn of(body: Block, writes: &dyn Fn(Op) -> Vec<Value>) -> LastWrites {
        let mut last = LastWrites {
            position: HashMap::new(),
            root: HashMap::new(),
            args: None,
            pinned: HashSet::new(),
        };
        for (at, top) in body.ops().into_iter().enumerate() {
            last.position.insert(top, at);
            // `walk` lists the operations nested in `top`, not `top`.
            for op in std::iter::once(top).chain(top.walk()) {
                for t in writes(op) {
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

impl ReverseState<'_> {
    /// Whether the memory `load` reads holds the same value for the whole
    /// reverse sweep (see [`Self::unchanged`]).
    pub(crate) fn unchanged_after(&self, load: Op) -> bool {
        self.unchanged(load, load.operand(0))
    }

    /// Whether the memory of `buffer`, read by `op`, holds the same value
    /// for the whole reverse sweep: every operation that may write it
    /// comes before the top-level operation holding `op` (not in a split
    /// pair, whose caller may write memory between its halves).
    fn unchanged(&self, op: Op, buffer: Value) -> bool {
        let r = root(buffer);
        let mut top = op;
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

    /// Whether the reverse sweep can read `buffer` as the top-level
    /// operation `op` of the primal reads it, instead of a copy taken
    /// before `op`: nothing writes it from `op` on. Its deallocation then
    /// moves to the end of the reverse sweep.
    pub(crate) fn keeps_contents(&mut self, op: Op, buffer: Value) -> bool {
        let kept =
            op.block() == self.body && self.is_direct(self.body) && self.unchanged(op, buffer);
        if kept {
            self.reread.insert(root(buffer));
        }
        kept
    }

    /// Moves the deallocations of the buffers the reverse sweep reads to
    /// the current point (its end).
    pub(crate) fn keep_reread_buffers(&mut self) {
        let end = self.b.anchor_op();
        for op in self.body.ops() {
            if op.name() == "memref.dealloc" && self.reread.contains(&root(op.operand(0))) {
                op.move_before(end);
            }
        }
    }
}
