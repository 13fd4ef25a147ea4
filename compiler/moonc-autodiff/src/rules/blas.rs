//! Derivative rules of moonrt's BLAS routines (foreign calls,
//! `docs/blas.md`): one entry per routine, keyed on its name without the
//! `moonrt_s`/`moonrt_d` prefix, forward and reverse side by side. The
//! derivative code calls the routines themselves, never scalar loops over
//! matrices; elementwise updates (a scaled shadow, an inner product for a
//! scalar's adjoint) are `linalg.generic`s.

use super::linalg::{build_generic, may_alias, snapshot};
use crate::{
    forward::FunctionState,
    ir::{Builder, Op, Type, Value},
    reverse::ReverseState,
};
use moonc_ir::Error;
use moonc_ir::ir::error_at;

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
    crate::reverse::runtime_call(b, &name, &operands, result.first().copied())
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

/// The contents of the memref `v` as the call `op` read them: a copy taken
/// before the call when the function writes `v`'s memory, by the call or
/// after it (for a call in a loop or branch: anywhere). The operations
/// after the call include the reverse code emitted so far, which writes
/// only shadows and scratch buffers. A buffer deallocated later counts as
/// written: the reverse sweep runs after the deallocation.
fn saved(s: &mut ReverseState, op: Op, v: Value) -> Result<Value, Error> {
    let body = s.body();
    let later = if op.block() == body && s.is_direct(body) {
        s.is_written(v) && changed_after(s, op, v, true)
    } else {
        s.is_written(v)
    };
    if later { snapshot(s, op, v) } else { s.get(v) }
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
            let mut targets = crate::reverse::written_operands(o);
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

/// Adds the factors' adjoints: (alpha, f0, f1, G).
type FactorAdjoints<'a> =
    &'a dyn Fn(&mut ReverseState, Value, Value, Value, Value) -> Result<(), Error>;

/// A routine `out = alpha P(f0, f1) + beta out`, `P` bilinear in the two
/// factors (`gemm`, `gemv`), as its rules see it.
struct ScaledProduct {
    alpha: Value,
    factors: [Value; 2],
    beta: Value,
    out: Value,
}

/// A [`ScaledProduct`] routine's operands: its flags, then `alpha`, the two
/// factors, `beta` and `out` (`gemm`, `gemv`, `symv` and `symm` all take
/// them so).
fn scaled_product(op: Op) -> Result<(ScaledProduct, Vec<Value>), Error> {
    let operands = op.operands();
    let flags = operands.len().saturating_sub(5);
    let [alpha, f0, f1, beta, out] = operands[flags..] else {
        return Err(error_at(
            op,
            "a scaled product takes alpha, two factors, beta and out",
        ));
    };
    let r = ScaledProduct {
        alpha,
        factors: [f0, f1],
        beta,
        out,
    };
    Ok((r, operands[..flags].to_vec()))
}

/// `into += alpha P(f0, f1)`: the routine `op` calls, called again with
/// `flags` and `beta = 1`.
fn product_again(b: &mut Builder, op: Op, flags: &[Value], [alpha, f0, f1, into]: [Value; 4]) {
    let one = b.float(into.ty().element(), 1.0);
    let mut operands = flags.to_vec();
    operands.extend([alpha, f0, f1, one, into]);
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .unwrap_or_default();
    let routine = lookup(&callee).map_or("gemm", |rule| rule.routine);
    call(b, prefix(op), routine, &operands, &[]);
}

/// The tangent of a [`ScaledProduct`]: `dout = beta dout + alpha P(df0,
/// f1) + alpha P(f0, df1) + dalpha P(f0, f1) + dbeta out_old`, the products
/// added by the routine itself into a scratch buffer before `dout`
/// changes (so that shadows sharing its memory are read first), `out_old`
/// copied only when `beta` is active.
fn scaled_product_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let (r, flags) = scaled_product(op)?;
    let product = |b: &mut Builder, alpha, f0, f1, into| {
        product_again(b, op, &flags, [alpha, f0, f1, into]);
    };
    if !s.is_active(r.out) {
        return Ok(());
    }
    let mut b = Builder::before(op);
    let dout = s.shadow(op, r.out)?;
    let element = r.out.ty().element();
    let one = b.float(element, 1.0);
    let zero = b.float(element, 0.0);
    let products = scratch(&mut b, r.out);
    crate::forward::fill(&mut b, zero, products);
    let [f0, f1] = r.factors;
    if s.is_active(f0) {
        let d = s.shadow(op, f0)?;
        product(&mut b, r.alpha, d, f1, products);
    }
    if s.is_active(f1) {
        let d = s.shadow(op, f1)?;
        product(&mut b, r.alpha, f0, d, products);
    }
    if s.is_active(r.alpha) {
        let dalpha = s.tangent_or_zero(&mut b, r.alpha);
        product(&mut b, dalpha, f0, f1, products);
    }
    let mut terms = vec![(one, products)];
    let old = s.is_active(r.beta).then(|| copy_of(&mut b, r.out));
    if let Some(old) = old {
        terms.push((s.tangent_or_zero(&mut b, r.beta), old));
    }
    combine(&mut b, dout, Some(r.beta), &terms);
    dealloc(&mut b, products);
    if let Some(old) = old {
        dealloc(&mut b, old);
    }
    Ok(())
}

/// The adjoints of a [`ScaledProduct`], `G` that of the new `out`:
/// `dalpha += <G, P(f0, f1)>`, `dbeta += <G, out_old>`, the factors'
/// adjoints by `adjoints(s, alpha, f0, f1, G)` (`flags` the routine's,
/// constants), and `out`'s old contents
/// get `beta G`. The factors (and `out_old`, only when `beta` is active)
/// are copies taken before the call when the function writes them later;
/// when a factor may share `out`'s memory, `G` is copied first.
fn scaled_product_reverse(
    s: &mut ReverseState,
    op: Op,
    flags: &[bool],
    adjoints: FactorAdjoints,
) -> Result<(), Error> {
    let (r, _) = scaled_product(op)?;
    let product = |b: &mut Builder, alpha, f0, f1, into| {
        let flags: Vec<Value> = flags.iter().map(|&f| flag(b, f)).collect();
        product_again(b, op, &flags, [alpha, f0, f1, into]);
    };
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let dout = s.shadow(op, r.out)?;
    let f0 = saved(s, op, r.factors[0])?;
    let f1 = saved(s, op, r.factors[1])?;
    let old = if s.has_adjoint(r.beta) {
        Some(snapshot(s, op, r.out)?)
    } else {
        None
    };
    let alpha = s.get(r.alpha)?;
    let beta = s.get(r.beta)?;
    let aliased = r.factors.iter().any(|&v| may_alias(s, v, r.out));
    let element = r.out.ty().element();
    let g = if aliased {
        copy_of(&mut s.b, dout)
    } else {
        dout
    };
    let mut scalar_adjoints = vec![];
    if s.has_adjoint(r.alpha) {
        let b = &mut s.b;
        let into = scratch(b, r.out);
        let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
        crate::forward::fill(b, zero, into);
        product(b, one, f0, f1, into);
        let d = inner(b, g, into);
        dealloc(b, into);
        scalar_adjoints.push((r.alpha, d));
    }
    if let Some(old) = old {
        let d = inner(&mut s.b, g, old);
        scalar_adjoints.push((r.beta, d));
    }
    // Unaliased, G is dout itself: read it before scaling it.
    if aliased {
        combine(&mut s.b, dout, None, &[(beta, g)]);
    }
    adjoints(s, alpha, f0, f1, g)?;
    if aliased {
        dealloc(&mut s.b, g);
    } else {
        combine(&mut s.b, dout, None, &[(beta, g)]);
    }
    for (v, d) in scalar_adjoints {
        s.add_adjoint(v, d);
    }
    Ok(())
}

