//! Derivative rules of the `memref` dialect: every active buffer has a
//! shadow buffer of the same shape (with a leading direction dimension at
//! width N) holding the tangents of its elements; loads read the shadow,
//! stores write it, views view it.

use super::{
    Forward::{Custom, Inactive},
    Reverse, Rule,
};
use crate::{adjoint::ReverseState, tangent::FunctionState};
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

pub const RULES: &[Rule] = &[
    Rule {
        op: "memref.load",
        forward: Custom(load),
        reverse: Reverse::Custom(load_reverse),
    },
    Rule {
        op: "memref.store",
        forward: Custom(store),
        reverse: Reverse::Custom(store_reverse),
    },
    Rule {
        op: "memref.alloc",
        forward: Custom(alloc),
        reverse: Reverse::Custom(alloc_reverse),
    },
    Rule {
        op: "memref.alloca",
        forward: Custom(alloc),
        reverse: Reverse::Custom(alloc_reverse),
    },
    Rule {
        op: "memref.dealloc",
        forward: Custom(dealloc),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.copy",
        forward: Custom(copy),
        reverse: Reverse::Custom(copy_reverse),
    },
    Rule {
        op: "memref.subview",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.cast",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.reinterpret_cast",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.collapse_shape",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.expand_shape",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.transpose",
        forward: Custom(view),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.dim",
        forward: Inactive,
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.rank",
        forward: Inactive,
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "memref.extract_strided_metadata",
        forward: Inactive,
        reverse: Reverse::Nothing,
    },
];

/// The identity-on-`d0` map that reads or writes the direction dimension
/// of a shadow with `rank` dimensions (its primal's rank plus one).
fn direction_map(s: &FunctionState, rank: usize) -> moonc_ir::ir::Attr {
    let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
    s.ctx()
        .attr(&format!("affine_map<({}) -> (d0)>", dims.join(", ")))
}

fn load(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let result = op.result(0);
    if !s.is_active(result) {
        return Ok(());
    }
    let operands = op.operands();
    let shadow = s.shadow(op, operands[0])?;
    let mut b = Builder::after(op);
    let tangent = if s.width == 1 {
        let mut new = vec![shadow];
        new.extend(&operands[1..]);
        b.value("memref.load", &new, result.ty(), &[])
    } else {
        let zero = b.index(0);
        let pad = b.float(result.ty(), 0.0);
        let mut new = vec![shadow, zero];
        new.extend(&operands[1..]);
        let indices = new.len() - 1;
        new.push(pad);
        let ctx = s.ctx();
        b.value(
            "vector.transfer_read",
            &new,
            s.tangent_type(result.ty()),
            &[
                ("permutation_map", direction_map(s, indices)),
                ("in_bounds", ctx.attr("[true]")),
                (
                    "operandSegmentSizes",
                    ctx.attr(&format!("array<i32: 1, {indices}, 1, 0>")),
                ),
            ],
        )
    };
    s.set_tangent(result, tangent);
    Ok(())
}

fn store(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let operands = op.operands();
    if !s.is_active(operands[1]) {
        return Ok(());
    }
    let shadow = s.shadow(op, operands[1])?;
    let mut b = Builder::after(op);
    let tangent = s.tangent_or_zero(&mut b, operands[0]);
    if s.width == 1 {
        let mut new = vec![tangent, shadow];
        new.extend(&operands[2..]);
        b.create("memref.store", &new, &[], &[], &[], &[]);
    } else {
        let zero = b.index(0);
        let mut new = vec![tangent, shadow, zero];
        new.extend(&operands[2..]);
        let indices = new.len() - 2;
        let ctx = s.ctx();
        b.create(
            "vector.transfer_write",
            &new,
            &[],
            &[
                ("permutation_map", direction_map(s, indices)),
                ("in_bounds", ctx.attr("[true]")),
                (
                    "operandSegmentSizes",
                    ctx.attr(&format!("array<i32: 1, 1, {indices}, 0>")),
                ),
            ],
            &[],
            &[],
        );
    }
    Ok(())
}

fn alloc(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let result = op.result(0);
    if !s.is_active(result) {
        return Ok(());
    }
    let mut b = Builder::after(op);
    let shadow = s.new_shadow(&mut b, result, &op.name());
    s.set_tangent(result, shadow);
    Ok(())
}

fn dealloc(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let buffer = op.operand(0);
    if let Some(shadow) = s.tangent(buffer).filter(|_| s.is_active(buffer)) {
        let shadow = match shadow.defining_op() {
            // Free the allocation, not the cast of it made at width N.
            Some(cast) if cast.name() == "memref.cast" => cast.operand(0),
            _ => shadow,
        };
        Builder::after(op).create("memref.dealloc", &[shadow], &[], &[], &[], &[]);
    }
    Ok(())
}

fn copy(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let (source, target) = (op.operand(0), op.operand(1));
    if !s.is_active(target) {
        return Ok(());
    }
    let target_shadow = s.shadow(op, target)?;
    let mut b = Builder::after(op);
    match s.tangent(source).filter(|_| s.is_active(source)) {
        Some(source_shadow) => {
            b.create(
                "memref.copy",
                &[source_shadow, target_shadow],
                &[],
                &[],
                &[],
                &[],
            );
        }
        None => {
            let zero = b.float(target.ty().element(), 0.0);
            b.fill(zero, target_shadow);
        }
    }
    Ok(())
}

