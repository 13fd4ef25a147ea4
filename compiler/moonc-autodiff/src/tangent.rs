//! The state of forward mode inside one tangent function being generated:
//! the tangent of each active value and the shadow of each active buffer.
//! Structural rules (`rules::Forward::Custom`) work through
//! [`FunctionState`]; forward mode ([`crate::forward`]) drives it.

use crate::{activity::Activity, request::Differentiator};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Ctx, Loc, Op, Type, Value, error_at},
    moon::Activity as Act,
};
use std::collections::HashMap;

/// The type of the tangent of a value of type `ty` with `width` directions.
/// Memrefs get a leading direction dimension and a fully dynamic strided
/// layout inside generated functions (so that views of shadows have types).
pub fn tangent_type(ctx: Ctx, ty: Type, width: u32) -> Type {
    if width == 1 {
        return ty;
    }
    let element = ty.element();
    if ty.is_memref() {
        let rank = ty.shape().len() + 1;
        let strides = vec!["?"; rank].join(", ");
        ctx.ty(&format!(
            "memref<{width}x{}{element}, strided<[{strides}], offset: ?>>",
            ty.shape_prefix()
        ))
    } else {
        ctx.ty(&format!("vector<{width}x{}{element}>", ty.shape_prefix()))
    }
}

/// The tangent type of a memref at the interface of `moon.jvp`: the
/// identity layout.
pub fn interface_shadow_type(ctx: Ctx, ty: Type, width: u32) -> Type {
    if width == 1 {
        return ty;
    }
    ctx.ty(&format!(
        "memref<{width}x{}{}>",
        ty.shape_prefix(),
        ty.element()
    ))
}

/// The per-function state of generating one tangent function; structural
/// rules (`rules::Forward::Custom`) work through it.
pub struct FunctionState<'d> {
    pub diff: &'d mut Differentiator,
    pub activity: Activity,
    pub(crate) tangents: HashMap<Value, Value>,
    /// The number of directions.
    pub width: u32,
    /// The activities of the function's results (for `func.return`).
    pub results: Vec<Act>,
}

impl FunctionState<'_> {
    /// The context.
    pub fn ctx(&self) -> Ctx {
        self.diff.ctx()
    }

    /// The tangent type of `ty` at this width.
    pub fn tangent_type(&self, ty: Type) -> Type {
        tangent_type(self.ctx(), ty, self.width)
    }

    /// Whether `value` is active.
    pub fn is_active(&self, value: Value) -> bool {
        self.activity.is_active(value)
    }

    /// The tangent (or shadow) of `value`, if it has one.
    pub fn tangent(&self, value: Value) -> Option<Value> {
        self.tangents.get(&value).copied()
    }

    /// Records the tangent of `value`.
    pub fn set_tangent(&mut self, value: Value, tangent: Value) {
        self.tangents.insert(value, tangent);
    }

    /// The tangent of `value`, or an explicit zero built with `b`. Memrefs
    /// without a shadow get a fresh zero-filled one.
    pub fn tangent_or_zero(&mut self, b: &mut Builder, value: Value) -> Value {
        if let Some(t) = self.tangent(value) {
            return t;
        }
        if value.ty().is_memref() {
            return self.new_shadow(b, value, "memref.alloc");
        }
        b.float(self.tangent_type(value.ty()), 0.0)
    }

    /// The shadow of an active memref, or a located error.
    pub fn shadow(&self, op: Op, memref: Value) -> Result<Value, Error> {
        self.tangent(memref).ok_or_else(|| {
            error_at(
                op,
                "this memref receives derivatives but has no shadow: pass it as `dup` (or \
                 allocate it inside the differentiated function)",
            )
        })
    }

    /// A zero-filled shadow buffer shaped like `like`, allocated by
    /// `alloc` (`memref.alloc` or `memref.alloca`).
    pub fn new_shadow(&mut self, b: &mut Builder, like: Value, alloc: &str) -> Value {
        let ty = like.ty();
        let allocated_type = interface_shadow_type(self.ctx(), ty, self.width);
        let buffer = b.alloc_like(alloc, like, allocated_type);
        let zero = b.float(ty.element(), 0.0);
        b.fill(zero, buffer);
        let wanted = self.tangent_type(ty);
        if wanted == allocated_type {
            buffer
        } else {
            b.value("memref.cast", &[buffer], wanted, &[])
        }
    }

    /// Replaces `old` by `new`, whose first results are `old`'s and whose
    /// remaining results are the tangents of `old`'s results at `active`.
    pub fn replace_rebuilt(&mut self, old: Op, new: Op, active: &[usize]) {
        let old_results = old.results();
        let new_results = new.results();
        for (i, &r) in old_results.iter().enumerate() {
            self.activity.inherit(r, new_results[i]);
            r.replace_uses(new_results[i]);
        }
        for (j, &i) in active.iter().enumerate() {
            self.tangents
                .insert(new_results[i], new_results[old_results.len() + j]);
        }
        old.erase();
    }

    /// Adds a tangent argument to `block` for each active argument among
    /// `args` (positions in `block.args()`), returning those positions.
    pub fn add_tangent_args(&mut self, block: Block, positions: &[usize]) {
        let args = block.args();
        let loc = op_loc(block);
        for &i in positions {
            let t = block.add_arg(self.tangent_type(args[i].ty()), loc);
            self.tangents.insert(args[i], t);
        }
    }
}

/// The location of the operation that holds `block`.
pub(crate) fn op_loc(block: Block) -> Loc {
    block.parent_op().loc()
}
