//! The LU factorization `getrf` and the inverse from its factors `getri`,
//! and the tangent and adjoint of packed LU factors, which the solve with
//! them (`getrs`, [`super::factored_solve`]) uses too.

use super::triangles::{Factor, by_position, with_factor};
use super::{add_to, call, copy_of, dealloc, flag, prefix, saved, saved_after, scratch};
use crate::adjoint::ReverseState;
use crate::rules::linalg::snapshot;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

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
pub(super) fn lu_tangent(b: &mut Builder, p: char, lu: Value, ipiv: Value, dlu: Value) -> Value {
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
pub(super) fn add_lu_adjoint(
    b: &mut Builder,
    p: char,
    (lu, ipiv): (Value, Value),
    abar: Value,
    into: Value,
) {
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
pub(super) fn getrf_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn getrf_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn getri_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn getri_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
    b.fill(zero, g);
    add_lu_adjoint(b, p, factors, abar, g);
    dealloc(b, left);
    dealloc(b, abar);
    Ok(())
}
