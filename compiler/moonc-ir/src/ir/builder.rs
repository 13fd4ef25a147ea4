//! [`Builder`]: creates operations at an insertion point.

use super::{Attr, Block, Ctx, Loc, Op, Region, Type, Value, string_ref};
use mlir_sys as sys;
use std::collections::HashMap;

/// Where a [`Builder`] inserts.
#[derive(Clone, Copy)]
enum Anchor {
    /// Before this operation (which stays put).
    Before(Op),
    /// After this operation; each new operation becomes the anchor, so
    /// operations come out in the order they are built.
    After(Op),
    /// At the end of this block.
    End(Block),
}

/// Creates operations at an insertion point, all at one location.
#[derive(Clone, Copy)]
pub struct Builder {
    pub ctx: Ctx,
    pub loc: Loc,
    anchor: Anchor,
}

impl Builder {
    /// Inserts before `op`, at its location.
    pub fn before(op: Op) -> Builder {
        Builder::at(op, Anchor::Before(op))
    }

    /// Inserts after `op` (in build order), at its location.
    pub fn after(op: Op) -> Builder {
        Builder::at(op, Anchor::After(op))
    }

    /// Appends to the end of `block`, at location `loc`.
    pub fn at_end(block: Block, loc: Loc) -> Builder {
        // SAFETY: the block is live and inside an operation.
        let ctx = Ctx(unsafe { sys::mlirOperationGetContext(block.parent_op().0) });
        Builder {
            ctx,
            loc,
            anchor: Anchor::End(block),
        }
    }

    fn at(op: Op, anchor: Anchor) -> Builder {
        // SAFETY: the operation is live.
        let ctx = Ctx(unsafe { sys::mlirOperationGetContext(op.0) });
        Builder {
            ctx,
            loc: op.loc(),
            anchor,
        }
    }

    /// An operation next to the insertion point (for finding its function).
    pub fn anchor_op(&self) -> Op {
        match self.anchor {
            Anchor::Before(op) | Anchor::After(op) => op,
            Anchor::End(block) => block.parent_op(),
        }
    }

    /// Inserts clones of `ops` (in order), their operands and those of the
    /// operations nested in them renamed by `mapping`, which gains each
    /// result's clone.
    pub fn clone_remapped(&mut self, ops: &[Op], mapping: &mut HashMap<Value, Value>) {
        for &op in ops {
            let clone = self.insert(op.clone_detached());
            for c in std::iter::once(clone).chain(clone.walk()) {
                let remapped: Vec<Value> = (c.operands().iter())
                    .map(|v| *mapping.get(v).unwrap_or(v))
                    .collect();
                c.set_operands(&remapped);
            }
            mapping.extend(op.results().into_iter().zip(clone.results()));
        }
    }

    /// Inserts a detached operation at the insertion point.
    pub fn insert(&mut self, op: Op) -> Op {
        // SAFETY: the anchor is live and `op` is detached.
        unsafe {
            match self.anchor {
                Anchor::Before(next) => {
                    sys::mlirBlockInsertOwnedOperationBefore(
                        sys::mlirOperationGetBlock(next.0),
                        next.0,
                        op.0,
                    );
                }
                Anchor::After(previous) => {
                    sys::mlirBlockInsertOwnedOperationAfter(
                        sys::mlirOperationGetBlock(previous.0),
                        previous.0,
                        op.0,
                    );
                    self.anchor = Anchor::After(op);
                }
                Anchor::End(block) => sys::mlirBlockAppendOwnedOperation(block.0, op.0),
            }
        }
        op
    }

