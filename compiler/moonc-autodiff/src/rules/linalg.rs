//! Derivative rules of the `linalg` dialect (on memrefs). A generic's
//! tangent is a generic over the same iteration space that reads the
//! primal operands and the shadows of the active inputs and writes the
//! shadows of the active outputs; its body is the differentiated body. The
//! named contractions are bilinear: their tangent is the same operation
//! applied to (dA, B) and (A, dB), accumulating into dC. Named
//! convolutions and poolings are generalized (in place in forward mode,
//! by a pass before reverse mode) and differentiated as generics. In
//! reverse mode, an input read through a map that is not a projected
//! permutation (a convolution's `d2 * 2 + d5`) gets its adjoint from a loop
//! nest over the iteration space (`moonc_ir::linalg::lower_to_loops`);
//! max and min reductions are reversed in `selection`.

use super::{Forward::Custom, Reverse, Rule};
use crate::{activity::root, adjoint::ReverseState, tangent::FunctionState};
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Block, Builder, Op, Type, Value};
use moonc_ir::linalg::{
    build_generic, create_generic, indexing_maps, iterators_from_outputs, lower_to_loops, map_rank,
    projected_dims, split_ins_outs, structured_indexing_maps, take_body,
};
use std::collections::HashMap;

mod selection;

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
    named("linalg.conv_1d"),
    named("linalg.conv_2d"),
    named("linalg.conv_3d"),
    named("linalg.conv_1d_nwc_wcf"),
    named("linalg.conv_1d_ncw_fcw"),
    named("linalg.conv_2d_nhwc_hwcf"),
    named("linalg.conv_2d_nhwc_fhwc"),
    named("linalg.conv_2d_nchw_fchw"),
    named("linalg.conv_2d_ngchw_fgchw"),
    named("linalg.conv_2d_ngchw_gfchw"),
    named("linalg.conv_2d_nhwgc_gfhwc"),
    named("linalg.conv_3d_ndhwc_dhwcf"),
    named("linalg.conv_3d_ncdhw_fcdhw"),
    named("linalg.depthwise_conv_1d_nwc_wc"),
    named("linalg.depthwise_conv_1d_ncw_cw"),
    named("linalg.depthwise_conv_1d_nwc_wcm"),
    named("linalg.depthwise_conv_2d_nhwc_hwc"),
    named("linalg.depthwise_conv_2d_nchw_chw"),
    named("linalg.depthwise_conv_2d_nhwc_hwcm"),
    named("linalg.depthwise_conv_3d_ndhwc_dhwc"),
    named("linalg.depthwise_conv_3d_ncdhw_cdhw"),
    named("linalg.depthwise_conv_3d_ndhwc_dhwcm"),
    named("linalg.pooling_nhwc_sum"),
    named("linalg.pooling_nchw_sum"),
    named("linalg.pooling_nhwc_max"),
    named("linalg.pooling_nchw_max"),
    named("linalg.pooling_nhwc_min"),
    named("linalg.pooling_nwc_sum"),
    named("linalg.pooling_ncw_sum"),
    named("linalg.pooling_nwc_max"),
    named("linalg.pooling_ncw_max"),
    named("linalg.pooling_nwc_min"),
    named("linalg.pooling_ndhwc_sum"),
    named("linalg.pooling_ndhwc_max"),
    named("linalg.pooling_ndhwc_min"),
];

/// The rule of a named convolution or pooling: forward mode generalizes it
/// in place and differentiates the generic; reverse mode finds it
/// generalized already. (The quantized `_q` variants and the unsigned
/// poolings work on integers and have no derivative.)
const fn named(op: &'static str) -> Rule {
    Rule {
        op,
        forward: Custom(named_forward),
        reverse: Reverse::Custom(generalized),
    }
}

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
    if reads_running_output(op) {
        return running_generic(s, op, &active_ins, &active_outs);
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
        let iterators = if iterators == "[]" {
            "[#linalg.iterator_type<parallel>]".to_string()
        } else {
            iterators.replacen('[', "[#linalg.iterator_type<parallel>, ", 1)
        };
        op.set_attr("iterator_types", ctx.attr(&iterators));
    }
    Ok(())
}

/// Whether the body of the generic `op` `out + f(ins)` adds to the
/// output whose block argument is `arg` and which it yields as `next`.
fn is_accumulated(arg: Value, next: Value) -> bool {
    matches!(arg.users().as_slice(), [add] if add.name() == "arith.addf"
        && add.result(0) == next && add.result(0).users().len() == 1)
}

/// Whether the generic `op` reduces into an output whose running value its
/// body reads other than by adding to it (a max or min reduction): its
/// tangent then needs the running primal value, not the old contents.
fn reads_running_output(op: Op) -> bool {
    let (ins, outs) = split_ins_outs(op);
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let args = body.args();
    let yields = body.terminator().expect("linalg.yield").operands();
    let reduces = op
        .attr("iterator_types")
        .expect("iterator_types")
        .elements()
        .iter()
        .any(|k| k.to_string().contains("reduction"));
    reduces
        && (0..outs).any(|o| {
            let arg = args[ins + o];
            !arg.users().is_empty() && !is_accumulated(arg, yields[o])
        })
}