/// With the transposes constants: `dA += alpha G op(B)^T` (`alpha op(B)
/// G^T` when `A` is transposed) and `dB += alpha op(A)^T G` (`alpha G^T
/// op(A)` when `B` is), each one `gemm`.
fn gemm_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, flags) = scaled_product(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let ta = constant_flag(op, flags[0], "transa")?;
    let tb = constant_flag(op, flags[1], "transb")?;
    let p = prefix(op);
    let [a, bm] = r.factors;
    scaled_product_reverse(s, op, &[ta, tb], &|s, alpha, a_value, b_value, g| {
        let one = s.b.float(g.ty().element(), 1.0);
        if s.activity.is_active(a) {
            let da = s.shadow(op, a)?;
            let b = &mut s.b;
            let (x, y, fx, fy) = if ta {
                (b_value, g, tb, true)
            } else {
                (g, b_value, false, !tb)
            };
            let (fx, fy) = (flag(b, fx), flag(b, fy));
            call(b, p, "gemm", &[fx, fy, alpha, x, y, one, da], &[]);
        }
        if s.activity.is_active(bm) {
            let db = s.shadow(op, bm)?;
            let b = &mut s.b;
            let (x, y, fx, fy) = if tb {
                (g, a_value, true, ta)
            } else {
                (a_value, g, !ta, false)
            };
            let (fx, fy) = (flag(b, fx), flag(b, fy));
            call(b, p, "gemm", &[fx, fy, alpha, x, y, one, db], &[]);
        }
        Ok(())
    })
}

/// `dot(x, y)`: tangent `dot(dx, y) + dot(x, dy)`.
fn dot_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?dot takes 2 operands"));
    };
    let result = op.result(0);
    if !s.is_active(result) {
        return Ok(());
    }
    let p = prefix(op);
    let mut b = Builder::after(op);
    let ty = result.ty();
    let mut tangent = b.float(ty, 0.0);
    for (v, other) in [(x, y), (y, x)] {
        if s.is_active(v) {
            let dv = s.shadow(op, v)?;
            let part = call(&mut b, p, "dot", &[dv, other], &[ty]).result(0);
            tangent = b.value("arith.addf", &[tangent, part], ty, &[]);
        }
    }
    s.set_tangent(result, tangent);
    Ok(())
}

/// Adjoints of `dot(x, y)` with result adjoint `g`: `dx += g y` and `dy +=
/// g x` (`axpy`), from copies of `x` and `y` when the function writes them
/// later.
fn dot_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?dot takes 2 operands"));
    };
    let Some(g) = s.take_adjoint(op.result(0)) else {
        return Ok(());
    };
    let p = prefix(op);
    let (x_value, y_value) = (saved(s, op, x)?, saved(s, op, y)?);
    for (v, other) in [(x, y_value), (y, x_value)] {
        if s.activity.is_active(v) {
            let dv = s.shadow(op, v)?;
            call(&mut s.b, p, "axpy", &[g, other, dv], &[]);
        }
    }
    Ok(())
}

/// `axpy(alpha, x, y)`: `y = alpha x + y`. Tangent `dy += alpha dx +
/// dalpha x`; adjoints `dalpha += <G, x>`, `dx += alpha G`, and `y`'s old
/// contents keep `G` (with `x` the same buffer as `y`, `dx += alpha G`
/// makes it `(1 + alpha) G`).
fn axpy_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [alpha, x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?axpy takes 3 operands"));
    };
    if !s.is_active(y) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dy = s.shadow(op, y)?;
    // dx first: it may be dy itself, which must not have changed yet.
    if s.is_active(x) {
        let dx = s.shadow(op, x)?;
        call(&mut b, p, "axpy", &[alpha, dx, dy], &[]);
    }
    if s.is_active(alpha) {
        let dalpha = s.tangent_or_zero(&mut b, alpha);
        call(&mut b, p, "axpy", &[dalpha, x, dy], &[]);
    }
    Ok(())
}

fn axpy_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [alpha, x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?axpy takes 3 operands"));
    };
    if !s.activity.is_active(y) {
        return Ok(());
    }
    let p = prefix(op);
    let g = s.shadow(op, y)?;
    if s.has_adjoint(alpha) {
        let x_value = saved(s, op, x)?;
        let d = call(&mut s.b, p, "dot", &[g, x_value], &[alpha.ty()]).result(0);
        s.add_adjoint(alpha, d);
    }
    if s.activity.is_active(x) {
        let dx = s.shadow(op, x)?;
        let alpha_value = s.get(alpha)?;
        call(&mut s.b, p, "axpy", &[alpha_value, g, dx], &[]);
    }
    Ok(())
}

/// `scal(alpha, x)`: `x = alpha x`. Tangent `dx = alpha dx + dalpha x`;
/// adjoints `dalpha += <G, x_old>` and `G = alpha G`.
fn scal_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [alpha, x] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?scal takes 2 operands"));
    };
    if !s.is_active(x) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dx = s.shadow(op, x)?;
    call(&mut b, p, "scal", &[alpha, dx], &[]);
    if s.is_active(alpha) {
        let dalpha = s.tangent_or_zero(&mut b, alpha);
        call(&mut b, p, "axpy", &[dalpha, x, dx], &[]);
    }
    Ok(())
}

fn scal_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [alpha, x] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?scal takes 2 operands"));
    };
    if !s.activity.is_active(x) {
        return Ok(());
    }
    let p = prefix(op);
    let g = s.shadow(op, x)?;
    if s.has_adjoint(alpha) {
        let old = snapshot(s, op, x)?;
        let d = call(&mut s.b, p, "dot", &[g, old], &[alpha.ty()]).result(0);
        s.add_adjoint(alpha, d);
    }
    let alpha_value = s.get(alpha)?;
    combine(&mut s.b, g, Some(alpha_value), &[]);
    Ok(())
}

/// `copy(x, y)`: `y = x`. Tangent `dy = dx`; adjoints `dx += G` and `y`'s
/// old contents get none (a copy of a buffer onto itself changes nothing).
fn copy_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?copy takes 2 operands"));
    };
    if !s.is_active(y) || x == y {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dy = s.shadow(op, y)?;
    let dx = s.tangent_or_zero(&mut b, x);
    call(&mut b, p, "copy", &[dx, dy], &[]);
    Ok(())
}

fn copy_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [x, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?copy takes 2 operands"));
    };
    if !s.activity.is_active(y) || x == y {
        return Ok(());
    }
    let p = prefix(op);
    let g = s.shadow(op, y)?;
    if s.activity.is_active(x) {
        let dx = s.shadow(op, x)?;
        let one = s.b.float(y.ty().element(), 1.0);
        call(&mut s.b, p, "axpy", &[one, g, dx], &[]);
    }
    let zero = s.b.float(y.ty().element(), 0.0);
    crate::forward::fill(&mut s.b, zero, g);
    Ok(())
}

/// `r = nrm2(x)`: tangent `<x, dx> / r`; adjoint `dx += (g / r) x`.
fn nrm2_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    let r = op.result(0);
    if !s.is_active(r) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::after(op));
    let dx = s.shadow(op, x)?;
    let d = call(&mut b, p, "dot", &[x, dx], &[r.ty()]).result(0);
    let t = b.value("arith.divf", &[d, r], r.ty(), &[]);
    s.set_tangent(r, t);
    Ok(())
}

fn nrm2_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    let Some(g) = s.take_adjoint(op.result(0)) else {
        return Ok(());
    };
    let p = prefix(op);
    let (x_value, r) = (saved(s, op, x)?, s.get(op.result(0))?);
    let dx = s.shadow(op, x)?;
    let scale = s.b.value("arith.divf", &[g, r], g.ty(), &[]);
    call(&mut s.b, p, "axpy", &[scale, x_value, dx], &[]);
    Ok(())
}

/// `r = asum(x)`: tangent `sum sign(x_i) dx_i`; adjoint `dx += g sign(x)`.
fn asum_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    let r = op.result(0);
    if !s.is_active(r) {
        return Ok(());
    }
    let mut b = Builder::after(op);
    let dx = s.shadow(op, x)?;
    let t = reduce(&mut b, x, dx, true);
    s.set_tangent(r, t);
    Ok(())
}

fn asum_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let x = op.operand(0);
    let Some(g) = s.take_adjoint(op.result(0)) else {
        return Ok(());
    };
    let x_value = saved(s, op, x)?;
    let dx = s.shadow(op, x)?;
    let (map, scalar, iterators) = elementwise(1, "parallel");
    let (_, block, yield_) = build_generic(
        &mut s.b,
        &[g, x_value],
        &[dx],
        &[scalar, map.clone(), map],
        &iterators,
    );
    let args = block.args();
    let element = g.ty();
    let mut e = Builder::before(yield_);
    let sign = signum(&mut e, args[1]);
    let product = e.value("arith.mulf", &[args[0], sign], element, &[]);
    let sum = e.value("arith.addf", &[args[2], product], element, &[]);
    yield_.set_operands(&[sum]);
    Ok(())
}

