//! Queries on linalg structured operations that several passes share.

use crate::Error;
use crate::ir::{Block, Builder, Op, Region, Type, Value, error_at};
use std::collections::HashMap;

/// The number of inputs and outputs of a linalg structured operation.
pub fn split_ins_outs(op: Op) -> (usize, usize) {
    match op.int_array("operandSegmentSizes").as_slice() {
        [ins, outs] => (*ins as usize, *outs as usize),
        _ => (op.operands().len(), 0),
    }
}

/// The indexing maps of the `linalg.generic` `op`, as text.
pub fn indexing_maps(op: Op) -> Vec<String> {
    op.attr("indexing_maps")
        .expect("a linalg.generic has indexing_maps")
        .elements()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// The iterator kinds of the `linalg.generic` `op` (`"parallel"` or
/// `"reduction"`), one per loop.
pub fn iterator_kinds(op: Op) -> Vec<&'static str> {
    op.attr("iterator_types")
        .expect("a linalg.generic has iterator_types")
        .elements()
        .iter()
        .map(|k| {
            if k.to_string().contains("parallel") {
                "parallel"
            } else {
                "reduction"
            }
        })
        .collect()
}

/// The dimensions an affine map's results name (`None` unless each result
/// is a distinct bare dimension), e.g. `[1, 0]` for `(d0, d1) -> (d1, d0)`.
pub fn projected_dims(map: &str) -> Option<Vec<usize>> {
    let results = map.split("->").nth(1)?;
    let results = results.trim().trim_end_matches('>').trim();
    let inner = results.strip_prefix('(')?.strip_suffix(')')?;
    let mut dims = vec![];
    for r in inner.split(',').map(str::trim).filter(|r| !r.is_empty()) {
        let d: usize = r.strip_prefix('d')?.parse().ok()?;
        if dims.contains(&d) {
            return None;
        }
        dims.push(d);
    }
    Some(dims)
}