/// The tangent of a generic that reduces into an output it reads (see
/// [`reads_running_output`]): one generic computes the primal and the
/// tangent together, the tangents of the active inputs read beside them
/// and those of the active outputs written beside them, so that each
/// iteration sees the running values of both. Width 1 only.
fn running_generic(
    s: &mut FunctionState,
    op: Op,
    active_ins: &[usize],
    active_outs: &[usize],
) -> Result<(), Error> {
    if s.width > 1 {
        return Err(error_at(
            op,
            "at width > 1, a linalg.generic that reduces into an output it reads (a max or min \
             reduction) is not supported yet",
        ));
    }
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let mut in_shadows = vec![];
    for &i in active_ins {
        in_shadows.push(s.shadow(op, operands[i])?);
    }
    let mut out_shadows = vec![];
    for &i in active_outs {
        out_shadows.push(s.shadow(op, operands[i])?);
    }
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let args = body.args();
    let loc = op.loc();
    // Block arguments: the inputs, their tangents, the outputs, theirs.
    for (k, &i) in active_ins.iter().enumerate() {
        let ty = s.tangent_type(args[i].ty());
        // SAFETY: the block is live and the position within its arguments.
        let t = Value(unsafe {
            mlir_sys::mlirBlockInsertArgument(body.0, (ins + k) as isize, ty.0, loc.0)
        });
        s.set_tangent(args[i], t);
    }
    for &i in active_outs {
        let t = body.add_arg(s.tangent_type(args[i].ty()), loc);
        s.set_tangent(args[i], t);
    }
    s.transform_block(body)?;
    let terminator = body.terminator().expect("linalg.yield");
    let mut yields = terminator.operands();
    let mut b = Builder::before(terminator);
    for &i in active_outs {
        let t = s.tangent_or_zero(&mut b, yields[i - ins]);
        yields.push(t);
    }
    terminator.set_operands(&yields);

    let mut new_operands = operands[..ins].to_vec();
    new_operands.extend(&in_shadows);
    new_operands.extend(&operands[ins..]);
    new_operands.extend(&out_shadows);
    op.set_operands(&new_operands);
    let maps = indexing_maps(op);
    let mut new_maps = maps[..ins].to_vec();
    new_maps.extend(active_ins.iter().map(|&i| maps[i].clone()));
    new_maps.extend(maps[ins..].iter().cloned());
    new_maps.extend(active_outs.iter().map(|&i| maps[i].clone()));
    let ctx = s.ctx();
    op.set_attr(
        "indexing_maps",
        ctx.attr(&format!("[{}]", new_maps.join(", "))),
    );
    let segments = format!(
        "array<i32: {}, {}>",
        ins + active_ins.len(),
        outs + active_outs.len()
    );
    op.set_attr("operandSegmentSizes", ctx.attr(&segments));
    Ok(())
}

/// A named structured operation (a convolution, a pooling): replaced by
/// its `linalg.generic`, whose tangent is then generated.
fn named_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    on_memrefs(op)?;
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let touches = operands.iter().any(|&v| s.is_active(v));
    if !touches || !operands[ins..ins + outs].iter().any(|&v| s.is_active(v)) {
        return Ok(());
    }
    let replacement = generalize(op)?;
    // The activity analysis ran before the body was copied: an argument
    // is active with its operand, a result with any of its operands.
    let body = replacement.regions()[0].entry().expect("a body");
    for (&v, a) in operands.iter().zip(body.args()) {
        s.activity.inherit(v, a);
    }
    for inner in body.ops() {
        if inner.operands().iter().any(|&v| s.is_active(v)) {
            for r in inner.results() {
                s.activity.mark(r);
            }
        }
    }
    generic(s, replacement)
}

/// Replaces the named structured operation `op` (on memrefs) by the
/// equivalent `linalg.generic`: its indexing maps, iterators parallel over
/// the dimensions that index an output, and a copy of its body.
pub(crate) fn generalize(op: Op) -> Result<Op, Error> {
    let Some(maps) = structured_indexing_maps(op) else {
        return Err(error_at(
            op,
            &format!("`{}` is not a linalg structured operation", op.name()),
        ));
    };
    let operands = op.operands();
    let (ins, outs) = split_ins_outs(op);
    let Some(old) = op.regions().first().and_then(|r| r.entry()) else {
        return Err(error_at(op, "a named linalg operation without a body"));
    };
    let rank = maps.first().map_or(0, |m| map_rank(m));
    let iterators = iterators_from_outputs(rank, &maps[ins..]);
    // The generic takes the named operation's body block (its arguments
    // are the same elements), so the block keeps its identity.
    let types: Vec<Type> = old.args().iter().map(|a| a.ty()).collect();
    let expected: Vec<Type> = operands[..ins + outs]
        .iter()
        .map(|v| {
            if v.ty().is_memref() {
                v.ty().element()
            } else {
                v.ty()
            }
        })
        .collect();
    if types != expected {
        return Err(error_at(
            op,
            "a named linalg operation with an unexpected body",
        ));
    }
    let generic = create_generic(
        &mut Builder::before(op),
        &operands[..ins],
        &operands[ins..ins + outs],
        &maps,
        &iterators,
        take_body(op),
    );
    op.erase();
    Ok(generic)
}

