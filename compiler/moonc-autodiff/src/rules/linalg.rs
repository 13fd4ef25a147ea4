//! Derivative rules of the `linalg` dialect (on memrefs). A generic's
//! tangent is a generic over the same iteration space that reads the
//! primal operands and the shadows of the active inputs and writes the
//! shadows of the active outputs; its body is the differentiated body. The
//! named contractions are bilinear: their tangent is the same operation
//! applied to (dA, B) and (A, dB), accumulating into dC.

use super::{Forward::Custom, Reverse, Rule};
use crate::{activity::root, adjoint::ReverseState, tangent::FunctionState};
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Block, Builder, Op, Region, Type, Value};
use moonc_ir::linalg::{indexing_maps, projected_dims, split_ins_outs};
use std::collections::HashMap;

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
    b.fill(tangent, shadow);
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
        b.fill(zero, out_shadow);
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
    let maps = indexing_maps(op);
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
pub(crate) fn build_generic(
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

/// A copy of the buffer `v` taken just before `op` in the forward sweep,
/// for reverse code that needs contents the call overwrites later.
pub(crate) fn snapshot(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
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

/// How the body of a `linalg.generic` uses an output's old contents.
#[derive(Clone, Copy, PartialEq)]
enum OutUse {
    /// Not at all: the adjoint of the old contents is zero.
    Overwritten,
    /// Only as `out + f(ins)`: the adjoint passes through unchanged.
    Accumulated,
    /// Any other way (each element is then visited once): the old contents
    /// are an input of the body like any other.
    Read,
}

/// What one reverse generic adds its adjoint to.
struct Target {
    /// The primal value whose adjoint it computes (for a scalar, the
    /// adjoint is added with `add_adjoint`).
    primal: Value,
    /// Its position among the reverse generic's inputs.
    input: usize,
    /// Its indexing map.
    map: String,
    /// Whether the adjoint is added to `into` (else it overwrites it).
    accumulate: bool,
}

/// Whether two memrefs may share memory: the same buffer, or two
/// arguments of the function (a caller may pass one buffer twice). A
/// generic may only read and write one buffer at the same indices, so
/// aliasing matters only between an input and an output of one map.
pub(crate) fn may_alias(s: &ReverseState, a: Value, b: Value) -> bool {
    let (a, b) = (root(a), root(b));
    let argument = |v: Value| v.block() == s.body() && v.defining_op().is_none();
    a == b || (argument(a) && argument(b))
}

/// `linalg.generic`: for each active input (and each active value the body
/// captures, and each active output the body reads) one generic over the
/// same iteration space that recomputes the body and adds the input's
/// adjoint, reduced over the dimensions its indexing map leaves out. An
/// output's adjoint is then zeroed (overwritten), kept (accumulated into
/// with `out + f(ins)`) or replaced by the adjoint of its old contents
/// (read, in an all-parallel generic). Output adjoints are copied first
/// when an input's shadow may share their memory (in place, aliasing).
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
    let maps = indexing_maps(op);
    let iterators = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements();
    if crate::rules::ndual::generic(s, op, &maps)? {
        return Ok(());
    }
    let rank = iterators.len();
    let all_parallel = iterators.iter().all(|k| k.to_string().contains("parallel"));
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let scalar_map = format!("affine_map<({}) -> ()>", dims.join(", "));

    let mut uses = vec![];
    for o in 0..outs {
        let arg = args[ins + o];
        let users = arg.users();
        let additive = matches!(users.as_slice(), [add] if add.name() == "arith.addf"
            && add.result(0) == yields[o] && add.result(0).users().len() == 1);
        uses.push(if users.is_empty() {
            OutUse::Overwritten
        } else if additive {
            OutUse::Accumulated
        } else if all_parallel && projected_dims(&maps[ins + o]).is_some_and(|d| d.len() == rank) {
            OutUse::Read
        } else {
            return Err(error_at(
                op,
                "reverse mode supports a linalg.generic whose body reads an output only when \
                 each output element is visited once (all iterators parallel) or the output is \
                 accumulated into (`out + f(ins)`)",
            ));
        });
    }
    let read_outs: Vec<usize> = (0..outs).filter(|&o| uses[o] == OutUse::Read).collect();

    // The reverse generics' inputs: primal inputs (a copy, when the call
    // overwrites them later), captured values, old contents of read
    // outputs, then the output adjoints (the seeds).
    let mut saved: Vec<(Value, Value)> = vec![];
    let mut save = |s: &mut ReverseState, v: Value| -> Result<Value, Error> {
        if let Some(&(_, copy)) = saved.iter().find(|(p, _)| *p == v) {
            return Ok(copy);
        }
        let copy = snapshot(s, op, v)?;
        saved.push((v, copy));
        Ok(copy)
    };
    let mut generic_ins = vec![];
    for &v in &operands[..ins] {
        generic_ins.push(if v.ty().is_memref() && s.is_written(v) {
            save(s, v)?
        } else {
            s.get(v)?
        });
    }
    let mut captured = vec![];
    for inner in op.walk() {
        for v in inner.operands() {
            if s.has_adjoint(v) && !captured.contains(&v) && !defined_in(v, op, &args) {
                captured.push(v);
            }
        }
    }
    for &v in &captured {
        generic_ins.push(s.get(v)?);
    }
    for &o in &read_outs {
        generic_ins.push(save(s, operands[ins + o])?);
    }
    let mut in_maps: Vec<String> = maps[..ins].to_vec();
    in_maps.extend(captured.iter().map(|_| scalar_map.clone()));
    in_maps.extend(read_outs.iter().map(|&o| maps[ins + o].clone()));
    in_maps.extend(active_outs.iter().map(|&o| maps[ins + o].clone()));
    // The primal value behind each input of the reverse generics.
    let mut primals: Vec<Value> = operands[..ins].to_vec();
    primals.extend(&captured);
    primals.extend(read_outs.iter().map(|&o| operands[ins + o]));

    let mut inputs = vec![];
    let mut outputs = vec![];
    for (i, &v) in primals.iter().enumerate() {
        if !s.activity.is_active(v) || !(v.ty().is_memref() || s.has_adjoint(v)) {
            continue;
        }
        let read_out = i >= ins + captured.len();
        let target = Target {
            primal: v,
            input: i,
            map: if i < ins || read_out {
                in_maps[i].clone()
            } else {
                scalar_map.clone()
            },
            accumulate: !read_out,
        };
        if read_out {
            outputs.push(target);
        } else {
            inputs.push(target);
        }
    }
    let d_outs = active_outs
        .iter()
        .map(|&o| s.shadow(op, operands[ins + o]))
        .collect::<Result<Vec<_>, _>>()?;
    let aliased = inputs.iter().any(|t| {
        t.primal.ty().is_memref()
            && active_outs
                .iter()
                .any(|&o| may_alias(s, t.primal, operands[ins + o]) && t.map == maps[ins + o])
    });
    let mut seeds = d_outs.clone();
    if aliased {
        for seed in &mut seeds {
            let ty = seed.ty();
            let plain =
                s.b.ctx
                    .ty(&format!("memref<{}{}>", ty.shape_prefix(), ty.element()));
            let copy = s.b.alloc_like("memref.alloc", *seed, plain);
            s.b.create("memref.copy", &[*seed, copy], &[], &[], &[], &[]);
            *seed = copy;
        }
    }
    generic_ins.extend(&seeds);
    let generic = Generic {
        op,
        body,
        ins,
        captured: &captured,
        read_outs: &read_outs,
        maps: &in_maps,
        inputs: &generic_ins,
        seeds: active_outs.iter().map(|&o| yields[o]).collect(),
        rank,
    };
    // Input adjoints read the seeds; when those are copies, the output
    // adjoints can be replaced first (an input may be an output).
    if !aliased {
        for t in &inputs {
            generic.reverse_into(s, t)?;
        }
    }
    for (k, &o) in active_outs.iter().enumerate() {
        match uses[o] {
            OutUse::Overwritten => {
                let zero = s.b.float(operands[ins + o].ty().element(), 0.0);
                s.b.fill(zero, d_outs[k]);
            }
            OutUse::Accumulated => {}
            OutUse::Read => {
                let t = outputs
                    .iter()
                    .find(|t| t.primal == operands[ins + o])
                    .expect("an active read output is a target");
                generic.reverse_into(s, t)?;
            }
        }
    }
    if aliased {
        for t in &inputs {
            generic.reverse_into(s, t)?;
        }
        for seed in seeds {
            s.b.create("memref.dealloc", &[seed], &[], &[], &[], &[]);
        }
    }
    Ok(())
}

/// A `linalg.generic` being reversed, with the inputs its reverse generics
/// share (see `generic_reverse`).
struct Generic<'a> {
    op: Op,
    body: Block,
    ins: usize,
    captured: &'a [Value],
    read_outs: &'a [usize],
    maps: &'a [String],
    inputs: &'a [Value],
    /// The values the body yields for the active outputs.
    seeds: Vec<Value>,
    rank: usize,
}