/// The result expressions of an affine map's text, split at its top-level
/// commas: `["d0", "d2 * 2 + d5"]` for `(d0, d2, d5) -> (d0, d2 * 2 + d5)`.
/// `None` when the text is not an affine map or the map has symbols.
pub fn map_results(map: &str) -> Option<Vec<String>> {
    let (domain, results) = map.split_once("->")?;
    if domain.contains('[') {
        return None;
    }
    let results = results.trim().trim_end_matches('>').trim();
    let inner = results.strip_prefix('(')?.strip_suffix(')')?;
    let mut out = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(inner[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !inner.trim().is_empty() {
        out.push(inner[start..].trim().to_string());
    }
    Some(out)
}

/// The number of dimensions of an affine map's text (`3` for
/// `(d0, d1, d2) -> (d0)`).
pub fn map_rank(map: &str) -> usize {
    let domain = map.split("->").next().unwrap_or("");
    let domain = domain.rsplit('(').next().unwrap_or("");
    domain.split(',').filter(|d| d.contains('d')).count()
}

/// The dimension a map result names when it is a bare dimension (`d3`).
pub fn bare_dim(result: &str) -> Option<usize> {
    result.strip_prefix('d')?.parse().ok()
}

/// The indexing maps of any linalg structured operation (named or
/// generic), as text, from its `LinalgOp` interface: a named operation
/// such as `linalg.conv_2d_nchw_fchw` computes them from its strides and
/// dilations. `None` when `op` is not a linalg structured operation.
pub fn structured_indexing_maps(op: Op) -> Option<Vec<String>> {
    // SAFETY: the operation is live; the function returns a null
    // attribute for operations that are not `LinalgOp`s.
    let raw = unsafe { mlir_sys::mlirLinalgGetIndexingMapsAttribute(op.0) };
    if raw.ptr.is_null() {
        return None;
    }
    Some(
        crate::ir::Attr(raw)
            .elements()
            .iter()
            .map(|m| m.to_string())
            .collect(),
    )
}

/// The iterator kinds (`"parallel"` or `"reduction"`) of a structured
/// operation of `rank` loops whose outputs have the maps `out_maps`: a
/// dimension is parallel when an output is indexed by it. This is how the
/// named operations are defined (their outputs are indexed by projected
/// permutations of the parallel dimensions).
pub fn iterators_from_outputs(rank: usize, out_maps: &[String]) -> Vec<&'static str> {
    let named: Vec<usize> = out_maps
        .iter()
        .filter_map(|m| map_results(m))
        .flatten()
        .filter_map(|r| bare_dim(&r))
        .collect();
    (0..rank)
        .map(|d| {
            if named.contains(&d) {
                "parallel"
            } else {
                "reduction"
            }
        })
        .collect()
}

/// Runs the `linalg.generic` `op` on memrefs one iteration at a time: a
/// nest of `scf.for` loops over its iteration space, in lexicographic
/// order (the outermost loop is `d0`), around `op` itself, which becomes
/// a generic of rank 0 on 0-d views (`memref.subview`) of its operands at
/// each iteration's indices (its `linalg.index` operations become the
/// loops' induction variables). Unlike the generic it was, the nest may
/// write an output through any affine map (a non-injective one
/// accumulates, as each iteration reads the element it then writes), and
/// its order is fixed, so bodies that depend on it run faithfully. The
/// body's block, arguments and operations keep their identity. Each
/// dimension's extent comes from an operand whose map names it bare; a
/// located error when there is none, or when a map has symbols.
pub fn lower_to_loops(op: Op) -> Result<(), Error> {
    let maps = indexing_maps(op);
    let operands = op.operands();
    let rank = op.attr("iterator_types").map_or(0, |a| a.elements().len());
    let results: Vec<Vec<String>> = maps
        .iter()
        .map(|m| map_results(m))
        .collect::<Option<_>>()
        .ok_or_else(|| error_at(op, "cannot lower a linalg.generic whose maps have symbols"))?;
    if rank == 0 {
        return Ok(());
    }
    let mut b = Builder::before(op);
    let ctx = b.ctx;
    let index = ctx.index();
    // The extent of each dimension.
    let mut sizes = vec![];
    for d in 0..rank {
        let found = operands.iter().zip(&results).find_map(|(v, rs)| {
            let p = rs.iter().position(|r| bare_dim(r) == Some(d))?;
            v.ty().is_memref().then_some((*v, p))
        });
        let Some((v, p)) = found else {
            return Err(error_at(
                op,
                &format!("no operand of this linalg.generic gives the extent of dimension d{d}"),
            ));
        };
        sizes.push(match v.ty().shape()[p] {
            Some(n) => b.index(n),
            None => {
                let p = b.index(p as i64);
                b.value("memref.dim", &[v, p], index, &[])
            }
        });
    }
    let zero = b.index(0);
    let one = b.index(1);
    let loc = op.loc();
    let mut ivs = vec![];
    for &size in &sizes {
        let (region, block) = Region::with_block(&[index], loc);
        b.create("scf.for", &[zero, size, one], &[], &[], &[region], &[]);
        region.destroy();
        let end = Builder::at_end(block, loc).create("scf.yield", &[], &[], &[], &[], &[]);
        ivs.push(block.args()[0]);
        b = Builder::before(end);
    }
    let domain: Vec<String> = (0..rank).map(|d| format!("d{d}")).collect();
    let domain = domain.join(", ");
    let dynamic = i64::MIN;
    let mut applied: HashMap<String, Value> = HashMap::new();
    let mut views = vec![];
    for (&v, rs) in operands.iter().zip(&results) {
        if !v.ty().is_memref() || rs.is_empty() {
            views.push(v);
            continue;
        }
        let mut all = vec![v];
        for r in rs {
            all.push(match bare_dim(r) {
                Some(d) => ivs[d],
                None => *applied.entry(r.clone()).or_insert_with(|| {
                    let map = ctx.attr(&format!("affine_map<({domain}) -> ({r})>"));
                    b.value("affine.apply", &ivs, index, &[("map", map)])
                }),
            });
        }
        let n = rs.len();
        let list = |x: i64| vec![x.to_string(); n].join(", ");
        let view = ctx.ty(&format!(
            "memref<{}, strided<[], offset: ?>>",
            v.ty().element()
        ));
        views.push(b.value(
            "memref.subview",
            &all,
            view,
            &[
                (
                    "static_offsets",
                    ctx.attr(&format!("array<i64: {}>", list(dynamic))),
                ),
                (
                    "static_sizes",
                    ctx.attr(&format!("array<i64: {}>", list(1))),
                ),
                (
                    "static_strides",
                    ctx.attr(&format!("array<i64: {}>", list(1))),
                ),
                (
                    "operandSegmentSizes",
                    ctx.attr(&format!("array<i32: 1, {n}, 0, 0>")),
                ),
            ],
        ));
    }
    op.move_before(b.anchor_op());
    op.set_operands(&views);
    let scalar = vec!["affine_map<() -> ()>"; operands.len()].join(", ");
    op.set_attr("indexing_maps", ctx.attr(&format!("[{scalar}]")));
    op.set_attr("iterator_types", ctx.attr("[]"));
    for inner in op.walk() {
        if inner.name() == "linalg.index" {
            let d = inner
                .attr("dim")
                .and_then(|a| {
                    a.to_string()
                        .split(':')
                        .next()?
                        .trim()
                        .parse::<usize>()
                        .ok()
                })
                .ok_or_else(|| error_at(inner, "a linalg.index without a dimension"))?;
            inner.result(0).replace_uses(ivs[d]);
            inner.erase();
        }
    }
    Ok(())
}

/// A new region holding the body block of `op` (a linalg operation),
/// detached from it, for a new operation to take: the block, its
/// arguments and its operations keep their identity.
pub fn take_body(op: Op) -> Region {
    let region = Region::new();
    if let Some(block) = op.regions().first().and_then(|r| r.entry()) {
        // SAFETY: the block is live and owned by `op`'s region, from which
        // it is detached and given to the new region.
        unsafe {
            mlir_sys::mlirBlockDetach(block.0);
            mlir_sys::mlirRegionAppendOwnedBlock(region.0, block.0);
        }
    }
    region
}

/// Builds a `linalg.generic` over memrefs with `b`: `ins`, `outs`, the
/// indexing maps and iterator kinds as text. Returns the operation, its
/// body block and the body's `linalg.yield` (yielding nothing yet).
pub fn build_generic(
    b: &mut Builder,
    ins: &[Value],
    outs: &[Value],
    maps: &[String],
    iterators: &[&str],
) -> (Op, Block, Op) {
    let element = |v: &Value| {
        if v.ty().is_memref() {
            v.ty().element()
        } else {
            v.ty()
        }
    };
    let types: Vec<Type> = ins.iter().chain(outs).map(element).collect();
    let (region, block) = Region::with_block(&types, b.loc);
    let op = create_generic(b, ins, outs, maps, iterators, region);
    let yield_ = Builder::at_end(block, b.loc).create("linalg.yield", &[], &[], &[], &[], &[]);
    (op, block, yield_)
}

/// Creates with `b` a `linalg.generic` on `ins` and `outs`, with the maps
/// as text, the iterator kinds (`parallel`, `reduction`) and `body` (whose
/// blocks it takes).
pub fn create_generic(
    b: &mut Builder,
    ins: &[Value],
    outs: &[Value],
    maps: &[String],
    iterators: &[&str],
    body: Region,
) -> Op {
    let ctx = b.ctx;
    let operands: Vec<Value> = ins.iter().chain(outs).copied().collect();
    let iterators: Vec<String> = iterators
        .iter()
        .map(|k| format!("#linalg.iterator_type<{k}>"))
        .collect();
    let op = b.create(
        "linalg.generic",
        &operands,
        &[],
        &[
            ("indexing_maps", ctx.attr(&format!("[{}]", maps.join(", ")))),
            (
                "iterator_types",
                ctx.attr(&format!("[{}]", iterators.join(", "))),
            ),
            (
                "operandSegmentSizes",
                ctx.attr(&format!("array<i32: {}, {}>", ins.len(), outs.len())),
            ),
        ],
        &[body],
        &[],
    );
    body.destroy();
    op
}
