//! Products and solves with a triangular matrix, by vector or matrix:
//! `trmv`, `trsv` (level 2), `trmm`, `trsm` (level 3) and LAPACK's `trtrs`.

use super::triangles::element_indices;
use super::{add_to, call, combine, constant_flag, copy_of, dealloc, elementwise, flag, inner};
use super::{prefix, saved, saved_after, scratch};
use crate::adjoint::ReverseState;
use crate::rules::linalg::snapshot;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::build_generic;

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
        let (i, j) = element_indices(&mut e);
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
            b.fill(zero, outer);
            call(b, self.p, "ger", &[one, u, v, outer], &[]);
        }
        self.add_masked(b, alpha, outer, da);
        dealloc(b, outer);
    }
}

/// `trmv`/`trmm`: `x = alpha op(T) x` (`alpha x op(T)` from the right;
/// `trmv` has no `alpha`). Tangent `dx = alpha op(T) dx + alpha op(T(dA))
/// x_old + dalpha op(T) x_old`; adjoints `dA += T(alpha G x_old^T)` (see
/// [`Triangle::add_outer`] for the other sides), `dalpha += <G, op(T)
/// x_old>` and `G = alpha op(T)^T G`.
pub(super) fn triangular_product_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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
        b.fill(zero, masked);
        t.add_masked(&mut b, one, da, masked);
        t.call(&mut b, TriangleUse::MaskedProduct, t.alpha, masked, old);
        add_to(&mut b, dx, old);
        dealloc(&mut b, masked);
    }
    dealloc(&mut b, old);
    Ok(())
}

pub(super) fn triangular_product_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
pub(super) fn triangular_solve_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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
        b.fill(zero, masked);
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

pub(super) fn triangular_solve_reverse(s: &mut ReverseState, op: Op) -> Result<(), Error> {
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
