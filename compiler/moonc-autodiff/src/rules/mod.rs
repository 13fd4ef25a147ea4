//! Derivative rules as data: one table per dialect, mapping an operation
//! name to its forward (tangent) rule and, beside it, its reverse
//! (adjoint) rule. Element rules are written once: their reverse is the
//! transpose of the forward rule, which is linear in the tangents.
//!
//! Adding an operation is one entry plus its test (see `test/Passes/autodiff`).
//! Calls of moonrt's BLAS routines have their own table, keyed on the
//! routine (`blas.rs`).

use crate::{ir::Op, reverse::ReverseState, tangent::FunctionState};
use moonc_ir::Error;

mod arith;
pub mod blas;
mod cf;
mod func;
mod linalg;
pub(crate) use linalg::{build_generic, may_alias};
mod math;
mod memref;
mod scf;

/// How the tangent of an operation is computed.
#[derive(Clone, Copy)]
pub enum Forward {
    /// The tangent of the (single) result, in the rule language of
    /// [`crate::expr`].
    Expr(&'static str),
    /// The result is piecewise constant: its tangent is zero.
    Zero,
    /// The results carry no derivative (comparisons, float-to-int casts,
    /// shape queries), though operands may be active.
    Inactive,
    /// Structural operations (control flow, memory, calls) transform
    /// themselves, their regions and their shadows.
    Custom(fn(&mut FunctionState, Op) -> Result<(), Error>),
}

/// How the adjoints of an operation's operands are computed from the
/// adjoints of its results.
#[derive(Clone, Copy)]
pub enum Reverse {
    /// Transpose the forward [`Forward::Expr`]: the adjoint of operand i is
    /// the forward rule evaluated with `dxi` = the result's adjoint and the
    /// other tangents zero.
    Transpose,
    /// No adjoint flows to the operands (piecewise constant or inactive
    /// results, views, deallocation, terminators handled by their parent).
    Nothing,
    /// Structural operations reverse themselves and their regions.
    Custom(fn(&mut ReverseState, Op) -> Result<(), Error>),
}

/// The derivative rule of one operation.
#[derive(Clone, Copy)]
pub struct Rule {
    /// The operation's name, e.g. `math.sin`.
    pub op: &'static str,
    pub forward: Forward,
    pub reverse: Reverse,
}

/// The forward rule of terminators (`scf.yield`, `linalg.yield`, …), which
/// the operation owning them extends with tangents (in reverse mode the
/// owner seeds their operands' adjoints: [`Reverse::Nothing`]).
fn owned_by_parent(_: &mut FunctionState, _: Op) -> Result<(), Error> {
    Ok(())
}

/// Every table, one per dialect.
const TABLES: &[&[Rule]] = &[
    arith::RULES,
    math::RULES,
    scf::RULES,
    cf::RULES,
    memref::RULES,
    func::RULES,
    linalg::RULES,
];

/// The rule for the operation called `name`.
pub fn lookup(name: &str) -> Option<Rule> {
    TABLES
        .iter()
        .flat_map(|table| table.iter())
        .find(|rule| rule.op == name)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_expression_parses_and_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for rule in TABLES.iter().flat_map(|t| t.iter()) {
            assert!(seen.insert(rule.op), "two rules for {}", rule.op);
            if let Forward::Expr(text) = rule.forward {
                crate::expr::parse(text);
            }
        }
    }
}
