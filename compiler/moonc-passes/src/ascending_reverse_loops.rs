//! `--moon-ascending-reverse-loops`: runs the innermost reverse-sweep loops
//! whose iterations are independent in ascending memory order.
//!
//! Reverse mode visits a loop's iterations backwards, so its loops walk
//! memory from the last element down. When no iteration depends on
//! another (each touches its own elements of the buffers it writes, and
//! sums into one place only with `fastmath<reassoc>`), the order is free:
//! LLVM then vectorizes the loop without reversing its lanes, and the
//! hardware's prefetchers follow ascending streams best. The reverse of
//! GradBench gmm's `Qtimesx` triangle is the case measured
//! (`bench/results/suite-ab.txt`).

use crate::fuse_adjoint_loops::linear;
use crate::memory::{fresh, root};
use moonc_autodiff::{DISTINCT_ARGS, REVERSE_LOOP, rules::written_operands};
use moonc_ir::ir::{Block, Builder, Op, Value};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::HashSet;

/// The registration of `--moon-ascending-reverse-loops`.
pub static ASCENDING_REVERSE_LOOPS: PassInfo = PassInfo {
    argument: "moon-ascending-reverse-loops",
    summary: "Run the reverse sweep's innermost loops of independent iterations in ascending order",
    description: r#"
Reverses the iteration order of every innermost `scf.for` from 0 by 1
that reverse mode made (attribute `moon.reverse`, no results) whose
iterations are independent, so that it walks memory upwards: the
induction variable's uses become `ub - 1 - %i`, which LLVM folds with the
`ub - 1 - %r` the body computed. The iterations are independent when the
body holds only loads, stores and arith/math operations and every buffer
it stores to is

- accessed only at one list of indices, the same values for every load and
  store of it, one of which changes by a nonzero multiple of the induction
  variable (each iteration its own element), or
- a sum: each store stores an `arith.addf` with `reassoc` (or `fast`) of a
  load of the same element used only there, and nothing else loads it;

and does not overlap another buffer the loop accesses: it is allocated in
the function, or the function's arguments are distinct
(`moon.distinct_args`), or it is an argument and every other argument the
loop accesses is one the function never writes (itself or through the
calls it makes). The last case takes a shadow to be apart from the
primal buffers, as reverse mode already does: it reads a buffer the
function never writes again in the reverse sweep, after writing the
shadows. A sum then adds its terms in another order: a derivative may
change in its last bits. `moon-cpu-pipeline` runs it after
`moon-contract-adjoints`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "ascending",
        description: "1 to reverse the qualifying loops, 0 to turn the pass off",
        default: 1,
    }],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    if options.get("ascending") == 0 {
        return pass::unchanged();
    }
    let mut reversed = 0;
    for l in module.walk() {
        if l.name() == "scf.for" && l.attr(REVERSE_LOOP).is_some() && independent(l) {
            reverse(l);
            reversed += 1;
        }
    }
    if reversed == 0 {
        return pass::unchanged();
    }
    tracing::debug!(target: "moonc_passes", reversed, "reverse loops run ascending");
    Ok(())
}

/// Whether the iterations of the `scf.for` `l` are independent (see the
/// pass's description).
fn independent(l: Op) -> bool {
    let operands = l.operands();
    if operands.len() != 3
        || operands[0].index_constant() != Some(0)
        || operands[2].index_constant() != Some(1)
    {
        return false;
    }
    let Some(body) = l.regions()[0].entry() else {
        return false;
    };
    let iv = body.args()[0];
    let ops = body.ops();
    let simple = ops.iter().all(|op| {
        let name = op.name();
        op.regions().is_empty()
            && (name.starts_with("arith.")
                || name.starts_with("math.")
                || matches!(name.as_str(), "memref.load" | "memref.store")
                || name == "scf.yield" && op.operands().is_empty())
    });
    if !simple {
        return false;
    }
    let access = |op: &Op| -> Option<(Value, Vec<Value>)> {
        match op.name().as_str() {
            "memref.load" => Some((op.operand(0), op.operands()[1..].to_vec())),
            "memref.store" => Some((op.operand(1), op.operands()[2..].to_vec())),
            _ => None,
        }
    };
    let written: HashSet<Value> = ops
        .iter()
        .filter(|op| op.name() == "memref.store")
        .map(|op| root(op.operand(1)))
        .collect();
    let accessed: HashSet<Value> = ops
        .iter()
        .filter_map(|op| access(op).map(|(m, _)| root(m)))
        .collect();
    let function = l.enclosing_function();
    for &r in &written {
        let uses: Vec<(Op, Value, Vec<Value>)> = ops
            .iter()
            .filter_map(|op| access(op).map(|(m, ix)| (*op, m, ix)))
            .filter(|(_, m, _)| root(*m) == r)
            .collect();
        let own_element = uses
            .windows(2)
            .all(|w| w[0].1 == w[1].1 && w[0].2 == w[1].2)
            && uses[0]
                .2
                .iter()
                .any(|&ix| linear(ix, iv, body).is_some_and(|c| c.coefficient(iv) != 0));
        if !own_element && !sum(&uses, body) {
            return false;
        }
        if !fresh(r) && !arguments_apart(r, &accessed, function) {
            return false;
        }
    }
    true
}

