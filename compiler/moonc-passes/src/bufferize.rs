//! `--moon-bufferize`: turns functions on tensors (linalg on tensors, as
//! MLIR frontends emit it) into functions on memrefs, and derivative
//! requests on them into requests on memrefs, so that moonc's memref
//! engine differentiates them and its drivers call them.

use mlir_sys as sys;
use moonc_ir::ir::{
    Builder, Op, Type, VIEW_OPS, Value, error_at, run_passes, run_pipeline, view_root,
};
use moonc_ir::{
    Error,
    moon::{Activity, Request, Transform},
    pass::{self, OptionValues, PassInfo},
};
use std::collections::{HashMap, HashSet};

mod requests;
use requests::{dps_variant, lower_request, lower_vmap, needs_dps};

/// The registration of `--moon-bufferize`.
pub static BUFFERIZE: PassInfo = PassInfo {
    argument: "moon-bufferize",
    summary: "Turn functions on tensors, and derivative requests on them, into functions on memrefs",
    description: r#"
Does nothing to a module without tensors at function boundaries.
Otherwise:

1. Calls are inlined (MLIR's `inline`), so that functions on tensors
   become one body each, elementwise generics are fused into their
   consumers (`linalg-fuse-elementwise-ops`), and generics lose the
   results nobody reads.
2. Every `moon.jvp/vjp/grad/value_and_grad/hvp` of a function on tensors
   becomes the same request of the function on memrefs: a tensor operand
   is passed as its buffer (`bufferization.to_buffer`, read-only), an
   `active` tensor argument becomes `dup` with a fresh shadow (zero for
   cotangents, a copy of the tangent or direction for tangents), and the
   requested tensors are read back from the shadows
   (`bufferization.to_tensor`). When a `moon.jvp`/`moon.vjp` needs the
   tangent or cotangent of a tensor result that is not a rank-0 float
   tensor, the request calls `@f_dps`, a copy of `@f` in destination-
   passing style: such results are written into extra memref arguments
   (`dup`, whose shadows carry the result's tangent or cotangent). A
   `moon.vmap` of a function on tensors maps `@f_dps`, its batched
   results written into buffers batched along their `out_axes`.
3. Every function's tensor arguments become memrefs with the identity
   layout (read, never written: the body works on
   `bufferization.to_tensor` of them), a rank-0 float tensor result
   becomes a scalar (so `tensor<f32>` losses are scalar losses), and
   other tensor results become memrefs the function allocates (listed in
   the function's `moon.tensor_results`, for `moonc jacobian`). Calls
   left after inlining are adapted.
4. MLIR's `eliminate-empty-tensors`, `empty-tensor-to-alloc-tensor` and
   `one-shot-bufferize{allow-return-allocs-from-loops}` bufferize the
   bodies.
5. The converted functions are made differentiable and leak-free: a
   loop that carries a buffer it recomputes each iteration updates one
   state buffer in place instead, and a branch or select that chooses a
   buffer copies its choice into a fresh one; `canonicalize` and `cse` clean up
   (loops stop carrying the buffers they update in place; equal views
   of one buffer become one value) and copies onto themselves are
   erased; buffers that do not escape are freed at the end of their
   block; named linalg operations other than `fill`, `copy` and the
   products (`matmul`, `matvec`, `vecmat`, `dot`, `batch_matmul`) become
   `linalg.generic`s; a generic whose body loads from a buffer (a
   gather), and a linalg operation in a loop that reads the loop's state,
   become `scf` loops.

`moon-autodiff` runs this first (before `moon-vmap`), and so does
`moon-cpu-pipeline`. Tensors with an encoding, unranked tensors, and
`width` above 1 on requests of functions of tensors are errors at the
function or request.

Before:

```mlir
func.func @loss(%x: tensor<4xf32>) -> tensor<f32> { ... }
%g = moon.grad @loss(%x) : (tensor<4xf32>) -> tensor<4xf32>
```

After (before one-shot-bufferize):

```mlir
func.func @loss(%x: memref<4xf32>) -> f32 { ... }
%b = bufferization.to_buffer %x read_only : tensor<4xf32> to memref<4xf32>
%dx = memref.alloc() : memref<4xf32>
linalg.fill ins(%zero : f32) outs(%dx : memref<4xf32>)
moon.grad @loss(%b, %dx) args [dup] : (memref<4xf32>, memref<4xf32>) -> ()
%g = bufferization.to_tensor %dx restrict : memref<4xf32> to tensor<4xf32>
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    bufferize(module)
}

/// The attribute on a converted function that lists its results that were
/// tensors and are now buffers it allocates (moonc's commands differentiate
/// them as they would the tensors; `moonc jacobian` gives them rows).
pub const TENSOR_RESULTS: &str = "moon.tensor_results";

/// Which calling convention a converted function gets.
#[derive(Clone, Copy, PartialEq)]
enum Form {
    /// Tensor results are returned: rank-0 float tensors as scalars, the
    /// others as buffers the function allocates.
    Entry,
    /// Tensor results are written into extra memref arguments.
    Dps,
}

/// Converts `module` (see [`BUFFERIZE`]); a no-op without tensors at
/// function boundaries.
pub(crate) fn bufferize(module: Op) -> Result<(), Error> {
    let functions: Vec<Op> = top_level_functions(module)
        .into_iter()
        .filter(|&f| has_tensor_boundary(f))
        .collect();
    if functions.is_empty() {
        return pass::unchanged();
    }
    for &f in &functions {
        check_boundary(f)?;
    }
    // By name: the inliner erases the private functions it inlines
    // everywhere.
    let names: HashSet<String> = functions.iter().map(|&f| symbol(f)).collect();
    // SAFETY: creating a pass has no preconditions.
    run_passes(
        module,
        "builtin.module",
        &[unsafe { sys::mlirCreateTransformsInliner() }],
    )?;
    // Frontends emit one generic per elementwise operation (batch norm's
    // five, then the ReLU): fused, they are one loop nest to compile and
    // run instead of six.
    run_pipeline(module, "builtin.module", "func.func(moon-fuse-elementwise)")?;
    // Frontends compute results nobody reads (softmax's argmax beside its
    // max): reverse mode need not see them.
    for f in top_level_functions(module) {
        if names.contains(&symbol(f)) {
            f.remove_dead_linalg_results();
        }
    }
    // The destination-passing copies are made first, so that the requests
    // in them are lowered too (a copy may need copies of its own).
    let mut variants = HashMap::new();
    loop {
        let made = variants.len();
        for op in module.walk() {
            if names.contains(&callee(op)) && needs_dps(module, op) {
                let (_, f, _) = crate::requested_function(module, op)?;
                dps_variant(f, &mut variants);
            }
        }
        if variants.len() == made {
            break;
        }
    }
    for op in module.walk() {
        if Transform::of(&op.name()).is_some() && names.contains(&callee(op)) {
            lower_request(module, op, &mut variants)?;
        } else if op.name() == "moon.vmap" && names.contains(&callee(op)) {
            lower_vmap(module, op, &mut variants)?;
        }
    }
    let mut converted = vec![];
    for f in top_level_functions(module) {
        let form = if variants.values().any(|v| *v == symbol(f)) {
            Form::Dps
        } else if names.contains(&symbol(f)) {
            Form::Entry
        } else {
            continue;
        };
        convert(f, form);
        converted.push(f);
    }
    for op in module.walk() {
        if op.name() == "func.call" && names.contains(&callee(op)) {
            adapt_call(module, op);
        }
    }
    run_pipeline(
        module,
        "builtin.module",
        "eliminate-empty-tensors,empty-tensor-to-alloc-tensor,\
         one-shot-bufferize{allow-return-allocs-from-loops}",
    )?;
    for &f in &converted {
        carry_in_place(f);
        choose_in_place(f);
    }
    for f in converted {
        // Loops and branches that carry a buffer they leave in place (as
        // one-shot-bufferize makes of tensor iteration values) stop
        // carrying it: reverse mode differentiates no carried memref.
        // SAFETY: creating a pass has no preconditions.
        // CSE makes equal views of one buffer one value, so that a copy
        // between them is seen to be a self-copy.
        run_passes(f, "func.func", &unsafe {
            [
                sys::mlirCreateTransformsCanonicalizer(),
                sys::mlirCreateTransformsCSE(),
            ]
        })?;
        remove_self_copies(f);
        free_local_buffers(f);
        crate::conv_to_gemm::conv_to_gemm(f, moonc_ir::options::blas_min_flops());
        generalize_named_ops(f);
        crate::collapse_dims::collapse_dims(f);
        lower_reads_of_loop_state(f);
    }
    Ok(())
}

/// The `func.func`s directly in `module`.
fn top_level_functions(module: Op) -> Vec<Op> {
    let Some(body) = module.regions().first().and_then(|r| r.entry()) else {
        return vec![];
    };
    body.ops()
        .into_iter()
        .filter(|op| op.name() == "func.func")
        .collect()
}

fn symbol(f: Op) -> String {
    f.attr("sym_name")
        .and_then(|a| a.string())
        .unwrap_or_default()
}

fn callee(op: Op) -> String {
    op.attr("callee")
        .and_then(|a| a.string())
        .unwrap_or_default()
}

fn has_tensor_boundary(f: Op) -> bool {
    f.function_type()
        .is_some_and(|(args, results)| args.iter().chain(&results).any(|t| is_any_tensor(*t)))
}

fn is_any_tensor(t: Type) -> bool {
    t.to_string().starts_with("tensor<")
}

/// Rejects tensors that have no memref counterpart moonc can pass.
fn check_boundary(f: Op) -> Result<(), Error> {
    let (args, results) = f.function_type().unwrap_or_default();
    for t in args.iter().chain(&results).filter(|t| is_any_tensor(**t)) {
        if !t.is_tensor() {
            return Err(error_at(
                f,
                &format!(
                    "@{} has the unranked tensor type `{t}`; moonc needs ranked tensors",
                    symbol(f)
                ),
            ));
        }
        if t.to_string() != format!("tensor<{}{}>", t.shape_prefix(), t.element()) {
            return Err(error_at(
                f,
                &format!(
                    "@{} has the tensor type `{t}` with an encoding, which moonc cannot bufferize",
                    symbol(f)
                ),
            ));
        }
    }
    Ok(())
}

/// The memref (identity layout) holding a tensor of type `t`.
fn buffer_type(t: Type) -> Type {
    t.ctx().ty(&identity_memref(t))
}

/// A rank-0 tensor of floats, which [`Form::Entry`] returns as a scalar.
fn is_scalar_tensor(t: Type) -> bool {
    t.is_tensor() && t.shape().is_empty() && t.element().is_float()
}

/// The type a function of [`Form::Entry`] returns for a result of type
/// `t`.
fn entry_result(t: Type) -> Type {
    if is_scalar_tensor(t) {
        t.element()
    } else if t.is_tensor() {
        buffer_type(t)
    } else {
        t
    }
}

/// Rewrites `f`'s signature and body to `form`.
fn convert(f: Op, form: Form) {
    let (args, results) = f.function_type().unwrap_or_default();
    let ctx = f.ctx();
    let mut new_args: Vec<Type> = args
        .iter()
        .map(|&t| if t.is_tensor() { buffer_type(t) } else { t })
        .collect();
    let mut new_results = vec![];
    for &t in &results {
        match form {
            Form::Dps if t.is_tensor() => new_args.push(buffer_type(t)),
            _ => new_results.push(entry_result(t)),
        }
    }
    let list = |types: &[Type]| {
        types
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    f.set_attr(
        "function_type",
        ctx.attr(&format!(
            "({}) -> ({})",
            list(&new_args),
            list(&new_results)
        )),
    );
    if form == Form::Dps {
        f.remove_attr("arg_attrs");
        f.remove_attr("res_attrs");
    }
    let buffers: Vec<String> = (0..results.len())
        .filter(|&j| form == Form::Entry && results[j].is_tensor() && !is_scalar_tensor(results[j]))
        .map(|j| j.to_string())
        .collect();
    if !buffers.is_empty() {
        f.set_attr(
            TENSOR_RESULTS,
            ctx.attr(&format!("array<i64: {}>", buffers.join(", "))),
        );
    }
    let Some(entry) = f.regions()[0].entry() else {
        return;
    };
    let unit = ctx.attr("unit");
    let old = entry.args();
    let first = entry.ops()[0];
    for (&arg, &t) in old.iter().zip(&new_args) {
        let new = entry.add_arg(t, f.loc());
        let value = if arg.ty().is_tensor() {
            Builder::before(first).value(
                "bufferization.to_tensor",
                &[new],
                arg.ty(),
                &[("restrict", unit)],
            )
        } else {
            new
        };
        arg.replace_uses(value);
    }
    let outs: Vec<Value> = new_args[old.len()..]
        .iter()
        .map(|&t| entry.add_arg(t, f.loc()))
        .collect();
    for _ in 0..old.len() {
        entry.erase_arg(0);
    }
    for ret in f.walk() {
        if ret.name() != "func.return" || ret.parent() != Some(f) {
            continue;
        }
        let mut b = Builder::before(ret);
        let mut operands = vec![];
        let mut outs = outs.iter();
        for (value, &t) in ret.operands().into_iter().zip(&results) {
            if !t.is_tensor() {
                operands.push(value);
            } else if form == Form::Dps {
                let out = *outs.next().expect("one out argument per tensor result");
                materialize(&mut b, value, out);
            } else if is_scalar_tensor(t) {
                operands.push(b.value("tensor.extract", &[value], t.element(), &[]));
            } else {
                let sizes: Vec<Value> = t
                    .shape()
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.is_none())
                    .map(|(i, _)| {
                        let i = b.index(i as i64);
                        b.value("tensor.dim", &[value, i], ctx.index(), &[])
                    })
                    .collect();
                // A buffer allocated first dominates the result's
                // `tensor.empty`, which eliminate-empty-tensors then
                // replaces by it (no copy).
                let buffer = if sizes.is_empty() {
                    Builder::before(entry.ops()[0]).alloc("memref.alloc", &[], buffer_type(t))
                } else {
                    b.alloc("memref.alloc", &sizes, buffer_type(t))
                };
                materialize(&mut b, value, buffer);
                operands.push(buffer);
            }
        }
        ret.set_operands(&operands);
    }
}

/// Writes the tensor `value` into `buffer`, which nothing else uses.
fn materialize(b: &mut Builder, value: Value, buffer: Value) {
    let unit = b.ctx.attr("unit");
    b.create(
        "bufferization.materialize_in_destination",
        &[value, buffer],
        &[],
        &[("restrict", unit), ("writable", unit)],
        &[],
        &[],
    );
}

/// The read-only buffer of the tensor `value`.
fn to_buffer(b: &mut Builder, value: Value) -> Value {
    let unit = b.ctx.attr("unit");
    let t = buffer_type(value.ty());
    b.value(
        "bufferization.to_buffer",
        &[value],
        t,
        &[("read_only", unit)],
    )
}

/// `values`, each tensor replaced by its read-only buffer.
fn buffers_of(b: &mut Builder, values: Vec<Value>) -> Vec<Value> {
    values
        .into_iter()
        .map(|v| {
            if v.ty().is_tensor() {
                to_buffer(b, v)
            } else {
                v
            }
        })
        .collect()
}

/// The tensor of type `t` that `buffer` holds from now on.
fn to_tensor(b: &mut Builder, buffer: Value, t: Type) -> Value {
    let unit = b.ctx.attr("unit");
    b.value(
        "bufferization.to_tensor",
        &[buffer],
        t,
        &[("restrict", unit)],
    )
}

/// A fresh buffer shaped like the buffer `like`, filled with zeros.
fn zeros_like(b: &mut Builder, like: Value) -> Value {
    let buffer = b.alloc_like("memref.alloc", like, like.ty());
    let zero = b.float(like.ty().element(), 0.0);
    b.fill(zero, buffer);
    buffer
}

/// A fresh buffer holding a copy of the tensor `value`.
fn copy_of(b: &mut Builder, value: Value) -> Value {
    let source = to_buffer(b, value);
    let buffer = b.alloc_like("memref.alloc", source, source.ty());
    b.create("memref.copy", &[source, buffer], &[], &[], &[], &[]);
    buffer
}

/// Calls a converted function of [`Form::Entry`] from tensor code.
fn adapt_call(module: Op, call: Op) {
    let Some((_, results)) = module
        .find_function(&callee(call))
        .and_then(|f| f.function_type())
    else {
        return;
    };
    let mut b = Builder::before(call);
    let operands = buffers_of(&mut b, call.operands());
    let callee_attr = call.attr("callee").expect("a call names its callee");
    let new = b.create(
        "func.call",
        &operands,
        &results,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    for (old, value) in call.results().into_iter().zip(new.results()) {
        let t = old.ty();
        let value = if is_scalar_tensor(t) {
            b.value("tensor.from_elements", &[value], t, &[])
        } else if t.is_tensor() {
            to_tensor(&mut b, value, t)
        } else {
            value
        };
        old.replace_uses(value);
    }
    call.erase();
}

/// Makes every `scf.for` in `f` that carries a buffer of identity layout
/// from one iteration to the next (a tensor iteration value that each
/// iteration computes anew) update one state buffer in place instead: the
/// state starts as a copy of the initial buffer, the body reads it, and
/// the buffer the body computed is copied into it before the next
/// iteration. The iteration value then stays the state, which
/// `canonicalize` removes from the loop: reverse mode differentiates
/// loops that update memory, not loops that carry memrefs.
fn carry_in_place(f: Op) {
    for l in f.walk() {
        if l.name() != "scf.for" {
            continue;
        }
        let Some(body) = l.regions()[0].entry() else {
            continue;
        };
        let Some(yield_op) = body.terminator() else {
            continue;
        };
        let carried = body.args();
        for (i, init) in l.operands().into_iter().skip(3).enumerate() {
            let t = init.ty();
            let (value, next) = (carried[i + 1], yield_op.operand(i));
            if !t.is_memref() || value == next || !t.has_identity_layout() {
                continue;
            }
            let mut b = Builder::before(l);
            let state = b.alloc_like("memref.alloc", init, t);
            b.create("memref.copy", &[init, state], &[], &[], &[], &[]);
            l.set_operand(3 + i, state);
            value.replace_uses(state);
            Builder::before(yield_op).create("memref.copy", &[next, state], &[], &[], &[], &[]);
            yield_op.set_operand(i, value);
        }
    }
}

/// Makes every choice between buffers in `f` (an `scf.if` that yields a
/// buffer of identity layout and static shape, an `arith.select` of
/// buffers of identity layout) a copy of the chosen buffer into a fresh
/// one: reverse mode differentiates copies in branches, not buffers that
/// branches yield. An `scf.if` keeps yielding the buffer, now unused,
/// which `canonicalize` then drops.
fn choose_in_place(f: Op) {
    let copy = |b: &mut Builder, from: Value, to: Value| {
        b.create("memref.copy", &[from, to], &[], &[], &[], &[]);
    };
    for op in f.walk() {
        match op.name().as_str() {
            "scf.if" => {
                for (i, result) in op.results().into_iter().enumerate() {
                    let t = result.ty();
                    if !t.is_memref()
                        || !t.has_identity_layout()
                        || t.shape().iter().any(|d| d.is_none())
                    {
                        continue;
                    }
                    let chosen = Builder::before(op).alloc("memref.alloc", &[], t);
                    for region in op.regions() {
                        if let Some(yield_op) = region.entry().and_then(|b| b.terminator()) {
                            copy(&mut Builder::before(yield_op), yield_op.operand(i), chosen);
                        }
                    }
                    result.replace_uses(chosen);
                }
            }
            "arith.select" if op.result(0).ty().is_memref() => {
                let (t, a) = (op.result(0).ty(), op.operand(1));
                if !t.has_identity_layout() {
                    continue;
                }
                let mut b = Builder::before(op);
                let chosen = b.alloc_like("memref.alloc", a, t);
                let (_, then_block, else_block) = b.if_else(op.operand(0), &[]);
                for (block, from) in [(then_block, a), (else_block, op.operand(2))] {
                    let mut b = Builder::at_end(block, op.loc());
                    copy(&mut b, from, chosen);
                    b.create("scf.yield", &[], &[], &[], &[], &[]);
                }
                op.result(0).replace_uses(chosen);
                op.erase();
            }
            _ => {}
        }
    }
}

/// The memref type of `t`'s shape and element type, with the identity
/// layout, as text.
fn identity_memref(t: Type) -> String {
    format!("memref<{}{}>", t.shape_prefix(), t.element())
}

/// Lowers to loops each linalg operation (other than the products) in an
/// `scf.for` that reads a buffer the loop overwrites (the state of
/// [`carry_in_place`]): reverse mode saves the overwritten elements a
/// loop of loads reads, not whole buffers a linalg operation reads.
fn lower_reads_of_loop_state(f: Op) {
    let mut lowered = vec![];
    for l in f.walk() {
        if l.name() != "scf.for" {
            continue;
        }
        let inside = l.walk();
        let written: HashSet<Value> = inside
            .iter()
            .flat_map(|op| match op.name().as_str() {
                "memref.copy" => vec![op.operand(1)],
                "memref.store" => vec![op.operand(1)],
                name if name.starts_with("linalg.") => {
                    let (ins, _) = moonc_ir::linalg::split_ins_outs(*op);
                    op.operands()[ins..].to_vec()
                }
                _ => vec![],
            })
            .map(view_root)
            .collect();
        for op in inside {
            let name = op.name();
            if !name.starts_with("linalg.") || PRODUCTS.contains(&name.as_str()) {
                continue;
            }
            let (ins, _) = moonc_ir::linalg::split_ins_outs(op);
            if op.operands()[..ins]
                .iter()
                .any(|&v| written.contains(&view_root(v)))
                && !lowered.contains(&op)
            {
                lowered.push(op);
            }
        }
    }
    for op in lowered {
        op.lower_linalg_to_loops();
    }
}

/// Erases the `memref.copy %b, %b` one-shot-bufferize leaves where a
/// result was computed in its destination: a copy onto itself changes
/// nothing, and as a `memcpy` of overlapping memory it is not even
/// defined.
fn remove_self_copies(f: Op) {
    for op in f.walk() {
        if op.name() == "memref.copy" && op.operand(0) == op.operand(1) {
            op.erase();
        }
    }
}

/// The linalg operations that are not generalized: the generic itself and
/// those with rules of their own.
const KEPT_NAMED: &[&str] = &["linalg.generic", "linalg.fill", "linalg.copy"];

/// The products, which become BLAS calls.
const PRODUCTS: &[&str] = &[
    "linalg.matmul",
    "linalg.matvec",
    "linalg.vecmat",
    "linalg.dot",
    "linalg.batch_matmul",
];

/// Replaces the other named linalg operations in `f` (broadcasts,
/// transposes, convolutions, pooling, reductions, ...) by `linalg.generic`s,
/// which both modes differentiate.
fn generalize_named_ops(f: Op) {
    for op in f.walk() {
        let name = op.name();
        if name.starts_with("linalg.")
            && !KEPT_NAMED.contains(&name.as_str())
            && !PRODUCTS.contains(&name.as_str())
        {
            op.generalize_linalg();
        }
    }
    for op in f.walk() {
        if op.name() == "linalg.generic" && reads_memory_in_body(op) {
            op.lower_linalg_to_loops();
        }
    }
}

/// Whether the body of the `linalg.generic` `op` loads from a buffer
/// (a gather: `tensor.extract` of a captured tensor, bufferized). Such a
/// generic becomes loops, which reverse mode differentiates like any
/// loop that loads.
fn reads_memory_in_body(op: Op) -> bool {
    op.walk().iter().any(|o| o.name() == "memref.load")
}

/// Frees, at the end of their block, the buffers `f` allocates that
/// neither it returns nor a branch or loop yields (through any view).
fn free_local_buffers(f: Op) {
    fn escapes(value: Value) -> bool {
        value.users().into_iter().any(|user| {
            let name = user.name();
            if VIEW_OPS.contains(&name.as_str()) {
                escapes(user.result(0))
            } else {
                matches!(
                    name.as_str(),
                    "func.return"
                        | "scf.yield"
                        | "scf.condition"
                        | "cf.br"
                        | "cf.cond_br"
                        | "memref.dealloc"
                        | "memref.store"
                )
            }
        })
    }
    for alloc in f.walk() {
        if alloc.name() != "memref.alloc" || escapes(alloc.result(0)) {
            continue;
        }
        if let Some(terminator) = alloc.block().terminator() {
            Builder::before(terminator).create(
                "memref.dealloc",
                &[alloc.result(0)],
                &[],
                &[],
                &[],
                &[],
            );
        }
    }
}
