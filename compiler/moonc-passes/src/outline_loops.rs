//! `--moon-outline-loops`: moves each loop nest of a function that has
//! very many of them into a function of its own, so that LLVM optimizes
//! many small functions instead of one huge one.
//!
//! A network of a few hundred layers (ResNet-50 from ONNX) is one function
//! with hundreds of loop nests one after the other, and its gradient twice
//! as many. LLVM's analyses of such a function (scalar evolution walking
//! up the dominator tree from every loop) grow with the square of the loop
//! count: ResNet-50's gradient took 110 s in LLVM, and nearly all of it
//! went there.

use moonc_ir::ir::{Block, Builder, Op, Region, Value, view_root};
use moonc_ir::{
    Error,
    pass::{self, OptionValues, PassInfo, PassOption},
};
use std::collections::HashMap;

/// The registration of `--moon-outline-loops`.
pub static OUTLINE_LOOPS: PassInfo = PassInfo {
    argument: "moon-outline-loops",
    summary: "Move the loop nests of functions with very many of them into functions of their own",
    description: r#"
In every function whose body is one block holding at least `min-loops`
loop nests (`scf.for`, `scf.parallel`, `scf.forall`, `scf.while` at its top
level), each such loop nest becomes a call of a new private function
`@<function>__loop<k>` marked `passthrough = ["noinline"]`. The values the
nest uses from outside become the function's arguments (constants are
copied in instead), and its results the function's results. LLVM's
optimizations work loop by loop anyway; the cost of its analyses grows
with the square of the number of loops in one function, which is what
this bounds. `moon-cpu-pipeline` runs it after lowering linalg to loops.

Before (`min-loops=2`):

```mlir
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c8 step %c1 { ... %a ... }
  scf.for %i = %c0 to %c8 step %c1 { ... %b ... }
  return
}
```

After:

