//! BLAS level 2, matrix-vector routines: `gemv` and `symv` (their tangent
//! is [`super::scaled_product`]'s) and `ger`. The triangular ones, `trmv`
//! and `trsv`, are in [`super::triangular`].

use super::scaled_product::{FactorsReverse, scaled_product_reverse};
use super::triangles::{add_folded, lower_view};
use super::{call, dealloc, flag, prefix, saved, scratch};
use crate::adjoint::ReverseState;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op};

/// With the transpose a constant: `dA += alpha G x^T` (`alpha x G^T` when
/// transposed) by `ger`, and `dx += alpha op(A)^T G` by `gemv`.
pub(super) fn gemv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    scaled_product_reverse(s, op, ["trans"], &|s, r| {
        let FactorsReverse {
            flags: [transposed],
            p,
            factors: [a, x],
            values: [a_value, x_value],
            alpha,
            g,
        } = r;
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

/// With the triangle a constant: `dx += alpha S G` (`symv`) and the
/// triangle of `dA` gets the fold of `alpha G x^T` (`ger`).
pub(super) fn symv_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
    scaled_product_reverse(s, op, ["the triangle flag"], &|s, r| {
        let FactorsReverse {
            flags: [lower],
            p,
            factors: [a, x],
            values: [a_value, x_value],
            alpha,
            g,
        } = r;
        let element = g.ty().element();
        if s.activity.is_active(a) {
            let da = s.shadow(op, a)?;
            let b = &mut s.b;
            let outer = scratch(b, a);
            let zero = b.float(element, 0.0);
            b.fill(zero, outer);
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

/// `ger(alpha, x, y, A)`: `A = alpha x y^T + A`. Tangent `dA += alpha dx
/// y^T + alpha x dy^T + dalpha x y^T`; adjoints, `G` passing to the old
/// `A` unchanged: `dx += alpha G y`, `dy += alpha G^T x` and `dalpha +=
/// x^T G y`.
pub(super) fn ger_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn ger_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
