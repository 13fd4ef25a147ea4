//! Solves with a factorization's factors: `getrs` (LU) and `sytrs`
//! (Bunch-Kaufman), and `sytrf`, whose rule checks that only `sytrs`
//! reads its factor.

use super::lu::{add_lu_adjoint, lu_tangent};
use super::triangles::{add_folded, by_position, lower_view};
use super::{call, constant_flag, dealloc, flag, lookup, prefix, saved, saved_after, scratch};
use crate::adjoint::ReverseState;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

/// `sytrf(lower, A, ipiv)`: Bunch-Kaufman `A = L D L^T` over `A`'s
/// triangle. The factor's tangent and adjoint are not those of its packed
/// entries but stay those of the matrix it factors (on the triangle), which
/// is what `sytrs`'s rule ([`factored_solve_forward`]) reads: so the rule
/// computes nothing, and checks that nothing but `sytrs` reads the factor
/// after the call.
pub(super) fn sytrf_forward(_: &mut FunctionState, op: Op) -> Result<(), Error> {
    read_only_by_sytrs(op)
}

pub(super) fn sytrf_reverse(_: &mut ReverseState, op: Op) -> Result<(), Error> {
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

/// `getrs(trans, LU, ipiv, B)` and `sytrs(lower, F, ipiv, B)`: `B =
/// op(A)^-1 B` from `getrf`'s packed factors of `A = P L U`, or `A^-1 B`
/// from `sytrf`'s factor, whose shadow holds `A`'s (see
/// [`sytrf_forward`]). Tangent `dX = op(A)^-1 (dB - op(dA) X)`, `dA` from
/// the factors' tangent; adjoints `H = op(A)^-T G` (in place: the old
/// `B`'s adjoint) and, from `dA = -H X^T` (`-X H^T` transposed), the
/// factors' adjoint (`sytrf`'s: the fold of `dA` onto its triangle).
pub(super) fn factored_solve_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn factored_solve_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