/// Named operations are generalized before reverse mode runs.
fn generalized(_: &mut ReverseState, op: Op) -> Result<(), Error> {
    Err(error_at(
        op,
        "internal error: named linalg operations are generalized before reverse mode",
    ))
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
    let copy = Builder::before(op).copy_of(v);
    s.free_at_end(copy);
    Ok(copy)
}

/// A stand-in for the memref input `v` of `op` whose contents the body
/// never reads (a pooling's window, which only gives the extents of its
/// dimensions), for reverse code that needs its shape: `v` itself, or,
/// when the function deallocates `v` (before the reverse sweep runs), a
/// buffer of its shape allocated before `op` and freed at the end.
pub(crate) fn shape_only(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
    let freed = v.users().iter().any(|u| u.name() == "memref.dealloc");
    if !freed || op.block() != s.body() || !s.is_direct(s.body()) {
        return s.get(v);
    }
    let stand_in = Builder::before(op).alloc_plain_like(v);
    s.free_at_end(stand_in);
    Ok(stand_in)
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
#[derive(Clone)]
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
        } else if let Some(sel) = selection::selection(arg, yields[o]) {
            return selection::reverse(s, op, &sel);
        } else {
            return Err(error_at(
                op,
                "reverse mode supports a linalg.generic whose body reads an output only when \
                 each output element is visited once (all iterators parallel) or the output is \
                 accumulated into (`out + f(ins)`), or when it is selected into (a max or min \
                 reduction)",
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
    for (i, &v) in operands[..ins].iter().enumerate() {
        generic_ins.push(if v.ty().is_memref() && args[i].users().is_empty() {
            shape_only(s, op, v)?
        } else if v.ty().is_memref() && s.is_written(v) && !s.keeps_contents(op, v) {
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
    let aliasing: Vec<usize> = (0..inputs.len())
        .filter(|&k| {
            let t = &inputs[k];
            t.primal.ty().is_memref()
                && active_outs
                    .iter()
                    .any(|&o| may_alias(s, t.primal, operands[ins + o]) && t.map == maps[ins + o])
        })
        .collect();
    // In place (an elementwise op overwriting its own input, the same value
    // in `ins` and `outs`: a softmax's steps on their scores): that input's
    // adjoint replaces the output's, element by element, after the other
    // inputs' adjoints have read it, instead of a copy of the output's
    // adjoint, a zero fill and an accumulation.
    let in_place = match (&active_outs[..], &aliasing[..]) {
        ([o], [k])
            if all_parallel
                && uses[*o] == OutUse::Overwritten
                && inputs[*k].primal == operands[ins + o] =>
        {
            Some(*k)
        }
        _ => None,
    };
    let aliased = !aliasing.is_empty() && in_place.is_none();
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
    if let Some(k) = in_place {
        for (j, t) in inputs.iter().enumerate() {
            if j != k {
                generic.reverse_into(s, t)?;
            }
        }
        let replace = Target {
            accumulate: false,
            ..inputs[k].clone()
        };
        return generic.reverse_into(s, &replace);
    }
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
        // An input read through a map that is not a projected permutation
        // (a convolution's `d2 * 2 + d5`) cannot be a generic's output: its
        // adjoint is accumulated by a loop nest over the iteration space
        // instead, built as a generic and then lowered (each iteration
        // adds its contribution to the element the input's map names).
        let kept = projected_dims(&map);
        let iterators = match &kept {
            Some(kept) => reducing_iterators(self.rank, kept),
            None => vec!["reduction"; self.rank],
        };
        let mut all_maps = self.maps.to_vec();
        all_maps.push(map);
        let (generic, block, yield_) =
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
        // Where the adjoint generic sums over loops the input does not
        // index (the adjoint of a broadcast: a bias's over the images and
        // pixels), the order of that sum is the reverse sweep's own, so,
        // as for adjoints summed over loop iterations (`add_adjoint`), it
        // is free to reassociate and LLVM may vectorize it.
        let attrs = if iterators.contains(&"reduction") {
            vec![("fastmath", b.ctx.attr("#arith.fastmath<reassoc>"))]
        } else {
            vec![]
        };
        let result = match (adjoint[0], t.accumulate) {
            (Some(a), true) => b.value("arith.addf", &[target_arg, a], a.ty(), &attrs),
            (Some(a), false) => a,
            (None, true) => target_arg,
            (None, false) => b.float(target_arg.ty(), 0.0),
        };
        yield_.set_operands(&[result]);
        if kept.is_none() {
            lower_to_loops(generic)?;
        }
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
