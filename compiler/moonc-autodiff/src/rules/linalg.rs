//! Derivative rules of the `linalg` dialect (on memrefs). A generic's
//! tangent is a generic over the same iteration space that reads the
//! primal operands and the shadows of the active inputs and writes the
//! shadows of the active outputs; its body is the differentiated body. The
//! named contractions are bilinear: their tangent is the same operation
//! applied to (dA, B) and (A, dB), accumulating into dC.

use super::{Forward::Custom, Reverse, Rule};
use crate::{
    activity::split_ins_outs,
    forward::{FunctionState, error_at, fill},
    ir::{Block, Builder, Op, Region, Type, Value},
    reverse::ReverseState,
};
use moonc_ir::Error;

pub const RULES: &[Rule] = &[
    Rule {
        op: "linalg.generic",
        forward: Custom(generic),
        reverse: Reverse::Custom(generic_reverse),
    },
    Rule {
        op: "linalg.yield",
        forward: Custom(super::owned_by_parent),
        reverse: Reverse::Nothing,
    },
    Rule {
        op: "linalg.fill",
        forward: Custom(fill_),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.copy",
        forward: Custom(unary),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.transpose",
        forward: Custom(unary),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.matmul",
        forward: Custom(bilinear),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.matvec",
        forward: Custom(bilinear),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.vecmat",
        forward: Custom(bilinear),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.dot",
        forward: Custom(bilinear),
        reverse: Reverse::Custom(generalized),
    },
    Rule {
        op: "linalg.batch_matmul",
        forward: Custom(bilinear),
        reverse: Reverse::Custom(generalized),
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

/// Named operations are generalized before reverse mode runs.
fn generalized(_: &mut ReverseState, op: Op) -> Result<(), Error> {
    Err(error_at(
        op,
        "internal error: named linalg operations are generalized before reverse mode",
    ))
}

/// Builds a `linalg.generic` over memrefs with `b`: `ins`, `outs`, the
/// indexing maps and iterator kinds as text. Returns the operation, its
/// body block and the body's `linalg.yield` (yielding nothing yet).
fn build_generic(
    b: &mut Builder,
    ins: &[Value],
    outs: &[Value],
    maps: &[String],
    iterators: &[&str],
) -> (Op, Block, Op) {
    let ctx = b.ctx;
    let element = |v: &Value| {
        if v.ty().is_memref() {
            v.ty().element()
        } else {
            v.ty()
        }
    };
    let types: Vec<Type> = ins.iter().chain(outs).map(element).collect();
    let (region, block) = Region::with_block(&types, b.loc);
    let operands: Vec<Value> = ins.iter().chain(outs).copied().collect();
    let iterators: Vec<String> = iterators
        .iter()
        .map(|k| format!("#linalg.iterator_type<{k}>"))
        .collect();
    let op = b.create(
        "linalg.generic",
        &operands,
        &[],
        &[
            ("indexing_maps", ctx.attr(&format!("[{}]", maps.join(", ")))),
            (
                "iterator_types",
                ctx.attr(&format!("[{}]", iterators.join(", "))),
            ),
            (
                "operandSegmentSizes",
                ctx.attr(&format!("array<i32: {}, {}>", ins.len(), outs.len())),
            ),
        ],
        &[region],
        &[],
    );
    region.destroy();
    let yield_ = Builder::at_end(block, b.loc).create("linalg.yield", &[], &[], &[], &[], &[]);
    (op, block, yield_)
}

/// `into += from`, elementwise, for two memrefs of one shape.
pub fn accumulate(b: &mut Builder, from: Value, into: Value) {
    let rank = from.ty().shape().len();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let map = format!("affine_map<({0}) -> ({0})>", dims.join(", "));
    let (_, block, yield_) = build_generic(
        b,
        &[from],
        &[into],
        &[map.clone(), map],
        &vec!["parallel"; rank],
    );
    let args = block.args();
    let sum = Builder::before(yield_).value("arith.addf", &[args[0], args[1]], args[0].ty(), &[]);
    yield_.set_operands(&[sum]);
}

/// The dimensions an affine map's results name (`None` unless each result
/// is a distinct bare dimension), e.g. `[1, 0]` for `(d0, d1) -> (d1, d0)`.
fn projected_dims(map: &str) -> Option<Vec<usize>> {
    let results = map.split("->").nth(1)?;
    let results = results.trim().trim_end_matches('>').trim();
    let inner = results.strip_prefix('(')?.strip_suffix(')')?;
    let mut dims = vec![];
    for r in inner.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        let d: usize = r.strip_prefix('d')?.parse().ok()?;
        if dims.contains(&d) {
            return None;
        }
        dims.push(d);
    }
    Some(dims)
}

/// A copy of the buffer `v` taken just before `op` in the forward sweep,
/// for reverse code that needs contents the call overwrites later.
fn snapshot(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
    if op.block() != s.body() || !s.is_direct(s.body()) {
        return Err(error_at(
            op,
            "reverse mode cannot yet save a buffer that is overwritten later for a linalg \
             operation inside a loop, branch or called function",
        ));
    }
    let mut b = Builder::before(op);
    let ty = v.ty();
    let plain = b
        .ctx
        .ty(&format!("memref<{}{}>", ty.shape_prefix(), ty.element()));
    let copy = b.alloc_like("memref.alloc", v, plain);
    b.create("memref.copy", &[v, copy], &[], &[], &[], &[]);
    s.free_at_end(copy);
    Ok(copy)
}

/// `linalg.generic`: for each active input (and each active value the body
/// captures) one generic over the same iteration space that recomputes the
/// body and adds the input's adjoint, reduced over the dimensions its
/// indexing map leaves out. Outputs must be overwritten or accumulated into
/// (`out + f(ins)`); the adjoint of an overwritten output is then zeroed.
fn generic_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let active_outs: Vec<usize> = (0..outs)
        .filter(|&o| s.activity.is_active(operands[ins + o]))
        .collect();
    if active_outs.is_empty() {
        return Ok(());
    }
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let args = body.args();
    let yields = body.terminator().expect("linalg.yield").operands();
    let mut overwritten = vec![];
    for o in 0..outs {
        let arg = args[ins + o];
        let users = arg.users();
        let additive = matches!(users.as_slice(), [add] if add.name() == "arith.addf"
            && add.result(0) == yields[o] && add.result(0).users().len() == 1);
        if users.is_empty() {
            overwritten.push(o);
        } else if !additive {
            return Err(error_at(
                op,
                "reverse mode supports linalg.generic outputs that are overwritten or \
                 accumulated into (`out + f(ins)`) only",
            ));
        }
    }
    let maps: Vec<String> = op
        .attr("indexing_maps")
        .expect("indexing_maps")
        .elements()
        .iter()
        .map(|m| m.to_string())
        .collect();
    let rank = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements()
        .len();
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let scalar_map = format!("affine_map<({}) -> ()>", dims.join(", "));

    let d_outs = active_outs
        .iter()
        .map(|&o| s.shadow(op, operands[ins + o]))
        .collect::<Result<Vec<_>, _>>()?;
    let mut primal_ins = vec![];
    for &v in &operands[..ins] {
        primal_ins.push(if v.ty().is_memref() && s.is_written(v) {
            snapshot(s, op, v)?
        } else {
            s.get(v)?
        });
    }
    // Active values the body captures become extra scalar inputs.
    let mut captured = vec![];
    for inner in op.walk() {
        for v in inner.operands() {
            if s.has_adjoint(v) && !captured.contains(&v) && !defined_in(v, op, &args) {
                captured.push(v);
            }
        }
    }
    for &v in &captured {
        primal_ins.push(s.get(v)?);
    }
    let mut in_maps: Vec<String> = maps[..ins].to_vec();
    in_maps.extend(captured.iter().map(|_| scalar_map.clone()));
    in_maps.extend(active_outs.iter().map(|&o| maps[ins + o].clone()));
    let mut generic_ins = primal_ins.clone();
    generic_ins.extend(&d_outs);

    let targets: Vec<usize> = (0..ins + captured.len())
        .filter(|&i| {
            let v = if i < ins {
                operands[i]
            } else {
                captured[i - ins]
            };
            s.activity.is_active(v) && (v.ty().is_memref() || s.has_adjoint(v))
        })
        .collect();
    for &t in &targets {
        let primal = if t < ins {
            operands[t]
        } else {
            captured[t - ins]
        };
        let (into, map) = if primal.ty().is_memref() {
            (s.shadow(op, primal)?, maps[t].clone())
        } else {
            (s.b.zero_cell(primal.ty()), scalar_map.clone())
        };
        let Some(kept) = projected_dims(&map) else {
            return Err(error_at(
                op,
                "reverse mode needs the indexing maps of a linalg.generic's active inputs to be \
                 projected permutations",
            ));
        };
        let iterators: Vec<&str> = (0..rank)
            .map(|d| {
                if kept.contains(&d) {
                    "parallel"
                } else {
                    "reduction"
                }
            })
            .collect();
        let mut all_maps = in_maps.clone();
        all_maps.push(map);
        let (_, block, yield_) =
            build_generic(&mut s.b, &generic_ins, &[into], &all_maps, &iterators);
        let new_args = block.args();
        // The body, recomputed: inputs and captures from the new block
        // arguments, outputs' old values (which only add) as zero.
        let mut mapping: std::collections::HashMap<Value, Value> = std::collections::HashMap::new();
        let mut b = Builder::before(yield_);
        for (i, &a) in args[..ins].iter().enumerate() {
            mapping.insert(a, new_args[i]);
        }
        for (c, &v) in captured.iter().enumerate() {
            mapping.insert(v, new_args[ins + c]);
        }
        for &a in &args[ins..] {
            let zero = if a.ty().is_float() {
                b.float(a.ty(), 0.0)
            } else {
                let attr = b.ctx.attr(&format!("0 : {}", a.ty()));
                b.value("arith.constant", &[], a.ty(), &[("value", attr)])
            };
            mapping.insert(a, zero);
        }
        for (i, &a) in new_args[..ins + captured.len()].iter().enumerate() {
            let v = if i < ins {
                operands[i]
            } else {
                captured[i - ins]
            };
            if s.activity.is_active(v) {
                s.activity.mark(a);
            }
        }
        for inner in body.ops() {
            if inner.name() == "linalg.yield" {
                continue;
            }
            let clone = b.insert(inner.clone_detached());
            let remapped: Vec<Value> = inner
                .operands()
                .iter()
                .map(|v| *mapping.get(v).unwrap_or(v))
                .collect();
            clone.set_operands(&remapped);
            for (r, c) in inner.results().into_iter().zip(clone.results()) {
                mapping.insert(r, c);
                if s.activity.is_active(r) {
                    s.activity.mark(c);
                }
            }
        }
        let seeds: Vec<(Value, Value)> = active_outs
            .iter()
            .enumerate()
            .map(|(k, &o)| (mapping[&yields[o]], new_args[ins + captured.len() + k]))
            .collect();
        let target_arg = new_args[ins + captured.len() + active_outs.len()];
        let wanted = new_args[t];
        s.set_direct(block);
        let adjoint = s.reverse_nested(block, Builder::before(yield_), &seeds, &[wanted])?;
        let mut b = Builder::before(yield_);
        let sum = match adjoint[0] {
            Some(a) => b.value("arith.addf", &[target_arg, a], a.ty(), &[]),
            None => target_arg,
        };
        yield_.set_operands(&[sum]);
        if !primal.ty().is_memref() {
            let total = s.b.value("memref.load", &[into], primal.ty(), &[]);
            s.add_adjoint(primal, total);
        }
    }
    for (k, &o) in active_outs.iter().enumerate() {
        if overwritten.contains(&o) {
            let zero = s.b.float(operands[ins + o].ty().element(), 0.0);
            fill(&mut s.b, zero, d_outs[k]);
        }
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