/// With the transpose a constant: `dA += alpha G x^T` (`alpha x G^T` when
/// transposed) by `ger`, and `dx += alpha op(A)^T G` by `gemv`.
fn gemv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, flags) = scaled_product(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let transposed = constant_flag(op, flags[0], "trans")?;
    let p = prefix(op);
    let [a, x] = r.factors;
    scaled_product_reverse(s, op, &[transposed], &|s, alpha, a_value, x_value, g| {
        if s.activity.is_active(a) {
            let da = s.shadow(op, a)?;
            let (u, v) = if transposed {
                (x_value, g)
            } else {
                (g, x_value)
            };
            call(&mut s.b, p, "ger", &[alpha, u, v, da], &[]);
        }
        if s.activity.is_active(x) {
            let dx = s.shadow(op, x)?;
            let one = s.b.float(g.ty().element(), 1.0);
            let flipped = flag(&mut s.b, !transposed);
            call(
                &mut s.b,
                p,
                "gemv",
                &[flipped, alpha, a_value, g, one, dx],
                &[],
            );
        }
        Ok(())
    })
}

/// A triangular routine's operands, its flags constants: `trmv`/`trsv`
/// `(lower, trans, unit, A, x)`, `trtrs` `(lower, trans, unit, A, B)` or
/// `trmm`/`trsm` `(right, lower, trans, unit, alpha, A, B)`.
struct Triangle {
    /// `s` or `d`.
    p: char,
    /// Whether `x` is a matrix (`trmm`, `trsm`, `trtrs`).
    matrix: bool,
    right: bool,
    lower: bool,
    trans: bool,
    unit: bool,
    alpha: Option<Value>,
    a: Value,
    x: Value,
}

fn triangle(op: Op) -> Result<Triangle, Error> {
    let (right, [lower, trans, unit], alpha, a, x) = match op.operands()[..] {
        [lower, trans, unit, a, x] => (None, [lower, trans, unit], None, a, x),
        [right, lower, trans, unit, alpha, a, x] => {
            (Some(right), [lower, trans, unit], Some(alpha), a, x)
        }
        _ => return Err(error_at(op, "a triangular routine takes 5 or 7 operands")),
    };
    Ok(Triangle {
        p: prefix(op),
        matrix: x.ty().shape().len() == 2,
        right: match right {
            Some(right) => constant_flag(op, right, "the side flag")?,
            None => false,
        },
        lower: constant_flag(op, lower, "the triangle flag")?,
        trans: constant_flag(op, trans, "the transpose flag")?,
        unit: constant_flag(op, unit, "the unit-diagonal flag")?,
        alpha,
        a,
        x,
    })
}

/// What [`Triangle::call`] does with a triangular matrix.
#[derive(Clone, Copy)]
enum TriangleUse {
    /// `op(T) x`.
    Product,
    /// `op(T)^T x`.
    AdjointProduct,
    /// `op(M) x` for a masked copy `M` of the triangle, whose diagonal is
    /// stored (zero where the routine takes a unit diagonal).
    MaskedProduct,
    /// `op(T)^-1 x`.
    Solve,
    /// `op(T)^-T x`.
    AdjointSolve,
}

impl Triangle {
    /// `x = scale op(a) x` or another [`TriangleUse`] of `a`, with these
    /// flags, from the right when the routine multiplies from the right,
    /// by `trmm`/`trsm` (by `trmv`/`trsv` for a vector, `scale` absent).
    fn call(&self, b: &mut Builder, with: TriangleUse, scale: Option<Value>, a: Value, x: Value) {
        let (solve, flip, explicit) = match with {
            TriangleUse::Product => (false, false, false),
            TriangleUse::AdjointProduct => (false, true, false),
            TriangleUse::MaskedProduct => (false, false, true),
            TriangleUse::Solve => (true, false, false),
            TriangleUse::AdjointSolve => (true, true, false),
        };
        let lower = flag(b, self.lower);
        let trans = flag(b, self.trans != flip);
        let unit = flag(b, self.unit && !explicit);
        if self.matrix {
            let right = flag(b, self.right);
            let scale = scale.unwrap_or_else(|| b.float(x.ty().element(), 1.0));
            let routine = if solve { "trsm" } else { "trmm" };
            let operands = [right, lower, trans, unit, scale, a, x];
            call(b, self.p, routine, &operands, &[]);
        } else {
            let routine = if solve { "trsv" } else { "trmv" };
            call(b, self.p, routine, &[lower, trans, unit, a, x], &[]);
        }
    }

    /// `into += T(outer)`: the elements of the 2-D `outer` in the triangle
    /// the routine reads (without the diagonal when it is unit), times
    /// `scale`.
    fn add_masked(&self, b: &mut Builder, scale: Value, outer: Value, into: Value) {
        let (map, scalar, iterators) = elementwise(2, "parallel");
        let (_, block, yield_) = build_generic(
            b,
            &[scale, outer],
            &[into],
            &[scalar, map.clone(), map],
            &iterators,
        );
        let args = block.args();
        let element = args[1].ty();
        let mut e = Builder::before(yield_);
        let index = e.ctx.index();
        let dim = |e: &mut Builder, d: i64| {
            let attr = e.ctx.attr(&format!("{d} : i64"));
            e.value("linalg.index", &[], index, &[("dim", attr)])
        };
        let (i, j) = (dim(&mut e, 0), dim(&mut e, 1));
        // ult/ugt/ule/uge on indices: strictly or weakly below/above.
        let predicate = match (self.lower, self.unit) {
            (true, true) => 8,
            (true, false) => 9,
            (false, true) => 6,
            (false, false) => 7,
        };
        let i1 = e.ctx.ty("i1");
        let attr = e.ctx.attr(&format!("{predicate} : i64"));
        let inside = e.value("arith.cmpi", &[i, j], i1, &[("predicate", attr)]);
        let zero = e.float(element, 0.0);
        let scaled = e.value("arith.mulf", &[args[0], args[1]], element, &[]);
        let kept = e.value("arith.select", &[inside, scaled, zero], element, &[]);
        let sum = e.value("arith.addf", &[args[2], kept], element, &[]);
        yield_.set_operands(&[sum]);
    }

    /// The adjoint of the triangle from `g`, the adjoint of the product
    /// `op(T) x` (`x op(T)` from the right), times `alpha`, added to the
    /// shadow `da`: `T(alpha g x^T)`, `T(alpha x g^T)` transposed, `T(alpha
    /// x^T g)` from the right and `T(alpha g^T x)` both.
    fn add_outer(&self, b: &mut Builder, alpha: Value, g: Value, x: Value, da: Value) {
        let outer = scratch(b, da);
        let element = da.ty().element();
        let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
        let (u, v) = if self.trans != self.right {
            (x, g)
        } else {
            (g, x)
        };
        if self.matrix {
            let (fu, fv) = (flag(b, self.right), flag(b, !self.right));
            call(b, self.p, "gemm", &[fu, fv, one, u, v, zero, outer], &[]);
        } else {
            crate::forward::fill(b, zero, outer);
            call(b, self.p, "ger", &[one, u, v, outer], &[]);
        }
        self.add_masked(b, alpha, outer, da);
        dealloc(b, outer);
    }
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

/// `trmv`/`trmm`: `x = alpha op(T) x` (`alpha x op(T)` from the right;
/// `trmv` has no `alpha`). Tangent `dx = alpha op(T) dx + alpha op(T(dA))
/// x_old + dalpha op(T) x_old`; adjoints `dA += T(alpha G x_old^T)` (see
/// [`Triangle::add_outer`] for the other sides), `dalpha += <G, op(T)
/// x_old>` and `G = alpha op(T)^T G`.
fn triangular_product_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.is_active(t.x) {
        return Ok(());
    }
    let mut b = Builder::before(op);
    let dx = s.shadow(op, t.x)?;
    let dalpha = match t.alpha {
        Some(alpha) if s.is_active(alpha) => Some(s.tangent_or_zero(&mut b, alpha)),
        _ => None,
    };
    let old = (s.is_active(t.a) || dalpha.is_some()).then(|| copy_of(&mut b, t.x));
    t.call(&mut b, TriangleUse::Product, t.alpha, t.a, dx);
    let Some(old) = old else {
        return Ok(());
    };
    if let Some(dalpha) = dalpha {
        let product = copy_of(&mut b, old);
        t.call(&mut b, TriangleUse::Product, Some(dalpha), t.a, product);
        add_to(&mut b, dx, product);
        dealloc(&mut b, product);
    }
    if s.is_active(t.a) {
        let da = s.shadow(op, t.a)?;
        let masked = scratch(&mut b, t.a);
        let element = t.x.ty().element();
        let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
        crate::forward::fill(&mut b, zero, masked);
        t.add_masked(&mut b, one, da, masked);
        t.call(&mut b, TriangleUse::MaskedProduct, t.alpha, masked, old);
        add_to(&mut b, dx, old);
        dealloc(&mut b, masked);
    }
    dealloc(&mut b, old);
    Ok(())
}

