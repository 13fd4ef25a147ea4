//! `--moon-fuse-partials`: lets the generic that computes a primal and its
//! partial derivatives also apply them, so that the partials never go
//! through memory.
//!
//! Reverse mode differentiates a fused elementwise body once
//! (docs/ndual.md): the primal's `linalg.generic` also stores each
//! element's partials into a temporary buffer, and a later generic of the
//! reverse sweep multiplies them by the adjoint and adds them into the
//! shadow. On a GPU that round trip costs more memory traffic than the
//! primal itself (`sum(cos(exp(x)))`'s gradient reads `x` and writes the
//! partials, then reads them and the shadow and writes the shadow); fused,
//! it reads `x` and writes the shadow once.

use crate::memory::{fresh, root};
use moonc_autodiff::{DISTINCT_ARGS, rules::written_operands};
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::{
    build_generic, indexing_maps, iterator_kinds, projected_dims, split_ins_outs,
};
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo},
};
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-fuse-partials`.
pub static FUSE_PARTIALS: PassInfo = PassInfo {
    argument: "moon-fuse-partials",
    summary: "Apply the partials a primal generic stores in the generic itself",
    description: r#"
Looks for a `linalg.generic` A on memrefs that writes a buffer P it does
not read (a `memref.alloc` of the same block, otherwise only read by one
later all-parallel generic B and deallocated) and a generic B that reads
P through the same indexing map, a permutation of all loops, with as many
loops as A, and writes its outputs through such maps too. This is what
reverse mode makes of a fused elementwise body: A computes the primal and
stores the partials in P, B multiplies them by the adjoint into the
shadows. B's work then moves into A: A takes B's other inputs and its
outputs, its body computes B's after its own with P's element taken from
what A would have stored, and P, its allocation and deallocation go.

The operations between A and B must let B move up to A: each either
moves above A (it uses nothing defined after A and touches no buffer A
writes, nor writes one A reads) or stays after the fused generic (B uses
nothing it defines, and neither writes a buffer the other touches). A
buffer allocated in the function overlaps no other; two arguments are
taken to overlap unless the function is marked `moon.distinct_args` or
one of them is never written in it (a shadow is apart from the primal
buffers, as reverse mode assumes); calls without memref operands touch no
buffer.

When a `linalg.fill` with `0.0` of one of B's outputs comes before the
fused generic, with nothing in between touching that buffer, and the body
only adds its value to the output's element (`out + v`), the body stores
`v` and the fill goes: a shadow that `moon.overwrite_shadows` sets to
zero first is then written once.

`moon-gpu-pipeline` runs it first, so that the fused generic becomes one
kernel (`moon-gpu-reduce`).
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let mut fused = 0;
    let mut folded = 0;
    // Fusing erases generics, so candidates are found again after each.
    'again: loop {
        for a in module
            .walk()
            .into_iter()
            .filter(|op| op.name() == "linalg.generic")
        {
            if let Some((partial, b)) = candidate(a)
                && let Some(moved) = plan(a, b)
            {
                let generic = fuse(a, b, partial, &moved);
                fused += 1;
                folded += fold_zero_fills(generic);
                continue 'again;
            }
        }
        break;
    }
    if fused > 0 {
        tracing::debug!(target: "moonc_passes", fused, folded, "partials applied in their generic");
    }
    Ok(())
}

/// A buffer of partials that `a` writes and the one generic that reads
/// them, when the pair qualifies (see the pass's description).
fn candidate(a: Op) -> Option<(usize, Op)> {
    let (ins, outs) = split_ins_outs(a);
    let a_maps = indexing_maps(a);
    let rank = iterator_kinds(a).len();
    let body = a.regions()[0].blocks()[0];
    (0..outs).find_map(|k| {
        let p = a.operand(ins + k);
        let alloc = p.defining_op()?;
        if alloc.name() != "memref.alloc"
            || alloc.block() != a.block()
            || !body.args()[ins + k].is_unused()
            || !is_permutation(&a_maps[ins + k], rank)
        {
            return None;
        }
        let mut readers = vec![];
        for user in p.users() {
            match user.name().as_str() {
                _ if user == a => {}
                "memref.dealloc" => {}
                "linalg.generic" => readers.push(user),
                _ => return None,
            }
        }
        let [b] = readers[..] else {
            return None;
        };
        let (b_ins, _) = split_ins_outs(b);
        let b_maps = indexing_maps(b);
        let parallel = iterator_kinds(b).iter().all(|&k| k == "parallel");
        let reads_p = b.operands()[..b_ins]
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v == p)
            .all(|(i, _)| b_maps[i] == a_maps[ins + k]);
        let writes_fit = b_maps[b_ins..].iter().all(|m| is_permutation(m, rank));
        let ok = parallel
            && reads_p
            && writes_fit
            && b_maps.len() == b.operands().len()
            && !b.operands()[b_ins..].contains(&p)
            && b.block() == a.block()
            && iterator_kinds(b).len() == rank
            && following(a).contains(&b);
        ok.then_some((k, b))
    })
}

/// Whether the map's text names every one of `rank` loops once.
fn is_permutation(map: &str, rank: usize) -> bool {
    projected_dims(map).is_some_and(|dims| dims.len() == rank)
}

/// The operations after `op` in its block.
fn following(op: Op) -> Vec<Op> {
    op.block()
        .ops()
        .into_iter()
        .skip_while(|o| *o != op)
        .skip(1)
        .collect()
}

/// The buffers an operation (with what its regions hold) may read or
/// write, and those it may write.
struct Access {
    touched: Vec<Value>,
    written: Vec<Value>,
}

impl Access {
    fn of(op: Op) -> Access {
        let mut access = Access {
            touched: vec![],
            written: vec![],
        };
        for o in std::iter::once(op).chain(op.walk()) {
            let memrefs = |vs: Vec<Value>| vs.into_iter().filter(|v| v.ty().is_memref());
            access.touched.extend(memrefs(o.operands()).map(root));
            access
                .written
                .extend(memrefs(written_operands(o)).map(root));
        }
        access
    }
}

/// What may overlap in `function`: the arguments it writes.
struct Overlap {
    distinct: bool,
    written_args: HashSet<Value>,
}

impl Overlap {
    fn of(function: Op) -> Overlap {
        let written_args = function
            .walk()
            .into_iter()
            .flat_map(written_operands)
            .filter(|v| v.ty().is_memref())
            .map(root)
            .collect();
        Overlap {
            distinct: function.attr(DISTINCT_ARGS).is_some(),
            written_args,
        }
    }

    /// Whether the buffers `p` and `q` (roots) may overlap.
    fn may_alias(&self, p: Value, q: Value) -> bool {
        if p == q {
            return true;
        }
        if fresh(p) || fresh(q) {
            return false;
        }
        let args = p.defining_op().is_none() && q.defining_op().is_none();
        let apart =
            self.distinct || !self.written_args.contains(&p) || !self.written_args.contains(&q);
        !(args && apart)
    }

    fn conflict(&self, x: &Access, y: &Access) -> bool {
        let one_way = |x: &Access, y: &Access| {
            x.written
                .iter()
                .any(|&w| y.touched.iter().any(|&t| self.may_alias(w, t)))
        };
        one_way(x, y) || one_way(y, x)
    }
}

/// The operations between `a` and `b` that must move above `a` for `b` to
/// join it, or `None` when one can neither move above `a` nor stay after
/// the fused generic.
fn plan(a: Op, b: Op) -> Option<Vec<Op>> {
    let overlap = Overlap::of(a.enclosing_function()?);
    let a_access = Access::of(a);
    let b_access = Access::of(b);
    let between: Vec<Op> = following(a).into_iter().take_while(|o| *o != b).collect();
    let span: HashSet<Op> = between.iter().copied().collect();
    let mut moved: Vec<Op> = vec![];
    let mut staying: Vec<(Op, Access)> = vec![];
    let mut moved_set = HashSet::new();
    for &op in &between {
        let access = Access::of(op);
        // Values from the span that `op` (or an operation in its regions)
        // uses must come from operations that move too.
        let inputs_above = std::iter::once(op).chain(op.walk()).all(|o| {
            o.operands().iter().all(|v| match v.defining_op() {
                Some(d) => !span.contains(&d) || moved_set.contains(&d),
                None => true,
            })
        });
        let can_move = inputs_above
            && !overlap.conflict(&access, &a_access)
            && staying.iter().all(|(_, s)| !overlap.conflict(&access, s));
        if can_move {
            moved.push(op);
            moved_set.insert(op);
        } else {
            let b_uses = b.operands().iter().any(|v| v.defining_op() == Some(op));
            if b_uses || overlap.conflict(&access, &b_access) {
                return None;
            }
            staying.push((op, access));
        }
    }
    Some(moved)
}

/// Moves `moved` above `a`, replaces `a` and `b` by one generic that does
/// both, without `a`'s output `partial`, and returns it.
fn fuse(a: Op, b: Op, partial: usize, moved: &[Op]) -> Op {
    for &op in moved {
        op.move_before(a);
    }
    let (a_ins, a_outs) = split_ins_outs(a);
    let (b_ins, _) = split_ins_outs(b);
    let (a_maps, b_maps) = (indexing_maps(a), indexing_maps(b));
    let p = a.operand(a_ins + partial);
    let a_ops = a.operands();
    let b_ops = b.operands();
    let b_inputs: Vec<usize> = (0..b_ins).filter(|&i| b_ops[i] != p).collect();

    let mut ins: Vec<Value> = a_ops[..a_ins].to_vec();
    let mut maps: Vec<String> = a_maps[..a_ins].to_vec();
    ins.extend(b_inputs.iter().map(|&i| b_ops[i]));
    maps.extend(b_inputs.iter().map(|&i| b_maps[i].clone()));
    let a_kept: Vec<usize> = (0..a_outs).filter(|&k| k != partial).collect();
    let mut outs: Vec<Value> = a_kept.iter().map(|&k| a_ops[a_ins + k]).collect();
    maps.extend(a_kept.iter().map(|&k| a_maps[a_ins + k].clone()));
    outs.extend_from_slice(&b_ops[b_ins..]);
    maps.extend_from_slice(&b_maps[b_ins..]);
    let iterators = iterator_kinds(a);

    let mut b_builder = Builder::before(a);
    let (generic, block, yield_) = build_generic(&mut b_builder, &ins, &outs, &maps, &iterators);
    let args = block.args();
    let a_body = a.regions()[0].blocks()[0];
    let b_body = b.regions()[0].blocks()[0];
    let mut mapping: HashMap<Value, Value> = HashMap::new();
    // A's arguments: its inputs, then its kept outputs (P's is unused).
    for (i, arg) in a_body.args().into_iter().enumerate().take(a_ins) {
        mapping.insert(arg, args[i]);
    }
    for (j, &k) in a_kept.iter().enumerate() {
        mapping.insert(a_body.args()[a_ins + k], args[ins.len() + j]);
    }
    let mut body = Builder::before(yield_);
    let a_yield = a_body.terminator().expect("a generic's body yields");
    body.clone_remapped(&a_body.ops()[..a_body.ops().len() - 1], &mut mapping);
    let a_values: Vec<Value> = a_yield
        .operands()
        .iter()
        .map(|v| *mapping.get(v).unwrap_or(v))
        .collect();
    // B's arguments: P's element is what A yields for it.
    for (i, arg) in b_body.args().into_iter().enumerate() {
        let to = if i < b_ins {
            match b_inputs.iter().position(|&j| j == i) {
                Some(n) => args[a_ins + n],
                None => a_values[partial],
            }
        } else {
            args[ins.len() + a_kept.len() + (i - b_ins)]
        };
        mapping.insert(arg, to);
    }
    let b_yield = b_body.terminator().expect("a generic's body yields");
    body.clone_remapped(&b_body.ops()[..b_body.ops().len() - 1], &mut mapping);
    let mut yielded: Vec<Value> = a_kept.iter().map(|&k| a_values[k]).collect();
    yielded.extend(
        b_yield
            .operands()
            .iter()
            .map(|v| *mapping.get(v).unwrap_or(v)),
    );
    yield_.set_operands(&yielded);

    // The fused generic stands where A stood, so B's inputs (defined
    // before A or moved there) are available.
    a.erase();
    b.erase();
    for user in p.users() {
        user.erase();
    }
    p.defining_op().expect("P is allocated").erase();
    generic
}

/// Drops each `linalg.fill` of zero that only precedes `generic`'s plain
/// accumulation into an output (see the description); returns how many.
fn fold_zero_fills(generic: Op) -> usize {
    let Some(function) = generic.enclosing_function() else {
        return 0;
    };
    let overlap = Overlap::of(function);
    let (ins, outs) = split_ins_outs(generic);
    let rank = generic
        .attr("iterator_types")
        .map_or(0, |a| a.elements().len());
    let maps = indexing_maps(generic);
    let body = generic.regions()[0].blocks()[0];
    let yield_ = body.terminator().expect("a generic's body yields");
    let before: Vec<Op> = generic
        .block()
        .ops()
        .into_iter()
        .take_while(|o| *o != generic)
        .collect();
    let mut folded = 0;
    for k in 0..outs {
        let out = generic.operand(ins + k);
        let arg = body.args()[ins + k];
        let Some(add) = yield_.operand(k).defining_op() else {
            continue;
        };
        let adds_once = add.name() == "arith.addf"
            && add.block() == body
            && arg.users() == vec![add]
            && add.result(0).users() == vec![yield_]
            && add.operands().contains(&arg)
            && generic.operands().iter().filter(|&&v| v == out).count() == 1
            && is_permutation(&maps[ins + k], rank);
        if !adds_once {
            continue;
        }
        // The nearest earlier operation touching `out` must be its fill.
        let out_access = Access {
            touched: vec![root(out)],
            written: vec![root(out)],
        };
        let last = before
            .iter()
            .rev()
            .find(|o| overlap.conflict(&Access::of(**o), &out_access));
        let Some(&fill) = last else {
            continue;
        };
        let zero_fill = fill.name() == "linalg.fill"
            && fill.operands().len() == 2
            && fill.operand(1) == out
            && fill
                .operand(0)
                .defining_op()
                .and_then(|c| c.attr("value"))
                .is_some_and(|v| v.to_string().starts_with("0.000000e+00"));
        if !zero_fill {
            continue;
        }
        let value = if add.operand(0) == arg {
            add.operand(1)
        } else {
            add.operand(0)
        };
        yield_.set_operand(k, value);
        add.erase();
        fill.erase();
        folded += 1;
    }
    folded
}
