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
    pass::{OptionValues, PassInfo},
};
use std::collections::{HashMap, HashSet};

/// The registration of `--moon-bufferize`.
pub static BUFFERIZE: PassInfo = PassInfo {
    argument: "moon-bufferize",
    summary: "Turn functions on tensors, and derivative requests on them, into functions on memrefs",
    description: r#"
Does nothing to a module without ranked tensors at function boundaries or
in derivative requests. Otherwise:

1. Calls are inlined (MLIR's `inline`), so that functions on tensors
   become one body each, and generics lose the results nobody reads.
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
   other tensor results become memrefs the function allocates. Calls
   left after inlining are adapted.
4. MLIR's `eliminate-empty-tensors`, `empty-tensor-to-alloc-tensor` and
   `one-shot-bufferize{allow-return-allocs-from-loops}` bufferize the
   bodies, and `canonicalize` cleans
   up the converted functions (loops stop carrying the buffers they
   update in place).
5. Buffers a converted function allocates and does not return are freed
   at the end of the block that allocates them, and its named linalg
   operations other than `fill`, `copy` and the products (`matmul`,
   `matvec`, `vecmat`, `dot`, `batch_matmul`) become `linalg.generic`s;
   a generic whose body loads from a buffer (a gather) becomes loops.

`moon-autodiff` runs this first (before `moon-vmap`), and so does
`moon-cpu-pipeline`. Tensors with an encoding, unranked tensors and `width` above 1 on
functions of tensors are errors at the function or request.

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
        return Ok(());
    }
    for &f in &functions {
        check_boundary(f)?;
    }
    // SAFETY: creating a pass has no preconditions.
    run_passes(
        module,
        "builtin.module",
        &[unsafe { sys::mlirCreateTransformsInliner() }],
    )?;
    let names: HashSet<String> = functions.iter().map(|&f| symbol(f)).collect();
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
    }
    for f in converted {
        // Loops and branches that carry a buffer they leave in place (as
        // one-shot-bufferize makes of tensor iteration values) stop
        // carrying it: reverse mode differentiates no carried memref.
        // SAFETY: creating a pass has no preconditions.
        run_passes(
            f,
            "func.func",
            &[unsafe { sys::mlirCreateTransformsCanonicalizer() }],
        )?;
        remove_self_copies(f);
        free_local_buffers(f);
        generalize_named_ops(f);
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
    let operands: Vec<Value> = call
        .operands()
        .into_iter()
        .map(|v| {
            if v.ty().is_tensor() {
                to_buffer(&mut b, v)
            } else {
                v
            }
        })
        .collect();
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

/// The activity of each of `types` written in `op`'s attribute `name`, or
/// the default: floats, vectors and tensors of floats `active`, memrefs
/// of floats `dup` (arguments only), everything else `const`.
fn activities(op: Op, name: &str, types: &[Type], arguments: bool) -> Vec<Activity> {
    if let Some(written) = op.attr(name) {
        return written
            .elements()
            .into_iter()
            .map(|a| {
                let text = a.to_string();
                [
                    Activity::ActiveNoNeed,
                    Activity::Active,
                    Activity::DupNoNeed,
                    Activity::Dup,
                    Activity::Const,
                ]
                .into_iter()
                .find(|k| text.contains(&format!("<{}>", k.keyword())))
                .unwrap_or(Activity::Const)
            })
            .collect();
    }
    types
        .iter()
        .map(|&t| {
            if t.is_differentiable() || (t.is_tensor() && t.element().is_float()) {
                Activity::Active
            } else if arguments && t.is_float_memref() {
                Activity::Dup
            } else {
                Activity::Const
            }
        })
        .collect()
}

fn is_dup(a: Activity) -> bool {
    matches!(a, Activity::Dup | Activity::DupNoNeed)
}

fn is_noneed(a: Activity) -> bool {
    matches!(a, Activity::ActiveNoNeed | Activity::DupNoNeed)
}

/// Whether the request `op` calls the destination-passing form of its
/// callee: a `moon.vmap`, or a `moon.jvp`/`moon.vjp` of a function with a
/// tensor result that is not a rank-0 float tensor.
fn needs_dps(module: Op, op: Op) -> bool {
    let name = op.name();
    let jvp_or_vjp = matches!(Transform::of(&name), Some(Transform::Jvp | Transform::Vjp));
    if !jvp_or_vjp && name != "moon.vmap" {
        return false;
    }
    let results = module
        .find_function(&callee(op))
        .and_then(|f| f.function_type())
        .map(|(_, results)| results)
        .unwrap_or_default();
    name == "moon.vmap"
        || results
            .iter()
            .any(|&t| t.is_tensor() && !is_scalar_tensor(t))
}

/// The name of `f`'s copy in destination-passing style, made on first
/// use.
fn dps_variant(f: Op, variants: &mut HashMap<String, String>) -> String {
    let name = symbol(f);
    variants
        .entry(name.clone())
        .or_insert_with(|| {
            let copy = f.clone_after();
            let variant = format!("{name}_dps");
            copy.set_attr("sym_name", f.ctx().attr(&format!("\"{variant}\"")));
            copy.set_attr("sym_visibility", f.ctx().attr("\"private\""));
            variant
        })
        .clone()
}

/// Replaces the derivative request `op` on a function of tensors by the
/// same request on its converted form (see [`BUFFERIZE`]).
fn lower_request(module: Op, op: Op, variants: &mut HashMap<String, String>) -> Result<(), Error> {
    let transform = Transform::of(&op.name()).expect("a derivative request");
    let (name, f, (arg_types, res_types)) = crate::requested_function(module, op)?;
    if op.attr("width").is_some_and(|w| w.to_string() != "1 : i64") {
        return Err(error_at(
            op,
            "`width` above 1 is not supported on functions of tensors yet",
        ));
    }
    let args = activities(op, "arg_activity", &arg_types, true);
    let res = activities(op, "res_activity", &res_types, false);
    // Which results the converted request writes into out arguments.
    let dps = needs_dps(module, op);
    let out = |j: usize| dps && res_types[j].is_tensor();
    let target = if dps { dps_variant(f, variants) } else { name };

    let operands = op.operands();
    let mut tail = operands[arg_types.len()..].iter().copied();
    let mut b = Builder::before(op);
    let n = arg_types.len();

    // Arguments: tensors pass their buffers; active tensors become dup.
    let mut m_operands = vec![];
    let mut m_args = vec![];
    for i in 0..n {
        if arg_types[i].is_tensor() {
            m_operands.push(to_buffer(&mut b, operands[i]));
            m_args.push(if args[i] == Activity::Active {
                Activity::Dup
            } else {
                args[i]
            });
        } else {
            m_operands.push(operands[i]);
            m_args.push(args[i]);
        }
    }
    // Out arguments of the DPS form, one per tensor result.
    let mut outs = vec![None; res_types.len()];
    let mut m_res = vec![];
    for j in 0..res_types.len() {
        if out(j) {
            let t = buffer_type(res_types[j]);
            if t.shape().iter().any(|d| d.is_none()) {
                return Err(error_at(
                    op,
                    &format!(
                        "the derivative of result #{j} of @{}, a tensor of dynamic shape, \
                         is not supported yet (its size is known only after the call)",
                        symbol(f)
                    ),
                ));
            }
            let buffer = b.alloc("memref.alloc", &[], t);
            outs[j] = Some(buffer);
            m_operands.push(buffer);
            m_args.push(match res[j] {
                Activity::Active => Activity::Dup,
                Activity::ActiveNoNeed => Activity::DupNoNeed,
                other => other,
            });
        } else {
            m_res.push(res[j]);
        }
    }

    // The buffers from which tensor derivatives are read after the call.
    let mut arg_buffers: Vec<Option<Value>> = vec![None; n];
    let mut out_shadows: Vec<Option<Value>> = vec![None; res_types.len()];
    let scalar_operand = |b: &mut Builder, v: Value| {
        if is_scalar_tensor(v.ty()) {
            b.value("tensor.extract", &[v], v.ty().element(), &[])
        } else {
            v
        }
    };
    match transform {
        Transform::Jvp => {
            for i in 0..n {
                if args[i] == Activity::Active && arg_types[i].is_tensor() {
                    let tangent = tail.next().expect("verified operand count");
                    m_operands.push(copy_of(&mut b, tangent));
                } else if args[i] != Activity::Const {
                    m_operands.push(tail.next().expect("verified operand count"));
                }
            }
            for j in 0..res_types.len() {
                if let Some(buffer) = outs[j].filter(|_| res[j] != Activity::Const) {
                    let shadow = zeros_like(&mut b, buffer);
                    out_shadows[j] = Some(shadow);
                    m_operands.push(shadow);
                }
            }
        }
        Transform::Vjp => {
            let mut shadows = zeroed_shadows(
                &mut b,
                &arg_types,
                &m_operands,
                &m_args,
                &mut tail,
                &mut arg_buffers,
            );
            let mut cotangents = vec![];
            for j in 0..res_types.len() {
                if res[j] == Activity::Const {
                    continue;
                }
                let cotangent = tail.next().expect("verified operand count");
                if outs[j].is_some() {
                    let shadow = copy_of(&mut b, cotangent);
                    out_shadows[j] = Some(shadow);
                    shadows.push(shadow);
                } else {
                    cotangents.push(scalar_operand(&mut b, cotangent));
                }
            }
            m_operands.extend(shadows);
            m_operands.extend(cotangents);
        }
        Transform::Grad | Transform::ValueAndGrad => {
            let shadows = zeroed_shadows(
                &mut b,
                &arg_types,
                &m_operands,
                &m_args,
                &mut tail,
                &mut arg_buffers,
            );
            m_operands.extend(shadows);
        }
        Transform::Hvp => {
            for i in 0..n {
                if arg_types[i].is_tensor() && args[i] == Activity::Active {
                    let direction = tail.next().expect("verified operand count");
                    m_operands.push(copy_of(&mut b, direction));
                } else if args[i] != Activity::Const {
                    m_operands.push(tail.next().expect("verified operand count"));
                }
            }
            let products = zeroed_shadows(
                &mut b,
                &arg_types,
                &m_operands,
                &m_args,
                &mut tail,
                &mut arg_buffers,
            );
            m_operands.extend(products);
        }
    }

    // Results: what stays a result of the converted request, in order, and
    // how each of the request's old results is recovered.
    enum From {
        New(Type),
        Buffer(Option<Value>),
    }
    let mut from = vec![];
    let primal = |j: usize| From::New(entry_result(res_types[j]));
    match transform {
        Transform::Jvp => {
            for j in 0..res_types.len() {
                if !is_noneed(res[j]) {
                    from.push(if out(j) {
                        From::Buffer(outs[j])
                    } else {
                        primal(j)
                    });
                }
            }
            for j in 0..res_types.len() {
                if res[j] != Activity::Const {
                    from.push(if out(j) {
                        From::Buffer(out_shadows[j])
                    } else {
                        primal(j)
                    });
                }
            }
        }
        Transform::Vjp | Transform::Grad | Transform::ValueAndGrad | Transform::Hvp => {
            if transform == Transform::Vjp {
                for j in 0..res_types.len() {
                    if !is_noneed(res[j]) {
                        from.push(if out(j) {
                            From::Buffer(outs[j])
                        } else {
                            primal(j)
                        });
                    }
                }
            }
            if transform == Transform::ValueAndGrad {
                from.push(primal(0));
            }
            for i in 0..n {
                if args[i] == Activity::Active {
                    from.push(if arg_types[i].is_tensor() {
                        From::Buffer(arg_buffers[i])
                    } else {
                        From::New(arg_types[i])
                    });
                }
            }
        }
    }
    let m_results: Vec<Type> = from
        .iter()
        .filter_map(|r| match r {
            From::New(t) => Some(*t),
            From::Buffer(_) => None,
        })
        .collect();
    let request = Request {
        callee: &target,
        operands: &m_operands,
        results: &m_results,
        args: &m_args,
        res: &m_res,
        width: 1,
    }
    .build(transform, &mut b);
    let mut b = Builder::after(request);
    let mut new_results = request.results().into_iter();
    for (old, r) in op.results().into_iter().zip(from) {
        let t = old.ty();
        let value = match r {
            From::New(_) => {
                let v = new_results.next().expect("one new result per From::New");
                if is_scalar_tensor(t) {
                    b.value("tensor.from_elements", &[v], t, &[])
                } else {
                    v
                }
            }
            From::Buffer(buffer) => to_tensor(
                &mut b,
                buffer.expect("a buffer for each tensor derivative"),
                t,
            ),
        };
        old.replace_uses(value);
    }
    op.erase();
    Ok(())
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
            if !t.is_memref() || value == next || t.to_string() != identity_memref(t) {
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
/// nothing (and reverse mode would read it as an overwrite).
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

/// Replaces `moon.vmap` of a function of tensors, whose results must all be
/// tensors, by `moon.vmap` of its destination-passing form on memrefs: the
/// batched results are written into buffers allocated here (batched along
/// their `out_axes`), which become the op's tensor results.
fn lower_vmap(module: Op, op: Op, variants: &mut HashMap<String, String>) -> Result<(), Error> {
    let (_, f, (arg_types, res_types)) = crate::requested_function(module, op)?;
    if let Some(j) = res_types.iter().position(|t| !t.is_tensor()) {
        return Err(error_at(
            op,
            &format!(
                "moon.vmap of a function on tensors needs tensor results, but result #{j} \
                 of @{} has type {}",
                symbol(f),
                res_types[j]
            ),
        ));
    }
    let target = dps_variant(f, variants);
    let mut b = Builder::before(op);
    let mut operands: Vec<Value> = op
        .operands()
        .into_iter()
        .map(|v| {
            if v.ty().is_tensor() {
                to_buffer(&mut b, v)
            } else {
                v
            }
        })
        .collect();
    let axes = |name: &str, n: usize| {
        let written = op.int_array(name);
        if written.is_empty() {
            vec![0; n]
        } else {
            written
        }
    };
    let mut in_axes = axes("in_axes", arg_types.len());
    let out_axes = axes("out_axes", res_types.len());
    let mut outs = vec![];
    for (result, &axis) in op.results().into_iter().zip(&out_axes) {
        let t = buffer_type(result.ty());
        if t.shape().iter().any(|d| d.is_none()) {
            return Err(error_at(
                op,
                "moon.vmap of a function on tensors with a result of dynamic shape is not \
                 supported yet",
            ));
        }
        let buffer = b.alloc("memref.alloc", &[], t);
        operands.push(buffer);
        in_axes.push(axis);
        outs.push(buffer);
    }
    moonc_ir::moon::vmap(&mut b, &target, &operands, &[], &in_axes, &[]);
    for (result, buffer) in op.results().into_iter().zip(outs) {
        let value = to_tensor(&mut b, buffer, result.ty());
        result.replace_uses(value);
    }
    op.erase();
    Ok(())
}

/// One shadow for each of the callee's arguments that are `dup` in the
/// converted request (`m_args`; `m_operands` starts with the callee's
/// arguments, whose types were `arg_types`): a fresh zeroed buffer for an
/// argument that was an active tensor (kept in `buffers`, whence its
/// derivative is read after the call), the request's next operand in
/// `tail` for a memref argument.
fn zeroed_shadows(
    b: &mut Builder,
    arg_types: &[Type],
    m_operands: &[Value],
    m_args: &[Activity],
    tail: &mut impl Iterator<Item = Value>,
    buffers: &mut [Option<Value>],
) -> Vec<Value> {
    let mut shadows = vec![];
    for (i, t) in arg_types.iter().enumerate() {
        if !is_dup(m_args[i]) {
            continue;
        }
        shadows.push(if t.is_tensor() {
            let shadow = zeros_like(b, m_operands[i]);
            buffers[i] = Some(shadow);
            shadow
        } else {
            tail.next().expect("verified operand count")
        });
    }
    shadows
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
