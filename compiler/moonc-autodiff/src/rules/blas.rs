//! Derivative rules of moonrt's BLAS routines (foreign calls,
//! `docs/blas.md`): one entry per routine, keyed on its name without the
//! `moonrt_s`/`moonrt_d` prefix, forward and reverse side by side. The
//! derivative code calls the routines themselves, never scalar loops over
//! matrices; elementwise updates (a scaled shadow, an inner product for a
//! scalar's adjoint) are `linalg.generic`s.

use super::linalg::{build_generic, may_alias, snapshot};
use crate::{
    forward::{FunctionState, error_at},
    ir::{Builder, Op, Type, Value},
    reverse::ReverseState,
};
use moonc_ir::Error;

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
        forward: gemm_forward,
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
        forward: gemv_forward,
        reverse: gemv_reverse,
    },
    Foreign {
        routine: "trmv",
        writes: &[4],
        forward: trmv_forward,
        reverse: trmv_reverse,
    },
    Foreign {
        routine: "trsv",
        writes: &[4],
        forward: trsv_forward,
        reverse: trsv_reverse,
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
/// routines' type), declaring it in the module when it is not yet.
fn call(b: &mut Builder, p: char, routine: &str, operands: &[Value], results: &[Type]) -> Op {
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
    let mut module = b.anchor_op();
    while module.name() != "builtin.module" {
        module = module.parent().expect("a function inside a module");
    }
    if module.find_function(&name).is_none() {
        let types: Vec<String> = operands.iter().map(|v| v.ty().to_string()).collect();
        let results: Vec<String> = results.iter().map(|t| t.to_string()).collect();
        let ty = format!("({}) -> ({})", types.join(", "), results.join(", "));
        let body = module.regions()[0].blocks()[0];
        let mut at = Builder::before(body.ops()[0]);
        at.create(
            "func.func",
            &[],
            &[],
            &[
                ("sym_name", b.ctx.attr(&format!("\"{name}\""))),
                ("function_type", b.ctx.attr(&ty)),
                ("sym_visibility", b.ctx.attr("\"private\"")),
            ],
            &[crate::ir::Region::new()],
            &[],
        );
    }
    let callee = b.ctx.attr(&format!("@{name}"));
    b.create(
        "func.call",
        &operands,
        results,
        &[("callee", callee)],
        &[],
        &[],
    )
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
                &format!("reverse mode needs {what} of this call to be an arith.constant"),
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

/// Emits `into += alpha P(f0, f1)` with a builder: (alpha, f0, f1, into).
type Product<'a> = &'a dyn Fn(&mut Builder, Value, Value, Value, Value);

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

/// The tangent of a [`ScaledProduct`]: `dout = beta dout + alpha P(df0,
/// f1) + alpha P(f0, df1) + dalpha P(f0, f1) + dbeta out_old`, the products
/// added by `product(b, alpha, f0, f1, into)` into a scratch buffer before
/// `dout` changes (so that shadows sharing its memory are read first),
/// `out_old` copied only when `beta` is active.
fn scaled_product_forward(
    s: &mut FunctionState,
    op: Op,
    r: &ScaledProduct,
    product: Product,
) -> Result<(), Error> {
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
/// adjoints by `adjoints(s, alpha, f0, f1, G)`, and `out`'s old contents
/// get `beta G`. The factors (and `out_old`, only when `beta` is active)
/// are copies taken before the call when the function writes them later;
/// when a factor may share `out`'s memory, `G` is copied first.
fn scaled_product_reverse(
    s: &mut ReverseState,
    op: Op,
    r: &ScaledProduct,
    product: Product,
    adjoints: FactorAdjoints,
) -> Result<(), Error> {
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

/// `gemm(ta, tb, alpha, A, B, beta, C)`: `C = alpha op(A) op(B) + beta C`.
fn gemm(op: Op) -> Result<(ScaledProduct, [Value; 2]), Error> {
    let [ta, tb, alpha, a, b, beta, c] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?gemm takes 7 operands"));
    };
    let r = ScaledProduct {
        alpha,
        factors: [a, b],
        beta,
        out: c,
    };
    Ok((r, [ta, tb]))
}

fn gemm_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let (r, [ta, tb]) = gemm(op)?;
    let p = prefix(op);
    scaled_product_forward(s, op, &r, &|b, alpha, a, bm, into| {
        let one = b.float(into.ty().element(), 1.0);
        call(b, p, "gemm", &[ta, tb, alpha, a, bm, one, into], &[]);
    })
}

/// With the transposes constants: `dA += alpha G op(B)^T` (`alpha op(B)
/// G^T` when `A` is transposed) and `dB += alpha op(A)^T G` (`alpha G^T
/// op(A)` when `B` is), each one `gemm`.
fn gemm_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, [ta_flag, tb_flag]) = gemm(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let ta = constant_flag(op, ta_flag, "transa")?;
    let tb = constant_flag(op, tb_flag, "transb")?;
    let p = prefix(op);
    let [a, bm] = r.factors;
    scaled_product_reverse(
        s,
        op,
        &r,
        &|b, alpha, a, bm, into| {
            let one = b.float(into.ty().element(), 1.0);
            let (fa, fb) = (flag(b, ta), flag(b, tb));
            call(b, p, "gemm", &[fa, fb, alpha, a, bm, one, into], &[]);
        },
        &|s, alpha, a_value, b_value, g| {
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
        },
    )
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

/// `gemv(t, alpha, A, x, beta, y)`: `y = alpha op(A) x + beta y`.
fn gemv(op: Op) -> Result<(ScaledProduct, Value), Error> {
    let [t, alpha, a, x, beta, y] = op.operands()[..] else {
        return Err(error_at(op, "moonrt_?gemv takes 6 operands"));
    };
    Ok((
        ScaledProduct {
            alpha,
            factors: [a, x],
            beta,
            out: y,
        },
        t,
    ))
}

fn gemv_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let (r, t) = gemv(op)?;
    let p = prefix(op);
    scaled_product_forward(s, op, &r, &|b, alpha, a, x, into| {
        let one = b.float(into.ty().element(), 1.0);
        call(b, p, "gemv", &[t, alpha, a, x, one, into], &[]);
    })
}

/// With the transpose a constant: `dA += alpha G x^T` (`alpha x G^T` when
/// transposed) by `ger`, and `dx += alpha op(A)^T G` by `gemv`.
fn gemv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let (r, t) = gemv(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let transposed = constant_flag(op, t, "trans")?;
    let p = prefix(op);
    let [a, x] = r.factors;
    scaled_product_reverse(
        s,
        op,
        &r,
        &|b, alpha, a, x, into| {
            let one = b.float(into.ty().element(), 1.0);
            let t = flag(b, transposed);
            call(b, p, "gemv", &[t, alpha, a, x, one, into], &[]);
        },
        &|s, alpha, a_value, x_value, g| {
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
        },
    )
}

/// `trmv`/`trsv(lower, trans, unit, A, x)` with constant flags: the
/// triangle of `A` they read and whether it is transposed.
struct Triangle {
    /// `s` or `d`.
    p: char,
    lower: bool,
    trans: bool,
    unit: bool,
    a: Value,
    x: Value,
}

fn triangle(op: Op) -> Result<Triangle, Error> {
    let [lower, trans, unit, a, x] = op.operands()[..] else {
        return Err(error_at(op, "a triangular routine takes 5 operands"));
    };
    Ok(Triangle {
        p: prefix(op),
        lower: constant_flag(op, lower, "the triangle flag")?,
        trans: constant_flag(op, trans, "the transpose flag")?,
        unit: constant_flag(op, unit, "the unit-diagonal flag")?,
        a,
        x,
    })
}

impl Triangle {
    /// Calls `routine` (`trmv` or `trsv`) on `a` and `x` with these flags,
    /// the transpose flipped by `flip`, the unit diagonal dropped by
    /// `explicit` (for a matrix whose diagonal is stored).
    fn call(&self, b: &mut Builder, routine: &str, a: Value, x: Value, flip: bool, explicit: bool) {
        let lower = flag(b, self.lower);
        let trans = flag(b, self.trans != flip);
        let unit = flag(b, self.unit && !explicit);
        call(b, self.p, routine, &[lower, trans, unit, a, x], &[]);
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

    /// `alpha u v^T` (or `alpha v u^T` when transposed) masked to the
    /// triangle and added to the shadow `da`.
    fn add_outer(&self, b: &mut Builder, alpha: Value, u: Value, v: Value, da: Value) {
        let outer = scratch(b, da);
        let element = da.ty().element();
        let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
        crate::forward::fill(b, zero, outer);
        let (x, y) = if self.trans { (v, u) } else { (u, v) };
        call(b, self.p, "ger", &[one, x, y, outer], &[]);
        self.add_masked(b, alpha, outer, da);
        dealloc(b, outer);
    }
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

/// `x = op(T) x`. Tangent `dx = op(T) dx + op(T(dA)) x_old`; adjoints
/// `dA += T(G x_old^T)` (`x_old G^T` transposed) and `G = op(T)^T G`.
fn trmv_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.is_active(t.x) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dx = s.shadow(op, t.x)?;
    let old = copy_of(&mut b, t.x);
    t.call(&mut b, "trmv", t.a, dx, false, false);
    if s.is_active(t.a) {
        let da = s.shadow(op, t.a)?;
        let masked = scratch(&mut b, t.a);
        let element = t.x.ty().element();
        let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
        crate::forward::fill(&mut b, zero, masked);
        t.add_masked(&mut b, one, da, masked);
        t.call(&mut b, "trmv", masked, old, false, true);
        call(&mut b, p, "axpy", &[one, old, dx], &[]);
        dealloc(&mut b, masked);
    }
    dealloc(&mut b, old);
    Ok(())
}

fn trmv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.activity.is_active(t.x) {
        return Ok(());
    }
    let g = s.shadow(op, t.x)?;
    let a_value = saved(s, op, t.a)?;
    if s.activity.is_active(t.a) {
        let old = snapshot(s, op, t.x)?;
        let da = s.shadow(op, t.a)?;
        let one = s.b.float(g.ty().element(), 1.0);
        t.add_outer(&mut s.b, one, g, old, da);
    }
    t.call(&mut s.b, "trmv", a_value, g, true, false);
    Ok(())
}

/// `x = op(T)^-1 x`. Tangent `dx = op(T)^-1 (dx - op(T(dA)) x_new)`;
/// adjoints `H = op(T)^-T G` (in place) and `dA -= T(H x_new^T)` (`x_new
/// H^T` transposed).
fn trsv_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let t = triangle(op)?;
    if !s.is_active(t.x) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::after(op));
    let dx = s.shadow(op, t.x)?;
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
        t.call(&mut b, "trmv", masked, new, false, true);
        call(&mut b, p, "axpy", &[minus, new, dx], &[]);
        dealloc(&mut b, masked);
        dealloc(&mut b, new);
    }
    t.call(&mut b, "trsv", t.a, dx, false, false);
    Ok(())
}

