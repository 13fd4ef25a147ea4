//! The routines `out = alpha P(f0, f1) + beta out`, `P` bilinear in the
//! two factors (`gemv`, `symv`, `gemm`, `symm`): their one tangent rule and
//! the part of their adjoint rule they share, and the opening of the
//! adjoint rule of such an update, which `syrk` shares too.

use super::{call, combine, constant_flag, copy_of, dealloc, flag, inner, lookup, prefix};
use super::{saved, scratch};
use crate::adjoint::ReverseState;
use crate::rules::linalg::may_alias;
use crate::rules::linalg::snapshot;
use crate::tangent::FunctionState;
use moonc_ir::Error;
use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Value};

/// What the adjoint rule of a [`ScaledProduct`] routine with `N` flags
/// hands the code that adds its factors' adjoints.
pub(super) struct FactorsReverse<const N: usize> {
    /// The routine's flags (constants).
    pub(super) flags: [bool; N],
    /// `s` or `d`.
    pub(super) p: char,
    /// The two factors (whose shadows get the adjoints).
    pub(super) factors: [Value; 2],
    /// Their contents as the call read them.
    pub(super) values: [Value; 2],
    /// `alpha`'s value.
    pub(super) alpha: Value,
    /// The adjoint of the new `out`.
    pub(super) g: Value,
}

/// Adds the factors' adjoints.
type FactorAdjoints<'a, const N: usize> =
    &'a dyn Fn(&mut ReverseState, FactorsReverse<N>) -> Result<(), Error>;

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
pub(super) fn product_again(
    b: &mut Builder,
    op: Op,
    flags: &[Value],
    [alpha, f0, f1, into]: [Value; 4],
) {
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
pub(super) fn scaled_product_forward(s: &mut FunctionState, op: Op) -> Result<(), Error> {
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
    b.fill(zero, products);
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
/// adjoints by `adjoints` (given the routine's flags, constants named
/// `names` in diagnostics), and `out`'s old contents
/// get `beta G`. The factors (and `out_old`, only when `beta` is active)
/// are copies taken before the call when the function writes them later;
/// when a factor may share `out`'s memory, `G` is copied first.
pub(super) fn scaled_product_reverse<const N: usize>(
    s: &mut ReverseState,
    op: Op,
    names: [&str; N],
    adjoints: FactorAdjoints<N>,
) -> Result<(), Error> {
    let (r, operands) = scaled_product(op)?;
    if !s.activity.is_active(r.out) {
        return Ok(());
    }
    let mut flags = [false; N];
    for (k, what) in names.into_iter().enumerate() {
        flags[k] = constant_flag(op, operands[k], what)?;
    }
    let product = |b: &mut Builder, alpha, f0, f1, into| {
        let flags: Vec<Value> = flags.iter().map(|&f| flag(b, f)).collect();
        product_again(b, op, &flags, [alpha, f0, f1, into]);
    };
    let UpdateReverse {
        g: dout,
        factors: [f0, f1],
        old,
        alpha,
        beta,
    } = update_reverse(s, op, r.out, r.factors, [r.alpha, r.beta])?;
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
        b.fill(zero, into);
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
    let factors = FactorsReverse {
        flags,
        p: prefix(op),
        factors: r.factors,
        values: [f0, f1],
        alpha,
        g,
    };
    adjoints(s, factors)?;
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

/// What the adjoint rule of an update `out = alpha P(factors) + beta out`
/// (a [`ScaledProduct`], `syrk`) reads first.
pub(super) struct UpdateReverse<const F: usize> {
    /// `out`'s shadow: the adjoint of the new `out`.
    pub(super) g: Value,
    /// The factors' contents as the call read them.
    pub(super) factors: [Value; F],
    /// `out`'s old contents, when `beta` has an adjoint.
    pub(super) old: Option<Value>,
    /// `alpha`'s value.
    pub(super) alpha: Value,
    /// `beta`'s value.
    pub(super) beta: Value,
}

/// The opening of the adjoint rule of the update `op`, in this order:
/// `out`'s shadow, the `factors` as the call read them (copies taken
/// before it when the function writes them later), `out`'s old contents
/// when `beta` has an adjoint, and the values of `alpha` and `beta`.
pub(super) fn update_reverse<const F: usize>(
    s: &mut ReverseState,
    op: Op,
    out: Value,
    factors: [Value; F],
    [alpha, beta]: [Value; 2],
) -> Result<UpdateReverse<F>, Error> {
    let g = s.shadow(op, out)?;
    let mut values = factors;
    for value in &mut values {
        *value = saved(s, op, *value)?;
    }
    let old = if s.has_adjoint(beta) {
        Some(snapshot(s, op, out)?)
    } else {
        None
    };
    Ok(UpdateReverse {
        g,
        factors: values,
        old,
        alpha: s.get(alpha)?,
        beta: s.get(beta)?,
    })
}
