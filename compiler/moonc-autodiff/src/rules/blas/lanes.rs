//! Vector forward mode (width `N > 1`) of a BLAS call: the width-1 rule
//! once per direction.

use super::Foreign;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::{Builder, Op, Type, Value};

/// Vector forward mode (width `N > 1`) of a call `op` with the rule
/// `rule`: the width-1 rule once per direction, on that direction's slice
/// of each shadow (a rank-reduced `memref.subview`) and lane of each scalar
/// tangent, the scalar results' tangents gathered back into vectors.
pub fn forward_by_lane(s: &mut FunctionState, op: Op, rule: &Foreign) -> Result<(), Error> {
    let width = s.width;
    let operands = op.operands();
    let wide: Vec<(Value, Value)> = operands
        .iter()
        .filter_map(|&v| s.tangent(v).map(|t| (v, t)))
        .collect();
    let mut lanes: Vec<Vec<Value>> = vec![vec![]; op.results().len()];
    s.width = 1;
    let mut outcome = Ok(());
    for k in 0..i64::from(width) {
        let mut b = Builder::before(op);
        for &(v, t) in &wide {
            let lane = if v.ty().is_memref() {
                lane_view(&mut b, t, v.ty(), k)
            } else {
                let attr = b.ctx.attr(&format!("array<i64: {k}>"));
                b.value("vector.extract", &[t], v.ty(), &[("static_position", attr)])
            };
            s.set_tangent(v, lane);
        }
        outcome = (rule.forward)(s, op);
        if outcome.is_err() {
            break;
        }
        for (r, lane) in op.results().into_iter().zip(&mut lanes) {
            lane.extend(s.tangent(r));
        }
    }
    s.width = width;
    for (v, t) in wide {
        s.set_tangent(v, t);
    }
    outcome?;
    for (r, lane) in op.results().into_iter().zip(lanes) {
        if lane.len() == width as usize {
            let ty = s.tangent_type(r.ty());
            // After every lane's definition: later directions' code may come
            // first, each inserted just after the call.
            let ops = op.block().ops();
            let last = lane
                .iter()
                .filter_map(|v| v.defining_op())
                .filter_map(|d| ops.iter().position(|&o| o == d))
                .max();
            let at = last.map_or(op, |i| ops[i]);
            let vector = Builder::after(at).value("vector.from_elements", &lane, ty, &[]);
            s.set_tangent(r, vector);
        }
    }
    Ok(())
}

/// Direction `k` of the wide shadow `t` of a memref of type `ty`: `t[k,
/// ...]`, rank-reduced, with dynamic strides and offset.
fn lane_view(b: &mut Builder, t: Value, ty: Type, k: i64) -> Value {
    let shape = ty.shape();
    let index = b.ctx.index();
    let mut sizes = vec![];
    let mut static_sizes = vec!["1".to_string()];
    for (d, extent) in shape.iter().enumerate() {
        match extent {
            Some(n) => static_sizes.push(n.to_string()),
            None => {
                let d = b.index(d as i64 + 1);
                sizes.push(b.value("memref.dim", &[t, d], index, &[]));
                static_sizes.push(i64::MIN.to_string());
            }
        }
    }
    let rank = shape.len();
    let offsets: Vec<String> = std::iter::once(k.to_string())
        .chain(std::iter::repeat_n("0".to_string(), rank))
        .collect();
    let strides = vec!["1"; rank + 1].join(", ");
    let strided = vec!["?"; rank].join(", ");
    let lane = b.ctx.ty(&format!(
        "memref<{}{}, strided<[{strided}], offset: ?>>",
        ty.shape_prefix(),
        ty.element()
    ));
    let mut operands = vec![t];
    operands.extend(&sizes);
    let attr = |text: String| b.ctx.attr(&text);
    let attrs = [
        (
            "operandSegmentSizes",
            attr(format!("array<i32: 1, 0, {}, 0>", sizes.len())),
        ),
        (
            "static_offsets",
            attr(format!("array<i64: {}>", offsets.join(", "))),
        ),
        (
            "static_sizes",
            attr(format!("array<i64: {}>", static_sizes.join(", "))),
        ),
        ("static_strides", attr(format!("array<i64: {strides}>"))),
    ];
    b.value("memref.subview", &operands, lane, &attrs)
}
