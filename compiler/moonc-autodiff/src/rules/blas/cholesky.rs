//! The Cholesky factorization `potrf` and the solve with its factor
//! `potrs`.

use super::scratch;
use super::triangles::{Factor, by_position, lower_part, lower_view, with_factor};
use super::{call, combine, constant_flag, copy_of, dealloc, flag, prefix, saved, saved_after};
use crate::adjoint::ReverseState;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

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

/// `potrf(lower, A)`: `A = L L^T` (or `U^T U`), the factor written over the
/// triangle read; worked on through the lower view. Tangent `dL = L
/// Phi(L^-1 dA L^-T)` (`dA` symmetric from its triangle); adjoint, `G` the
/// lower part of the adjoint: `W = L^-T Phi(L^T G) L^-1`, and the triangle
/// of `A` gets `W + W^T` below the diagonal and `W` on it (the other
/// triangle, untouched, keeps its adjoint), by moonrt's `potrf_adjoint`.
pub(super) fn potrf_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn potrf_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn potrs_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn potrs_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
