//! One triangle of a square matrix: elementwise generics that depend on
//! the position (below, on or above the diagonal), the lower view of a
//! triangle stored either way, the fold of a symmetric matrix's adjoint
//! onto the triangle it is read from, and products and solves with a
//! triangular factor (Cholesky's, or LU's packed ones).

use super::{as_strided, call, elementwise, flag};
use moonc_ir::ir::{Builder, Value};
use moonc_ir::linalg::build_generic;

/// Builds an element from (below, diagonal, inputs, old element).
type AtPosition<'a> = &'a dyn Fn(&mut Builder, Value, Value, &[Value], Value) -> Value;

/// `into[i, j] = f(below, diagonal, ins, into[i, j])` over a square 2-D
/// memref, `below` and `diagonal` the `i1`s `i > j` and `i == j`, and each
/// input read at `[i, j]`, or at `[j, i]` when marked transposed (a scalar
/// input as it is).
pub(super) fn by_position(b: &mut Builder, into: Value, ins: &[(Value, bool)], f: AtPosition) {
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
    let (i, j) = element_indices(&mut e);
    let i1 = e.ctx.ty("i1");
    let (ugt, eq) = (e.ctx.attr("8 : i64"), e.ctx.attr("0 : i64"));
    let below = e.value("arith.cmpi", &[i, j], i1, &[("predicate", ugt)]);
    let diagonal = e.value("arith.cmpi", &[i, j], i1, &[("predicate", eq)]);
    let value = f(&mut e, below, diagonal, &args[..ins.len()], args[ins.len()]);
    yield_.set_operands(&[value]);
}

/// The indices `(i, j)` of the element a 2-D `linalg.generic`'s body,
/// built with `e`, works on.
pub(super) fn element_indices(e: &mut Builder) -> (Value, Value) {
    let index = e.ctx.index();
    let dim = |e: &mut Builder, d: i64| {
        let attr = e.ctx.attr(&format!("{d} : i64"));
        e.value("linalg.index", &[], index, &[("dim", attr)])
    };
    (dim(e, 0), dim(e, 1))
}

/// `into = tril(x)`: the lower triangle with the diagonal, zero above.
pub(super) fn lower_part(b: &mut Builder, x: Value, into: Value) {
    by_position(b, into, &[(x, false)], &|e, below, diagonal, ins, _| {
        let inside = e.value("arith.ori", &[below, diagonal], below.ty(), &[]);
        let zero = e.float(ins[0].ty(), 0.0);
        e.value("arith.select", &[inside, ins[0], zero], ins[0].ty(), &[])
    });
}

/// The lower-triangle view of a Cholesky factor stored in `a`: `a` itself
/// for the lower factor, its transpose for the upper one (`A = U^T U =
/// L L^T` with `L = U^T`), as the routines' strided type.
pub(super) fn lower_view(b: &mut Builder, a: Value, lower: bool) -> Value {
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

/// `into += fold(m)` on the lower triangle of the square `into` (a
/// [`lower_view`]): `m[i, j] + m[j, i]` below the diagonal and `m[i, i]`
/// on it, the adjoint of the triangle a symmetric matrix is read from,
/// given the adjoint `m` of the whole matrix.
pub(super) fn add_folded(b: &mut Builder, into: Value, m: Value) {
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

/// A triangular factor for [`with_factor`]: the matrix it is stored in and
/// which triangle it is.
#[derive(Clone, Copy)]
pub(super) struct Factor {
    a: Value,
    lower: bool,
    unit: bool,
}

impl Factor {
    /// The lower factor of a Cholesky factorization.
    pub(super) fn cholesky(l: Value) -> Factor {
        Factor {
            a: l,
            lower: true,
            unit: false,
        }
    }

    /// The unit lower (`L`) or the upper (`U`) factor of packed `getrf`
    /// factors.
    pub(super) fn lu(lu: Value, upper: bool) -> Factor {
        Factor {
            a: lu,
            lower: !upper,
            unit: !upper,
        }
    }
}

/// Calls `trsm` or `trmm` (`routine`) with the factor `f` on `x`: `x =
/// op(F)^{-1} x` or `op(F) x`, from the `right` when asked.
pub(super) fn with_factor(
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