fn triangular_product_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.activity.is_active(t.x) {
        return Ok(());
    }
    let g = s.shadow(op, t.x)?;
    let a_value = saved(s, op, t.a)?;
    let alpha = t.alpha.filter(|&alpha| s.has_adjoint(alpha));
    let old = if s.activity.is_active(t.a) || alpha.is_some() {
        Some(snapshot(s, op, t.x)?)
    } else {
        None
    };
    let alpha_value = t.alpha.map(|alpha| s.get(alpha)).transpose()?;
    if let (Some(alpha), Some(old)) = (alpha, old) {
        let product = copy_of(&mut s.b, old);
        t.call(&mut s.b, TriangleUse::Product, None, a_value, product);
        let d = inner(&mut s.b, g, product);
        dealloc(&mut s.b, product);
        s.add_adjoint(alpha, d);
    }
    if let (true, Some(old)) = (s.activity.is_active(t.a), old) {
        let da = s.shadow(op, t.a)?;
        let scale = alpha_value.unwrap_or_else(|| s.b.float(g.ty().element(), 1.0));
        t.add_outer(&mut s.b, scale, g, old, da);
    }
    t.call(
        &mut s.b,
        TriangleUse::AdjointProduct,
        alpha_value,
        a_value,
        g,
    );
    Ok(())
}

/// `trsv`/`trsm`/`trtrs`: `x = alpha op(T)^-1 x` (`alpha x op(T)^-1` from
/// the right; `trsv` and `trtrs` have no `alpha`). Tangent `dx =
/// op(T)^-1 (alpha dx + dalpha x_old - op(T(dA)) x_new)`; adjoints `H =
/// op(T)^-T G`, `dA -= T(H x_new^T)` (see [`Triangle::add_outer`] for the
/// other sides), `dalpha += <H, x_old>` and `G = alpha H`.
fn triangular_solve_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.is_active(t.x) {
        return Ok(());
    }
    let dx = s.shadow(op, t.x)?;
    let mut before = Builder::before(op);
    let dalpha = match t.alpha {
        Some(alpha) if s.is_active(alpha) => Some(s.tangent_or_zero(&mut before, alpha)),
        _ => None,
    };
    let old = dalpha.map(|dalpha| (dalpha, copy_of(&mut before, t.x)));
    let mut b = Builder::after(op);
    if let Some(alpha) = t.alpha {
        let terms: Vec<(Value, Value)> = old.into_iter().collect();
        combine(&mut b, dx, Some(alpha), &terms);
    }
    if s.is_active(t.a) {
        let da = s.shadow(op, t.a)?;
        let new = copy_of(&mut b, t.x);
        let masked = scratch(&mut b, t.a);
        let element = t.x.ty().element();
        let (zero, one, minus) = (
            b.float(element, 0.0),
            b.float(element, 1.0),
            b.float(element, -1.0),
        );
        crate::forward::fill(&mut b, zero, masked);
        t.add_masked(&mut b, one, da, masked);
        t.call(&mut b, TriangleUse::MaskedProduct, None, masked, new);
        combine(&mut b, dx, Some(one), &[(minus, new)]);
        dealloc(&mut b, masked);
        dealloc(&mut b, new);
    }
    t.call(&mut b, TriangleUse::Solve, None, t.a, dx);
    if let Some((_, old)) = old {
        dealloc(&mut b, old);
    }
    Ok(())
}

fn triangular_solve_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.activity.is_active(t.x) {
        return Ok(());
    }
    let g = s.shadow(op, t.x)?;
    let a_value = saved(s, op, t.a)?;
    let new = if s.activity.is_active(t.a) {
        Some(saved_after(s, op, t.x)?)
    } else {
        None
    };
    let old = match t.alpha {
        Some(alpha) if s.has_adjoint(alpha) => Some((alpha, snapshot(s, op, t.x)?)),
        _ => None,
    };
    let alpha_value = t.alpha.map(|alpha| s.get(alpha)).transpose()?;
    t.call(&mut s.b, TriangleUse::AdjointSolve, None, a_value, g);
    if let Some(new) = new {
        let da = s.shadow(op, t.a)?;
        let minus = s.b.float(g.ty().element(), -1.0);
        t.add_outer(&mut s.b, minus, g, new, da);
    }
    if let Some((alpha, old)) = old {
        let d = inner(&mut s.b, g, old);
        s.add_adjoint(alpha, d);
    }
    if let Some(alpha) = alpha_value {
        combine(&mut s.b, g, Some(alpha), &[]);
    }
    Ok(())
}

/// Builds an element from (below, diagonal, inputs, old element).
type AtPosition<'a> = &'a dyn Fn(&mut Builder, Value, Value, &[Value], Value) -> Value;

/// `into[i, j] = f(below, diagonal, ins, into[i, j])` over a square 2-D
/// memref, `below` and `diagonal` the `i1`s `i > j` and `i == j`, and each
/// input read at `[i, j]`, or at `[j, i]` when marked transposed (a scalar
/// input as it is).
fn by_position(b: &mut Builder, into: Value, ins: &[(Value, bool)], f: AtPosition) {
    let (map, scalar, iterators) = elementwise(2, "parallel");
    let flipped = "affine_map<(d0, d1) -> (d1, d0)>".to_string();
    let mut maps: Vec<String> = ins
        .iter()
        .map(|&(v, t)| match (v.ty().is_memref(), t) {
            (false, _) => scalar.clone(),
            (true, true) => flipped.clone(),
            (true, false) => map.clone(),
        })
        .collect();
    maps.push(map);
    let values: Vec<Value> = ins.iter().map(|&(v, _)| v).collect();
    let (_, block, yield_) = build_generic(b, &values, &[into], &maps, &iterators);
    let args = block.args();
    let mut e = Builder::before(yield_);
    let index = e.ctx.index();
    let dim = |e: &mut Builder, d: i64| {
        let attr = e.ctx.attr(&format!("{d} : i64"));
        e.value("linalg.index", &[], index, &[("dim", attr)])
    };
    let (i, j) = (dim(&mut e, 0), dim(&mut e, 1));
    let i1 = e.ctx.ty("i1");
    let (ugt, eq) = (e.ctx.attr("8 : i64"), e.ctx.attr("0 : i64"));
    let below = e.value("arith.cmpi", &[i, j], i1, &[("predicate", ugt)]);
    let diagonal = e.value("arith.cmpi", &[i, j], i1, &[("predicate", eq)]);
    let value = f(&mut e, below, diagonal, &args[..ins.len()], args[ins.len()]);
    yield_.set_operands(&[value]);
}

/// `into = tril(x)`: the lower triangle with the diagonal, zero above.
fn lower_part(b: &mut Builder, x: Value, into: Value) {
    by_position(b, into, &[(x, false)], &|e, below, diagonal, ins, _| {
        let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
        let zero = e.float(ins[0].ty(), 0.0);
        e.value("arith.select", &[inside, ins[0], zero], ins[0].ty(), &[])
    });
}

/// `Phi(X)`: the strict lower triangle, half the diagonal, zero above.
fn phi(b: &mut Builder, x: Value) {
    by_position(b, x, &[], &|e, below, diagonal, _, out| {
        let ty = out.ty();
        let (half, zero) = (e.float(ty, 0.5), e.float(ty, 0.0));
        let halved = e.value("arith.mulf", &[out, half], ty, &[]);
        let on = e.value("arith.select", &[diagonal, halved, zero], ty, &[]);
        e.value("arith.select", &[below, out, on], ty, &[])
    });
}

/// The lower-triangle view of a Cholesky factor stored in `a`: `a` itself
/// for the lower factor, its transpose for the upper one (`A = U^T U =
/// L L^T` with `L = U^T`), as the routines' strided type.
fn lower_view(b: &mut Builder, a: Value, lower: bool) -> Value {
    let a = as_strided(b, a);
    if lower {
        return a;
    }
    let permutation = b.ctx.attr("affine_map<(d0, d1) -> (d1, d0)>");
    b.value(
        "memref.transpose",
        &[a],
        a.ty(),
        &[("permutation", permutation)],
    )
}

