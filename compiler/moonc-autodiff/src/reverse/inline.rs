//! Inlining small helper functions into a function about to be reversed.
//!
//! A call reversed through a split pair tapes every load of memory that
//! may be written on moonrt's LIFO tape, one runtime call per value, since
//! its caller may write that memory between the two halves. Inlined, the
//! same loads tape into buffers (or are read again when their memory no
//! longer changes) and the caller's loops see the callee's: GradBench's
//! `ode` written with a helper per right-hand side took 55 ms for its
//! gradient through split pairs and 14 ms inlined (n = 10,000, s = 100).

use crate::{request::Differentiator, rules::blas};
use moonc_ir::ir::{Builder, Op, Value};
use std::collections::HashMap;

/// Inlines into `function` the calls of small leaf functions: defined, with
/// one block, at most `max_ops` operations, no calls, no
/// derivative requests, no allocations (the reverse sweep cannot keep a
/// buffer allocated in a loop) and no custom rule. Returns whether any call
/// was inlined.
pub(crate) fn inline_small_calls(diff: &Differentiator, function: Op, max_ops: usize) -> bool {
    let mut inlined = false;
    for call in function.walk() {
        if call.name() != "func.call" {
            continue;
        }
        let Some(callee) = call.attr("callee").and_then(|a| a.string()) else {
            continue;
        };
        if blas::lookup(&callee).is_some()
            || diff.custom_vjp(&callee).is_some()
            || diff.custom_rule(&callee).is_some()
        {
            continue;
        }
        let Some(body) = diff.function(&callee).filter(|&f| inlinable(f, max_ops)) else {
            continue;
        };
        inline(call, body);
        inlined = true;
    }
    inlined
}

/// Whether the function `f` is small (at most `max_ops` operations), a
/// leaf and allocation-free.
fn inlinable(f: Op, max_ops: usize) -> bool {
    let region = f.regions()[0];
    if region.blocks().len() != 1 {
        return false;
    }
    let ops = f.walk();
    ops.len() <= max_ops
        && ops.iter().all(|o| {
            let name = o.name();
            name != "func.call"
                && !name.starts_with("moon.")
                && !matches!(
                    name.as_str(),
                    "memref.alloc" | "memref.alloca" | "memref.dealloc" | "memref.alloca_scope"
                )
        })
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
        // Operands of the copy and of the operations nested in it that
        // name the callee's arguments or earlier results.
        for o in std::iter::once(clone).chain(clone.walk()) {
            let operands = o.operands();
            if operands.iter().any(|v| mapping.contains_key(v)) {
                let renamed: Vec<Value> = operands
                    .iter()
                    .map(|v| *mapping.get(v).unwrap_or(v))
                    .collect();
                o.set_operands(&renamed);
            }
        }
        mapping.extend(op.results().into_iter().zip(clone.results()));
    }
    for (result, v) in call.results().into_iter().zip(ret.operands()) {
        result.replace_uses(*mapping.get(&v).unwrap_or(&v));
    }
    call.erase();
}