impl Generic<'_> {
    /// Emits the generic that computes the adjoint of `t`: the body
    /// recomputed from the shared inputs, then reversed from the seeds.
    fn reverse_into(&self, s: &mut ReverseState, t: &Target) -> Result<(), Error> {
        let (into, map) = if t.primal.ty().is_memref() {
            (s.shadow(self.op, t.primal)?, t.map.clone())
        } else {
            (s.b.zero_cell(t.primal.ty()), t.map.clone())
        };
        let Some(kept) = projected_dims(&map) else {
            return Err(error_at(
                self.op,
                "reverse mode needs the indexing maps of a linalg.generic's active inputs to be \
                 projected permutations",
            ));
        };
        let iterators = reducing_iterators(self.rank, &kept);
        let mut all_maps = self.maps.to_vec();
        all_maps.push(map);
        let (_, block, yield_) =
            build_generic(&mut s.b, self.inputs, &[into], &all_maps, &iterators);
        let new_args = block.args();
        let args = self.body.args();
        let (ins, captures) = (self.ins, self.captured.len());
        let primal_inputs = ins + captures + self.read_outs.len();
        // Block arguments and captures of the old body, in the new one;
        // outputs the body does not read (or only adds to) are zero.
        let mut mapping: HashMap<Value, Value> = HashMap::new();
        let mut b = Builder::before(yield_);
        for (i, &a) in args[..ins].iter().enumerate() {
            mapping.insert(a, new_args[i]);
        }
        for (c, &v) in self.captured.iter().enumerate() {
            mapping.insert(v, new_args[ins + c]);
        }
        for (o, &a) in args[ins..].iter().enumerate() {
            let new = match self.read_outs.iter().position(|&r| r == o) {
                Some(r) => new_args[ins + captures + r],
                None if a.ty().is_float() => b.float(a.ty(), 0.0),
                None => {
                    let attr = b.ctx.attr(&format!("0 : {}", a.ty()));
                    b.value("arith.constant", &[], a.ty(), &[("value", attr)])
                }
            };
            mapping.insert(a, new);
        }
        let operands = self.op.operands();
        for (i, &a) in new_args[..primal_inputs].iter().enumerate() {
            let v = if i < ins {
                operands[i]
            } else if i < ins + captures {
                self.captured[i - ins]
            } else {
                operands[ins + self.read_outs[i - ins - captures]]
            };
            if s.activity.is_active(v) {
                s.activity.mark(a);
            }
        }
        let ops = self.body.ops();
        let ops = &ops[..ops.len() - 1];
        b.clone_remapped(ops, &mut mapping);
        for r in ops.iter().flat_map(|o| o.results()) {
            if s.activity.is_active(r) {
                s.activity.mark(mapping[&r]);
            }
        }
        let seeds: Vec<(Value, Value)> = self
            .seeds
            .iter()
            .enumerate()
            .map(|(k, y)| (*mapping.get(y).unwrap_or(y), new_args[primal_inputs + k]))
            .collect();
        let target_arg = new_args[primal_inputs + self.seeds.len()];
        s.set_direct(block);
        let adjoint =
            s.reverse_nested(block, Builder::before(yield_), &seeds, &[new_args[t.input]])?;
        let mut b = Builder::before(yield_);
        let result = match (adjoint[0], t.accumulate) {
            (Some(a), true) => b.value("arith.addf", &[target_arg, a], a.ty(), &[]),
            (Some(a), false) => a,
            (None, true) => target_arg,
            (None, false) => b.float(target_arg.ty(), 0.0),
        };
        yield_.set_operands(&[result]);
        if !t.primal.ty().is_memref() {
            let total = s.b.value("memref.load", &[into], t.primal.ty(), &[]);
            s.add_adjoint(t.primal, total);
        }
        Ok(())
    }
}

/// The iterator types of a generic over `rank` dimensions that keeps the
/// dimensions `kept` and sums over the others.
pub(crate) fn reducing_iterators(rank: usize, kept: &[usize]) -> Vec<&'static str> {
    (0..rank)
        .map(|d| {
            if kept.contains(&d) {
                "parallel"
            } else {
                "reduction"
            }
        })
        .collect()
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