```mlir
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) {
  call @f__loop0(%a) : (memref<8xf32>) -> ()
  call @f__loop1(%b) : (memref<8xf32>) -> ()
  return
}
func.func private @f__loop0(%a: memref<8xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  ...
  scf.for %i = %c0 to %c8 step %c1 { ... %a ... }
  return
}
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[PassOption {
        name: "min-loops",
        description: "the fewest loop nests at the top level of a function that make the pass outline them (0 turns it off)",
        default: 64,
    }],
    run,
};

/// The operations that start a loop nest.
const LOOPS: &[&str] = &["scf.for", "scf.parallel", "scf.forall", "scf.while"];

fn run(module: Op, options: OptionValues) -> Result<(), Error> {
    let min_loops = options.get("min-loops") as usize;
    if min_loops == 0 {
        return pass::unchanged();
    }
    let Some(body) = module.regions().first().and_then(|r| r.entry()) else {
        return pass::unchanged();
    };
    let mut outlined = 0;
    for f in body.ops() {
        if f.name() != "func.func" {
            continue;
        }
        let blocks = f.regions()[0].blocks();
        let [block] = blocks.as_slice() else {
            continue;
        };
        let loops: Vec<Op> = block
            .ops()
            .into_iter()
            .filter(|op| LOOPS.contains(&op.name().as_str()))
            .collect();
        if loops.len() < min_loops {
            continue;
        }
        let name = f
            .attr("sym_name")
            .and_then(|a| a.string())
            .unwrap_or_default();
        for (k, l) in loops.into_iter().enumerate() {
            outline(f, l, &format!("{name}__loop{k}"));
            outlined += 1;
        }
    }
    if outlined == 0 {
        return pass::unchanged();
    }
    Ok(())
}

/// Whether `value` is defined inside `op` (by an operation nested in it or
/// as an argument of one of its blocks).
fn is_inside(value: Value, op: Op) -> bool {
    let mut block: Block = value.block();
    loop {
        let parent = block.parent_op();
        if parent == op {
            return true;
        }
        if parent.name() == "func.func" {
            return false;
        }
        block = parent.block();
    }
}

/// The LLVM function attribute (a `passthrough` string attribute, which
/// moonc-codegen turns into `noalias` parameters) listing the parameters of
/// an outlined nest's LLVM function that are `noalias`, as `1,6`.
pub const NOALIAS_PARAMS: &str = "moon-noalias-params";

/// The LLVM parameters, comma-separated, of the pointers of each memref
/// among `arguments` that is a view of a buffer the function allocates and
/// that no other argument views: no other pointer the nest uses reaches its
/// memory, which LLVM knew of the allocation before outlining. A ranked
/// memref becomes `3 + 2 rank` parameters (allocated and aligned pointers,
/// offset, sizes, strides), anything else one.
fn noalias_params(arguments: &[Value]) -> String {
    let allocated = |root: Value| {
        root.defining_op()
            .is_some_and(|d| ["memref.alloc", "memref.alloca"].contains(&d.name().as_str()))
    };
    let mut params = vec![];
    let mut next = 0;
    for &v in arguments {
        if !v.ty().is_memref() {
            next += 1;
            continue;
        }
        let root = view_root(v);
        let sharing = arguments
            .iter()
            .filter(|&&other| other.ty().is_memref() && view_root(other) == root)
            .count();
        if allocated(root) && sharing == 1 {
            params.extend([next.to_string(), (next + 1).to_string()]);
        }
        next += 3 + 2 * v.ty().shape().len();
    }
    params.join(",")
}

/// Replaces the loop nest `l` of the function `f` by a call of a new
/// function `name` that runs it.
fn outline(f: Op, l: Op, name: &str) {
    let ctx = l.ctx();
    let mut captured: Vec<Value> = vec![];
    for op in std::iter::once(l).chain(l.walk()) {
        for v in op.operands() {
            if !is_inside(v, l) && !captured.contains(&v) {
                captured.push(v);
            }
        }
    }
    let is_constant = |v: &Value| {
        v.defining_op()
            .is_some_and(|d| d.name() == "arith.constant")
    };
    let (constants, arguments): (Vec<Value>, Vec<Value>) =
        captured.into_iter().partition(is_constant);
    let types: Vec<_> = arguments.iter().map(|v| v.ty()).collect();
    let result_types: Vec<_> = l.results().iter().map(|v| v.ty()).collect();
    let list = |types: &[moonc_ir::ir::Type]| {
        types
            .iter()
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let function_type = ctx.attr(&format!("({}) -> ({})", list(&types), list(&result_types)));
    let (region, entry) = Region::with_block(&types, l.loc());
    let mut passthrough = vec!["\"noinline\"".to_string()];
    let noalias = noalias_params(&arguments);
    if !noalias.is_empty() {
        passthrough.push(format!("[\"{NOALIAS_PARAMS}\", \"{noalias}\"]"));
    }
    Builder::after(f).private_function(
        name,
        function_type,
        region,
        &[(
            "passthrough",
            ctx.attr(&format!("[{}]", passthrough.join(", "))),
        )],
    );
    let mut mapping: HashMap<Value, Value> = arguments.iter().copied().zip(entry.args()).collect();
    let mut b = Builder::at_end(entry, l.loc());
    for c in constants {
        let copy = b.insert(c.defining_op().expect("a constant").clone_detached());
        mapping.insert(c, copy.result(0));
    }
    let copy = b.insert(l.clone_detached());
    for op in std::iter::once(copy).chain(copy.walk()) {
        for (i, v) in op.operands().into_iter().enumerate() {
            if let Some(&new) = mapping.get(&v) {
                op.set_operand(i, new);
            }
        }
    }
    b.create("func.return", &copy.results(), &[], &[], &[], &[]);
    let callee = ctx.attr(&format!("@\"{name}\""));
    let call = Builder::before(l).create(
        "func.call",
        &arguments,
        &result_types,
        &[("callee", callee)],
        &[],
        &[],
    );
    for (old, new) in l.results().into_iter().zip(call.results()) {
        old.replace_uses(new);
    }
    l.erase();
}