/// `potrf(lower, A)`: `A = L L^T` (or `U^T U`), the factor written over the
/// triangle read; worked on through the lower view. Tangent `dL = L
/// Phi(L^-1 dA L^-T)` (`dA` symmetric from its triangle); adjoint, `G` the
/// lower part of the adjoint: `W = L^-T Phi(L^T G) L^-1`, and the triangle
/// of `A` gets `W + W^T` below the diagonal and `W` on it (the other
/// triangle, untouched, keeps its adjoint), by moonrt's `potrf_adjoint`.
fn potrf_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [lower, a] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?potrf takes 2 operands"));
    };
    if !s.is_active(a) {
        return Ok(());
    }
    let lower = constant_flag(op, lower, "the triangle flag")?;
    let (p, mut b) = (prefix(op), Builder::after(op));
    let da = lower_view(&mut b, s.shadow(op, a)?, lower);
    let l = lower_view(&mut b, a, lower);
    let w = scratch(&mut b, da);
    by_position(
        &mut b,
        w,
        &[(da, false), (da, true)],
        &|e, below, diagonal, ins, _| {
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, ins[0], ins[1]], ins[0].ty(), &[])
        },
    );
    with_factor(&mut b, p, "trsm", false, false, Factor::cholesky(l), w);
    with_factor(&mut b, p, "trsm", true, true, Factor::cholesky(l), w);
    phi(&mut b, w);
    with_factor(&mut b, p, "trmm", false, false, Factor::cholesky(l), w);
    by_position(
        &mut b,
        da,
        &[(w, false)],
        &|e, below, diagonal, ins, out| {
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, ins[0], out], out.ty(), &[])
        },
    );
    dealloc(&mut b, w);
    Ok(())
}

fn potrf_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [lower, a] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?potrf takes 2 operands"));
    };
    if !s.activity.is_active(a) {
        return Ok(());
    }
    let lower = constant_flag(op, lower, "the triangle flag")?;
    let factor = saved_after(s, op, a)?;
    let g = s.shadow(op, a)?;
    // moonrt's blocked form of the formula above (Murray 2016).
    let lower = flag(&mut s.b, lower);
    call(
        &mut s.b,
        prefix(op),
        "potrf_adjoint",
        &[lower, factor, g],
        &[],
    );
    Ok(())
}

/// `potrs(lower, F, B)`: `B = A^-1 B` with `A = L L^T` from the factor `F`
/// (its triangle read). Tangent `dX = A^-1 (dB - dA X)`, `dA = dL L^T +
/// L dL^T`; adjoints `Y = A^-1 G` (in place: the old `B`'s adjoint) and
/// `dL += tril(-(Y X^T + X Y^T) L)` on the factor's triangle.
fn potrs_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [lower, f, bm] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?potrs takes 3 operands"));
    };
    if !s.is_active(bm) {
        return Ok(());
    }
    let lower_flag = constant_flag(op, lower, "the triangle flag")?;
    let (p, mut b) = (prefix(op), Builder::after(op));
    let db = s.shadow(op, bm)?;
    if s.is_active(f) {
        let l = lower_view(&mut b, f, lower_flag);
        let dl = lower_view(&mut b, s.shadow(op, f)?, lower_flag);
        let t = scratch(&mut b, dl);
        lower_part(&mut b, dl, t);
        let element = bm.ty().element();
        let (zero, one, minus) = (
            b.float(element, 0.0),
            b.float(element, 1.0),
            b.float(element, -1.0),
        );
        let (n, tr) = (flag(&mut b, false), flag(&mut b, true));
        // dB -= dL (L^T X) + L (dL^T X)
        let r1 = copy_of(&mut b, bm);
        with_factor(&mut b, p, "trmm", false, true, Factor::cholesky(l), r1);
        call(&mut b, p, "gemm", &[n, n, minus, t, r1, one, db], &[]);
        call(&mut b, p, "gemm", &[tr, n, one, t, bm, zero, r1], &[]);
        with_factor(&mut b, p, "trmm", false, false, Factor::cholesky(l), r1);
        combine(&mut b, db, Some(one), &[(minus, r1)]);
        dealloc(&mut b, r1);
        dealloc(&mut b, t);
    }
    let i32_type = b.ctx.ty("i32");
    call(&mut b, p, "potrs", &[lower, f, db], &[i32_type]);
    Ok(())
}

fn potrs_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [lower, f, bm] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?potrs takes 3 operands"));
    };
    if !s.activity.is_active(bm) {
        return Ok(());
    }
    let lower_flag = constant_flag(op, lower, "the triangle flag")?;
    let p = prefix(op);
    let factor = saved(s, op, f)?;
    let x = if s.activity.is_active(f) {
        Some(saved_after(s, op, bm)?)
    } else {
        None
    };
    let g = s.shadow(op, bm)?;
    let df = if s.activity.is_active(f) {
        Some(s.shadow(op, f)?)
    } else {
        None
    };
    let b = &mut s.b;
    let lower_value = flag(b, lower_flag);
    let i32_type = b.ctx.ty("i32");
    call(b, p, "potrs", &[lower_value, factor, g], &[i32_type]);
    if let (Some(x), Some(df)) = (x, df) {
        let l = lower_view(b, factor, lower_flag);
        let dl = lower_view(b, df, lower_flag);
        let m = scratch(b, dl);
        let element = g.ty().element();
        let (zero, one, minus) = (
            b.float(element, 0.0),
            b.float(element, 1.0),
            b.float(element, -1.0),
        );
        let (n, tr) = (flag(b, false), flag(b, true));
        // -(Y X^T + X Y^T) L = -Y (L^T X)^T - X (L^T Y)^T: products with
        // the right-hand sides' few columns, not with an n x n matrix.
        let (ltx, lty) = (copy_of(b, x), copy_of(b, g));
        with_factor(b, p, "trmm", false, true, Factor::cholesky(l), ltx);
        with_factor(b, p, "trmm", false, true, Factor::cholesky(l), lty);
        call(b, p, "gemm", &[n, tr, minus, g, ltx, zero, m], &[]);
        call(b, p, "gemm", &[n, tr, minus, x, lty, one, m], &[]);
        dealloc(b, ltx);
        dealloc(b, lty);
        by_position(b, dl, &[(m, false)], &|e, below, diagonal, ins, out| {
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            let sum = e.value("arith.addf", &[out, ins[0]], out.ty(), &[]);
            e.value("arith.select", &[inside, sum, out], out.ty(), &[])
        });
        dealloc(b, m);
    }
    Ok(())
}

/// `ger(alpha, x, y, A)`: `A = alpha x y^T + A`. Tangent `dA += alpha dx
/// y^T + alpha x dy^T + dalpha x y^T`; adjoints, `G` passing to the old
/// `A` unchanged: `dx += alpha G y`, `dy += alpha G^T x` and `dalpha +=
/// x^T G y`.
fn ger_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [alpha, x, y, a] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?ger takes 4 operands"));
    };
    if !s.is_active(a) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let da = s.shadow(op, a)?;
    if s.is_active(x) {
        let dx = s.shadow(op, x)?;
        call(&mut b, p, "ger", &[alpha, dx, y, da], &[]);
    }
    if s.is_active(y) {
        let dy = s.shadow(op, y)?;
        call(&mut b, p, "ger", &[alpha, x, dy, da], &[]);
    }
    if s.is_active(alpha) {
        let dalpha = s.tangent_or_zero(&mut b, alpha);
        call(&mut b, p, "ger", &[dalpha, x, y, da], &[]);
    }
    Ok(())
}

fn ger_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [alpha, x, y, a] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?ger takes 4 operands"));
    };
    if !s.activity.is_active(a) {
        return Ok(());
    }
    let p = prefix(op);
    let g = s.shadow(op, a)?;
    let (x_value, y_value) = (saved(s, op, x)?, saved(s, op, y)?);
    let alpha_value = s.get(alpha)?;
    let element = g.ty().element();
    let (zero, one) = (s.b.float(element, 0.0), s.b.float(element, 1.0));
    let (n, t) = (flag(&mut s.b, false), flag(&mut s.b, true));
    if s.has_adjoint(alpha) {
        let gy = scratch(&mut s.b, x);
        call(&mut s.b, p, "gemv", &[n, one, g, y_value, zero, gy], &[]);
        let d = call(&mut s.b, p, "dot", &[x_value, gy], &[element]).result(0);
        dealloc(&mut s.b, gy);
        s.add_adjoint(alpha, d);
    }
    if s.activity.is_active(x) {
        let dx = s.shadow(op, x)?;
        let operands = [n, alpha_value, g, y_value, one, dx];
        call(&mut s.b, p, "gemv", &operands, &[]);
    }
    if s.activity.is_active(y) {
        let dy = s.shadow(op, y)?;
        let operands = [t, alpha_value, g, x_value, one, dy];
        call(&mut s.b, p, "gemv", &operands, &[]);
    }
    Ok(())
}

