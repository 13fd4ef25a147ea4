//! Queries on linalg structured operations that several passes share.

use crate::ir::Op;

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