/// Whether the accesses `uses` of one buffer in the loop body `body` only
/// sum into it: every store stores an `addf` with `reassoc` of a load of
/// the same element used only by that addition, and no other load.
fn sum(uses: &[(Op, Value, Vec<Value>)], body: Block) -> bool {
    let mut loads = HashSet::new();
    for (op, m, ix) in uses.iter().filter(|(op, ..)| op.name() == "memref.store") {
        let Some(add) = op.operand(0).defining_op() else {
            return false;
        };
        let reassoc = add
            .attr("fastmath")
            .map(|a| a.to_string())
            .is_some_and(|f| f.contains("reassoc") || f.contains("fast>"));
        if add.name() != "arith.addf" || !reassoc || add.block() != body {
            return false;
        }
        let load = add.operands().into_iter().find_map(|v| {
            let d = v.defining_op()?;
            (d.name() == "memref.load"
                && d.operand(0) == *m
                && d.operands()[1..] == ix[..]
                && v.users().len() == 1)
                .then_some(d)
        });
        match load {
            Some(load) => loads.insert(load),
            None => return false,
        };
    }
    uses.iter()
        .filter(|(op, ..)| op.name() == "memref.load")
        .all(|(op, ..)| loads.contains(op))
}

/// Whether the argument buffer `r`, written by the loop, cannot overlap the
/// other buffers it accesses: they are allocations, or arguments the
/// function never writes, or the function's arguments are distinct.
fn arguments_apart(r: Value, accessed: &HashSet<Value>, function: Option<Op>) -> bool {
    let Some(function) = function else {
        return false;
    };
    if r.defining_op().is_some() {
        return false;
    }
    if function.attr(DISTINCT_ARGS).is_some() {
        return true;
    }
    let written = written_roots(function, CALL_DEPTH);
    accessed
        .iter()
        .all(|&other| other == r || fresh(other) || !written.contains(&other))
}

/// How deep [`written_roots`] follows calls.
pub(crate) const CALL_DEPTH: u32 = 8;

/// The buffers `function` may write (roots), following calls of functions
/// of its module with bodies `depth` calls deep (a call beyond, or of a
/// declaration, may write every memref it is passed).
pub(crate) fn written_roots(function: Op, depth: u32) -> HashSet<Value> {
    let mut written = HashSet::new();
    for op in function.walk() {
        let callee = (op.name() == "func.call" && depth > 0)
            .then(|| callee_body(op))
            .flatten();
        match callee {
            Some(callee) => {
                let inner = written_roots(callee, depth - 1);
                let args = callee.regions()[0].entry().expect("a body").args();
                for (operand, arg) in op.operands().into_iter().zip(args) {
                    if inner.contains(&arg) {
                        written.insert(root(operand));
                    }
                }
            }
            None => written.extend(written_operands(op).into_iter().map(root)),
        }
    }
    written
}

/// The function with a body that the `func.call` `call` calls, if its
/// module defines one.
fn callee_body(call: Op) -> Option<Op> {
    let name = call.attr("callee")?.string()?;
    let mut module = call.enclosing_function()?;
    while module.name() != "builtin.module" {
        module = module.block().parent_op();
    }
    module.regions()[0].entry()?.ops().into_iter().find(|f| {
        f.name() == "func.func"
            && f.attr("sym_name").and_then(|a| a.string()).as_deref() == Some(name.as_str())
            && f.regions()[0].entry().is_some()
    })
}

/// Runs the loop `l` (from 0 by 1 to `ub`) backwards: its induction
/// variable's uses become `ub - 1 - %i`.
fn reverse(l: Op) {
    let body = l.regions()[0].entry().expect("a loop body");
    let iv = body.args()[0];
    let uses = iv.users();
    let first = body.ops()[0];
    let mut b = Builder::before(first);
    let index = b.ctx.index();
    let one = b.index(1);
    let last = b.value("arith.subi", &[l.operand(1), one], index, &[]);
    let flipped = b.value("arith.subi", &[last, iv], index, &[]);
    for user in uses {
        user.replace_operand(iv, flipped);
    }
}