/// `into += fold(m)` on the lower triangle of the square `into` (a
/// [`lower_view`]): `m[i, j] + m[j, i]` below the diagonal and `m[i, i]`
/// on it, the adjoint of the triangle a symmetric matrix is read from,
/// given the adjoint `m` of the whole matrix.
fn add_folded(b: &mut Builder, into: Value, m: Value) {
    by_position(
        b,
        into,
        &[(m, false), (m, true)],
        &|e, below, diagonal, ins, out| {
            let ty = out.ty();
            let both = e.value("arith.addf", &[ins[0], ins[1]], ty, &[]);
            let folded = e.value("arith.select", &[below, both, ins[0]], ty, &[]);
            let sum = e.value("arith.addf", &[out, folded], ty, &[]);
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, sum, out], ty, &[])
        },
    );
}

/// With the triangle a constant: `dx += alpha S G` (`symv`) and the
/// triangle of `dA` gets the fold of `alpha G x^T` (`ger`).
fn symv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, flags) = scaled_product(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let lower = constant_flag(op, flags[0], "the triangle flag")?;
    let p = prefix(op);
    let [a, x] = r.factors;
    scaled_product_reverse(s, op, &[lower], &|s, alpha, a_value, x_value, g| {
        let element = g.ty().element();
        if s.activity.is_active(a) {
            let da = s.shadow(op, a)?;
            let b = &mut s.b;
            let outer = scratch(b, a);
            let zero = b.float(element, 0.0);
            crate::forward::fill(b, zero, outer);
            call(b, p, "ger", &[alpha, g, x_value, outer], &[]);
            let view = lower_view(b, da, lower);
            add_folded(b, view, outer);
            dealloc(b, outer);
        }
        if s.activity.is_active(x) {
            let dx = s.shadow(op, x)?;
            let b = &mut s.b;
            let (one, lower) = (b.float(element, 1.0), flag(b, lower));
            call(b, p, "symv", &[lower, alpha, a_value, g, one, dx], &[]);
        }
        Ok(())
    })
}

/// With the flags constants: `dB += alpha S G` (`alpha G S` from the
/// right), by `symm`, and the triangle of `dA` gets the fold of `alpha G
/// B^T` (`alpha B^T G` from the right), by `gemm`.
fn symm_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, flags) = scaled_product(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let right = constant_flag(op, flags[0], "the side flag")?;
    let lower = constant_flag(op, flags[1], "the triangle flag")?;
    let p = prefix(op);
    let [a, bm] = r.factors;
    scaled_product_reverse(s, op, &[right, lower], &|s, alpha, a_value, b_value, g| {
        let element = g.ty().element();
        if s.activity.is_active(a) {
            let da = s.shadow(op, a)?;
            let b = &mut s.b;
            let outer = scratch(b, a);
            let zero = b.float(element, 0.0);
            let (u, v) = if right { (b_value, g) } else { (g, b_value) };
            let (fu, fv) = (flag(b, right), flag(b, !right));
            call(b, p, "gemm", &[fu, fv, alpha, u, v, zero, outer], &[]);
            let view = lower_view(b, da, lower);
            add_folded(b, view, outer);
            dealloc(b, outer);
        }
        if s.activity.is_active(bm) {
            let db = s.shadow(op, bm)?;
            let b = &mut s.b;
            let (fr, fl) = (flag(b, right), flag(b, lower));
            product_again(b, op, &[fr, fl], [alpha, a_value, g, db]);
        }
        Ok(())
    })
}

/// `syrk(lower, trans, alpha, A, beta, C)`: `C = alpha op(A) op(A)^T +
/// beta C` on `C`'s triangle, the other left as it was.
struct Syrk {
    lower: bool,
    trans: bool,
    alpha: Value,
    a: Value,
    beta: Value,
    c: Value,
}

fn syrk(op: Op) -> Result<Syrk, Error> {
    let [lower, trans, alpha, a, beta, c] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?syrk takes 6 operands"));
    };
    Ok(Syrk {
        lower: constant_flag(op, lower, "the triangle flag")?,
        trans: constant_flag(op, trans, "the transpose flag")?,
        alpha,
        a,
        beta,
        c,
    })
}

/// Tangent, on the triangle: `dC = beta dC + alpha (P + P^T) + dalpha
/// op(A) op(A)^T + dbeta C_old` with `P = op(dA) op(A)^T`.
fn syrk_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let r = syrk(op)?;
    if !s.is_active(r.c) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dc = s.shadow(op, r.c)?;
    let element = r.c.ty().element();
    let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
    let update = scratch(&mut b, r.c);
    crate::forward::fill(&mut b, zero, update);
    if s.is_active(r.a) {
        let da = s.shadow(op, r.a)?;
        let product = scratch(&mut b, r.c);
        let (fx, fy) = (flag(&mut b, r.trans), flag(&mut b, !r.trans));
        let operands = [fx, fy, r.alpha, da, r.a, zero, product];
        call(&mut b, p, "gemm", &operands, &[]);
        by_position(
            &mut b,
            update,
            &[(product, false), (product, true)],
            &|e, _, _, ins, _| e.value("arith.addf", &[ins[0], ins[1]], ins[0].ty(), &[]),
        );
        dealloc(&mut b, product);
    }
    if s.is_active(r.alpha) {
        let dalpha = s.tangent_or_zero(&mut b, r.alpha);
        let (fl, ft) = (flag(&mut b, r.lower), flag(&mut b, r.trans));
        call(&mut b, p, "syrk", &[fl, ft, dalpha, r.a, one, update], &[]);
    }
    if s.is_active(r.beta) {
        let dbeta = s.tangent_or_zero(&mut b, r.beta);
        combine(&mut b, update, Some(one), &[(dbeta, r.c)]);
    }
    let dc_view = lower_view(&mut b, dc, r.lower);
    let update_view = lower_view(&mut b, update, r.lower);
    by_position(
        &mut b,
        dc_view,
        &[(update_view, false), (r.beta, false)],
        &|e, below, diagonal, ins, out| {
            let ty = out.ty();
            let scaled = e.value("arith.mulf", &[ins[1], out], ty, &[]);
            let sum = e.value("arith.addf", &[scaled, ins[0]], ty, &[]);
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, sum, out], ty, &[])
        },
    );
    dealloc(&mut b, update);
    Ok(())
}

/// Adjoints, `T` the triangle of `G` (zero elsewhere): `dA += alpha (T +
/// T^T) A` (`alpha A (T + T^T)` transposed), `dalpha += <T, op(A)
/// op(A)^T>`, `dbeta += <T, C_old>`, and `G = beta G` on the triangle.
fn syrk_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let r = syrk(op)?;
    if !s.activity.is_active(r.c) {
        return Ok(());
    }
    let p = prefix(op);
    let g = s.shadow(op, r.c)?;
    let a_value = saved(s, op, r.a)?;
    let old = if s.has_adjoint(r.beta) {
        Some(snapshot(s, op, r.c)?)
    } else {
        None
    };
    let (alpha, beta) = (s.get(r.alpha)?, s.get(r.beta)?);
    let b = &mut s.b;
    let element = g.ty().element();
    let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
    // T in the lower view's coordinates (the transpose of the upper one).
    let g_view = lower_view(b, g, r.lower);
    let t = scratch(b, g);
    lower_part(b, g_view, t);
    let mut scalar_adjoints = vec![];
    if s.has_adjoint(r.alpha) {
        let b = &mut s.b;
        let product = scratch(b, g);
        crate::forward::fill(b, zero, product);
        let (fl, ft) = (flag(b, true), flag(b, r.trans));
        call(b, p, "syrk", &[fl, ft, one, a_value, zero, product], &[]);
        scalar_adjoints.push((r.alpha, inner(b, t, product)));
        dealloc(b, product);
    }
    if let Some(old) = old {
        let b = &mut s.b;
        let old_view = lower_view(b, old, r.lower);
        scalar_adjoints.push((r.beta, inner(b, t, old_view)));
    }
    if s.activity.is_active(r.a) {
        let da = s.shadow(op, r.a)?;
        let b = &mut s.b;
        let sum = scratch(b, g);
        by_position(b, sum, &[(t, false), (t, true)], &|e, _, _, ins, _| {
            e.value("arith.addf", &[ins[0], ins[1]], ins[0].ty(), &[])
        });
        let (x, y) = if r.trans {
            (a_value, sum)
        } else {
            (sum, a_value)
        };
        let n = flag(b, false);
        call(b, p, "gemm", &[n, n, alpha, x, y, one, da], &[]);
        dealloc(b, sum);
    }
    let b = &mut s.b;
    dealloc(b, t);
    by_position(
        b,
        g_view,
        &[(beta, false)],
        &|e, below, diagonal, ins, out| {
            let scaled = e.value("arith.mulf", &[ins[0], out], out.ty(), &[]);
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, scaled, out], out.ty(), &[])
        },
    );
    for (v, d) in scalar_adjoints {
        s.add_adjoint(v, d);
    }
    Ok(())
}