fn trsv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
    t.call(&mut s.b, "trsv", a_value, g, true, false);
    if let Some(new) = new {
        let da = s.shadow(op, t.a)?;
        let minus = s.b.float(g.ty().element(), -1.0);
        t.add_outer(&mut s.b, minus, g, new, da);
    }
    Ok(())
}

/// Builds an element from (below, diagonal, inputs, old element).
type AtPosition<'a> = &'a dyn Fn(&mut Builder, Value, Value, &[Value], Value) -> Value;

/// `into[i, j] = f(below, diagonal, ins, into[i, j])` over a square 2-D
/// memref, `below` and `diagonal` the `i1`s `i > j` and `i == j`, and each
/// input read at `[i, j]`, or at `[j, i]` when marked transposed.
fn by_position(b: &mut Builder, into: Value, ins: &[(Value, bool)], f: AtPosition) {
    let (map, _, iterators) = elementwise(2, "parallel");
    let flipped = "affine_map<(d0, d1) -> (d1, d0)>".to_string();
    let mut maps: Vec<String> = ins
        .iter()
        .map(|&(_, t)| if t { flipped.clone() } else { map.clone() })
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

/// Calls `trsm` or `trmm` (`routine`) with the lower factor `l` on `x`:
/// `x = op(L)^{-1} x` or `op(L) x`, from the `right` when asked.
fn with_factor(
    b: &mut Builder,
    p: char,
    routine: &str,
    right: bool,
    trans: bool,
    l: Value,
    x: Value,
) {
    let (right, lower, trans, unit) = (
        flag(b, right),
        flag(b, true),
        flag(b, trans),
        flag(b, false),
    );
    let one = b.float(x.ty().element(), 1.0);
    call(b, p, routine, &[right, lower, trans, unit, one, l, x], &[]);
}

/// `potrf(lower, A)`: `A = L L^T` (or `U^T U`), the factor written over the
/// triangle read; worked on through the lower view. Tangent `dL = L
/// Phi(L^-1 dA L^-T)` (`dA` symmetric from its triangle); adjoint, `G` the
/// lower part of the adjoint: `W = L^-T Phi(L^T G) L^-1`, and the triangle
/// of `A` gets `W + W^T` below the diagonal and `W` on it (the other
/// triangle, untouched, keeps its adjoint).
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
    with_factor(&mut b, p, "trsm", false, false, l, w);
    with_factor(&mut b, p, "trsm", true, true, l, w);
    phi(&mut b, w);
    with_factor(&mut b, p, "trmm", false, false, l, w);
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
    let p = prefix(op);
    let factor = saved_after(s, op, a)?;
    let g = s.shadow(op, a)?;
    let b = &mut s.b;
    let g = lower_view(b, g, lower);
    let l = lower_view(b, factor, lower);
    let w = scratch(b, g);
    lower_part(b, g, w);
    with_factor(b, p, "trmm", false, true, l, w);
    phi(b, w);
    with_factor(b, p, "trsm", false, true, l, w);
    with_factor(b, p, "trsm", true, false, l, w);
    by_position(
        b,
        g,
        &[(w, false), (w, true)],
        &|e, below, diagonal, ins, out| {
            let ty = out.ty();
            let both = e.value("arith.addf", &[ins[0], ins[1]], ty, &[]);
            let on = e.value("arith.select", &[diagonal, ins[0], out], ty, &[]);
            e.value("arith.select", &[below, both, on], ty, &[])
        },
    );
    dealloc(b, w);
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
        with_factor(&mut b, p, "trmm", false, true, l, r1);
        call(&mut b, p, "gemm", &[n, n, minus, t, r1, one, db], &[]);
        call(&mut b, p, "gemm", &[tr, n, one, t, bm, zero, r1], &[]);
        with_factor(&mut b, p, "trmm", false, false, l, r1);
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
        call(b, p, "gemm", &[n, tr, minus, g, x, zero, m], &[]);
        call(b, p, "gemm", &[n, tr, minus, x, g, one, m], &[]);
        with_factor(b, p, "trmm", true, false, l, m);
        by_position(b, dl, &[(m, false)], &|e, below, diagonal, ins, out| {
            let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
            let sum = e.value("arith.addf", &[out, ins[0]], out.ty(), &[]);
            e.value("arith.select", &[inside, sum, out], out.ty(), &[])
        });
        dealloc(b, m);
    }
    Ok(())
}
