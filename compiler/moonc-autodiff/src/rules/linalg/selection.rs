//! The reverse of a `linalg.generic` whose body selects into its output:
//! max and min reductions and max/min pooling (`maximumf(out, v)`,
//! `minimumf`, `maxnumf`, `minnumf`, or `cmpf` + `select` between `out`
//! and `v`).
//!
//! The adjoint of each output element goes to the one candidate that the
//! reduction selected. The reverse sweep recomputes the final output `y`
//! (the generic run again on the saved inputs and old contents) and then
//! finds the selected candidate again by comparing each candidate with
//! `y`. Ties give the adjoint to exactly one candidate, the first in
//! iteration order, as PyTorch and JAX do; the old contents of the output
//! come before every candidate. "First" is kept by a remainder buffer
//! `r` (a copy of the output's adjoint): the candidate equal to `y` takes
//! `r` and leaves zero behind, so later tied candidates take nothing. The
//! comparison the body uses (strict or not, max or min) does not matter:
//! only equality with `y` does. A NaN output gives no candidate anything.
//!
//! This depends on the order of the iterations, which a generic does not
//! fix: the candidates' adjoints are accumulated by `scf.for` loops in
//! lexicographic order (`moonc_ir::linalg::lower_to_loops`).

use super::{defined_in, shape_only, snapshot};
use crate::adjoint::ReverseState;
use moonc_ir::Error;
use moonc_ir::ir::{Builder, Op, Value, error_at};
use moonc_ir::linalg::build_generic;
use moonc_ir::linalg::{indexing_maps, lower_to_loops, split_ins_outs};
use std::collections::HashMap;

/// How a body selects into its output: the candidate `v` and the
/// operations that compare and select (left out when the body is cloned).
pub(super) struct Selection {
    /// The candidate compared with the output's running value.
    candidate: Value,
    /// The comparison and selection operations.
    ops: Vec<Op>,
}

/// The selection `acc` (the output's block argument) goes through when the
/// body yields `next`, if that is all the body does with `acc`: `next` is
/// `maximumf/minimumf/maxnumf/minnumf` of `acc` and a candidate, or
/// `select(cmpf(acc, v), acc, v)` in any order of the operands.
pub(super) fn selection(acc: Value, next: Value) -> Option<Selection> {
    let other = |pair: &[Value]| match pair {
        [a, b] if *a == acc && *b != acc => Some(*b),
        [a, b] if *b == acc && *a != acc => Some(*a),
        _ => None,
    };
    let yielded_once = next.users().len() == 1;
    let users = acc.users();
    match users.as_slice() {
        [sel]
            if matches!(
                sel.name().as_str(),
                "arith.maximumf" | "arith.minimumf" | "arith.maxnumf" | "arith.minnumf"
            ) && sel.result(0) == next
                && yielded_once =>
        {
            Some(Selection {
                candidate: other(&sel.operands())?,
                ops: vec![*sel],
            })
        }
        [x, y] => {
            let (cmp, sel) = if x.name() == "arith.cmpf" {
                (*x, *y)
            } else {
                (*y, *x)
            };
            if cmp.name() != "arith.cmpf"
                || sel.name() != "arith.select"
                || sel.result(0) != next
                || !yielded_once
                || sel.operand(0) != cmp.result(0)
            {
                return None;
            }
            let v = other(&cmp.operands())?;
            (other(&sel.operands()[1..]) == Some(v)).then_some(Selection {
                candidate: v,
                ops: vec![cmp, sel],
            })
        }
        _ => None,
    }
}

