//! `--moon-uniform-buffers`: a buffer the function allocates that only
//! ever holds one value in every element (filled, or updated elementwise
//! from scalars) is replaced by that value, and no longer allocated.
//!
//! Reverse mode produces such buffers: the adjoint of a temporary that is
//! summed is the sum's adjoint broadcast into every element, which the
//! reverse of the map that wrote the temporary then reads elementwise.

use moonc_ir::ir::{Builder, Op, Value};
use moonc_ir::linalg::{indexing_maps, projected_dims, split_ins_outs};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo},
};
use std::collections::HashMap;

/// The registration of `--moon-uniform-buffers`.
pub static UNIFORM_BUFFERS: PassInfo = PassInfo {
    argument: "moon-uniform-buffers",
    summary: "Replace buffers that hold one value in every element by that value",
    description: r#"
A buffer `%b` from `memref.alloc` or `memref.alloca` qualifies when every
use of it lies in the block that allocates it and is, in order:

- a write that leaves one value in every element: `linalg.fill`, or a
  `linalg.generic` with `%b` as its only output, all iterators parallel, an
  indexing map for `%b` that is a permutation of all loop dimensions, and
  otherwise only inputs that are scalars or rank-0 memrefs (maps `-> ()`)
  and a body of arith and math operations (it may read `%b`'s element);
- a read made after such a write: `%b` as an input of a `linalg.generic`
  (not also an output), or `memref.load`;
- `memref.dealloc`.

Each write's value is computed once, as a scalar, where the write was; each
read takes the value of the write before it; then the buffer, its writes
and its deallocation are erased. Reverse mode produces such buffers where
the adjoint of a summed temporary is broadcast into every element
(`moon-cpu-pipeline` runs this pass first). A buffer with any other use, or
read before it is written, is left alone.

Before:

```mlir
%d = memref.alloc() : memref<10xf64>
linalg.fill ins(%zero : f64) outs(%d : memref<10xf64>)
linalg.generic {indexing_maps = [affine_map<(i) -> ()>, affine_map<(i) -> (i)>],
                iterator_types = ["parallel"]}
    ins(%seed : memref<f64>) outs(%d : memref<10xf64>) {
^bb0(%s: f64, %o: f64):
  %a = arith.addf %o, %s : f64
  linalg.yield %a : f64
}
linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                 affine_map<(i) -> (i)>],
                iterator_types = ["parallel"]}
    ins(%d, %partial : memref<10xf64>, memref<10xf64>) outs(%dx : memref<10xf64>) {
^bb0(%g: f64, %p: f64, %o: f64):
  %m = arith.mulf %g, %p : f64
  %a = arith.addf %o, %m : f64
  linalg.yield %a : f64
}
memref.dealloc %d : memref<10xf64>
```

After:

```mlir
%s = memref.load %seed[] : memref<f64>
%g = arith.addf %zero, %s : f64
linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                iterator_types = ["parallel"]}
    ins(%partial : memref<10xf64>) outs(%dx : memref<10xf64>) {
^bb0(%p: f64, %o: f64):
  %m = arith.mulf %g, %p : f64
  %a = arith.addf %o, %m : f64
  linalg.yield %a : f64
}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    let allocs: Vec<Op> = module
        .walk()
        .into_iter()
        .filter(|op| ["memref.alloc", "memref.alloca"].contains(&op.name().as_str()))
        .collect();
    if allocs.is_empty() {
        return pass::unchanged();
    }
    for alloc in allocs {
        forward(alloc);
    }
    Ok(())
}

/// What one use of a uniform buffer does.
enum Use {
    /// `linalg.fill` or an elementwise `linalg.generic` writing it.
    Write(Op),
    /// A read of any element; `Some(i)` for input `i` of a `linalg.generic`.
    Read(Op, Option<usize>),
    Dealloc(Op),
}

/// Replaces the buffer `alloc` allocates by the values written into it,
/// when it qualifies (see the pass description).
fn forward(alloc: Op) {
    let buffer = alloc.result(0);
    let block = alloc.block();
    let users = buffer.users();
    if users.iter().any(|u| u.block() != block) {
        return;
    }
    // Uses in block order; an op using the buffer twice is not one of ours.
    let mut uses = vec![];
    for op in block.ops() {
        if !users.contains(&op) {
            continue;
        }
        match classify(op, buffer) {
            Some(u) => uses.push(u),
            None => return,
        }
    }
    // Every read and every write that reads the old value needs a write
    // before it.
    let mut written = false;
    for u in &uses {
        match *u {
            Use::Write(op) if !written && reads_output(op) => return,
            Use::Write(_) => written = true,
            Use::Read(..) if !written => return,
            _ => {}
        }
    }
    let mut value = None;
    for u in &uses {
        match *u {
            Use::Write(op) => value = Some(written_value(op, value)),
            Use::Read(op, position) => {
                replace_read(op, position, value.expect("a read follows a write"))
            }
            Use::Dealloc(_) => {}
        }
    }
    for u in uses {
        match u {
            Use::Write(op) | Use::Dealloc(op) => op.erase(),
            Use::Read(..) => {}
        }
    }
    alloc.erase();
}

/// What `op` does to `buffer`, if it is a use this pass handles.
fn classify(op: Op, buffer: Value) -> Option<Use> {
    let operands = op.operands();
    if operands.iter().filter(|&&v| v == buffer).count() != 1 {
        return None;
    }
    let position = operands.iter().position(|&v| v == buffer)?;
    match op.name().as_str() {
        "memref.dealloc" => Some(Use::Dealloc(op)),
        "memref.load" if position == 0 => Some(Use::Read(op, None)),
        "linalg.fill" if position == 1 => Some(Use::Write(op)),
        "linalg.generic" => {
            let (ins, outs) = split_ins_outs(op);
            if position < ins {
                Some(Use::Read(op, Some(position)))
            } else if outs == 1 && elementwise_write(op, ins) {
                Some(Use::Write(op))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Whether the `linalg.generic` `op`, whose only output follows its `ins`
/// inputs, writes one value into every element of that output: all loops
/// parallel, the output indexed by a permutation of every loop dimension,
/// every input a scalar or rank-0 memref, and a body of arith and math ops.
fn elementwise_write(op: Op, ins: usize) -> bool {
    let maps = indexing_maps(op);
    let iterators = op
        .attr("iterator_types")
        .map(|i| i.elements())
        .unwrap_or_default();
    let operands = op.operands();
    let all_dims = projected_dims(&maps[ins]).is_some_and(|d| d.len() == iterators.len());
    let scalar_inputs = operands[..ins]
        .iter()
        .zip(&maps)
        .all(|(v, m)| !v.ty().is_memref() || v.ty().shape().is_empty() && m.contains("-> ()"));
    let body = op.regions()[0].entry();
    let pure_body = body.is_some_and(|b| {
        let ops = b.ops();
        ops[..ops.len() - 1].iter().all(|o| {
            let name = o.name();
            (name.starts_with("arith.") || name.starts_with("math.")) && o.regions().is_empty()
        })
    });
    all_dims
        && scalar_inputs
        && pure_body
        && iterators.iter().all(|k| k.to_string().contains("parallel"))
}

/// Whether the write `op` reads the old value of the element it writes.
fn reads_output(op: Op) -> bool {
    op.name() == "linalg.generic"
        && op.regions()[0]
            .entry()
            .is_some_and(|body| !body.args()[split_ins_outs(op).0].is_unused())
}

/// The scalar the write `op` leaves in every element, computed just before
/// `op`; `old` is what every element held before (known when `op` reads it).
fn written_value(op: Op, old: Option<Value>) -> Value {
    if op.name() == "linalg.fill" {
        return op.operand(0);
    }
    let mut b = Builder::before(op);
    let (ins, _) = split_ins_outs(op);
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    let args = body.args();
    let mut mapping: HashMap<Value, Value> = HashMap::new();
    for (i, &v) in op.operands()[..ins].iter().enumerate() {
        let scalar = if v.ty().is_memref() {
            b.value("memref.load", &[v], v.ty().element(), &[])
        } else {
            v
        };
        mapping.insert(args[i], scalar);
    }
    if let Some(old) = old {
        mapping.insert(args[ins], old);
    }
    let ops = body.ops();
    let (terminator, ops) = ops.split_last().expect("linalg.yield");
    b.clone_remapped(ops, &mut mapping);
    let yielded = terminator.operand(0);
    *mapping.get(&yielded).unwrap_or(&yielded)
}

/// Makes the read `op` of a uniform buffer use `value` instead: a load is
/// replaced, and a `linalg.generic` input dropped, its body using `value`.
fn replace_read(op: Op, position: Option<usize>, value: Value) {
    let Some(i) = position else {
        op.result(0).replace_uses(value);
        op.erase();
        return;
    };
    let body = op.regions()[0].entry().expect("linalg.generic has a body");
    body.args()[i].replace_uses(value);
    body.erase_arg(i);
    let mut operands = op.operands();
    operands.remove(i);
    op.set_operands(&operands);
    let (ins, outs) = split_ins_outs(op);
    let ctx = Builder::before(op).ctx;
    op.set_attr(
        "operandSegmentSizes",
        ctx.attr(&format!("array<i32: {}, {}>", ins - 1, outs)),
    );
    let mut maps = indexing_maps(op);
    maps.remove(i);
    op.set_attr("indexing_maps", ctx.attr(&format!("[{}]", maps.join(", "))));
}
