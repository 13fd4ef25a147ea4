//! Derivative requests (`moon.jvp/vjp/grad/value_and_grad/hvp/vmap`) on
//! functions of tensors, rewritten as the same requests on the functions'
//! memref forms (step 2 of `--moon-bufferize`).

use super::*;

/// The activity of each of `types` written in `op`'s attribute `name`, or
/// the default: floats, vectors and tensors of floats `active`, memrefs
/// of floats `dup` (arguments only), everything else `const`.
fn activities(op: Op, name: &str, types: &[Type], arguments: bool) -> Vec<Activity> {
    Activity::written(op, name).unwrap_or_else(|| {
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
    })
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
pub(super) fn needs_dps(module: Op, op: Op) -> bool {
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
pub(super) fn dps_variant(f: Op, variants: &mut HashMap<String, String>) -> String {
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
pub(super) fn lower_request(
    module: Op,
    op: Op,
    variants: &mut HashMap<String, String>,
) -> Result<(), Error> {
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

/// Replaces `moon.vmap` of a function of tensors, whose results must all be
/// tensors, by `moon.vmap` of its destination-passing form on memrefs: the
/// batched results are written into buffers allocated here (batched along
/// their `out_axes`), which become the op's tensor results.
pub(super) fn lower_vmap(
    module: Op,
    op: Op,
    variants: &mut HashMap<String, String>,
) -> Result<(), Error> {
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
    let mut operands = buffers_of(&mut b, op.operands());
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