    /// Creates and inserts `name` with the given operands, result types,
    /// attributes, regions and successors. The new operation takes the
    /// bodies of `regions`, leaving them empty.
    pub fn create(
        &mut self,
        name: &str,
        operands: &[Value],
        results: &[Type],
        attrs: &[(&str, Attr)],
        regions: &[Region],
        successors: &[Block],
    ) -> Op {
        // SAFETY: every handle is live; MLIR copies the state's arrays, and
        // takes the bodies of the fresh regions made here.
        unsafe {
            let mut state = sys::mlirOperationStateGet(string_ref(name), self.loc.0);
            let mut operands: Vec<_> = operands.iter().map(|v| v.0).collect();
            let mut results: Vec<_> = results.iter().map(|t| t.0).collect();
            let mut successors: Vec<_> = successors.iter().map(|b| b.0).collect();
            let mut named: Vec<_> = attrs
                .iter()
                .map(|(n, a)| {
                    sys::mlirNamedAttributeGet(
                        sys::mlirIdentifierGet(self.ctx.0, string_ref(n)),
                        a.0,
                    )
                })
                .collect();
            let mut owned: Vec<_> = regions
                .iter()
                .map(|r| {
                    let fresh = sys::mlirRegionCreate();
                    sys::mlirRegionTakeBody(fresh, r.0);
                    fresh
                })
                .collect();
            sys::mlirOperationStateAddOperands(
                &mut state,
                operands.len() as isize,
                operands.as_mut_ptr(),
            );
            sys::mlirOperationStateAddResults(
                &mut state,
                results.len() as isize,
                results.as_mut_ptr(),
            );
            sys::mlirOperationStateAddAttributes(
                &mut state,
                named.len() as isize,
                named.as_mut_ptr(),
            );
            sys::mlirOperationStateAddOwnedRegions(
                &mut state,
                owned.len() as isize,
                owned.as_mut_ptr(),
            );
            sys::mlirOperationStateAddSuccessors(
                &mut state,
                successors.len() as isize,
                successors.as_mut_ptr(),
            );
            let op = Op(sys::mlirOperationCreate(&mut state));
            assert!(!op.0.ptr.is_null(), "MLIR refused to create `{name}`");
            self.insert(op)
        }
    }

    /// Creates a one-result operation without regions and returns its result.
    pub fn value(
        &mut self,
        name: &str,
        operands: &[Value],
        result: Type,
        attrs: &[(&str, Attr)],
    ) -> Value {
        self.create(name, operands, &[result], attrs, &[], &[])
            .result(0)
    }

    /// `arith.constant` of a float (splat for vectors) of type `ty`.
    pub fn float(&mut self, ty: Type, value: f64) -> Value {
        let literal = format!("{value:.17e}");
        let attr = if ty.is_float() {
            self.ctx.attr(&format!("{literal} : {ty}"))
        } else {
            self.ctx.attr(&format!("dense<{literal}> : {ty}"))
        };
        self.value("arith.constant", &[], ty, &[("value", attr)])
    }

    /// A buffer of memref type `ty` allocated by `kind` (`memref.alloc` or
    /// `memref.alloca`) with the given dynamic sizes.
    pub fn alloc(&mut self, kind: &str, sizes: &[Value], ty: Type) -> Value {
        let segments = self.ctx.attr(&format!("array<i32: {}, 0>", sizes.len()));
        self.value(kind, sizes, ty, &[("operandSegmentSizes", segments)])
    }

    /// A buffer of type `ty` with the dynamic sizes of the memref `like`.
    pub fn alloc_like(&mut self, kind: &str, like: Value, ty: Type) -> Value {
        let mut sizes = vec![];
        for (i, d) in like.ty().shape().iter().enumerate() {
            if d.is_none() {
                let i = self.index(i as i64);
                let index = self.ctx.index();
                sizes.push(self.value("memref.dim", &[like, i], index, &[]));
            }
        }
        self.alloc(kind, &sizes, ty)
    }

    /// A fresh `memref.alloc` of the memref `like`'s shape and element
    /// type, with the identity layout (`memref<?x4xf64>` for a strided view
    /// of that shape).
    pub fn alloc_plain_like(&mut self, like: Value) -> Value {
        let ty = like.ty();
        let plain = self
            .ctx
            .ty(&format!("memref<{}{}>", ty.shape_prefix(), ty.element()));
        self.alloc_like("memref.alloc", like, plain)
    }