/// Emits the reverse of the generic `op`, whose one output is selected
/// into by `sel` (see the module's documentation).
pub(super) fn reverse(s: &mut ReverseState, op: Op, sel: &Selection) -> Result<(), Error> {
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    if outs != 1 {
        return Err(error_at(
            op,
            "reverse mode supports a max/min reduction only in a linalg.generic with one output",
        ));
    }
    let out = operands[ins];
    let maps = indexing_maps(op);
    let rank = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements()
        .len();
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let args = body.args();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let scalar_map = format!("affine_map<({}) -> ()>", dims.join(", "));

    // What the reverse sweep reads: the inputs (copies when the call
    // overwrites them later), the captured active values, and the old
    // contents of the output (always a copy: this generic overwrites it).
    let mut saved = vec![];
    for (i, &v) in operands[..ins].iter().enumerate() {
        saved.push(if v.ty().is_memref() && args[i].users().is_empty() {
            shape_only(s, op, v)?
        } else if v.ty().is_memref() && s.is_written(v) && !s.keeps_contents(op, v) {
            snapshot(s, op, v)?
        } else {
            s.get(v)?
        });
    }
    let old = snapshot(s, op, out)?;
    let mut captured = vec![];
    for inner in op.walk() {
        for v in inner.operands() {
            if s.has_adjoint(v) && !captured.contains(&v) && !defined_in(v, op, &args) {
                captured.push(v);
            }
        }
    }
    let captured_now = captured
        .iter()
        .map(|&v| s.get(v))
        .collect::<Result<Vec<_>, _>>()?;

    // y: the generic again, on the saved inputs and a copy of the old
    // contents.
    let ty = out.ty();
    let y = s.b.alloc_plain_like(out);
    s.b.create("memref.copy", &[old, y], &[], &[], &[], &[]);
    let again = s.b.insert(op.clone_detached());
    let mut recomputed = saved.clone();
    recomputed.push(y);
    again.set_operands(&recomputed);
    for inner in again.walk() {
        for (i, v) in inner.operands().into_iter().enumerate() {
            if let Some(k) = captured.iter().position(|&c| c == v) {
                inner.set_operand(i, captured_now[k]);
            }
        }
    }

    // r: the output's adjoint, unless the old contents were selected;
    // then the output's adjoint becomes that of its old contents.
    let dy = s.shadow(op, out)?;
    let elem = ty.element();
    let out_rank = ty.shape().len();
    let ids: Vec<String> = (0..out_rank).map(|d| format!("d{d}")).collect();
    let id = format!("affine_map<({0}) -> ({0})>", ids.join(", "));
    let remainder = s.b.alloc_plain_like(out);
    for (into, kept_when_old) in [(remainder, false), (dy, true)] {
        let (_, block, yield_) = build_generic(
            &mut s.b,
            &[old, y, dy],
            &[into],
            &vec![id.clone(); 4],
            &vec!["parallel"; out_rank],
        );
        let a = block.args();
        let mut b = Builder::before(yield_);
        let oeq = b.ctx.attr("1 : i64");
        let i1 = b.ctx.ty("i1");
        let same = b.value("arith.cmpf", &[a[0], a[1]], i1, &[("predicate", oeq)]);
        let zero = b.float(elem, 0.0);
        let (when_old, otherwise) = if kept_when_old {
            (a[2], zero)
        } else {
            (zero, a[2])
        };
        let pick = b.value("arith.select", &[same, when_old, otherwise], elem, &[]);
        yield_.set_operands(&[pick]);
    }

    // One loop nest per active input (or captured value): the candidate
    // recomputed, compared with y, and given what remains of the adjoint.
    let mut targets: Vec<(Value, usize, String)> = vec![];
    for (i, &v) in operands[..ins].iter().enumerate() {
        if s.activity.is_active(v) && (v.ty().is_memref() || s.has_adjoint(v)) {
            let map = if v.ty().is_memref() {
                maps[i].clone()
            } else {
                scalar_map.clone()
            };
            targets.push((v, i, map));
        }
    }
    for (c, &v) in captured.iter().enumerate() {
        targets.push((v, ins + c, scalar_map.clone()));
    }
    let mut inputs = saved.clone();
    inputs.extend(&captured_now);
    inputs.push(y);
    let mut in_maps = maps[..ins].to_vec();
    in_maps.extend(captured.iter().map(|_| scalar_map.clone()));
    in_maps.push(maps[ins].clone());
    let several = targets.len() > 1;
    for (primal, position, map) in targets {
        let into = if primal.ty().is_memref() {
            s.shadow(op, primal)?
        } else {
            s.b.zero_cell(primal.ty())
        };
        let r = if several {
            let copy = s.b.alloc_plain_like(out);
            s.b.create("memref.copy", &[remainder, copy], &[], &[], &[], &[]);
            copy
        } else {
            remainder
        };
        let mut all_maps = in_maps.clone();
        all_maps.push(map);
        all_maps.push(maps[ins].clone());
        let (generic, block, yield_) = build_generic(
            &mut s.b,
            &inputs,
            &[into, r],
            &all_maps,
            &vec!["reduction"; rank],
        );
        let new_args = block.args();
        let mut mapping: HashMap<Value, Value> = HashMap::new();
        for (i, &a) in args[..ins].iter().enumerate() {
            mapping.insert(a, new_args[i]);
            if s.activity.is_active(operands[i]) {
                s.activity.mark(new_args[i]);
            }
        }
        for (c, &v) in captured.iter().enumerate() {
            mapping.insert(v, new_args[ins + c]);
            s.activity.mark(new_args[ins + c]);
        }
        let ops = body.ops();
        let kept: Vec<Op> = ops[..ops.len() - 1]
            .iter()
            .filter(|o| !sel.ops.contains(o))
            .copied()
            .collect();
        let mut b = Builder::before(yield_);
        b.clone_remapped(&kept, &mut mapping);
        for r in kept.iter().flat_map(|o| o.results()) {
            if s.activity.is_active(r) {
                s.activity.mark(mapping[&r]);
            }
        }
        let n = ins + captured.len();
        let (y_e, acc, left) = (new_args[n], new_args[n + 1], new_args[n + 2]);
        let candidate = *mapping.get(&sel.candidate).unwrap_or(&sel.candidate);
        let oeq = b.ctx.attr("1 : i64");
        let i1 = b.ctx.ty("i1");
        let hit = b.value("arith.cmpf", &[candidate, y_e], i1, &[("predicate", oeq)]);
        let zero = b.float(elem, 0.0);
        let seed = b.value("arith.select", &[hit, left, zero], elem, &[]);
        let rest = b.value("arith.select", &[hit, zero, left], elem, &[]);
        s.set_direct(block);
        let adjoint = s.reverse_nested(
            block,
            Builder::before(yield_),
            &[(candidate, seed)],
            &[new_args[position]],
        )?;
        let mut b = Builder::before(yield_);
        let total = match adjoint[0] {
            Some(a) => b.value("arith.addf", &[acc, a], a.ty(), &[]),
            None => acc,
        };
        yield_.set_operands(&[total, rest]);
        lower_to_loops(generic)?;
        if several {
            s.b.create("memref.dealloc", &[r], &[], &[], &[], &[]);
        }
        if !primal.ty().is_memref() {
            let total = s.b.value("memref.load", &[into], primal.ty(), &[]);
            s.add_adjoint(primal, total);
        }
    }
    for buffer in [remainder, y] {
        s.b.create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
    }
    Ok(())
}
