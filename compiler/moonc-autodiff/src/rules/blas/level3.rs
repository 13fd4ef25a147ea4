//! BLAS level 3, matrix-matrix routines: `gemm` and `symm` (their tangent
//! is [`super::scaled_product`]'s) and `syrk`. The triangular ones, `trmm`
//! and `trsm`, are in [`super::triangular`].

use super::scaled_product::{FactorsReverse, UpdateReverse, product_again};
use super::scaled_product::{scaled_product_reverse, update_reverse};
use super::triangles::{add_folded, by_position, lower_part, lower_view};
use super::{call, combine, constant_flag, dealloc, flag, inner, prefix, scratch};
use crate::adjoint::ReverseState;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

/// With the transposes constants: `dA += alpha G op(B)^T` (`alpha op(B)
/// G^T` when `A` is transposed) and `dB += alpha op(A)^T G` (`alpha G^T
/// op(A)` when `B` is), each one `gemm`.
pub(super) fn gemm_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    scaled_product_reverse(s, op, ["transa", "transb"], &|s, r| {
        let FactorsReverse {
            flags: [ta, tb],
            p,
            factors: [a, bm],
            values: [a_value, b_value],
            alpha,
            g,
        } = r;
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

/// With the flags constants: `dB += alpha S G` (`alpha G S` from the
/// right), by `symm`, and the triangle of `dA` gets the fold of `alpha G
/// B^T` (`alpha B^T G` from the right), by `gemm`.
pub(super) fn symm_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let names = ["the side flag", "the triangle flag"];
    scaled_product_reverse(s, op, names, &|s, r| {
        let FactorsReverse {
            flags: [right, lower],
            p,
            factors: [a, bm],
            values: [a_value, b_value],
            alpha,
            g,
        } = r;
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
pub(super) fn syrk_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let r = syrk(op)?;
    if !s.is_active(r.c) {
        return Ok(());
    }
    let (p, mut b) = (prefix(op), Builder::before(op));
    let dc = s.shadow(op, r.c)?;
    let element = r.c.ty().element();
    let (zero, one) = (b.float(element, 0.0), b.float(element, 1.0));
    let update = scratch(&mut b, r.c);
    b.fill(zero, update);
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
pub(super) fn syrk_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    let r = syrk(op)?;
    if !s.activity.is_active(r.c) {
        return Ok(());
    }
    let p = prefix(op);
    let UpdateReverse {
        g,
        factors: [a_value],
        old,
        alpha,
        beta,
    } = update_reverse(s, op, r.c, [r.a], [r.alpha, r.beta])?;
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
        b.fill(zero, product);
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
