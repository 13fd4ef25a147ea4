//! Derivative rules of moonrt's BLAS routines (foreign calls,
//! `docs/blas.md`): one entry per routine, keyed on its name without the
//! `moonrt_s`/`moonrt_d` prefix, forward and reverse side by side. The
//! derivative code calls the routines themselves, never scalar loops over
//! matrices; elementwise updates (a scaled shadow, an inner product for a
//! scalar's adjoint) are `linalg.generic`s.
//!
//! This file holds the table and what the rules of every family use
//! (calling a routine, its flags, elementwise combinations, scratch
//! buffers, an operand's contents as the call read them); the rules sit
//! beside it by family.

mod cholesky;
mod factored_solve;
mod lanes;
mod level1;
mod level2;
mod level3;
mod lu;
mod scaled_product;
mod triangles;
mod triangular;

use cholesky::{potrf_forward, potrf_reverse, potrs_forward, potrs_reverse};
use factored_solve::{
    factored_solve_forward, factored_solve_reverse, sytrf_forward, sytrf_reverse,
};
pub use lanes::forward_by_lane;
use level1::{
    asum_forward, asum_reverse, axpy_forward, axpy_reverse, copy_forward, copy_reverse,
    dot_forward, dot_reverse, nrm2_forward, nrm2_reverse, scal_forward, scal_reverse,
};
use level2::{gemv_reverse, ger_forward, ger_reverse, symv_reverse};
use level3::{gemm_reverse, symm_reverse, syrk_forward, syrk_reverse};
use lu::{getrf_forward, getrf_reverse, getri_forward, getri_reverse};
use scaled_product::scaled_product_forward;
use triangular::{
    triangular_product_forward, triangular_product_reverse, triangular_solve_forward,
    triangular_solve_reverse,
};

use crate::adjoint::ReverseState;
use crate::rules::linalg::may_alias;
use crate::rules::linalg::snapshot;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Type, Value};
use moonc_ir::linalg::build_generic;

/// The derivative rule of one routine.
pub struct Foreign {
    /// The routine, e.g. `gemm` for `moonrt_dgemm` and `moonrt_sgemm`.
    pub routine: &'static str,
    /// The operands whose memory the routine writes.
    pub writes: &'static [usize],
    pub forward: fn(&mut FunctionState, Op) -> Result<(), Error>,
    pub reverse: fn(&mut ReverseState, Op) -> Result<(), Error>,
}

pub const RULES: &[Foreign] = &[
    Foreign {
        routine: "gemm",
        writes: &[6],
        forward: scaled_product_forward,
        reverse: gemm_reverse,
    },
    Foreign {
        routine: "dot",
        writes: &[],
        forward: dot_forward,
        reverse: dot_reverse,
    },
    Foreign {
        routine: "axpy",
        writes: &[2],
        forward: axpy_forward,
        reverse: axpy_reverse,
    },
    Foreign {
        routine: "scal",
        writes: &[1],
        forward: scal_forward,
        reverse: scal_reverse,
    },
    Foreign {
        routine: "copy",
        writes: &[1],
        forward: copy_forward,
        reverse: copy_reverse,
    },
    Foreign {
        routine: "nrm2",
        writes: &[],
        forward: nrm2_forward,
        reverse: nrm2_reverse,
    },
    Foreign {
        routine: "asum",
        writes: &[],
        forward: asum_forward,
        reverse: asum_reverse,
    },
    Foreign {
        routine: "gemv",
        writes: &[5],
        forward: scaled_product_forward,
        reverse: gemv_reverse,
    },
    Foreign {
        routine: "trmv",
        writes: &[4],
        forward: triangular_product_forward,
        reverse: triangular_product_reverse,
    },
    Foreign {
        routine: "trsv",
        writes: &[4],
        forward: triangular_solve_forward,
        reverse: triangular_solve_reverse,
    },
    Foreign {
        routine: "potrf",
        writes: &[1],
        forward: potrf_forward,
        reverse: potrf_reverse,
    },
    Foreign {
        routine: "potrs",
        writes: &[2],
        forward: potrs_forward,
        reverse: potrs_reverse,
    },
    Foreign {
        routine: "ger",
        writes: &[3],
        forward: ger_forward,
        reverse: ger_reverse,
    },
    Foreign {
        routine: "symv",
        writes: &[5],
        forward: scaled_product_forward,
        reverse: symv_reverse,
    },
    Foreign {
        routine: "symm",
        writes: &[6],
        forward: scaled_product_forward,
        reverse: symm_reverse,
    },
    Foreign {
        routine: "syrk",
        writes: &[5],
        forward: syrk_forward,
        reverse: syrk_reverse,
    },
    Foreign {
        routine: "trmm",
        writes: &[6],
        forward: triangular_product_forward,
        reverse: triangular_product_reverse,
    },
    Foreign {
        routine: "trsm",
        writes: &[6],
        forward: triangular_solve_forward,
        reverse: triangular_solve_reverse,
    },
    Foreign {
        routine: "trtrs",
        writes: &[4],
        forward: triangular_solve_forward,
        reverse: triangular_solve_reverse,
    },
    Foreign {
        routine: "getrf",
        writes: &[0, 1],
        forward: getrf_forward,
        reverse: getrf_reverse,
    },
    Foreign {
        routine: "getrs",
        writes: &[3],
        forward: factored_solve_forward,
        reverse: factored_solve_reverse,
    },
    Foreign {
        routine: "getri",
        writes: &[0],
        forward: getri_forward,
        reverse: getri_reverse,
    },
    Foreign {
        routine: "sytrf",
        writes: &[1, 2],
        forward: sytrf_forward,
        reverse: sytrf_reverse,
    },
    Foreign {
        routine: "sytrs",
        writes: &[3],
        forward: factored_solve_forward,
        reverse: factored_solve_reverse,
    },
];

