//! Derivative rules of the `linalg` dialect (on memrefs). A generic's
//! tangent is a generic over the same iteration space that reads the
//! primal operands and the shadows of the active inputs and writes the
//! shadows of the active outputs; its body is the differentiated body. The
//! named contractions are bilinear: their tangent is the same operation
//! applied to (dA, B) and (A, dB), accumulating into dC.

use super::{Forward::Custom, Rule};
use crate::{
    activity::split_ins_outs,
    forward::{FunctionState, error_at, fill},
    ir::{Builder, Op, Value},
};
use moonc_ir::Error;

pub const RULES: &[Rule] = &[
    Rule {
        op: "linalg.generic",
        forward: Custom(generic),
    },
    Rule {
        op: "linalg.yield",
        forward: Custom(super::owned_by_parent),
    },
    Rule {
        op: "linalg.fill",
        forward: Custom(fill_),
    },
    Rule {
        op: "linalg.copy",
        forward: Custom(unary),
    },
    Rule {
        op: "linalg.transpose",
        forward: Custom(unary),
    },
    Rule {
        op: "linalg.matmul",
        forward: Custom(bilinear),
    },
    Rule {
        op: "linalg.matvec",
        forward: Custom(bilinear),
    },
    Rule {
        op: "linalg.vecmat",
        forward: Custom(bilinear),
    },
    Rule {
        op: "linalg.dot",
        forward: Custom(bilinear),
    },
    Rule {
        op: "linalg.batch_matmul",
        forward: Custom(bilinear),
    },
];

/// Fails on tensor semantics (linalg on tensors must be bufferized first).
fn on_memrefs(op: Op) -> Result<(), Error> {
    if op.results().is_empty() {
        Ok(())
    } else {
        Err(error_at(
            op,
            "linalg on tensors cannot be differentiated; bufferize first",
        ))
    }
}

/// The named operations' tangents need one copy per direction: width 1.
fn width_one(s: &FunctionState, op: Op) -> Result<(), Error> {
    if s.width == 1 {
        Ok(())
    } else {
        Err(error_at(
            op,
            &format!("`{}` is not supported with width > 1 yet", op.name()),
        ))
    }
}

/// A copy of `op` on `operands`, inserted after `op`.
fn clone_on(op: Op, operands: &[Value]) {
    let copy = op.clone_detached();
    copy.set_operands(operands);
    Builder::after(op).insert(copy);
}

fn fill_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let (value, out) = (op.operand(0), op.operand(1));
    if !s.is_active(out) {
        return Ok(());
    }
    width_one(s, op)?;
    let shadow = s.shadow(op, out)?;
    let mut b = Builder::after(op);
    let tangent = s.tangent_or_zero(&mut b, value);
    fill(&mut b, tangent, shadow);
    Ok(())
}

/// `linalg.copy` and `linalg.transpose`: the same operation on shadows.
fn unary(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let (input, out) = (op.operand(0), op.operand(1));
    if !s.is_active(out) {
        return Ok(());
    }
    width_one(s, op)?;
    let out_shadow = s.shadow(op, out)?;
    if s.is_active(input) {
        let in_shadow = s.shadow(op, input)?;
        clone_on(op, &[in_shadow, out_shadow]);
    } else {
        let mut b = Builder::after(op);
        let zero = b.float(out.ty().element(), 0.0);
        fill(&mut b, zero, out_shadow);
    }
    Ok(())
}

fn bilinear(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let [a, b, c] = op.operands()[..] else {
        return Err(error_at(op, "expected two inputs and one output"));
    };
    if !s.is_active(c) || !(s.is_active(a) || s.is_active(b)) {
        return Ok(());
    }
    width_one(s, op)?;
    let dc = s.shadow(op, c)?;
    if s.is_active(b) {
        clone_on(op, &[a, s.shadow(op, b)?, dc]);
    }
    if s.is_active(a) {
        clone_on(op, &[s.shadow(op, a)?, b, dc]);
    }
    Ok(())
}

/// Whether `value` is a block argument of `op`'s body or a result of an
/// operation nested in `op`.
fn defined_in(value: Value, op: Op, args: &[Value]) -> bool {
    args.contains(&value)
        || value
            .defining_op()
            .is_some_and(|d| std::iter::successors(d.parent(), |p| p.parent()).any(|p| p == op))
}

