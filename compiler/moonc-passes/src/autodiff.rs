//! `--moon-autodiff`: replaces every `moon.jvp`, `moon.vjp`, `moon.grad`
//! and `moon.value_and_grad` with a call to a generated tangent or adjoint
//! function (see `moonc-autodiff`).

use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo, PassOption},
};

/// The registration of `--moon-autodiff`.
pub static AUTODIFF: PassInfo = PassInfo {
    argument: "moon-autodiff",
    summary: "Differentiate: replace moon.jvp/vjp/grad/value_and_grad with calls to generated functions",
    description: r#"
Functions on tensors are first bufferized (see `--moon-bufferize`), then
`moon.vmap` is expanded into batched functions (see `--moon-vmap`),
`moon.hvp` rewritten as `moon.jvp` of a function that computes
the gradient with `moon.vjp` (see `--moon-hvp-to-jvp`), and `moon.grad`
and `moon.value_and_grad` as `moon.vjp` (see `--moon-grad-to-vjp`).

**Forward mode.** Every `moon.jvp @f(...)` becomes a call to a generated
private tangent function, one per (function, activities, width), named
`@f_jvp_<argument activities>_<result activities>[_w<width>]` with one
letter per activity (`c`onst, `a`ctive, `n` active_noneed, `d`up,
`u` dup_noneed). Calls inside `@f` get tangent functions of their own
(recursion works); a function with a `moon.custom_rule` is not
differentiated through: its `jvp` function is called instead.

Inside a tangent function every active value (one that depends on an
active input; see the activity analysis in `moonc-autodiff`) has its
tangent computed right after it by the rule of its operation, taken from
one table per dialect (`compiler/moonc-autodiff/src/rules/`). Active
memrefs have shadow buffers: loads read them, stores write them, views
view them. Loops carry tangents as extra iteration values and branches
pass them as extra block arguments. With `width N` tangents are
`vector<Nx...>` and shadows get a leading dimension of N. Unused tangents
and primal work that only fed `*_noneed` results are removed.

**Reverse mode.** Every `moon.vjp @f(...)` becomes a call to a generated
private adjoint function `@f_vjp_<argument activities>_<result
activities>`, taking the arguments, the shadows of `dup` arguments and the
cotangents of the active results, and returning the kept results and the
adjoints of the `active` arguments. Its body is the primal code (the
forward sweep) followed by the reverse sweep, which visits operations
backwards and adds their operands' adjoints by the transpose of their
forward rule (or a structural rule for loops, branches, memory and
calls). `cf` branches are first lifted to `scf` and named linalg
operations generalized. Values the reverse sweep needs are used directly
(top level), recomputed (cheap pure operations, loads from memory nothing
writes, induction variables) or taped: in a buffer sized before the
outermost loop when all enclosing loops are `scf.for` with bounds known
there, else on moonrt's LIFO tape (`moonrt_tape_push_*`/`pop_*`). Loads of
memory the call may overwrite are taped, so mutation and aliasing need no
memory restore. `dup` shadows are accumulated into. Elementwise `linalg.generic`s and
`scf.for` loops (maps, broadcasts, sums, max/min selections) take the fused
N-wide dual path when they qualify: the forward sweep computes the value
and all N partials of the element function, the reverse sweep multiplies
and adds them (`docs/ndual.md`; `--moon-ndual-max-width=N` bounds N, 0
turns the path off; `--moon-remarks` says which path each loop takes and
why). Small helpers (at most `inline-max-ops` operations with what they
call, no allocations but small stack arrays) are inlined first, in both
modes; other calls use a split pair
`@g_fwd_…`/`@g_rev_…` of the callee (recursion works); a custom rule's
`vjp` function is called in the reverse sweep instead. A top-level loop
that carries state through local buffers and whose tape would exceed
`--moon-tape-budget` bytes (default 16 MiB, 0: never) is checkpointed: it
runs in segments of a segment function, saving the buffers each segment
reads before writing, and the reverse sweep restores them and calls the
segment's adjoint function (recompute, then reverse; docs/autodiff.md);
`--moon-checkpoint-levels=N` (default 1) lets a segment be segmented
again, up to N levels, when one level cannot fit the budget. An `scf.parallel`
without reductions is reversed as a sequential `scf.for` nest; with
`parallel-reverse=1` (`moonc --gpu`), one whose body only loads, stores
and computes (no nested regions or calls) is reversed as an `scf.parallel`
over its iterations, adding into a shadow with `memref.atomic_rmw addf`
unless the load's indices are the loop's induction variables and the
loop accesses that buffer at no other indices.

An operation with an active operand and no rule is an error at the
operation: "no derivative rule for `dialect.op`; attach a custom rule".

Before:

```mlir
func.func @f(%x: f64) -> f64 {
  %s = math.sin %x : f64
  return %s : f64
}
func.func @g(%x: f64, %dx: f64) -> (f64, f64) {
  %y, %dy = moon.jvp @f(%x, %dx) : (f64, f64) -> (f64, f64)
  return %y, %dy : f64, f64
}
```

After:

```mlir
func.func private @f_jvp_a_a(%x: f64, %dx: f64) -> (f64, f64) {
  %s = math.sin %x : f64
  %c = math.cos %x : f64
  %ds = arith.mulf %dx, %c : f64
  return %s, %ds : f64, f64
}
func.func @g(%x: f64, %dx: f64) -> (f64, f64) {
  %0:2 = call @f_jvp_a_a(%x, %dx) : (f64, f64) -> (f64, f64)
  return %0#0, %0#1 : f64, f64
}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[
        PassOption {
            name: "parallel-reverse",
            description: "reverse an scf.parallel with a flat body as an scf.parallel, with atomic adds into shadows iterations may share (1: on; moonc --gpu turns it on)",
            default: 0,
        },
        PassOption {
            name: "inline-max-ops",
            description: "inline called functions of at most this many operations (with what they call) into the function differentiated (0: inline none)",
            default: moonc_autodiff::INLINE_MAX_OPS as u64,
        },
    ],
    run,
};

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    crate::bufferize::bufferize(module)?;
    crate::vmap::run(module)?;
    crate::hvp_to_jvp::run(module)?;
    crate::grad_to_vjp::run(module)?;
    let settings = moonc_autodiff::Settings {
        parallel_reverse: options.get("parallel-reverse") != 0,
        inline_max_ops: options.get("inline-max-ops") as usize,
    };
    moonc_autodiff::differentiate_module_with(module, settings)
}
