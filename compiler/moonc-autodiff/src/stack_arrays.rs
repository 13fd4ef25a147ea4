//! Turning a function's small stack arrays into values before it is
//! differentiated: C code keeps 3-vectors in local arrays (`T w[3]`) and
//! fills them in short loops (`for (i = 0; i < 3; i++)`), which leaves
//! every element in memory, and in vector mode every tangent too, as
//! `width` lanes of a shadow array. Fully unrolling those loops gives the
//! arrays constant indices, so that SROA and mem2reg (run by `inline::inline_helpers`)
//! replace them by values: GradBench's ba written as its reference writes
//! it (`rodrigues_rotate_point`, `project`).

use moonc_ir::ir::{Builder, Op, Value};
use std::collections::HashMap;

/// The most iterations of a loop unrolled.
const MAX_TRIPS: i64 = 8;

/// The most operations in the body of a loop unrolled.
const MAX_BODY_OPS: usize = 32;

/// Makes the loads and stores through `memref.cast`s of stack arrays of
/// static shape use the arrays, and fully unrolls the `scf.for` loops with
/// constant bounds, at most [`MAX_TRIPS`] iterations and a body of at most
/// [`MAX_BODY_OPS`] operations without regions that index such an array
/// with their induction variable (innermost first). Returns whether it
/// changed `function`.
pub(crate) fn unroll_stack_array_loops(function: Op) -> bool {
    let mut changed = false;
    for op in function.walk() {
        let at = match op.name().as_str() {
            "memref.load" => 0,
            "memref.store" => 1,
            _ => continue,
        };
        let cast = op.operand(at).defining_op();
        if let Some(cast) =
            cast.filter(|c| c.name() == "memref.cast" && is_stack_array(c.operand(0)))
        {
            op.set_operand(at, cast.operand(0));
            if cast.result(0).is_unused() {
                cast.erase();
            }
            changed = true;
        }
    }
    for op in function.walk().into_iter().rev() {
        if op.name() != "scf.for" {
            continue;
        }
        let bounds: Vec<Option<i64>> = op.operands()[..3]
            .iter()
            .map(|&v| v.index_constant())
            .collect();
        let [Some(lb), Some(ub), Some(step)] = bounds[..] else {
            continue;
        };
        let trips = if step > 0 && ub > lb {
            (ub - lb + step - 1) / step
        } else {
            0
        };
        let body = op.regions()[0].entry().expect("a body");
        let ops = body.ops();
        let iv = body.args()[0];
        let indexes_array = |o: &Op| {
            let operands = o.operands();
            let (memref, indices) = match o.name().as_str() {
                "memref.load" => (operands[0], &operands[1..]),
                "memref.store" => (operands[1], &operands[2..]),
                _ => return false,
            };
            is_stack_array(memref) && indices.contains(&iv)
        };
        if step <= 0
            || trips > MAX_TRIPS
            || ops.len() > MAX_BODY_OPS
            || ops.iter().any(|o| !o.regions().is_empty())
            || !ops.iter().any(indexes_array)
        {
            continue;
        }
        unroll(op, lb, step, trips);
        changed = true;
    }
    changed
}

/// Replaces the `scf.for` `op` (no nested regions) by `trips` copies of
/// its body, the induction variable `lb + t * step` in copy t.
fn unroll(op: Op, lb: i64, step: i64, trips: i64) {
    let body = op.regions()[0].entry().expect("a body");
    let args = body.args();
    let ops = body.ops();
    let (yield_, rest) = ops.split_last().expect("a yield");
    let mut carried: Vec<Value> = op.operands()[3..].to_vec();
    let mut b = Builder::before(op);
    for t in 0..trips {
        let mut mapping: HashMap<Value, Value> = HashMap::from([(args[0], b.index(lb + t * step))]);
        mapping.extend(args[1..].iter().copied().zip(carried.iter().copied()));
        b.clone_remapped(rest, &mut mapping);
        carried = yield_
            .operands()
            .iter()
            .map(|v| *mapping.get(v).unwrap_or(v))
            .collect();
    }
    for (result, value) in op.results().into_iter().zip(carried) {
        result.replace_uses(value);
    }
    op.erase();
}

/// Whether `v` is a `memref.alloca` of static shape.
fn is_stack_array(v: Value) -> bool {
    v.defining_op().is_some_and(|d| d.name() == "memref.alloca")
        && v.ty().shape().iter().all(Option::is_some)
}
