//! Derivative rules as data: one table per dialect, mapping an operation
//! name to its forward (tangent) rule and, beside it, its reverse
//! (adjoint) rule. Element rules are written once: their reverse is the
//! transpose of the forward rule, which is linear in the tangents.
//!
//! Adding an operation is one entry plus its test (see `test/Passes/autodiff`).
//! Calls of moonrt's BLAS routines have their own table, keyed on the
//! routine (`blas/`).

use crate::{
    activity::{VIEW_OPS, root},
    adjoint::{ReverseState, WRITES},
    request::Differentiator,
    tangent::FunctionState,
};
use moonc_ir::Error;
use moonc_ir::{
    ir::{Op, Value, error_at},
    linalg::split_ins_outs,
};
use std::collections::{HashMap, HashSet};

mod arith;
pub mod blas;
mod cf;
mod func;
mod linalg;
pub(crate) use linalg::{may_alias, reducing_iterators};
pub(crate) use moonc_ir::linalg::build_generic;
mod math;
mod memref;
pub mod ndual;
mod scf;
mod select_loop;

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

/// `rule`, what [`lookup`] found for `op`, or the located error that `op`
/// has no rule.
pub fn or_missing(rule: Option<Rule>, op: Op) -> Result<Rule, Error> {
    rule.ok_or_else(|| {
        error_at(
            op,
            &format!(
                "no derivative rule for `{}`; attach a custom rule (moon.custom_rule)",
                op.name()
            ),
        )
    })
}

/// The memref operands `op` itself may write (not its nested operations).
pub fn written_operands(op: Op) -> Vec<Value> {
    let name = op.name();
    let operands = op.operands();
    let foreign = (name == "func.call")
        .then(|| op.attr("callee").and_then(|a| a.string()))
        .flatten()
        .and_then(|callee| blas::lookup(&callee));
    let targets: Vec<Value> = match name.as_str() {
        _ if foreign.is_some() => {
            let writes = foreign.map_or(&[][..], |rule| rule.writes);
            writes.iter().map(|&i| operands[i]).collect()
        }
        "func.call" if op.attr(WRITES).is_some() => op
            .int_array(WRITES)
            .into_iter()
            .map(|i| operands[i as usize])
            .collect(),
        "memref.load"
        | "memref.dim"
        | "memref.dealloc"
        | "memref.rank"
        | "memref.extract_strided_metadata" => vec![],
        "memref.store" => vec![operands[1]],
        "memref.copy" => vec![operands[1]],
        _ if VIEW_OPS.contains(&name.as_str()) => vec![],
        _ if name.starts_with("linalg.") => {
            let (ins, _) = split_ins_outs(op);
            operands[ins..].to_vec()
        }
        _ => operands,
    };
    targets.into_iter().filter(|t| t.ty().is_memref()).collect()
}

/// What the calls of a module's functions may write: for each function
/// with a body, the positions of the memref arguments it may write, itself
/// or through what it calls.
pub struct Writes {
    arguments: HashMap<String, Vec<usize>>,
}

impl Writes {
    /// The writes of `diff`'s functions: a fixpoint over the call graph,
    /// starting from none and adding the arguments the body's writes reach
    /// (a call of a function without a body, or of a BLAS routine, writes
    /// what [`written_operands`] says). Generated functions are user
    /// functions' copies, named apart, so a name maps to one body.
    pub fn of(diff: &Differentiator) -> Writes {
        let bodies: Vec<(String, Op)> = diff
            .functions()
            .filter(|(_, f)| f.regions()[0].entry().is_some())
            .map(|(n, f)| (n.clone(), f))
            .collect();
        let mut writes = Writes {
            arguments: bodies.iter().map(|(n, _)| (n.clone(), vec![])).collect(),
        };
        loop {
            let mut changed = false;
            for (name, f) in &bodies {
                let args = f.regions()[0].entry().expect("a body").args();
                let roots: HashSet<Value> = f
                    .walk()
                    .into_iter()
                    .flat_map(|op| writes.by(op))
                    .map(root)
                    .collect();
                let positions: Vec<usize> = (0..args.len())
                    .filter(|&i| roots.contains(&args[i]))
                    .collect();
                let entry = writes.arguments.get_mut(name).expect("a function");
                if *entry != positions {
                    *entry = positions;
                    changed = true;
                }
            }
            if !changed {
                return writes;
            }
        }
    }

    /// The buffers `op` may write: for a call of a function with a body, the
    /// operands that function may write; otherwise [`written_operands`].
    pub fn by(&self, op: Op) -> Vec<Value> {
        let callee = (op.name() == "func.call" && op.attr(WRITES).is_none())
            .then(|| op.attr("callee").and_then(|a| a.string()))
            .flatten();
        match callee.and_then(|c| self.arguments.get(&c)) {
            Some(positions) => positions.iter().map(|&i| op.operand(i)).collect(),
            None => written_operands(op),
        }
    }
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
