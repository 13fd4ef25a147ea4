//! BLAS level 1, the vector routines: `dot`, `axpy`, `scal`, `copy`,
//! `nrm2` and `asum`.

use super::{call, combine, elementwise, prefix, reduce, saved, signum};
use crate::adjoint::ReverseState;
use crate::rules::linalg::snapshot;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op};
use moonc_ir::linalg::build_generic;

/// `dot(x, y)`: tangent `dot(dx, y) + dot(x, dy)`.
pub(super) fn dot_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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
pub(super) fn dot_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn axpy_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn axpy_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn scal_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn scal_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn copy_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn copy_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
    s.b.fill(zero, g);
    Ok(())
}

/// `r = nrm2(x)`: tangent `<x, dx> / r`; adjoint `dx += (g / r) x`.
pub(super) fn nrm2_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn nrm2_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn asum_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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

pub(super) fn asum_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
