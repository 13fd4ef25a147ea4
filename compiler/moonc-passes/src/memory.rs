//! What moonc's passes need to know about memrefs: which buffer a view
//! views, whether a buffer is allocated here, and whether two buffers
//! overlap at run time.

use moonc_ir::ir::{Builder, Type, Value};

/// Views that stay within the memory of their first operand, the memref
/// they view (not `memref.reinterpret_cast`, which may reach beyond).
pub(crate) const VIEWS: &[&str] = &[
    "memref.subview",
    "memref.cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.transpose",
];

/// The memref `value` is a view of (itself when it is not a view).
pub(crate) fn root(value: Value) -> Value {
    match value.defining_op() {
        Some(op) if VIEWS.contains(&op.name().as_str()) => root(op.operand(0)),
        _ => value,
    }
}

/// Whether `value` is a buffer this function allocates.
pub(crate) fn fresh(value: Value) -> bool {
    value
        .defining_op()
        .is_some_and(|op| ["memref.alloc", "memref.alloca"].contains(&op.name().as_str()))
}

/// Whether the bytes memrefs `w` and `m` span do not overlap, at run time.
pub(crate) fn disjoint(b: &mut Builder, w: Value, m: Value) -> Value {
    let (w_lo, w_hi) = span(b, w);
    let (m_lo, m_hi) = span(b, m);
    let ctx = b.ctx;
    let i1 = ctx.ty("i1");
    let ule = ctx.attr("7 : i64");
    let before = b.value("arith.cmpi", &[w_hi, m_lo], i1, &[("predicate", ule)]);
    let after = b.value("arith.cmpi", &[m_hi, w_lo], i1, &[("predicate", ule)]);
    b.value("arith.ori", &[before, after], i1, &[])
}

/// The first and one-past-the-last byte address the memref `m` can touch,
/// as indices (strides of either sign; an empty memref spans nothing).
fn span(b: &mut Builder, m: Value) -> (Value, Value) {
    let ctx = b.ctx;
    let index = ctx.index();
    let rank = m.ty().shape().len();
    let element = m.ty().element();
    let base_type = ctx.ty(&format!("memref<{element}>"));
    let mut types = vec![base_type, index];
    types.extend(vec![index; 2 * rank]);
    let meta = b.create(
        "memref.extract_strided_metadata",
        &[m],
        &types,
        &[],
        &[],
        &[],
    );
    let results = meta.results();
    let (offset, sizes, strides) = (results[1], &results[2..2 + rank], &results[2 + rank..]);
    let pointer = b.value("memref.extract_aligned_pointer_as_index", &[m], index, &[]);
    let c0 = b.index(0);
    let c1 = b.index(1);
    let width = b.index(element_bytes(element));
    let mut low = offset;
    let mut high = offset;
    let mut empty = None;
    let i1 = ctx.ty("i1");
    for d in 0..rank {
        let last = b.value("arith.subi", &[sizes[d], c1], index, &[]);
        let reach = b.value("arith.muli", &[last, strides[d]], index, &[]);
        let down = b.value("arith.minsi", &[reach, c0], index, &[]);
        let up = b.value("arith.maxsi", &[reach, c0], index, &[]);
        low = b.value("arith.addi", &[low, down], index, &[]);
        high = b.value("arith.addi", &[high, up], index, &[]);
        let zero = b.value(
            "arith.cmpi",
            &[sizes[d], c0],
            i1,
            &[("predicate", ctx.attr("0 : i64"))],
        );
        empty = Some(match empty {
            Some(e) => b.value("arith.ori", &[e, zero], i1, &[]),
            None => zero,
        });
    }
    let high = b.value("arith.addi", &[high, c1], index, &[]);
    let bytes = |b: &mut Builder, v: Value| {
        let scaled = b.value("arith.muli", &[v, width], index, &[]);
        b.value("arith.addi", &[pointer, scaled], index, &[])
    };
    let first = bytes(b, low);
    let mut end = bytes(b, high);
    if let Some(empty) = empty {
        end = b.value("arith.select", &[empty, first, end], index, &[]);
    }
    (first, end)
}

/// The size in bytes of a memref element type.
pub(crate) fn element_bytes(element: Type) -> i64 {
    match element.to_string().as_str() {
        "f16" | "bf16" | "i16" => 2,
        "f32" | "i32" => 4,
        "i8" | "i1" => 1,
        _ => 8,
    }
}
