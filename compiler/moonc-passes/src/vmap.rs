//! `--moon-vmap`: replaces every `moon.vmap @f` with a loop over the batch
//! whose body is `f`'s own body, inlined, so that LLVM vectorizes across
//! batch elements.

use moonc_ir::ir::error_at;
use moonc_ir::ir::{Builder, Op, Region, Type, Value};
use moonc_ir::{Error, pass::PassInfo};
use std::collections::HashMap;

/// The registration of `--moon-vmap`.
pub static VMAP: PassInfo = PassInfo {
    argument: "moon-vmap",
    summary: "Replace moon.vmap with a loop over the batch around the inlined body of the mapped function",
    description: r#"
Each `moon.vmap @f` becomes, in place, one `scf.for` over the batch (the
size of the first batched operand along its axis) whose body is `@f`'s
body, inlined (in an `scf.execute_region` when `@f` has several blocks),
so that the loop vectorizes across batch elements: a branch that goes
differently for different elements is if-converted by LLVM, or runs
element by element, but always with each element's own values. Being in
place, the loop is differentiated like any other code (`jvp` of a
function that maps, `vmap` of a function that differentiates).

In each iteration a shared argument (`none`) is the operand itself, a
batched scalar is the operand's element, and a batched memref is the
operand's slice at the element, a strided view. The body takes the view
as it is when every use of the argument accepts any layout: loads,
stores, `memref.dim`, and calls and derivative requests, whose callees
are copied (`@g_strided`) with the argument's type changed to the view's
(other memref operands of the same shape are cast to it, so that shadows
keep their primal's type). Otherwise the view is copied (by a loop nest)
into a buffer of `@f`'s argument type before the body and, when the body
may write it, copied back after. Either way mutation of batched buffers
works. Batched scalar results are stored
into new buffers along their axis (0), allocated before the loop.

`moon.vmap` inside `@f` is expanded the same way. Not supported yet
(located errors): tensor and vector operands and results, memref results
of `@f`, unbatched results (`none` in `out_axes`).

Before:

```mlir
%ys = moon.vmap @f(%xs, %w) in_axes [0, none] out_axes [0]
    : (memref<?xf64>, f64) -> memref<?xf64>
```

After:

```mlir
%n = memref.dim %xs, %c0 : memref<?xf64>
%ys = memref.alloc(%n) : memref<?xf64>
scf.for %b = %c0 to %n step %c1 {
  %x = memref.load %xs[%b] : memref<?xf64>
  ... @f's body on %x and %w, giving %y ...
  memref.store %y, %ys[%b] : memref<?xf64>
}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run: |module, _| run(module),
};

/// More expansions than this means a function maps itself.
const MAX_EXPANSIONS: usize = 1000;

/// `in_axes`/`out_axes` entry for an unbatched value.
const NONE: i64 = -1;

/// Expands every `moon.vmap` in `module`, those that inlining brings in
/// too.
pub(crate) fn run(module: Op) -> Result<(), Error> {
    for _ in 0..MAX_EXPANSIONS {
        let Some(vmap) = module.walk().into_iter().find(|o| o.name() == "moon.vmap") else {
            return Ok(());
        };
        expand(module, vmap)?;
    }
    let vmap = module.walk().into_iter().find(|o| o.name() == "moon.vmap");
    Err(error_at(
        vmap.expect("a moon.vmap is left"),
        &format!("moon.vmap expanded {MAX_EXPANSIONS} times: does a function map itself?"),
    ))
}

/// How one argument of `f` gets its value in an iteration.
enum Arg {
    /// The operand itself.
    Shared,
    /// The operand's element at the batch index.
    Element,
    /// The operand's slice at the batch index along `axis`.
    Slice { axis: usize },
}

fn expand(module: Op, vmap: Op) -> Result<(), Error> {
    let (callee, f, (inputs, outputs)) = crate::requested_function(module, vmap)?;
    if f.regions()[0].entry().is_none() {
        return Err(error_at(
            vmap,
            &format!("@{callee} is a declaration: moon.vmap needs its body"),
        ));
    }
    let axes = |name: &str, n: usize| {
        let written = vmap.int_array(name);
        if written.is_empty() {
            vec![0; n]
        } else {
            written
        }
    };
    let (in_axes, out_axes) = (
        axes("in_axes", inputs.len()),
        axes("out_axes", outputs.len()),
    );
    let operands = vmap.operands();
    let mut args = vec![];
    for (i, (&axis, &input)) in in_axes.iter().zip(&inputs).enumerate() {
        let operand = operands[i].ty();
        args.push(if axis == NONE {
            Arg::Shared
        } else if !operand.is_memref() {
            return Err(error_at(
                vmap,
                &format!(
                    "moon.vmap: batched operand #{i} has type {operand}; only memrefs can be \
                     batched yet (not tensors or vectors)"
                ),
            ));
        } else if input.is_memref() {
            Arg::Slice {
                axis: axis as usize,
            }
        } else {
            Arg::Element
        });
    }
    for (j, (&axis, &output)) in out_axes.iter().zip(&outputs).enumerate() {
        let result = vmap.result(j).ty();
        let problem = if axis == NONE {
            Some("unbatched results (`none` in out_axes) are not supported yet")
        } else if output.is_memref() {
            Some("memref results of the mapped function are not supported yet")
        } else if !result.is_memref() {
            Some("only memref results are supported yet (not tensors or vectors)")
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(error_at(
                vmap,
                &format!("moon.vmap: result #{j}: {problem}"),
            ));
        }
    }
    let Some(first) = in_axes.iter().position(|&a| a != NONE) else {
        return Err(error_at(vmap, "moon.vmap batches no operand"));
    };

    let result_types: Vec<Type> = vmap.results().iter().map(|v| v.ty()).collect();
    let mut b = Builder::before(vmap);
    let results = batch_loop(&mut b, f, &operands, &args, &in_axes, first, &result_types);
    for (old, new) in vmap.results().iter().zip(results) {
        old.replace_uses(new);
    }
    vmap.erase();
    Ok(())
}

/// Builds at `b` the loop over the batch that computes `moon.vmap @f` of
/// `operands` (see the pass's description); returns the results.
fn batch_loop(
    b: &mut Builder,
    f: Op,
    operands: &[Value],
    args: &[Arg],
    in_axes: &[i64],
    first: usize,
    result_types: &[Type],
) -> Vec<Value> {
    let loc = b.loc;
    let index = b.ctx.index();
    let (inputs, _) = f.function_type().expect("a func.func");
    let c0 = b.index(0);
    let c1 = b.index(1);
    let axis = b.index(in_axes[first]);
    let size = b.value("memref.dim", &[operands[first], axis], index, &[]);
    let outputs: Vec<Value> = result_types
        .iter()
        .map(|&t| {
            let sizes = if t.shape()[0].is_none() {
                vec![size]
            } else {
                vec![]
            };
            b.alloc("memref.alloc", &sizes, t)
        })
        .collect();
    // Slices go to the body as they are when `f` can take their strided
    // type (see `specialize`), else through buffers of f's argument types,
    // reused by every iteration.
    let slice_types: Vec<Type> = args
        .iter()
        .zip(&inputs)
        .map(|(arg, &t)| match arg {
            Arg::Slice { .. } => strided(t),
            _ => t,
        })
        .collect();
    let mut copies = HashMap::new();
    let direct = specialize(f, &slice_types, &mut copies);
    let buffers: Vec<Option<Value>> = args
        .iter()
        .enumerate()
        .map(|(i, arg)| match arg {
            Arg::Slice { axis } if direct.is_none() => {
                Some(slice_buffer(b, operands[i], *axis, inputs[i]))
            }
            _ => None,
        })
        .collect();
    let (loop_region, loop_body) = Region::with_block(&[index], loc);
    b.create("scf.for", &[c0, size, c1], &[], &[], &[loop_region], &[]);
    loop_region.destroy();
    let batch = loop_body.args()[0];
    let mut at = Builder::at_end(loop_body, loc);
    let mut values = vec![];
    let mut slices = vec![];
    for (i, arg) in args.iter().enumerate() {
        values.push(match arg {
            Arg::Shared => operands[i],
            Arg::Element => at.value("memref.load", &[operands[i], batch], inputs[i], &[]),
            Arg::Slice { axis } => {
                let slice = slice(&mut at, operands[i], *axis, batch, inputs[i]);
                match buffers[i] {
                    Some(buffer) => {
                        copy(&mut at, slice, buffer);
                        slices.push((slice, buffer, i));
                        buffer
                    }
                    None => slice,
                }
            }
        });
    }
    let terminator = at.create("scf.yield", &[], &[], &[], &[], &[]);
    let results = inline(direct.unwrap_or(f), terminator, &values);
    drop_unused(copies.into_values().flatten().collect());
    let mut at = Builder::before(terminator);
    for (slice, buffer, i) in slices {
        if may_write(f, i) {
            copy(&mut at, buffer, slice);
        }
    }
    for (result, output) in results.iter().zip(&outputs) {
        at.create(
            "memref.store",
            &[*result, *output, batch],
            &[],
            &[],
            &[],
            &[],
        );
    }
    for buffer in buffers.into_iter().flatten() {
        b.create("memref.dealloc", &[buffer], &[], &[], &[], &[]);
    }
    outputs
}

/// `ty` (a memref type) with every stride and the offset dynamic: the type
/// of a slice of a batched buffer.
fn strided(ty: Type) -> Type {
    let rank = ty.shape().len();
    ty.ctx().ty(&format!(
        "memref<{}{}, strided<[{}], offset: ?>>",
        ty.shape_prefix(),
        ty.element(),
        vec!["?"; rank].join(", ")
    ))
}

/// A copy of `f` whose arguments have `types` (memref layouts other than
/// `f`'s), placed before `f`, or `f` when the types are its own; `None`
/// when some use of a retyped argument needs the original type. Loads,
/// stores and `memref.dim` take any layout; calls and derivative requests
/// get copies of their callees made the same way (their other memref
/// operands of the same shape are cast to the dynamic layout too). `memo`
/// holds the copies made so far, by function and types.
fn specialize(
    f: Op,
    types: &[Type],
    memo: &mut HashMap<(String, String), Option<Op>>,
) -> Option<Op> {
    let (inputs, outputs) = f.function_type()?;
    if inputs == types {
        return Some(f);
    }
    let name = f.attr("sym_name")?.string()?;
    let listed = |ts: &[Type]| {
        ts.iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let key = (name.clone(), listed(types));
    if let Some(known) = memo.get(&key) {
        return *known;
    }
    f.regions()[0].entry()?;
    let copy = f.clone_detached();
    Builder::before(f).insert(copy);
    let ctx = Builder::before(f).ctx;
    let module = f.parent()?;
    let mut fresh = format!("{name}_strided");
    let mut k = 1;
    while module.find_function(&fresh).is_some() {
        fresh = format!("{name}_strided_{k}");
        k += 1;
    }
    copy.set_attr("sym_name", ctx.attr(&format!("\"{fresh}\"")));
    copy.set_attr("sym_visibility", ctx.attr("\"private\""));
    copy.set_attr(
        "function_type",
        ctx.attr(&format!("({}) -> ({})", listed(types), listed(&outputs))),
    );
    memo.insert(key.clone(), Some(copy));
    let entry = copy.regions()[0].entry().expect("a body");
    let mut ok = true;
    for (arg, (&new, &old)) in entry.args().iter().zip(types.iter().zip(&inputs)) {
        if new != old {
            // SAFETY: the argument is live; its uses are repaired next.
            unsafe { mlir_sys::mlirBlockArgumentSetType(arg.0, new.0) };
            ok &= retype_uses(*arg, memo);
        }
    }
    if !ok {
        memo.insert(key, None);
        copy.erase();
        return None;
    }
    Some(copy)
}

/// Makes every use of the memref `value`, whose type changed, accept it
/// (see [`specialize`]); false when one cannot.
fn retype_uses(value: Value, memo: &mut HashMap<(String, String), Option<Op>>) -> bool {
    let mut users = value.users();
    users.dedup();
    users.into_iter().all(|user| match user.name().as_str() {
        "memref.load" | "memref.store" | "memref.dim" => true,
        "func.call" | "moon.jvp" | "moon.vjp" | "moon.grad" | "moon.value_and_grad" => {
            retype_call(user, memo)
        }
        _ => false,
    })
}

/// Points the call or derivative request `op` at a copy of its callee
/// that takes its operands' types, casting its other memref operands of
/// the same shapes to the dynamic layout first.
fn retype_call(op: Op, memo: &mut HashMap<(String, String), Option<Op>>) -> bool {
    let Some(callee) = op.attr("callee").and_then(|a| a.string()) else {
        return false;
    };
    if op.attr("width").is_some_and(|w| w.to_string() != "1 : i64") {
        return false;
    }
    let mut module = op.parent();
    while let Some(m) = module.filter(|m| m.name() != "builtin.module") {
        module = m.parent();
    }
    let Some(module) = module else {
        return false;
    };
    let Some(target) = module.find_function(&callee) else {
        return false;
    };
    let Some((inputs, _)) = target.function_type() else {
        return false;
    };
    // Memref operands whose shape some retyped operand has get the
    // dynamic layout, so that shadows and tangents keep their primal's type.
    let operands = op.operands();
    let shapes: Vec<String> = operands
        .iter()
        .filter(|v| v.ty().is_memref() && v.ty() == strided(v.ty()))
        .map(|v| v.ty().to_string())
        .collect();
    let mut b = Builder::before(op);
    for (i, v) in operands.iter().enumerate() {
        let ty = v.ty();
        if ty.is_memref() && ty != strided(ty) && shapes.contains(&strided(ty).to_string()) {
            let cast = b.value("memref.cast", &[*v], strided(ty), &[]);
            op.set_operand(i, cast);
        }
    }
    let types: Vec<Type> = op.operands()[..inputs.len()]
        .iter()
        .map(|v| v.ty())
        .collect();
    match specialize(target, &types, memo) {
        Some(copy) => {
            let name = copy
                .attr("sym_name")
                .and_then(|a| a.string())
                .expect("a name");
            op.set_attr("callee", b.ctx.attr(&format!("@{name}")));
            true
        }
        None => false,
    }
}

/// Erases the functions among `copies` that nothing calls any more (the
/// copy that was inlined, copies superseded by later ones).
fn drop_unused(copies: Vec<Op>) {
    let Some(module) = copies.first().and_then(|f| f.parent()) else {
        return;
    };
    let called: Vec<String> = module
        .walk()
        .iter()
        .filter_map(|op| op.attr("callee").and_then(|a| a.string()))
        .collect();
    for copy in copies {
        let name = copy.attr("sym_name").and_then(|a| a.string());
        if name.is_some_and(|n| !called.contains(&n)) {
            copy.erase();
        }
    }
}

/// A buffer of `ty` (`f`'s argument type) shaped like a slice of `operand`
/// without its dimension `axis`.
fn slice_buffer(b: &mut Builder, operand: Value, axis: usize, ty: Type) -> Value {
    let index = b.ctx.index();
    let plain = b
        .ctx
        .ty(&format!("memref<{}{}>", ty.shape_prefix(), ty.element()));
    let mut sizes = vec![];
    for (d, size) in ty.shape().iter().enumerate() {
        if size.is_none() {
            let source_dim = if d < axis { d } else { d + 1 };
            let position = b.index(source_dim as i64);
            sizes.push(b.value("memref.dim", &[operand, position], index, &[]));
        }
    }
    let buffer = b.alloc("memref.alloc", &sizes, plain);
    if plain == ty {
        buffer
    } else {
        b.value("memref.cast", &[buffer], ty, &[])
    }
}

/// The slice of `operand` at `batch` along `axis`, without that dimension:
/// a strided view with `ty`'s shape (`ty` is `f`'s argument type).
fn slice(b: &mut Builder, operand: Value, axis: usize, batch: Value, ty: Type) -> Value {
    let ctx = b.ctx;
    let index = ctx.index();
    let rank = ty.shape().len() + 1;
    let c0 = b.index(0);
    let c1 = b.index(1);
    let dynamic = i64::MIN;
    let mut offsets = vec![];
    let mut sizes = vec![];
    let mut static_sizes = vec![];
    for d in 0..rank {
        offsets.push(if d == axis { batch } else { c0 });
        if d == axis {
            static_sizes.push(1);
            continue;
        }
        match ty.shape()[if d < axis { d } else { d - 1 }] {
            Some(n) => static_sizes.push(n),
            None => {
                static_sizes.push(dynamic);
                let position = b.index(d as i64);
                sizes.push(b.value("memref.dim", &[operand, position], index, &[]));
            }
        }
    }
    let strides = vec![c1; rank];
    let array = |values: &[i64]| {
        let items: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        ctx.attr(&format!("array<i64: {}>", items.join(", ")))
    };
    let shape: String = ty
        .shape()
        .iter()
        .map(|d| d.map_or("?x".to_string(), |n| format!("{n}x")))
        .collect();
    let strides_text = vec!["?"; rank - 1].join(", ");
    let result = ctx.ty(&format!(
        "memref<{shape}{}, strided<[{strides_text}], offset: ?>>",
        ty.element()
    ));
    let mut all = vec![operand];
    all.extend(&offsets);
    all.extend(&sizes);
    all.extend(&strides);
    let segments = ctx.attr(&format!(
        "array<i32: 1, {}, {}, {}>",
        offsets.len(),
        sizes.len(),
        strides.len()
    ));
    b.value(
        "memref.subview",
        &all,
        result,
        &[
            ("static_offsets", array(&vec![dynamic; rank])),
            ("static_sizes", array(&static_sizes)),
            ("static_strides", array(&vec![dynamic; rank])),
            ("operandSegmentSizes", segments),
        ],
    )
}

/// Copies the memref `from` into `to` (same shape) element by element: a
/// loop nest that LLVM inlines and vectorizes, where `memref.copy` between
/// strided views is a call to a generic runtime copy.
fn copy(b: &mut Builder, from: Value, to: Value) {
    let index = b.ctx.index();
    let c0 = b.index(0);
    let c1 = b.index(1);
    let mut at = *b;
    let mut indices = vec![];
    for d in 0..to.ty().shape().len() {
        let position = at.index(d as i64);
        let size = at.value("memref.dim", &[to, position], index, &[]);
        let (region, body) = Region::with_block(&[index], at.loc);
        at.create("scf.for", &[c0, size, c1], &[], &[], &[region], &[]);
        region.destroy();
        indices.push(body.args()[0]);
        let yielded = Builder::at_end(body, at.loc).create("scf.yield", &[], &[], &[], &[], &[]);
        at = Builder::before(yielded);
    }
    let mut operands = vec![from];
    operands.extend(&indices);
    let element = to.ty().element();
    let value = at.value("memref.load", &operands, element, &[]);
    operands[0] = to;
    let mut store = vec![value];
    store.extend(operands);
    at.create("memref.store", &store, &[], &[], &[], &[]);
}

/// Whether `f`'s body may write its memref argument `i`: any use other
/// than `memref.load` and `memref.dim`.
fn may_write(f: Op, i: usize) -> bool {
    let argument = f.regions()[0].entry().expect("a body").args()[i];
    argument
        .users()
        .iter()
        .any(|op| !["memref.load", "memref.dim"].contains(&op.name().as_str()))
}

/// Inlines a copy of `f`'s body before `at` with its arguments `values`;
/// returns what it returns. A body of several blocks goes into an
/// `scf.execute_region`.
fn inline(f: Op, at: Op, values: &[Value]) -> Vec<Value> {
    let copy = f.clone_detached();
    let region = copy.regions()[0];
    let entry = region.entry().expect("a body");
    for (arg, value) in entry.args().iter().zip(values) {
        arg.replace_uses(*value);
    }
    let results = if region.blocks().len() == 1 {
        let terminator = entry.terminator().expect("func.return");
        let results = terminator.operands();
        for op in entry.ops() {
            if op != terminator {
                op.move_before(at);
            }
        }
        results
    } else {
        for i in (0..entry.args().len()).rev() {
            entry.erase_arg(i);
        }
        for block in region.blocks() {
            let terminator = block.terminator().expect("a terminator");
            if terminator.name() == "func.return" {
                Builder::before(terminator).create(
                    "scf.yield",
                    &terminator.operands(),
                    &[],
                    &[],
                    &[],
                    &[],
                );
                terminator.erase();
            }
        }
        let (_, outputs) = f.function_type().expect("a func.func");
        Builder::before(at)
            .create("scf.execute_region", &[], &outputs, &[], &[region], &[])
            .results()
    };
    copy.erase();
    results
}
