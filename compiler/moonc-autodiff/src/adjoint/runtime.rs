//! Calls of moonrt's C functions from generated code, and the index and
//! width conversions around them.

use mlir_sys as sys;
use moonc_ir::ir::{Block, Builder, Op, Region, Type, Value};

/// `value` (an integer or index) as an index.
pub(crate) fn cast_index_from(b: &mut Builder, value: Value) -> Value {
    if value.ty().is_index() {
        value
    } else {
        b.value("arith.index_cast", &[value], b.ctx.index(), &[])
    }
}

/// The index `k` as a value of the integer or index type `ty`.
pub fn cast_index(b: &mut Builder, k: Value, ty: Type) -> Value {
    if ty.is_index() {
        k
    } else {
        b.value("arith.index_cast", &[k], ty, &[])
    }
}

/// The trip count (an index) of `scf.for %i = lb to ub step step`.
pub fn trip_count(b: &mut Builder, lb: Value, ub: Value, step: Value) -> Value {
    let index = b.ctx.index();
    let (lb, ub, step) = (
        cast_index_from(b, lb),
        cast_index_from(b, ub),
        cast_index_from(b, step),
    );
    let span = b.value("arith.subi", &[ub, lb], index, &[]);
    let zero = b.index(0);
    let span = b.value("arith.maxsi", &[span, zero], index, &[]);
    b.value("arith.ceildivsi", &[span, step], index, &[])
}

/// A call of moonrt's `name` with `args`, returning its result if `result`
/// gives its type. The function is declared in the module on first use.
pub fn runtime_call(b: &mut Builder, name: &str, args: &[Value], result: Option<Type>) -> Op {
    let block = Block(
        // SAFETY: the builder's anchor is live, so is its module.
        unsafe { sys::mlirOperationGetBlock(module_of(b)) },
    );
    let declared = block
        .ops()
        .iter()
        .any(|o| o.attr("sym_name").and_then(|a| a.string()).as_deref() == Some(name));
    if !declared {
        let params: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
        let results = result.map(|t| t.to_string()).unwrap_or_default();
        let ty = b
            .ctx
            .attr(&format!("({}) -> ({results})", params.join(", ")));
        Builder::at_end(block, b.loc).private_function(name, ty, Region::new(), &[]);
    }
    let callee = b.ctx.attr(&format!("@{name}"));
    let results: Vec<Type> = result.into_iter().collect();
    b.create("func.call", args, &results, &[("callee", callee)], &[], &[])
}

/// The top-level operation (a function) that contains the builder's anchor.
pub(crate) fn module_of(b: &Builder) -> sys::MlirOperation {
    let mut op = b.anchor_op();
    while let Some(parent) = op.parent() {
        if parent.name() == "builtin.module" {
            return op.0;
        }
        op = parent;
    }
    op.0
}

/// `value` widened to `wide` for the tape (integers and indices to i64).
pub(crate) fn widen(b: &mut Builder, value: Value, wide: Type) -> Value {
    let ty = value.ty();
    if ty == wide {
        value
    } else if ty.is_index() {
        b.value("arith.index_castui", &[value], wide, &[])
    } else {
        b.value("arith.extui", &[value], wide, &[])
    }
}

/// A popped value narrowed back to `ty`.
pub(crate) fn narrow(b: &mut Builder, value: Value, ty: Type) -> Value {
    if value.ty() == ty {
        value
    } else if ty.is_index() {
        b.value("arith.index_castui", &[value], ty, &[])
    } else {
        b.value("arith.trunci", &[value], ty, &[])
    }
}
