//! Inlining small helper functions into a function about to be
//! differentiated (forward or reverse mode), then turning the helpers'
//! stack arrays into values.
//!
//! A call reversed through a split pair tapes every load of memory that
//! may be written on moonrt's LIFO tape, one runtime call per value, since
//! its caller may write that memory between the two halves. Inlined, the
//! same loads tape into buffers (or are read again when their memory no
//! longer changes) and the caller's loops see the callee's: GradBench's
//! `ode` written with a helper per right-hand side took 55 ms for its
//! gradient through split pairs and 14 ms inlined (n = 10,000, s = 100).

use crate::{request::Differentiator, rules::blas, stack_arrays::unroll_stack_array_loops};
use mlir_sys as sys;
use moonc_ir::{
    Error,
    ir::{Builder, Op, Value, error_at, run_passes},
};
use std::collections::HashMap;

/// How many times calls inlined at the top level are followed into the
/// calls they hold.
const INLINE_DEPTH: usize = 4;

/// Shapes `function` before it is differentiated, in either mode: inlines
/// its small helpers ([`inline_small_calls`]), unrolls the short loops over
/// its stack arrays (`stack_arrays.rs`), then, when either changed it,
/// [`simplify`]s it.
pub(crate) fn inline_helpers(diff: &Differentiator, function: Op) -> Result<(), Error> {
    let inlined = inline_small_calls(diff, function, diff.settings.inline_max_ops);
    if unroll_stack_array_loops(function) || inlined {
        simplify(function)?;
    }
    Ok(())
}

/// Inlines into `function` the calls of small functions (at most `max_ops`
/// operations, the functions they call included; one block each; no
/// derivative requests, custom rules or recursion): inside loops, those
/// that allocate nothing but stack arrays of static shape, themselves or in
/// what they call (the reverse sweep cannot keep a buffer allocated in a
/// loop; SROA and mem2reg turn such arrays into values after inlining); at
/// the function's top level, also those that allocate at their own top
/// level (an objective calling the primal it differentiates). The calls an inlined body holds
/// are considered in turn. Returns whether any call was inlined.
fn inline_small_calls(diff: &Differentiator, function: Op, max_ops: usize) -> bool {
    let body = function.regions()[0].entry().expect("a body");
    let mut inlined = false;
    for _ in 0..INLINE_DEPTH {
        let mut changed = false;
        for call in function.walk() {
            let Some(f) = inlinable_callee(diff, call) else {
                continue;
            };
            let top = call.block() == body;
            if size(diff, f, top, &mut vec![]).is_some_and(|n| n <= max_ops) {
                inline(call, f);
                changed = true;
            }
        }
        inlined |= changed;
        if !changed {
            break;
        }
    }
    inlined
}

/// The function a `func.call` calls, when it has a body of one block that
/// inlining may replace (no custom rule, not a BLAS routine).
fn inlinable_callee(diff: &Differentiator, call: Op) -> Option<Op> {
    if call.name() != "func.call" {
        return None;
    }
    let callee = call.attr("callee")?.string()?;
    if blas::lookup(&callee).is_some()
        || diff.custom_vjp(&callee).is_some()
        || diff.custom_rule(&callee).is_some()
    {
        return None;
    }
    let f = diff.function(&callee)?;
    let region = f.regions()[0];
    (region.blocks().len() == 1).then_some(f)
}

/// The operations of `f` and of the functions it calls, or `None` when it
/// cannot be inlined whole: a call it cannot inline, recursion (`path`
/// holds the functions being sized), a derivative request, or an
/// allocation other than at `f`'s own top level when `top`.
fn size(diff: &Differentiator, f: Op, top: bool, path: &mut Vec<Op>) -> Option<usize> {
    if path.contains(&f) {
        return None;
    }
    let entry = f.regions()[0].entry()?;
    path.push(f);
    let mut total = 0;
    for o in f.walk() {
        let name = o.name();
        total += 1;
        if name.starts_with("moon.") {
            return None;
        }
        // A stack array of a helper called in a loop is left to SROA and
        // mem2reg, which run after inlining (C's `double proj[2]`).
        let allocation = matches!(
            name.as_str(),
            "memref.alloc" | "memref.dealloc" | "memref.alloca_scope"
        ) || name == "memref.alloca"
            && !o.result(0).ty().shape().iter().all(Option::is_some);
        if allocation && !(top && o.block() == entry) {
            return None;
        }
        if name == "func.call" {
            let callee = inlinable_callee(diff, o)?;
            total += size(diff, callee, false, path)?;
        }
    }
    path.pop();
    Some(total)
}

/// Replaces `call` by a copy of the body of the function `f`.
fn inline(call: Op, f: Op) {
    let body = f.regions()[0].entry().expect("a body");
    let mut mapping: HashMap<Value, Value> = body.args().into_iter().zip(call.operands()).collect();
    let ops = body.ops();
    let (ret, ops) = ops.split_last().expect("a return");
    let mut b = Builder::before(call);
    for &op in ops {
        let clone = b.insert(op.clone_detached());
        rename_operands(clone, &mapping);
        mapping.extend(op.results().into_iter().zip(clone.results()));
    }
    for (result, v) in call.results().into_iter().zip(ret.operands()) {
        result.replace_uses(*mapping.get(&v).unwrap_or(&v));
    }
    call.erase();
}

/// Renames by `mapping` the operands of `op` and of the operations nested
/// in it (a copy's uses of values from outside it, such as a callee's
/// arguments).
pub(crate) fn rename_operands(op: Op, mapping: &HashMap<Value, Value>) {
    for o in std::iter::once(op).chain(op.walk()) {
        let operands = o.operands();
        if operands.iter().any(|v| mapping.contains_key(v)) {
            let renamed: Vec<Value> = operands
                .iter()
                .map(|v| *mapping.get(v).unwrap_or(v))
                .collect();
            o.set_operands(&renamed);
        }
    }
}

/// After inlining into `function`: the helpers' small stack arrays that
/// are indexed by constants only become values (SROA, mem2reg); common
/// subexpressions are merged and loop invariants hoisted (an inlined helper's `memref.dim`
/// inside a loop would hide the loop's trip count from tape buffers sized
/// before the loop).
fn simplify(function: Op) -> Result<(), Error> {
    // SAFETY: creating a pass has no preconditions.
    let passes = unsafe {
        [
            sys::mlirCreateTransformsSROA(),
            sys::mlirCreateTransformsMem2Reg(),
            sys::mlirCreateTransformsCSE(),
            sys::mlirCreateTransformsLoopInvariantCodeMotion(),
        ]
    };
    run_passes(function, "func.func", &passes).map_err(|_| {
        error_at(
            function,
            "cannot simplify this function after inlining its helpers",
        )
    })
}