/// The rule of the routine `callee` calls (`moonrt_dgemm`), if it has one.
pub fn lookup(callee: &str) -> Option<&'static Foreign> {
    let name = callee
        .strip_prefix("moonrt_s")
        .or_else(|| callee.strip_prefix("moonrt_d"))?;
    RULES.iter().find(|rule| rule.routine == name)
}

/// `s` or `d`, the prefix of the routines for `callee`'s element type.
fn prefix(op: Op) -> char {
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .unwrap_or_default();
    if callee.starts_with("moonrt_s") {
        's'
    } else {
        'd'
    }
}

/// The strided memref type the routines take for rank `rank` of `element`.
fn strided(b: &Builder, element: Type, rank: usize) -> Type {
    let text = if rank == 1 {
        format!("memref<?x{element}, strided<[?], offset: ?>>")
    } else {
        format!("memref<?x?x{element}, strided<[?, ?], offset: ?>>")
    };
    b.ctx.ty(&text)
}

/// `v` as the routines' memref type (a `memref.cast` when it is another).
fn as_strided(b: &mut Builder, v: Value) -> Value {
    let ty = strided(b, v.ty().element(), v.ty().shape().len());
    if v.ty().to_string() == ty.to_string() {
        v
    } else {
        b.value("memref.cast", &[v], ty, &[])
    }
}

/// Calls `moonrt_{p}{routine}` with `operands` (memrefs cast to the
/// routines' type), returning `result` if given, declaring the routine in
/// the module when it is not yet.
fn call(b: &mut Builder, p: char, routine: &str, operands: &[Value], result: &[Type]) -> Op {
    let operands: Vec<Value> = operands
        .iter()
        .map(|&v| {
            if v.ty().is_memref() {
                as_strided(b, v)
            } else {
                v
            }
        })
        .collect();
    let name = format!("moonrt_{p}{routine}");
    crate::adjoint::runtime_call(b, &name, &operands, result.first().copied())
}

fn flag(b: &mut Builder, on: bool) -> Value {
    let attr = b.ctx.attr(&format!("{} : i32", i32::from(on)));
    b.value("arith.constant", &[], b.ctx.ty("i32"), &[("value", attr)])
}

/// The value of the `i32` flag `v`, which must be an `arith.constant`.
fn constant_flag(op: Op, v: Value, what: &str) -> Result<bool, Error> {
    v.defining_op()
        .filter(|d| d.name() == "arith.constant")
        .and_then(|d| d.attr("value"))
        .map(|a| !a.to_string().starts_with("0 "))
        .ok_or_else(|| {
            error_at(
                op,
                &format!("the derivative of this call needs {what} to be an arith.constant"),
            )
        })
}

/// The identity map, the map to a scalar and the iterators of an
/// elementwise generic over memrefs of `rank` dimensions.
fn elementwise(rank: usize, kind: &str) -> (String, String, Vec<&str>) {
    let dims: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let dims = dims.join(", ");
    (
        format!("affine_map<({dims}) -> ({dims})>"),
        format!("affine_map<({dims}) -> ()>"),
        vec![kind; rank],
    )
}

/// `into = scale * into + sum_k coefficient_k * terms_k`, elementwise over
/// memrefs of one shape (`scale` absent: `into` is overwritten).
fn combine(b: &mut Builder, into: Value, scale: Option<Value>, terms: &[(Value, Value)]) {
    let (map, scalar, iterators) = elementwise(into.ty().shape().len(), "parallel");
    let mut ins = vec![];
    let mut maps = vec![];
    for &(coefficient, term) in terms {
        ins.extend([coefficient, term]);
        maps.extend([scalar.clone(), map.clone()]);
    }
    if let Some(scale) = scale {
        ins.push(scale);
        maps.push(scalar.clone());
    }
    maps.push(map);
    let (_, block, yield_) = build_generic(b, &ins, &[into], &maps, &iterators);
    let args = block.args();
    let ty = args[0].ty();
    let mut e = Builder::before(yield_);
    let mut sum = match scale {
        Some(_) => e.value(
            "arith.mulf",
            &[args[ins.len() - 1], args[ins.len()]],
            ty,
            &[],
        ),
        None => e.float(ty, 0.0),
    };
    for k in 0..terms.len() {
        let product = e.value("arith.mulf", &[args[2 * k], args[2 * k + 1]], ty, &[]);
        sum = e.value("arith.addf", &[sum, product], ty, &[]);
    }
    yield_.set_operands(&[sum]);
}