/// A triangular factor for [`with_factor`]: the matrix it is stored in and
/// which triangle it is.
#[derive(Clone, Copy)]
struct Factor {
    a: Value,
    lower: bool,
    unit: bool,
}

impl Factor {
    /// The lower factor of a Cholesky factorization.
    fn cholesky(l: Value) -> Factor {
        Factor {
            a: l,
            lower: true,
            unit: false,
        }
    }

    /// The unit lower (`L`) or the upper (`U`) factor of packed `getrf`
    /// factors.
    fn lu(lu: Value, upper: bool) -> Factor {
        Factor {
            a: lu,
            lower: !upper,
            unit: !upper,
        }
    }
}

/// Calls `trsm` or `trmm` (`routine`) with the factor `f` on `x`: `x =
/// op(F)^{-1} x` or `op(F) x`, from the `right` when asked.
fn with_factor(
    b: &mut Builder,
    p: char,
    routine: &str,
    right: bool,
    trans: bool,
    f: Factor,
    x: Value,
) {
    let (right, lower, trans, unit) = (
        flag(b, right),
        flag(b, f.lower),
        flag(b, trans),
        flag(b, f.unit),
    );
    let one = b.float(x.ty().element(), 1.0);
    call(
        b,
        p,
        routine,
        &[right, lower, trans, unit, one, f.a, x],
        &[],
    );
}

/// Applies `getrf`'s row interchanges to the matrix `x`: `x = P^T x`
/// (`forward`) or `P x`.
fn swap_rows(b: &mut Builder, p: char, forward: bool, x: Value, ipiv: Value) {
    let forward = flag(b, forward);
    call(b, p, "laswp", &[forward, x, ipiv], &[]);
}

/// `into = x` strictly below the diagonal (`L`'s part of packed `getrf`
/// factors), or on and above it (`U`'s, `upper`), zero elsewhere.
fn lu_part(b: &mut Builder, x: Value, into: Value, upper: bool) {
    by_position(b, into, &[(x, false)], &|e, below, _, ins, _| {
        let zero = e.float(ins[0].ty(), 0.0);
        let (kept, dropped) = if upper {
            (zero, ins[0])
        } else {
            (ins[0], zero)
        };
        e.value("arith.select", &[below, kept, dropped], ins[0].ty(), &[])
    });
}

/// `dA = P (dL U + L dU)`, a fresh buffer, from the tangent `dlu` of the
/// packed factors `lu` of `A = P L U`.
fn lu_tangent(b: &mut Builder, p: char, lu: Value, ipiv: Value, dlu: Value) -> Value {
    let da = scratch(b, dlu);
    lu_part(b, dlu, da, false);
    with_factor(b, p, "trmm", true, false, Factor::lu(lu, true), da);
    let du = scratch(b, dlu);
    lu_part(b, dlu, du, true);
    with_factor(b, p, "trmm", false, false, Factor::lu(lu, false), du);
    add_to(b, da, du);
    dealloc(b, du);
    swap_rows(b, p, false, da, ipiv);
    da
}

/// Adds to `into` the adjoint of the packed factors `lu` of `A = P L U`
/// from the adjoint `abar` of `A` (overwritten): with `Z = P^T abar`, `L`'s
/// part gets `Z U^T` and `U`'s part `L^T Z`.
fn add_lu_adjoint(b: &mut Builder, p: char, (lu, ipiv): (Value, Value), abar: Value, into: Value) {
    swap_rows(b, p, true, abar, ipiv);
    let zu = copy_of(b, abar);
    with_factor(b, p, "trmm", true, true, Factor::lu(lu, true), zu);
    with_factor(b, p, "trmm", false, true, Factor::lu(lu, false), abar);
    by_position(
        b,
        into,
        &[(zu, false), (abar, false)],
        &|e, below, _, ins, out| {
            let part = e.value("arith.select", &[below, ins[0], ins[1]], out.ty(), &[]);
            e.value("arith.addf", &[out, part], out.ty(), &[])
        },
    );
    dealloc(b, zu);
}

/// `getrf(A, ipiv)`: `A = P L U`, the factors packed over `A` (square
/// matrices only). Tangent, with `F = L^-1 P^T dA U^-1`: `dL = L
/// strict_lower(F)`, `dU = upper(F) U`; adjoint `dA = P L^-T
/// (strict_lower(L^T dL) + upper(dU U^T)) U^-T`, `dL` and `dU` the parts of
/// the packed factors' adjoint.
fn getrf_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [a, ipiv] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?getrf takes 2 operands"));
    };
    if !s.is_active(a) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::after(op));
    let (l, u) = (Factor::lu(a, false), Factor::lu(a, true));
    let f = s.shadow(op, a)?;
    swap_rows(&mut b, p, true, f, ipiv);
    with_factor(&mut b, p, "trsm", false, false, l, f);
    with_factor(&mut b, p, "trsm", true, false, u, f);
    let dl = scratch(&mut b, f);
    lu_part(&mut b, f, dl, false);
    with_factor(&mut b, p, "trmm", false, false, l, dl);
    lu_part(&mut b, f, f, true);
    with_factor(&mut b, p, "trmm", true, false, u, f);
    add_to(&mut b, f, dl);
    dealloc(&mut b, dl);
    Ok(())
}

fn getrf_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [a, ipiv] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?getrf takes 2 operands"));
    };
    if !s.activity.is_active(a) {
        return Ok(());
    }
    let p = prefix(op);
    let lu = saved_after(s, op, a)?;
    let pivots = saved_after(s, op, ipiv)?;
    let g = s.shadow(op, a)?;
    let b = &mut s.b;
    let (l, u) = (Factor::lu(lu, false), Factor::lu(lu, true));
    let lower = scratch(b, g);
    lu_part(b, g, lower, false);
    with_factor(b, p, "trmm", false, true, l, lower);
    lu_part(b, g, g, true);
    with_factor(b, p, "trmm", true, true, u, g);
    by_position(b, g, &[(lower, false)], &|e, below, _, ins, out| {
        e.value("arith.select", &[below, ins[0], out], out.ty(), &[])
    });
    dealloc(b, lower);
    with_factor(b, p, "trsm", false, true, l, g);
    with_factor(b, p, "trsm", true, true, u, g);
    swap_rows(b, p, false, g, pivots);
    Ok(())
}

/// `getri(LU, ipiv)`: `A^-1` over the packed factors of `A = P L U`.
/// Tangent `-A^-1 dA A^-1`, `dA` from the factors' tangent; adjoint of the
/// factors from `dA = -A^-T G A^-T`.
fn getri_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [lu, ipiv] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?getri takes 2 operands"));
    };
    if !s.is_active(lu) {
        return Ok(());
    }
    let p = prefix(op);
    let factors = copy_of(&mut Builder::before(op), lu);
    let mut b = Builder::after(op);
    let dlu = s.shadow(op, lu)?;
    let da = lu_tangent(&mut b, p, factors, ipiv, dlu);
    let element = lu.ty().element();
    let (zero, one, minus) = (
        b.float(element, 0.0),
        b.float(element, 1.0),
        b.float(element, -1.0),
    );
    let n = flag(&mut b, false);
    let left = scratch(&mut b, lu);
    call(&mut b, p, "gemm", &[n, n, one, lu, da, zero, left], &[]);
    call(&mut b, p, "gemm", &[n, n, minus, left, lu, zero, dlu], &[]);
    for buffer in [left, da, factors] {
        dealloc(&mut b, buffer);
    }
    Ok(())
}