/// Renames `dK` to `d(K+1)` in an affine map's text and adds `d0` as a
/// new first dimension, and as a first result when `direction`.
fn add_direction(map: &str, direction: bool) -> String {
    let mut out = String::new();
    let chars: Vec<char> = map.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == 'd' && i + 1 < chars.len() && chars[i + 1].is_ascii_digit() {
            let start = i + 1;
            i = start;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: usize = chars[start..i]
                .iter()
                .collect::<String>()
                .parse()
                .expect("digits");
            out += &format!("d{}", n + 1);
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    let out = out.replacen("<(", "<(d0, ", 1).replace("(d0, )", "(d0)");
    if !direction {
        return out;
    }
    let arrow = out.find("-> (").expect("an affine map") + 4;
    let rest = &out[arrow..];
    let results = if rest.starts_with(')') { "d0" } else { "d0, " };
    format!("{}{results}{rest}", &out[..arrow])
}

fn generic(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let active_ins: Vec<usize> = (0..ins).filter(|&i| s.is_active(operands[i])).collect();
    let active_outs: Vec<usize> = (ins..ins + outs)
        .filter(|&i| s.is_active(operands[i]))
        .collect();
    if active_outs.is_empty() {
        return Ok(());
    }
    if s.width > 1 {
        // The direction loop only covers shadow buffers read in the body.
        let body = op.regions()[0].entry().expect("linalg.generic has a body");
        let args = body.args();
        let captures = op.walk().iter().any(|o| {
            o.name() == "linalg.index"
                || o.operands()
                    .iter()
                    .any(|&v| s.is_active(v) && !defined_in(v, op, &args))
        });
        if captures || active_ins.iter().any(|&i| !operands[i].ty().is_memref()) {
            return Err(error_at(
                op,
                "at width > 1, a linalg.generic may only read active buffers (no active scalar \
                 inputs, captured active values or linalg.index) yet",
            ));
        }
    }
    let mut shadows = vec![];
    for &i in active_ins.iter().chain(&active_outs) {
        shadows.push(s.shadow(op, operands[i])?);
    }
    // The primal runs after the tangent, which reads the outputs' old values.
    Builder::after(op).insert(op.clone_detached());

    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let width = std::mem::replace(&mut s.width, 1);
    let positions: Vec<usize> = active_ins.iter().chain(&active_outs).copied().collect();
    s.add_tangent_args(body, &positions);
    let outcome = s.transform_block(body);
    let terminator = body.terminator().expect("linalg.yield");
    let yields = terminator.operands();
    let mut b = Builder::before(terminator);
    let tangents: Vec<Value> = active_outs
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, yields[i - ins]))
        .collect();
    s.width = width;
    outcome?;
    terminator.set_operands(&tangents);

    let mut new_operands = operands.clone();
    new_operands.extend(shadows);
    op.set_operands(&new_operands);
    let ctx = s.ctx();
    let segments = format!(
        "array<i32: {}, {}>",
        ins + outs + active_ins.len(),
        active_outs.len()
    );
    op.set_attr("operandSegmentSizes", ctx.attr(&segments));
    let maps: Vec<String> = op
        .attr("indexing_maps")
        .expect("indexing_maps")
        .elements()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let mut new_maps: Vec<String> = vec![];
    for (k, map) in maps
        .iter()
        .chain(positions.iter().map(|&i| &maps[i]))
        .enumerate()
    {
        new_maps.push(if width == 1 {
            map.clone()
        } else {
            add_direction(map, k >= maps.len())
        });
    }
    op.set_attr(
        "indexing_maps",
        ctx.attr(&format!("[{}]", new_maps.join(", "))),
    );
    if width > 1 {
        let iterators = op
            .attr("iterator_types")
            .expect("iterator_types")
            .to_string();
        let iterators = iterators.replacen('[', "[#linalg.iterator_type<parallel>, ", 1);
        op.set_attr("iterator_types", ctx.attr(&iterators));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::add_direction;

    #[test]
    fn direction_dimension_is_prepended() {
        assert_eq!(
            add_direction("affine_map<(d0, d1) -> (d1, d0)>", false),
            "affine_map<(d0, d1, d2) -> (d2, d1)>"
        );
        assert_eq!(
            add_direction("affine_map<(d0, d1) -> (d1, d0)>", true),
            "affine_map<(d0, d1, d2) -> (d0, d2, d1)>"
        );
        assert_eq!(
            add_direction("affine_map<(d0) -> ()>", true),
            "affine_map<(d0, d1) -> (d0)>"
        );
    }
}