/// `sum_i f(x_i) y_i` over two memrefs of one shape, `f` the identity or
/// (`sign`) [`signum`].
fn reduce(b: &mut Builder, x: Value, y: Value, sign: bool) -> Value {
    let element = x.ty().element();
    let cell = b.zero_cell(element);
    let (map, scalar, iterators) = elementwise(x.ty().shape().len(), "reduction");
    let (_, block, yield_) =
        build_generic(b, &[x, y], &[cell], &[map.clone(), map, scalar], &iterators);
    let args = block.args();
    let mut e = Builder::before(yield_);
    let factor = if sign {
        signum(&mut e, args[0])
    } else {
        args[0]
    };
    let product = e.value("arith.mulf", &[factor, args[1]], element, &[]);
    let sum = e.value("arith.addf", &[args[2], product], element, &[]);
    yield_.set_operands(&[sum]);
    b.value("memref.load", &[cell], element, &[])
}

/// 1, -1 or 0 as `x` is positive, negative or neither (the derivative of
/// `|x|`, taken as 0 at 0).
fn signum(e: &mut Builder, x: Value) -> Value {
    let ty = x.ty();
    let (one, minus, zero) = (e.float(ty, 1.0), e.float(ty, -1.0), e.float(ty, 0.0));
    let i1 = e.ctx.ty("i1");
    let ogt = e.ctx.attr("2 : i64");
    let olt = e.ctx.attr("4 : i64");
    let positive = e.value("arith.cmpf", &[x, zero], i1, &[("predicate", ogt)]);
    let negative = e.value("arith.cmpf", &[x, zero], i1, &[("predicate", olt)]);
    let below = e.value("arith.select", &[negative, minus, zero], ty, &[]);
    e.value("arith.select", &[positive, one, below], ty, &[])
}

/// `sum_i x_i y_i`.
fn inner(b: &mut Builder, x: Value, y: Value) -> Value {
    reduce(b, x, y, false)
}

/// A fresh buffer shaped like the memref `like`, freed by the caller.
fn scratch(b: &mut Builder, like: Value) -> Value {
    let ty = like.ty();
    let rank = ty.shape().len();
    let plain = b
        .ctx
        .ty(&format!("memref<{}{}>", "?x".repeat(rank), ty.element()));
    let index = b.ctx.index();
    let sizes: Vec<Value> = (0..rank)
        .map(|d| {
            let d = b.index(d as i64);
            b.value("memref.dim", &[like, d], index, &[])
        })
        .collect();
    b.alloc("memref.alloc", &sizes, plain)
}

/// A copy of the memref `v`, freed by the caller.
fn copy_of(b: &mut Builder, v: Value) -> Value {
    let copy = scratch(b, v);
    b.create("memref.copy", &[v, copy], &[], &[], &[], &[]);
    copy
}

/// The contents of the memref `v` as the call `op` read them: `v` itself
/// when nothing writes it from the call on (its deallocation then waits for
/// the end of the reverse sweep), else a copy taken before the call.
fn saved(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
    if s.is_written(v) && !s.keeps_contents(op, v) {
        snapshot(s, op, v)
    } else {
        s.get(v)
    }
}

/// Whether an operation after the top-level call `op` (or `op` itself,
/// with `including`) may write or deallocate `v`'s memory: a deallocation
/// ends the contents as surely as a write.
fn changed_after(s: &ReverseState, op: Op, v: Value, including: bool) -> bool {
    let ops = s.body().ops();
    let at = ops.iter().position(|&o| o == op).unwrap_or(0);
    let from = if including { at } else { at + 1 };
    ops[from..]
        .iter()
        .flat_map(|&o| std::iter::once(o).chain(o.walk()))
        .flat_map(|o| {
            let mut targets = crate::rules::written_operands(o);
            if o.name() == "memref.dealloc" {
                targets.push(o.operand(0));
            }
            targets
        })
        .any(|t| may_alias(s, t, v))
}

fn dealloc(b: &mut Builder, buffer: Value) {
    b.create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
}

/// `into += x`, elementwise over memrefs of one shape.
fn add_to(b: &mut Builder, into: Value, x: Value) {
    let one = b.float(x.ty().element(), 1.0);
    combine(b, into, Some(one), &[(one, x)]);
}

/// The contents of the memref `v` just after the call `op`: a copy taken
/// then when the function writes or deallocates `v` later.
fn saved_after(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
    let body = s.body();
    if op.block() != body || !s.is_direct(body) {
        return Err(error_at(
            op,
            "reverse mode cannot yet save the result of this call inside a loop, branch or \
             called function",
        ));
    }
    if !changed_after(s, op, v, false) {
        return s.get(v);
    }
    let mut b = Builder::after(op);
    let copy = copy_of(&mut b, v);
    s.free_at_end(copy);
    Ok(copy)
}