    /// A fresh buffer (see [`Self::alloc_plain_like`]) holding a copy of
    /// the memref `v`; the caller frees it.
    pub fn copy_of(&mut self, v: Value) -> Value {
        let copy = self.alloc_plain_like(v);
        self.create("memref.copy", &[v, copy], &[], &[], &[], &[]);
        copy
    }

    /// A stack cell `memref<T>` holding zero, for a float type `ty`.
    pub fn zero_cell(&mut self, ty: Type) -> Value {
        let cell = self.alloc("memref.alloca", &[], self.ctx.ty(&format!("memref<{ty}>")));
        let zero = self.float(ty, 0.0);
        self.create("memref.store", &[zero, cell], &[], &[], &[], &[]);
        cell
    }

    /// `scf.parallel` from `lower` to `upper` by `step` (one value per
    /// dimension), without reductions: its induction variables and the
    /// `scf.reduce` that ends its body (insert the body before it).
    pub fn parallel(
        &mut self,
        lower: &[Value],
        upper: &[Value],
        step: &[Value],
    ) -> (Vec<Value>, Op) {
        let n = lower.len();
        let mut operands = lower.to_vec();
        operands.extend(upper);
        operands.extend(step);
        let (region, block) = Region::with_block(&vec![self.ctx.index(); n], self.loc);
        let segments = self.ctx.attr(&format!("array<i32: {n}, {n}, {n}, 0>"));
        self.create(
            "scf.parallel",
            &operands,
            &[],
            &[("operandSegmentSizes", segments)],
            &[region],
            &[],
        );
        region.destroy();
        let reduce = Builder::at_end(block, self.loc).create("scf.reduce", &[], &[], &[], &[], &[]);
        (block.args(), reduce)
    }

    /// `scf.if %condition -> (types)` with an empty `then` and `else`
    /// block (each needs its `scf.yield`).
    pub fn if_else(&mut self, condition: Value, types: &[Type]) -> (Op, Block, Block) {
        let (then_region, then_block) = Region::with_block(&[], self.loc);
        let (else_region, else_block) = Region::with_block(&[], self.loc);
        let op = self.create(
            "scf.if",
            &[condition],
            types,
            &[],
            &[then_region, else_region],
            &[],
        );
        then_region.destroy();
        else_region.destroy();
        (op, then_block, else_block)
    }

    /// `arith.constant` of an index.
    pub fn index(&mut self, value: i64) -> Value {
        let attr = self.ctx.attr(&format!("{value} : index"));
        self.value("arith.constant", &[], self.ctx.index(), &[("value", attr)])
    }

    /// Inserts `func.func private @name` of type `function_type` (an
    /// attribute such as `(f64) -> f64`) with `attributes` besides, taking
    /// the body of `region` (empty for a declaration), which is destroyed.
    pub fn private_function(
        &mut self,
        name: &str,
        function_type: Attr,
        region: Region,
        attributes: &[(&str, Attr)],
    ) -> Op {
        let mut all = vec![
            ("sym_name", self.ctx.attr(&format!("\"{name}\""))),
            ("function_type", function_type),
            ("sym_visibility", self.ctx.attr("\"private\"")),
        ];
        all.extend_from_slice(attributes);
        let function = self.create("func.func", &[], &[], &all, &[region], &[]);
        region.destroy();
        function
    }

    /// `linalg.fill` of `buffer` with the scalar `value`.
    pub fn fill(&mut self, value: Value, buffer: Value) -> Op {
        let segments = self.ctx.attr("array<i32: 1, 1>");
        let shell = Region::new();
        let op = self.create(
            "linalg.fill",
            &[value, buffer],
            &[],
            &[("operandSegmentSizes", segments)],
            &[shell],
            &[],
        );
        shell.destroy();
        // SAFETY: the operation is a live linalg.fill with an empty region.
        unsafe { sys::mlirLinalgFillBuiltinNamedOpRegion(op.0) };
        op
    }
}