/// Views of a buffer: the same view of its shadow.
fn view(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let result = op.result(0);
    if !s.is_active(result) {
        return Ok(());
    }
    let shadow = s.shadow(op, op.operand(0))?;
    let name = op.name();
    let tangent = if s.width == 1 {
        let copy = op.clone_detached();
        copy.set_operand(0, shadow);
        Builder::after(op).insert(copy).result(0)
    } else {
        let mut b = Builder::after(op);
        let ty = s.tangent_type(result.ty());
        match name.as_str() {
            "memref.cast" => b.value("memref.cast", &[shadow], ty, &[]),
            "memref.subview" => {
                let mut operands = op.operands();
                operands[0] = shadow;
                let prepend = |name: &str, first: i64| {
                    let mut values = vec![first];
                    values.extend(op.int_array(name));
                    let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                    s.ctx().attr(&format!("array<i64: {}>", list.join(", ")))
                };
                let attrs = [
                    (
                        "operandSegmentSizes",
                        op.attr("operandSegmentSizes").expect("segments"),
                    ),
                    ("static_offsets", prepend("static_offsets", 0)),
                    ("static_sizes", prepend("static_sizes", s.width as i64)),
                    ("static_strides", prepend("static_strides", 1)),
                ];
                b.value("memref.subview", &operands, ty, &attrs)
            }
            _ => {
                return Err(error_at(
                    op,
                    &format!("`{name}` of an active memref is not supported with width > 1 yet"),
                ));
            }
        }
    };
    s.set_tangent(result, tangent);
    Ok(())
}

/// The materialized indices (operands from `first` on) of a load or store.
fn indices(s: &mut ReverseState, op: Op, first: usize) -> Result<Vec<Value>, Error> {
    op.operands()[first..].iter().map(|&v| s.get(v)).collect()
}

/// `y = load A[i]`: `dA[i] += dy`, atomically where iterations of a
/// parallel reverse may share `dA[i]`. In an in-place update
/// ([`in_place_update`]) the addition is `nsz` (a zero derivative may come
/// out as -0.0): the reverse of the update's store has just read `dA[i]`
/// and zeroed it, so LLVM folds `0 + dy` and leaves the shadow alone.
fn load_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let result = op.result(0);
    if !s.has_adjoint(result) {
        return Ok(());
    }
    let Some(adjoint) = s.take_adjoint(result) else {
        return Ok(());
    };
    let shadow = s.shadow(op, op.operand(0))?;
    let mut operands = vec![shadow];
    operands.extend(indices(s, op, 1)?);
    if s.shared_in_parallel(op.operand(0)) {
        let mut add = vec![adjoint];
        add.extend(operands);
        let addf = s.ctx().attr("0 : i64");
        s.b.value("memref.atomic_rmw", &add, result.ty(), &[("kind", addf)]);
        return Ok(());
    }
    let old = s.b.value("memref.load", &operands, result.ty(), &[]);
    let attrs = if in_place_update(op) {
        vec![("fastmath", s.ctx().attr("#arith.fastmath<nsz>"))]
    } else {
        vec![]
    };
    let sum =
        s.b.value("arith.addf", &[old, adjoint], result.ty(), &attrs);
    let mut store = vec![sum];
    store.extend(operands);
    s.b.create("memref.store", &store, &[], &[], &[], &[]);
    Ok(())
}

/// Whether the load `op` is the read of an in-place update `A[i] += v`:
/// its only use is an `arith.addf` whose only use stores it back to the
/// same element, in the same block.
fn in_place_update(op: Op) -> bool {
    let [add] = op.result(0).users()[..] else {
        return false;
    };
    let Some(store) = add.results().first().and_then(|v| match v.users()[..] {
        [u] => Some(u),
        _ => None,
    }) else {
        return false;
    };
    add.name() == "arith.addf"
        && store.name() == "memref.store"
        && store.operands()[1..] == op.operands()[..]
        && store.block() == op.block()
}

/// `store x, A[i]`: `dx += dA[i]; dA[i] = 0` (the old contents of A[i]
/// no longer influence anything).
fn store_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (value, memref) = (op.operand(0), op.operand(1));
    if !s.activity.is_active(memref) {
        return Ok(());
    }
    let shadow = s.shadow(op, memref)?;
    let mut operands = vec![shadow];
    operands.extend(indices(s, op, 2)?);
    let element = value.ty();
    let adjoint = s.b.value("memref.load", &operands, element, &[]);
    let zero = s.b.float(element, 0.0);
    let mut store = vec![zero];
    store.extend(operands);
    s.b.create("memref.store", &store, &[], &[], &[], &[]);
    s.add_adjoint(value, adjoint);
    Ok(())
}

/// `memref.alloc`: the shadow made for the buffer in the reverse sweep
/// is freed here, where the reverse sweep is done with it.
fn alloc_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    if let Some(shadow) = s.existing_shadow(op.result(0)) {
        if op.name() == "memref.alloc" {
            s.b.create("memref.dealloc", &[shadow], &[], &[], &[], &[]);
        }
    }
    Ok(())
}

/// `memref.copy A, B`: `dA += dB; dB = 0` (nothing when A is B).
fn copy_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (source, target) = (op.operand(0), op.operand(1));
    // A copy onto itself changes nothing: its adjoint is the identity.
    if !s.activity.is_active(target) || source == target {
        return Ok(());
    }
    let d_target = s.shadow(op, target)?;
    if s.activity.is_active(source) {
        let d_source = s.shadow(op, source)?;
        crate::rules::linalg::accumulate(&mut s.b, d_target, d_source);
    }
    let zero = s.b.float(target.ty().element(), 0.0);
    s.b.fill(zero, d_target);
    Ok(())
}
