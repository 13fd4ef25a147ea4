//! Checkpoints of loop segments (see `reverse/checkpoint.rs`): the buffers
//! a segment call may change, saved before it in the forward sweep and
//! restored before its reverse.

use crate::{activity::root, adjoint::ReverseState};
use moonc_ir::{
    Error,
    ir::{Builder, Op, Region, Value},
};

/// The attribute of a call of a segment function: the positions of the
/// operands whose buffers are saved before it and restored before its
/// reverse.
pub const CHECKPOINT: &str = "moon.checkpoint";

/// The attribute of a call of a segment function: the positions of the
/// operands whose buffers it may write (the others it only reads).
pub const WRITES: &str = "moon.writes";

/// The number of elements of the memref `v` (identity layout).
pub(crate) fn element_count(b: &mut Builder, v: Value) -> Value {
    let index = b.ctx.index();
    let mut count = b.index(1);
    for (i, d) in v.ty().shape().iter().enumerate() {
        let size = match d {
            Some(d) => b.index(*d),
            None => {
                let i = b.index(i as i64);
                b.value("memref.dim", &[v, i], index, &[])
            }
        };
        count = b.value("arith.muli", &[count, size], index, &[]);
    }
    count
}

/// `v` (a memref with identity layout) as one dimension.
fn flat(b: &mut Builder, v: Value) -> Value {
    let shape = v.ty().shape();
    if shape.len() == 1 {
        return v;
    }
    let dims: Vec<String> = (0..shape.len()).map(|i| i.to_string()).collect();
    let size = if shape.iter().all(Option::is_some) {
        shape
            .iter()
            .map(|d| d.unwrap_or(1))
            .product::<i64>()
            .to_string()
    } else {
        "?".into()
    };
    let ty = b.ctx.ty(&format!("memref<{size}x{}>", v.ty().element()));
    let reassociation = b.ctx.attr(&format!("[[{}]]", dims.join(", ")));
    b.value(
        "memref.collapse_shape",
        &[v],
        ty,
        &[("reassociation", reassociation)],
    )
}

/// `for e in 0..count: to[e] = from[e]`, where either side may be a row
/// `row` of a two-dimensional checkpoint buffer.
fn copy_elements(
    b: &mut Builder,
    from: (Value, Option<Value>),
    to: (Value, Option<Value>),
    count: Value,
) {
    let index = b.ctx.index();
    let zero = b.index(0);
    let one = b.index(1);
    let (region, block) = Region::with_block(&[index], b.loc);
    b.create("scf.for", &[zero, count, one], &[], &[], &[region], &[]);
    region.destroy();
    let mut lb = Builder::at_end(block, b.loc);
    let e = block.args()[0];
    let at = |(buffer, row): (Value, Option<Value>)| -> Vec<Value> {
        let mut operands = vec![buffer];
        operands.extend(row);
        operands.push(e);
        operands
    };
    let ty = from.0.ty().element();
    let value = lb.value("memref.load", &at(from), ty, &[]);
    let mut operands = vec![value];
    operands.extend(at(to));
    lb.create("memref.store", &operands, &[], &[], &[], &[]);
    lb.create("scf.yield", &[], &[], &[], &[], &[]);
}

impl ReverseState<'_> {
    /// Saves the buffers the segment call `call` may change before it, in
    /// checkpoint buffers indexed by the segment loop's iteration, and
    /// restores them at `self.b` (the call's reverse).
    pub(crate) fn restore_checkpoint(&mut self, call: Op) -> Result<(), Error> {
        let positions = call.int_array(CHECKPOINT);
        let segments_loop = call.parent().expect("a segment loop");
        let j = segments_loop.regions()[0].entry().expect("a body").args()[0];
        // Checkpoints are allocated before the choice to segment (so that
        // the end of the reverse sweep can free them), with no rows when
        // the loop is not segmented.
        let choice = segments_loop.parent().expect("the choice to segment");
        let mut pre = Builder::before(choice);
        let zero = pre.index(0);
        let index = pre.ctx.index();
        let n = pre.value(
            "arith.select",
            &[choice.operand(0), segments_loop.operand(1), zero],
            index,
            &[],
        );
        for at in positions {
            let buffer = call.operand(at as usize);
            let ty = buffer.ty().element();
            let count = element_count(&mut pre, buffer);
            let checkpoint = self.tape_buffer(&mut pre, &[n, count], ty);
            let mut fb = Builder::before(call);
            let source = flat(&mut fb, buffer);
            let count_in = element_count(&mut fb, buffer);
            copy_elements(&mut fb, (source, None), (checkpoint, Some(j)), count_in);
            let row = self.get(j)?;
            let buffer = self.get(buffer)?;
            self.reread.insert(root(buffer));
            let mut rb = self.b;
            let target = flat(&mut rb, buffer);
            let count_out = element_count(&mut rb, buffer);
            copy_elements(&mut rb, (checkpoint, Some(row)), (target, None), count_out);
            self.b = rb;
        }
        for v in call.operands() {
            if v.ty().is_memref() {
                self.reread.insert(root(v));
            }
        }
        Ok(())
    }
}
