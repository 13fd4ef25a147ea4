//! `--moon-collapse-dims`: a `linalg.generic` on memrefs whose adjacent
//! loops walk adjacent, contiguous memory in every operand becomes one
//! over a single loop for each such run, on collapsed views.
//!
//! A network's elementwise and reduction ops run over `N x C x H x W`
//! with short rows (16 or 32 elements). LLVM unrolls such a short inner
//! loop completely and is then left with a long chain of scalar operations
//! that it vectorizes poorly or not at all (a bias gradient's sum over
//! `H W`); over `H·W` it vectorizes the loop itself.

use moonc_ir::ir::{Builder, Op, Type, Value};
use moonc_ir::linalg::{create_generic, indexing_maps, projected_dims, split_ins_outs, take_body};
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo},
};

/// The registration of `--moon-collapse-dims`.
pub static COLLAPSE_DIMS: PassInfo = PassInfo {
    argument: "moon-collapse-dims",
    summary: "Merge adjacent loops of linalg.generic ops that walk contiguous memory",
    description: r#"
Rewrites each `linalg.generic` on memrefs whose indexing maps are
projected permutations and whose body does not read `linalg.index`: two
adjacent loops of the same kind (parallel or reduction) merge when, in
every operand, either neither indexes a dimension or they index two
adjacent dimensions, in loop order, of a memref with the identity
layout. Runs of such loops become one loop; each operand that has a run
is a `memref.collapse_shape` of it. The body is unchanged. LLVM then
sees one long inner loop instead of a short one that it unrolls and
vectorizes poorly. `moon-bufferize` runs it on the functions it converts
(models from a frontend), after generalizing named ops.

Before:

```mlir
linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                 affine_map<(n, c, h, w) -> (c)>],
                iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
    ins(%dy : memref<8x16x32x32xf32>) outs(%db : memref<16xf32>) { ... }
```

After:

```mlir
%v = memref.collapse_shape %dy [[0], [1], [2, 3]] : memref<8x16x32x32xf32> into memref<8x16x1024xf32>
linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d1)>],
                iterator_types = ["reduction", "parallel", "reduction"]}
    ins(%v : memref<8x16x1024xf32>) outs(%db : memref<16xf32>) { ... }
```
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    collapse_dims(module);
    Ok(())
}

/// Collapses the generics in `op` (see [`COLLAPSE_DIMS`]).
pub(crate) fn collapse_dims(op: Op) {
    for generic in op.walk() {
        if generic.name() == "linalg.generic"
            && let Some(groups) = groups(generic)
        {
            rewrite(generic, &groups);
        }
    }
}

/// The runs of loops of `op` that merge, when at least one does.
fn groups(op: Op) -> Option<Vec<Vec<usize>>> {
    if op.walk().iter().any(|o| o.name() == "linalg.index") || !op.results().is_empty() {
        return None;
    }
    let maps: Vec<Vec<usize>> = indexing_maps(op)
        .iter()
        .map(|m| projected_dims(m))
        .collect::<Option<_>>()?;
    let operands = op.operands();
    let iterators: Vec<String> = op
        .attr("iterator_types")?
        .elements()
        .iter()
        .map(|k| k.to_string())
        .collect();
    let merges = |d: usize| {
        iterators[d] == iterators[d + 1]
            && operands.iter().zip(&maps).all(|(&v, dims)| {
                let at = |d| dims.iter().position(|&e| e == d);
                match (at(d), at(d + 1)) {
                    (None, None) => true,
                    (Some(p), Some(q)) => q == p + 1 && identity(v.ty()),
                    _ => false,
                }
            })
    };
    let mut groups: Vec<Vec<usize>> = vec![];
    for d in 0..iterators.len() {
        match groups.last_mut() {
            Some(group) if d > 0 && merges(d - 1) => group.push(d),
            _ => groups.push(vec![d]),
        }
    }
    (groups.len() < iterators.len()).then_some(groups)
}

/// Whether `ty` is a memref with static sizes and the identity layout.
fn identity(ty: Type) -> bool {
    ty.has_identity_layout() && ty.shape().iter().all(Option::is_some)
}

/// A run of an operand's dimensions that one collapsed loop walks: the
/// loop, and the dimensions' positions.
type Run = (usize, Vec<usize>);

/// Replaces `op` by a generic over `groups` on collapsed views.
fn rewrite(op: Op, groups: &[Vec<usize>]) {
    let mut b = Builder::before(op);
    let group_of = |d: usize| groups.iter().position(|g| g.contains(&d)).expect("a group");
    let dims: Vec<String> = (0..groups.len()).map(|g| format!("d{g}")).collect();
    let dims = dims.join(", ");
    let mut operands = vec![];
    let mut operands_before: Vec<(Value, Vec<Run>)> = vec![];
    let mut maps = vec![];
    for (v, map) in op.operands().into_iter().zip(indexing_maps(op)) {
        let old = projected_dims(&map).expect("checked");
        // The operand's dimensions, grouped as its loops are.
        let mut runs: Vec<Run> = vec![];
        for (position, &d) in old.iter().enumerate() {
            match runs.last_mut() {
                Some((g, run)) if *g == group_of(d) => run.push(position),
                _ => runs.push((group_of(d), vec![position])),
            }
        }
        let results: Vec<String> = runs.iter().map(|(g, _)| format!("d{g}")).collect();
        maps.push(format!("affine_map<({dims}) -> ({})>", results.join(", ")));
        // An operand read and written (in place) is collapsed once.
        let same = operands_before
            .iter()
            .position(|&(w, ref r)| w == v && *r == runs);
        let view = match same {
            _ if runs.len() == old.len() => v,
            Some(i) => operands[i],
            None => collapse(&mut b, v, &runs),
        };
        operands_before.push((v, runs));
        operands.push(view);
    }
    let kinds = op.attr("iterator_types").expect("checked").elements();
    let iterators: Vec<&str> = groups
        .iter()
        .map(|g| {
            if kinds[g[0]].to_string().contains("parallel") {
                "parallel"
            } else {
                "reduction"
            }
        })
        .collect();
    let (ins, _) = split_ins_outs(op);
    create_generic(
        &mut b,
        &operands[..ins],
        &operands[ins..],
        &maps,
        &iterators,
        take_body(op),
    );
    op.erase();
}

/// `v` (static, identity layout) with each run of dimensions in `runs`
/// collapsed into one.
fn collapse(b: &mut Builder, v: Value, runs: &[Run]) -> Value {
    let ty = v.ty();
    let shape: Vec<i64> = ty.shape().into_iter().map(|s| s.expect("static")).collect();
    let sizes: Vec<String> = runs
        .iter()
        .map(|(_, run)| run.iter().map(|&p| shape[p]).product::<i64>().to_string())
        .collect();
    let groups: Vec<String> = runs
        .iter()
        .map(|(_, run)| {
            let items: Vec<String> = run.iter().map(|p| p.to_string()).collect();
            format!("[{}]", items.join(", "))
        })
        .collect();
    let collapsed = b
        .ctx
        .ty(&format!("memref<{}x{}>", sizes.join("x"), ty.element()));
    b.value(
        "memref.collapse_shape",
        &[v],
        collapsed,
        &[(
            "reassociation",
            b.ctx.attr(&format!("[{}]", groups.join(", "))),
        )],
    )
}
