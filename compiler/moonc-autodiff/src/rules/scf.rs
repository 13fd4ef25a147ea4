//! Derivative rules of the `scf` dialect: loops carry the tangents of their
//! active iteration values as extra iteration values, `if` and
//! `execute_region` yield them as extra results.

use super::{Forward::Custom, Rule};
use crate::{
    forward::{FunctionState, error_at},
    ir::{Attr, Block, Builder, Op, Type, Value},
};
use moonc_ir::Error;

pub const RULES: &[Rule] = &[
    Rule {
        op: "scf.for",
        forward: Custom(for_),
    },
    Rule {
        op: "scf.while",
        forward: Custom(while_),
    },
    Rule {
        op: "scf.if",
        forward: Custom(with_yields),
    },
    Rule {
        op: "scf.execute_region",
        forward: Custom(with_yields),
    },
    Rule {
        op: "scf.index_switch",
        forward: Custom(with_yields),
    },
    Rule {
        op: "scf.parallel",
        forward: Custom(parallel),
    },
    // Terminators are extended by the operations that own them.
    Rule {
        op: "scf.yield",
        forward: Custom(super::owned_by_parent),
    },
    Rule {
        op: "scf.condition",
        forward: Custom(super::owned_by_parent),
    },
    Rule {
        op: "scf.reduce",
        forward: Custom(super::owned_by_parent),
    },
];

/// The positions of `values` that are active.
fn active_positions(s: &FunctionState, values: &[Value]) -> Vec<usize> {
    (0..values.len())
        .filter(|&i| s.is_active(values[i]))
        .collect()
}

/// Appends to `terminator`'s operands the tangents of its operands at
/// `positions` (after skipping `skip` leading operands, e.g. a condition).
fn extend_terminator(s: &mut FunctionState, terminator: Op, skip: usize, positions: &[usize]) {
    let mut operands = terminator.operands();
    let mut b = Builder::before(terminator);
    let tangents: Vec<Value> = positions
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[skip + i]))
        .collect();
    operands.extend(tangents);
    terminator.set_operands(&operands);
}

/// The result types of `op` followed by the tangent types of those at
/// `active`.
fn widened_results(s: &FunctionState, op: Op, active: &[usize]) -> Vec<Type> {
    let results = op.results();
    let mut types: Vec<Type> = results.iter().map(|r| r.ty()).collect();
    types.extend(active.iter().map(|&i| s.tangent_type(results[i].ty())));
    types
}

/// Rebuilds `op` with `operands`, its results widened by the tangents at
/// `active`, and its regions moved over.
fn rebuild(s: &mut FunctionState, op: Op, operands: &[Value], active: &[usize]) {
    let types = widened_results(s, op, active);
    let regions = op.regions();
    let attrs = op.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let new = Builder::before(op).create(&op.name(), operands, &types, &attrs, &regions, &[]);
    s.replace_rebuilt(op, new, active);
}

/// Active memrefs cannot be carried: their shadows would need to be too.
fn reject_memrefs(op: Op, values: &[Value], active: &[usize]) -> Result<(), Error> {
    if active.iter().any(|&i| values[i].ty().is_memref()) {
        return Err(error_at(
            op,
            "memrefs carried through loop values or yields cannot be differentiated yet; \
             pass them to the loop from outside instead",
        ));
    }
    Ok(())
}

fn for_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let body = op.regions()[0].entry().expect("scf.for has a body");
    let results = op.results();
    let active = active_positions(s, &results);
    reject_memrefs(op, &results, &active)?;
    let carried: Vec<usize> = active.iter().map(|i| i + 1).collect();
    s.add_tangent_args(body, &carried);
    s.transform_block(body)?;
    if active.is_empty() {
        return Ok(());
    }
    extend_terminator(s, body.terminator().expect("a yield"), 0, &active);
    let mut operands = op.operands();
    let mut b = Builder::before(op);
    let inits: Vec<Value> = active
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[3 + i]))
        .collect();
    operands.extend(inits);
    rebuild(s, op, &operands, &active);
    Ok(())
}

fn while_(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let regions = op.regions();
    let before = regions[0].entry().expect("scf.while has a before region");
    let after = regions[1].entry().expect("scf.while has an after region");
    let active_before = active_positions(s, &before.args());
    let active_after = active_positions(s, &after.args());
    reject_memrefs(op, &before.args(), &active_before)?;
    reject_memrefs(op, &after.args(), &active_after)?;
    s.add_tangent_args(before, &active_before);
    s.add_tangent_args(after, &active_after);
    s.transform_region(regions[0])?;
    s.transform_region(regions[1])?;
    if active_before.is_empty() && active_after.is_empty() {
        return Ok(());
    }
    extend_terminator(
        s,
        before.terminator().expect("scf.condition"),
        1,
        &active_after,
    );
    extend_terminator(s, after.terminator().expect("scf.yield"), 0, &active_before);
    let mut operands = op.operands();
    let mut b = Builder::before(op);
    let inits: Vec<Value> = active_before
        .iter()
        .map(|&i| s.tangent_or_zero(&mut b, operands[i]))
        .collect();
    operands.extend(inits);
    rebuild(s, op, &operands, &active_after);
    Ok(())
}

/// `scf.if`, `scf.execute_region` and `scf.index_switch`: results come
/// from the `scf.yield`s of the regions.
fn with_yields(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    let results = op.results();
    let active = active_positions(s, &results);
    reject_memrefs(op, &results, &active)?;
    for region in op.regions() {
        s.transform_region(region)?;
    }
    if active.is_empty() {
        return Ok(());
    }
    let yields: Vec<Block> = op
        .regions()
        .iter()
        .flat_map(|r| r.blocks())
        .filter(|b| b.terminator().is_some_and(|t| t.name() == "scf.yield"))
        .collect();
    for block in yields {
        extend_terminator(s, block.terminator().expect("a yield"), 0, &active);
    }
    let operands = op.operands();
    rebuild(s, op, &operands, &active);
    Ok(())
}

fn parallel(s: &mut FunctionState, op: Op) -> Result<(), Error> {
    if op.results().iter().any(|&r| s.is_active(r)) {
        return Err(error_at(
            op,
            "active reductions of scf.parallel are not supported yet; reduce with scf.for",
        ));
    }
    s.transform_region(op.regions()[0])
}