fn getri_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [lu, ipiv] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?getri takes 2 operands"));
    };
    if !s.activity.is_active(lu) {
        return Ok(());
    }
    let p = prefix(op);
    let factors = (snapshot(s, op, lu)?, saved(s, op, ipiv)?);
    let inverse = saved_after(s, op, lu)?;
    let g = s.shadow(op, lu)?;
    let b = &mut s.b;
    let element = g.ty().element();
    let (zero, one, minus) = (
        b.float(element, 0.0),
        b.float(element, 1.0),
        b.float(element, -1.0),
    );
    let (n, t) = (flag(b, false), flag(b, true));
    let left = scratch(b, g);
    call(b, p, "gemm", &[t, n, minus, inverse, g, zero, left], &[]);
    let abar = scratch(b, g);
    call(b, p, "gemm", &[n, t, one, left, inverse, zero, abar], &[]);
    crate::forward::fill(b, zero, g);
    add_lu_adjoint(b, p, factors, abar, g);
    dealloc(b, left);
    dealloc(b, abar);
    Ok(())
}

/// `sytrf(lower, A, ipiv)`: Bunch-Kaufman `A = L D L^T` over `A`'s
/// triangle. The factor's tangent and adjoint are not those of its packed
/// entries but stay those of the matrix it factors (on the triangle), which
/// is what `sytrs`'s rule ([`factored_solve_forward`]) reads: so the rule
/// computes nothing, and checks that nothing but `sytrs` reads the factor
/// after the call.
fn sytrf_forward(_: &mut FunctionState, op: Op) -> Result<(), Error> {
    read_only_by_sytrs(op)
}

fn sytrf_reverse(_: &mut ReverseState, op: Op) -> Result<(), Error> {
    read_only_by_sytrs(op)
}

/// Checks that the factor `sytrf` (`op`) writes lives in a buffer of this
/// function that, after the call, only `sytrs` reads (directly or from a
/// copy).
fn read_only_by_sytrs(op: Op) -> Result<(), Error> {
    let mut root = op.operand(1);
    while let Some(cast) = root.defining_op().filter(|d| d.name() == "memref.cast") {
        root = cast.operand(0);
    }
    let local = root
        .defining_op()
        .is_some_and(|d| matches!(d.name().as_str(), "memref.alloc" | "memref.alloca"));
    if !local {
        return Err(error_at(
            op,
            "moonc differentiates sytrf only on a buffer allocated in the same function",
        ));
    }
    let mut pending = vec![root];
    let mut copies = vec![];
    while let Some(v) = pending.pop() {
        for user in v.users() {
            if copies.contains(&user) {
                continue;
            }
            let callee = user.attr("callee").and_then(|a| a.string());
            let routine = callee.as_deref().and_then(lookup).map(|r| r.routine);
            match (user.name().as_str(), routine) {
                ("memref.cast", _) => pending.push(user.result(0)),
                // A copy of the factor (reverse mode saves it so) is one too.
                ("memref.copy", _) if user.operand(0) == v => {
                    copies.push(user);
                    pending.push(user.operand(1));
                }
                ("memref.dealloc" | "memref.dim", _) | ("func.call", Some("sytrf")) => {}
                ("func.call", Some("sytrs")) if user.operand(1) == v => {}
                _ if precedes(user, op) => {}
                (name, _) => {
                    return Err(error_at(
                        user,
                        &format!(
                            "moonc differentiates sytrf's factor only where nothing but sytrs \
                             reads it after the factorization, not this {name}"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether `user` runs before `op`: it or its ancestor in `op`'s block
/// comes first there.
fn precedes(user: Op, op: Op) -> bool {
    let mut at = user;
    while at.block() != op.block() {
        match at.parent() {
            Some(parent) => at = parent,
            None => return false,
        }
    }
    let ops = op.block().ops();
    let position = |o: Op| ops.iter().position(|&x| x == o);
    position(at) < position(op)
}

/// The symmetric matrix of the triangle of `f`'s shadow, in a fresh buffer.
fn symmetric_of(b: &mut Builder, f: Value, lower: bool) -> Value {
    let view = lower_view(b, f, lower);
    let full = scratch(b, f);
    by_position(
        b,
        full,
        &[(view, false), (view, true)],
        &|e, below, diagonal, ins, _| {
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            e.value("arith.select", &[inside, ins[0], ins[1]], ins[0].ty(), &[])
        },
    );
    full
}

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

/// `getrs(trans, LU, ipiv, B)` and `sytrs(lower, F, ipiv, B)`: `B =
/// op(A)^-1 B` from `getrf`'s packed factors of `A = P L U`, or `A^-1 B`
/// from `sytrf`'s factor, whose shadow holds `A`'s (see
/// [`sytrf_forward`]). Tangent `dX = op(A)^-1 (dB - op(dA) X)`, `dA` from
/// the factors' tangent; adjoints `H = op(A)^-T G` (in place: the old
/// `B`'s adjoint) and, from `dA = -H X^T` (`-X H^T` transposed), the
/// factors' adjoint (`sytrf`'s: the fold of `dA` onto its triangle).
fn factored_solve_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let [flag_value, f, ipiv, bm] = op.operands()[..] else {
        return Err(error_at(op, "a solve with factors takes 4 operands"));
    };
    if !s.is_active(bm) {
        return Ok(());
    }
    let lu = is_lu(op);
    let (p, mut b) = (prefix(op), Builder::after(op));
    let db = s.shadow(op, bm)?;
    if s.is_active(f) {
        let df = s.shadow(op, f)?;
        let da = if lu {
            lu_tangent(&mut b, p, f, ipiv, df)
        } else {
            let lower = constant_flag(op, flag_value, "the triangle flag")?;
            symmetric_of(&mut b, df, lower)
        };
        let element = bm.ty().element();
        let (one, minus) = (b.float(element, 1.0), b.float(element, -1.0));
        let n = flag(&mut b, false);
        let trans = if lu { flag_value } else { n };
        call(&mut b, p, "gemm", &[trans, n, minus, da, bm, one, db], &[]);
        dealloc(&mut b, da);
    }
    let (routine, i32_type) = (if lu { "getrs" } else { "sytrs" }, b.ctx.ty("i32"));
    call(&mut b, p, routine, &[flag_value, f, ipiv, db], &[i32_type]);
    Ok(())
}

fn factored_solve_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let [flag_value, f, ipiv, bm] = op.operands()[..] else {
        return Err(error_at(op, "a solve with factors takes 4 operands"));
    };
    if !s.activity.is_active(bm) {
        return Ok(());
    }
    let lu = is_lu(op);
    let what = if lu {
        "the transpose flag"
    } else {
        "the triangle flag"
    };
    let value = constant_flag(op, flag_value, what)?;
    let p = prefix(op);
    let factors = (saved(s, op, f)?, saved(s, op, ipiv)?);
    let x = if s.activity.is_active(f) {
        Some(saved_after(s, op, bm)?)
    } else {
        None
    };
    let g = s.shadow(op, bm)?;
    let df = x.map(|_| s.shadow(op, f)).transpose()?;
    let b = &mut s.b;
    // getrs solves with the transpose flipped; A is symmetric for sytrs.
    let (routine, again) = if lu {
        ("getrs", !value)
    } else {
        ("sytrs", value)
    };
    let (again, i32_type) = (flag(b, again), b.ctx.ty("i32"));
    call(
        b,
        p,
        routine,
        &[again, factors.0, factors.1, g],
        &[i32_type],
    );
    if let (Some(x), Some(df)) = (x, df) {
        let element = g.ty().element();
        let (zero, minus) = (b.float(element, 0.0), b.float(element, -1.0));
        let abar = scratch(b, df);
        let (u, v) = if lu && value { (x, g) } else { (g, x) };
        let (n, t) = (flag(b, false), flag(b, true));
        call(b, p, "gemm", &[n, t, minus, u, v, zero, abar], &[]);
        if lu {
            add_lu_adjoint(b, p, factors, abar, df);
        } else {
            let view = lower_view(b, df, value);
            add_folded(b, view, abar);
        }
        dealloc(b, abar);
    }
    Ok(())
}

/// Whether the solve `op` reads `getrf`'s factors (`getrs`), not
/// `sytrf`'s.
fn is_lu(op: Op) -> bool {
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .unwrap_or_default();
    lookup(&callee).is_some_and(|rule| rule.routine == "getrs")
}
