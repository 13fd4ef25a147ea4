//! The fused reverse of a qualifying `linalg.generic`: the generic extended
//! with its partials, then one reducing generic per input.

use super::plan::GenericPlan;
use super::{constant, partials, weighted};
use crate::adjoint::ReverseState;
use crate::rules::build_generic;
use crate::rules::may_alias;
use crate::rules::reducing_iterators;
use moonc_ir::Error;
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::{projected_dims, split_ins_outs};
use std::collections::HashMap;

/// Emits the fused reverse of `op` by `plan`, and erases `op`.
pub(super) fn emit_generic(
    s: &mut ReverseState,
    op: Op,
    maps: &[String],
    plan: GenericPlan,
) -> Result<(), Error> {
    let operands = op.operands();
    let (ins, _) = split_ins_outs(op);
    let iterators = moonc_ir::linalg::iterator_kinds(op);
    let rank = iterators.len();

    // The forward sweep: the generic, extended with one output per partial
    // that is not a constant (those are used directly: a sum's all-ones
    // Jacobian). The partials are first built in the old body, which is
    // then cloned into the new generic.
    let old = op.regions()[0].entry().expect("a body");
    let old_yield = old.terminator().expect("a yield");
    let body_ops: Vec<Op> = old.ops().into_iter().filter(|&o| o != old_yield).collect();
    let inputs: Vec<Value> = plan.inputs.iter().map(|&(v, _, _)| v).collect();
    let elements: Vec<Value> = plan.outs.iter().map(|&(_, f, _)| f).collect();
    let parts = partials(
        &mut Builder::before(old_yield),
        &body_ops,
        &inputs,
        &elements,
    );
    let mut b = Builder::before(op);
    let space = operands[plan.space];
    let sizes: Vec<Value> = (0..space.ty().shape().len())
        .map(|d| {
            let d = b.index(d as i64);
            b.value("memref.dim", &[space, d], b.ctx.index(), &[])
        })
        .collect();
    let mut buffers: HashMap<(usize, usize), Value> = HashMap::new();
    let mut stored = vec![];
    for (o, row) in parts.iter().enumerate() {
        for (k, &p) in row.iter().enumerate() {
            if constant(p).is_none() {
                buffers.insert((o, k), s.tape_buffer(&mut b, &sizes, p.ty()));
                stored.push(p);
            }
        }
    }
    let mut all_outs = operands[ins..].to_vec();
    let mut all_maps = maps.to_vec();
    for o in 0..parts.len() {
        for k in 0..inputs.len() {
            if let Some(&buffer) = buffers.get(&(o, k)) {
                all_outs.push(buffer);
                all_maps.push(maps[plan.space].clone());
            }
        }
    }
    let (_, block, yield_) =
        build_generic(&mut b, &operands[..ins], &all_outs, &all_maps, &iterators);
    let mut mapping: HashMap<Value, Value> = old.args().into_iter().zip(block.args()).collect();
    let ops = old.ops();
    Builder::before(yield_).clone_remapped(&ops[..ops.len() - 1], &mut mapping);
    let at = |v: &Value| *mapping.get(v).unwrap_or(v);
    let mut yielded: Vec<Value> = old_yield.operands().iter().map(at).collect();
    yielded.extend(stored.iter().map(at));
    yield_.set_operands(&yielded);

    // The reverse sweep: each input's adjoint is the sum over the outputs
    // of the output's adjoint times the partial, reduced over the
    // dimensions the input's map leaves out.
    let seeds: Vec<Value> = plan
        .outs
        .iter()
        .map(|&(o, _, _)| s.shadow(op, operands[ins + o]))
        .collect::<Result<_, _>>()?;
    let aliasing: Vec<usize> = (0..plan.inputs.len())
        .filter(|&k| {
            plan.inputs[k].2.is_some_and(|i| {
                plan.outs.iter().any(|&(o, _, _)| {
                    may_alias(s, operands[i], operands[ins + o]) && maps[i] == maps[ins + o]
                })
            })
        })
        .collect();
    // In place (an elementwise op overwriting its own input, the same
    // value in `ins` and `outs`: a ReLU on its buffer): the input's adjoint
    // is the output's times the partial, element by element, so it
    // replaces the output adjoint in one all-parallel generic, after the
    // other inputs' adjoints have read it, instead of a copy of the seed, a
    // zero fill and an accumulation.
    let in_place = match (&plan.outs[..], &aliasing[..]) {
        ([(o, _, false)], [k])
            if iterators.iter().all(|&i| i == "parallel")
                && plan.inputs[*k].2.map(|i| operands[i]) == Some(operands[ins + o]) =>
        {
            Some(*k)
        }
        _ => None,
    };
    let aliased = !aliasing.is_empty() && in_place.is_none();
    let read_seeds: Vec<Value> = if aliased {
        seeds
            .iter()
            .map(|&seed| {
                let plain = s.ctx().ty(&format!(
                    "memref<{}{}>",
                    seed.ty().shape_prefix(),
                    seed.ty().element()
                ));
                let copy = s.b.alloc_like("memref.alloc", seed, plain);
                s.b.create("memref.copy", &[seed, copy], &[], &[], &[], &[]);
                copy
            })
            .collect()
    } else {
        seeds.clone()
    };
    let zero_outputs = |s: &mut ReverseState| {
        for (k, &(o, _, accumulated)) in plan.outs.iter().enumerate() {
            if !accumulated {
                let zero = s.b.float(operands[ins + o].ty().element(), 0.0);
                s.b.fill(zero, seeds[k]);
            }
        }
    };
    if aliased {
        zero_outputs(s);
    }
    let order = (0..plan.inputs.len())
        .filter(|&k| Some(k) != in_place)
        .chain(in_place);
    for k in order {
        let (_, primal, input) = plan.inputs[k];
        let (into, map) = match input {
            Some(i) => (s.shadow(op, operands[i])?, maps[i].clone()),
            None => {
                let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
                (
                    s.b.zero_cell(primal.ty()),
                    format!("affine_map<({}) -> ()>", dims.join(", ")),
                )
            }
        };
        let kept_dims = projected_dims(&map).expect("checked by the plan");
        let its = reducing_iterators(rank, &kept_dims);
        let mut g_ins = read_seeds.clone();
        let mut g_maps: Vec<String> = plan
            .outs
            .iter()
            .map(|&(o, _, _)| maps[ins + o].clone())
            .collect();
        for o in 0..plan.outs.len() {
            if let Some(&buffer) = buffers.get(&(o, k)) {
                g_ins.push(buffer);
                g_maps.push(maps[plan.space].clone());
            }
        }
        g_maps.push(map);
        let (_, block, yield_) = build_generic(&mut s.b, &g_ins, &[into], &g_maps, &its);
        let a = block.args();
        let m = plan.outs.len();
        let mut gb = Builder::before(yield_);
        let seeds: Vec<Option<Value>> = a[..m].iter().map(|&v| Some(v)).collect();
        let mut next = m;
        let column: Vec<Value> = (0..m)
            .map(|o| match constant(parts[o][k]) {
                Some(c) => gb.insert(c.clone_detached()).result(0),
                None => {
                    next += 1;
                    a[next - 1]
                }
            })
            .collect();
        let total = weighted(&mut gb, &seeds, &column).expect("at least one output");
        if Some(k) == in_place {
            // The target is the output adjoint itself: replaced, not added to.
            yield_.set_operands(&[total]);
            continue;
        }
        // A sum over loops the input does not index is the reverse
        // sweep's own order: free to reassociate (see `generic_reverse`).
        let attrs = if its.contains(&"reduction") {
            vec![("fastmath", gb.ctx.attr("#arith.fastmath<reassoc>"))]
        } else {
            vec![]
        };
        let sum = gb.value("arith.addf", &[a[next], total], total.ty(), &attrs);
        yield_.set_operands(&[sum]);
        if input.is_none() {
            let total = s.b.value("memref.load", &[into], primal.ty(), &[]);
            s.add_adjoint(primal, total);
        }
    }
    if aliased {
        for copy in read_seeds {
            s.b.create("memref.dealloc", &[copy], &[], &[], &[], &[]);
        }
    } else if in_place.is_none() {
        zero_outputs(s);
    }
    op.erase();
    Ok(())
}
