//! A thin, copyable view of MLIR's C API for rewriting: handles to
//! operations, values, blocks, regions, types and attributes that can be
//! hashed and stored in tables without melior's lifetimes, and a
//! [`Builder`] that creates operations at an insertion point.
//!
//! Every handle is only valid while the IR it points into is alive and not
//! erased; the differentiation passes hold them for the duration of one
//! pass run over a module they own.

use crate::Error;

mod builder;
pub use builder::Builder;

use mlir_sys as sys;
use std::{ffi::c_void, fmt};

/// `text` as a borrowed MLIR string reference.
fn string_ref(text: &str) -> sys::MlirStringRef {
    sys::MlirStringRef {
        data: text.as_ptr().cast(),
        length: text.len(),
    }
}

/// Prints an MLIR object through its `print` callback into a `String`.
fn print_with(print: impl FnOnce(sys::MlirStringCallback, *mut c_void)) -> String {
    unsafe extern "C" fn append(text: sys::MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the `Vec<u8>` below; MLIR passes valid bytes.
        unsafe {
            let out = &mut *(data as *mut Vec<u8>);
            out.extend_from_slice(std::slice::from_raw_parts(text.data.cast(), text.length));
        }
    }
    let mut out = Vec::<u8>::new();
    print(Some(append), &mut out as *mut Vec<u8> as *mut c_void);
    String::from_utf8_lossy(&out).into_owned()
}

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident, $raw:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name(pub $raw);
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                self.0.ptr == other.0.ptr
            }
        }
        impl Eq for $name {}
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                (self.0.ptr as usize).hash(state)
            }
        }
    };
}

handle!(
    /// An operation.
    Op,
    sys::MlirOperation
);
handle!(
    /// An SSA value: an operation result or a block argument.
    Value,
    sys::MlirValue
);
handle!(
    /// A block.
    Block,
    sys::MlirBlock
);
handle!(
    /// A region.
    Region,
    sys::MlirRegion
);
handle!(
    /// A (uniqued) type.
    Type,
    sys::MlirType
);
handle!(
    /// A (uniqued) attribute.
    Attr,
    sys::MlirAttribute
);

/// A context, for making types and attributes.
#[derive(Clone, Copy)]
pub struct Ctx(pub sys::MlirContext);

/// A source location.
#[derive(Clone, Copy)]
pub struct Loc(pub sys::MlirLocation);

impl fmt::Display for Loc {
    /// MLIR's spelling: `loc("file.mlir":3:8)`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // SAFETY: the location is live; the callback appends its text.
        let text =
            print_with(|callback, data| unsafe { sys::mlirLocationPrint(self.0, callback, data) });
        f.write_str(&text)
    }
}

impl From<Op> for Loc {
    fn from(op: Op) -> Loc {
        op.loc()
    }
}

impl From<melior::ir::Location<'_>> for Loc {
    fn from(location: melior::ir::Location<'_>) -> Loc {
        Loc(location.to_raw())
    }
}

/// Operations whose memref result is a view of their first operand.
pub const VIEW_OPS: &[&str] = &[
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.transpose",
    "memref.view",
];

/// The buffer a memref value views: the start of its chain of views.
pub fn view_root(value: Value) -> Value {
    match value.defining_op() {
        Some(op) if VIEW_OPS.contains(&op.name().as_str()) => view_root(op.operand(0)),
        _ => value,
    }
}

/// Runs `passes` (created by MLIR's C API, owned by the pass manager
/// made here) on `op`, whose operation name is `anchor`
/// (`builtin.module`, `func.func`). The passes report their failures as
/// diagnostics; the error says only that they did.
pub fn run_passes(op: Op, anchor: &str, passes: &[sys::MlirPass]) -> Result<(), Error> {
    // SAFETY: the pass manager is created, used and destroyed here; it
    // takes ownership of the passes; the operation is live.
    let succeeded = unsafe {
        let pm = sys::mlirPassManagerCreateOnOperation(op.ctx().0, string_ref(anchor));
        for &pass in passes {
            sys::mlirPassManagerAddOwnedPass(pm, pass);
        }
        let result = sys::mlirPassManagerRunOnOp(pm, op.0);
        sys::mlirPassManagerDestroy(pm);
        result.value != 0
    };
    if succeeded {
        Ok(())
    } else {
        Err(Error::Reported)
    }
}

/// Runs the textual pass `pipeline` (MLIR's own passes, e.g.
/// `one-shot-bufferize{allow-return-allocs-from-loops}`) on `op`, whose
/// operation name is `anchor`, like [`run_passes`].
pub fn run_pipeline(op: Op, anchor: &str, pipeline: &str) -> Result<(), Error> {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    REGISTERED.call_once(|| {
        melior::utility::register_all_passes();
        crate::pipeline::register_pipelines();
    });
    /// Appends a piece of the parser's message to the `String` at `data`.
    unsafe extern "C" fn append(piece: sys::MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `String` below, `piece` valid for the call.
        unsafe {
            let bytes = std::slice::from_raw_parts(piece.data.cast::<u8>(), piece.length);
            (*data.cast::<String>()).push_str(&String::from_utf8_lossy(bytes));
        }
    }
    let mut message = String::new();
    // SAFETY: as in `run_passes`; the pipeline text and `message` outlive
    // the calls that read and append to them.
    let succeeded = unsafe {
        let pm = sys::mlirPassManagerCreateOnOperation(op.ctx().0, string_ref(anchor));
        let parsed = sys::mlirOpPassManagerAddPipeline(
            sys::mlirPassManagerGetAsOpPassManager(pm),
            string_ref(pipeline),
            Some(append),
            (&raw mut message).cast(),
        );
        let result = if parsed.value == 0 {
            parsed
        } else {
            sys::mlirPassManagerRunOnOp(pm, op.0)
        };
        sys::mlirPassManagerDestroy(pm);
        if parsed.value == 0 {
            return Err(error_at(
                op,
                &format!(
                    "internal error: moonc's pass pipeline `{pipeline}` does not parse: {}",
                    message.trim()
                ),
            ));
        }
        result.value != 0
    };
    if succeeded {
        Ok(())
    } else {
        Err(Error::Reported)
    }
}

/// Reports `message` as an error at `at` (an operation or a location) to
/// the context's diagnostic handlers and returns the error that says so:
/// moonc's one way to report a located error.
pub fn error_at(at: impl Into<Loc>, message: &str) -> Error {
    let text = std::ffi::CString::new(message.replace('\0', " ")).expect("NUL bytes were replaced");
    // SAFETY: the location is live and the message NUL-terminated.
    unsafe { sys::mlirEmitError(at.into().0, text.as_ptr()) };
    Error::Reported
}

impl Ctx {
    /// Parses a type; panics on a malformed type (a bug in a rule).
    pub fn ty(self, text: &str) -> Type {
        // SAFETY: the context is live; the text is read during the call.
        let raw = unsafe { sys::mlirTypeParseGet(self.0, string_ref(text)) };
        assert!(
            !raw.ptr.is_null(),
            "moonc-autodiff built a bad type `{text}`"
        );
        Type(raw)
    }

    /// Parses an attribute; panics on a malformed attribute (a bug).
    pub fn attr(self, text: &str) -> Attr {
        // SAFETY: as for `ty`.
        let raw = unsafe { sys::mlirAttributeParseGet(self.0, string_ref(text)) };
        assert!(
            !raw.ptr.is_null(),
            "moonc-autodiff built a bad attribute `{text}`"
        );
        Attr(raw)
    }

    /// The `index` type.
    pub fn index(self) -> Type {
        self.ty("index")
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // SAFETY: the type is live.
        f.write_str(&print_with(|cb, data| unsafe {
            sys::mlirTypePrint(self.0, cb, data)
        }))
    }
}

impl fmt::Display for Attr {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        // SAFETY: the attribute is live.
        f.write_str(&print_with(|cb, data| unsafe {
            sys::mlirAttributePrint(self.0, cb, data)
        }))
    }
}

impl Type {
    /// The context that owns the type.
    pub fn ctx(self) -> Ctx {
        // SAFETY: the type is live.
        Ctx(unsafe { sys::mlirTypeGetContext(self.0) })
    }

    /// A scalar float type.
    pub fn is_float(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsAFloat(self.0) }
    }

    /// The index type.
    pub fn is_index(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsAIndex(self.0) }
    }

    /// An integer type.
    pub fn is_integer(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsAInteger(self.0) }
    }

    /// A vector type.
    pub fn is_vector(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsAVector(self.0) }
    }

    /// A ranked memref type.
    pub fn is_memref(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsAMemRef(self.0) }
    }

    /// A ranked tensor type.
    pub fn is_tensor(self) -> bool {
        // SAFETY: the type is live.
        unsafe { sys::mlirTypeIsARankedTensor(self.0) }
    }

    /// The element type of a shaped type, or the type itself.
    pub fn element(self) -> Type {
        // SAFETY: the type is live and checked to be shaped.
        unsafe {
            if sys::mlirTypeIsAShaped(self.0) {
                Type(sys::mlirShapedTypeGetElementType(self.0))
            } else {
                self
            }
        }
    }

    /// The dimensions of a shaped type (`None` for dynamic ones).
    pub fn shape(self) -> Vec<Option<i64>> {
        // SAFETY: the type is live and checked to be shaped and ranked.
        unsafe {
            if !sys::mlirTypeIsAShaped(self.0) || !sys::mlirShapedTypeHasRank(self.0) {
                return vec![];
            }
            (0..sys::mlirShapedTypeGetRank(self.0))
                .map(|i| {
                    let size = sys::mlirShapedTypeGetDimSize(self.0, i as isize);
                    (!sys::mlirShapedTypeIsDynamicSize(size)).then_some(size)
                })
                .collect()
        }
    }

    /// Whether values of this type carry a derivative: floats and vectors
    /// of floats (memrefs of floats carry one in a shadow buffer).
    pub fn is_differentiable(self) -> bool {
        self.is_float() || (self.is_vector() && self.element().is_float())
    }

    /// A memref of floats.
    pub fn is_float_memref(self) -> bool {
        self.is_memref() && self.element().is_float()
    }

    /// `AxBx` for the shape of a shaped type (`?` for dynamic sizes).
    pub fn shape_prefix(self) -> String {
        self.shape()
            .iter()
            .map(|d| d.map_or("?x".to_string(), |n| format!("{n}x")))
            .collect()
    }

    /// A memref with the identity layout (row-major and contiguous) in the
    /// default memory space: `memref<4x?xf32>`.
    pub fn has_identity_layout(self) -> bool {
        self.is_memref()
            && self.to_string() == format!("memref<{}{}>", self.shape_prefix(), self.element())
    }
}

impl Value {
    /// The type of the value.
    pub fn ty(self) -> Type {
        // SAFETY: the value is live.
        Type(unsafe { sys::mlirValueGetType(self.0) })
    }

    /// The operation that defines the value, if it is a result.
    pub fn defining_op(self) -> Option<Op> {
        // SAFETY: the value is live; checked to be a result.
        unsafe { sys::mlirValueIsAOpResult(self.0).then(|| Op(sys::mlirOpResultGetOwner(self.0))) }
    }

    /// The value of the `arith.constant` of type index defining the value.
    pub fn index_constant(self) -> Option<i64> {
        let c = self
            .defining_op()
            .filter(|d| d.name() == "arith.constant")?;
        c.attr("value")?
            .to_string()
            .strip_suffix(" : index")?
            .parse()
            .ok()
    }

    /// Whether nothing uses the value.
    pub fn is_unused(self) -> bool {
        // SAFETY: the value is live.
        unsafe { sys::mlirOpOperandIsNull(sys::mlirValueGetFirstUse(self.0)) }
    }

    /// The block that defines the value: the owner of a block argument, or
    /// the block of the defining operation.
    pub fn block(self) -> Block {
        match self.defining_op() {
            Some(op) => op.block(),
            // SAFETY: the value is live and not a result, so an argument.
            None => Block(unsafe { sys::mlirBlockArgumentGetOwner(self.0) }),
        }
    }

    /// The position of a block argument in its block.
    pub fn arg_number(self) -> usize {
        // SAFETY: the value is a live block argument.
        unsafe { sys::mlirBlockArgumentGetArgNumber(self.0) as usize }
    }

    /// The operations that use the value (once per use).
    pub fn users(self) -> Vec<Op> {
        let mut users = vec![];
        // SAFETY: the value is live; iteration stops at null.
        unsafe {
            let mut operand = sys::mlirValueGetFirstUse(self.0);
            while !sys::mlirOpOperandIsNull(operand) {
                users.push(Op(sys::mlirOpOperandGetOwner(operand)));
                operand = sys::mlirOpOperandGetNextUse(operand);
            }
        }
        users
    }

    /// Makes every user of `self` use `with` instead.
    pub fn replace_uses(self, with: Value) {
        // SAFETY: both values are live.
        unsafe { sys::mlirValueReplaceAllUsesOfWith(self.0, with.0) }
    }
}

impl Op {
    /// The context the operation belongs to.
    pub fn ctx(self) -> Ctx {
        // SAFETY: the operation is live.
        Ctx(unsafe { sys::mlirOperationGetContext(self.0) })
    }

    /// The operation's name, e.g. `arith.addf`.
    pub fn name(self) -> String {
        // SAFETY: the operation is live.
        let id = unsafe { sys::mlirOperationGetName(self.0) };
        // SAFETY: identifiers live as long as the context.
        let text = unsafe { sys::mlirIdentifierStr(id) };
        // SAFETY: MLIR gives valid UTF-8 names.
        unsafe {
            std::str::from_utf8_unchecked(std::slice::from_raw_parts(text.data.cast(), text.length))
        }
        .to_string()
    }

    /// The location of the operation.
    pub fn loc(self) -> Loc {
        // SAFETY: the operation is live.
        Loc(unsafe { sys::mlirOperationGetLocation(self.0) })
    }

    /// The operation's operands.
    pub fn operands(self) -> Vec<Value> {
        // SAFETY: the operation is live; indices are in range.
        unsafe {
            (0..sys::mlirOperationGetNumOperands(self.0))
                .map(|i| Value(sys::mlirOperationGetOperand(self.0, i)))
                .collect()
        }
    }

    /// Operand `i`.
    pub fn operand(self, i: usize) -> Value {
        self.operands()[i]
    }

    /// The operation's results.
    pub fn results(self) -> Vec<Value> {
        // SAFETY: the operation is live; indices are in range.
        unsafe {
            (0..sys::mlirOperationGetNumResults(self.0))
                .map(|i| Value(sys::mlirOperationGetResult(self.0, i)))
                .collect()
        }
    }

    /// Result `i`.
    pub fn result(self, i: usize) -> Value {
        self.results()[i]
    }

    /// The operation's regions.
    pub fn regions(self) -> Vec<Region> {
        // SAFETY: the operation is live; indices are in range.
        unsafe {
            (0..sys::mlirOperationGetNumRegions(self.0))
                .map(|i| Region(sys::mlirOperationGetRegion(self.0, i)))
                .collect()
        }
    }

    /// The successor blocks of a terminator.
    pub fn successors(self) -> Vec<Block> {
        // SAFETY: the operation is live; indices are in range.
        unsafe {
            (0..sys::mlirOperationGetNumSuccessors(self.0))
                .map(|i| Block(sys::mlirOperationGetSuccessor(self.0, i)))
                .collect()
        }
    }

    /// The attribute called `name`, if the operation has it.
    pub fn attr(self, name: &str) -> Option<Attr> {
        // SAFETY: the operation is live.
        let raw = unsafe { sys::mlirOperationGetAttributeByName(self.0, string_ref(name)) };
        (!raw.ptr.is_null()).then_some(Attr(raw))
    }

    /// Every attribute of the operation, inherent and discardable.
    pub fn attrs(self) -> Vec<(String, Attr)> {
        // SAFETY: the operation is live; indices are in range; names are
        // uniqued in the context.
        unsafe {
            (0..sys::mlirOperationGetNumAttributes(self.0))
                .map(|i| {
                    let named = sys::mlirOperationGetAttribute(self.0, i);
                    let name = sys::mlirIdentifierStr(named.name);
                    let bytes = std::slice::from_raw_parts(name.data.cast::<u8>(), name.length);
                    (
                        String::from_utf8_lossy(bytes).into_owned(),
                        Attr(named.attribute),
                    )
                })
                .collect()
        }
    }

    /// Sets (or replaces) the attribute called `name`.
    pub fn set_attr(self, name: &str, value: Attr) {
        // SAFETY: the operation and attribute are live.
        unsafe { sys::mlirOperationSetAttributeByName(self.0, string_ref(name), value.0) }
    }

    /// Removes the attribute called `name`, if present.
    pub fn remove_attr(self, name: &str) {
        // SAFETY: the operation is live.
        unsafe {
            sys::mlirOperationRemoveAttributeByName(self.0, string_ref(name));
        }
    }

    /// Replaces all operands.
    pub fn set_operands(self, operands: &[Value]) {
        let raw: Vec<sys::MlirValue> = operands.iter().map(|v| v.0).collect();
        // SAFETY: the operation and values are live.
        unsafe { sys::mlirOperationSetOperands(self.0, raw.len() as isize, raw.as_ptr()) }
    }

    /// Replaces operand `i`.
    pub fn set_operand(self, i: usize, value: Value) {
        // SAFETY: the operation and value are live.
        unsafe { sys::mlirOperationSetOperand(self.0, i as isize, value.0) }
    }

    /// Replaces every operand that is `from` by `to`.
    pub fn replace_operand(self, from: Value, to: Value) {
        for (i, v) in self.operands().into_iter().enumerate() {
            if v == from {
                self.set_operand(i, to);
            }
        }
    }

    /// The block that holds the operation.
    pub fn block(self) -> Block {
        // SAFETY: the operation is live.
        Block(unsafe { sys::mlirOperationGetBlock(self.0) })
    }

    /// The operation holding this one.
    pub fn parent(self) -> Option<Op> {
        // SAFETY: the operation is live.
        let raw = unsafe { sys::mlirOperationGetParentOperation(self.0) };
        (!raw.ptr.is_null()).then_some(Op(raw))
    }

    /// The `func.func` that holds the operation, if any.
    pub fn enclosing_function(self) -> Option<Op> {
        let mut op = self.parent()?;
        while op.name() != "func.func" {
            op = op.parent()?;
        }
        Some(op)
    }

    /// A deep copy (with regions), not inserted anywhere.
    pub fn clone_detached(self) -> Op {
        // SAFETY: the operation is live.
        Op(unsafe { sys::mlirOperationClone(self.0) })
    }

    /// A copy of the operation inserted right after it.
    pub fn clone_after(self) -> Op {
        let clone = self.clone_detached();
        // SAFETY: both are live; the block takes the detached clone.
        unsafe {
            sys::mlirBlockInsertOwnedOperationAfter(
                sys::mlirOperationGetBlock(self.0),
                self.0,
                clone.0,
            )
        };
        clone
    }

    /// A copy of the operation inserted right before it.
    pub fn clone_before(self) -> Op {
        let clone = self.clone_detached();
        // SAFETY: both are live; the block takes the detached clone.
        unsafe {
            sys::mlirBlockInsertOwnedOperationBefore(
                sys::mlirOperationGetBlock(self.0),
                self.0,
                clone.0,
            )
        };
        clone
    }

    /// Moves the operation just before `other` (in another block, maybe).
    pub fn move_before(self, other: Op) {
        // SAFETY: both operations are live.
        unsafe { sys::mlirOperationMoveBefore(self.0, other.0) }
    }

    /// Erases the operation (which must have no used results).
    pub fn erase(self) {
        self.erase_nested();
        // SAFETY: the operation is live; callers drop every handle to it.
        unsafe { sys::mlirOperationDestroy(self.0) }
    }

    /// How many operations nest in this one, and how deeply: depth 0
    /// without regions, 1 for a function of straight-line code, 2 for a
    /// loop in it, ...
    pub fn nest_size(self) -> (usize, usize) {
        let (mut count, mut deepest) = (0, 0);
        let mut pending = vec![(self, 0)];
        while let Some((op, depth)) = pending.pop() {
            count += 1;
            deepest = deepest.max(depth);
            for region in op.regions() {
                for block in region.blocks() {
                    pending.extend(block.ops().into_iter().map(|o| (o, depth + 1)));
                }
            }
        }
        (count - 1, deepest)
    }

    /// Erases every operation nested in this one, innermost and last
    /// first, so that each has no regions left and no used results when
    /// it goes. MLIR's own destruction of a nest drops the references of
    /// the whole subtree at every level, which took seconds (quadratic in
    /// the depth) for 5000 nested `scf.if`.
    fn erase_nested(self) {
        for op in self.walk().into_iter().rev() {
            // SAFETY: its nested operations are gone and its results'
            // users, later in its block or nested in later operations,
            // too; nothing else holds it.
            unsafe { sys::mlirOperationDestroy(op.0) }
        }
    }

    /// Replaces this named linalg operation (`linalg.broadcast`,
    /// `linalg.conv_2d_nchw_fchw`, ...) by its `linalg.generic`, which is
    /// returned; `None` (and nothing changed) when it is not one.
    pub fn generalize_linalg(self) -> Option<Op> {
        // SAFETY: the operation is live; MLIR erases it only on success.
        let raw = unsafe { crate::ffi::moonGeneralizeLinalgOp(self.0) };
        (!raw.ptr.is_null()).then_some(Op(raw))
    }

    /// Replaces this linalg operation on memrefs by its `scf.for` loop
    /// nest; false (and nothing changed) when it cannot.
    pub fn lower_linalg_to_loops(self) -> bool {
        // SAFETY: the operation is live; MLIR erases it only on success.
        unsafe { crate::ffi::moonLowerLinalgOpToLoops(self.0) }
    }

    /// Removes the unused results (and duplicate operands) of the
    /// `linalg.generic`s nested in this operation.
    pub fn remove_dead_linalg_results(self) {
        // SAFETY: the operation is live; the rewrite stays inside it.
        unsafe { crate::ffi::moonRemoveDeadLinalgResults(self.0) };
    }

    /// The argument and result types of a `func.func`.
    pub fn function_type(self) -> Option<(Vec<Type>, Vec<Type>)> {
        let ty = self.attr("function_type")?.as_type()?;
        // SAFETY: the type is a live function type.
        unsafe {
            Some((
                (0..sys::mlirFunctionTypeGetNumInputs(ty.0))
                    .map(|i| Type(sys::mlirFunctionTypeGetInput(ty.0, i)))
                    .collect(),
                (0..sys::mlirFunctionTypeGetNumResults(ty.0))
                    .map(|i| Type(sys::mlirFunctionTypeGetResult(ty.0, i)))
                    .collect(),
            ))
        }
    }

    /// The `func.func @name` directly in this module.
    pub fn find_function(self, name: &str) -> Option<Op> {
        let body = self.regions().first()?.entry()?;
        body.ops().into_iter().find(|op| {
            op.name() == "func.func"
                && op.attr("sym_name").and_then(|a| a.string()).as_deref() == Some(name)
        })
    }

    /// A dense i32 or i64 array attribute's elements.
    pub fn int_array(self, name: &str) -> Vec<i64> {
        self.attr(name).map(|a| a.int_array()).unwrap_or_default()
    }

    /// The operations nested directly or indirectly in the operation, in
    /// pre-order (the operation itself excluded). One call of MLIR's walk,
    /// which recurses once per level of nesting: moonc works on threads
    /// with large stacks.
    pub fn walk(self) -> Vec<Op> {
        unsafe extern "C" fn record(
            op: sys::MlirOperation,
            all: *mut c_void,
        ) -> sys::MlirWalkResult {
            // SAFETY: `walk` passes its vector, live for the walk.
            unsafe { (*(all as *mut Vec<Op>)).push(Op(op)) };
            sys::MlirWalkResult_MlirWalkResultAdvance
        }
        let mut all: Vec<Op> = vec![];
        // SAFETY: the operation is live, and `record` only records.
        unsafe {
            sys::mlirOperationWalk(
                self.0,
                Some(record),
                &mut all as *mut Vec<Op> as *mut c_void,
                sys::MlirWalkOrder_MlirWalkPreOrder,
            )
        };
        // The operation itself comes first.
        all.remove(0);
        all
    }
}

impl Attr {
    /// The elements of a dense i32/i64 array attribute.
    pub fn int_array(self) -> Vec<i64> {
        // SAFETY: the attribute is live and checked for its kind.
        unsafe {
            let n = sys::mlirDenseArrayGetNumElements(self.0);
            if sys::mlirAttributeIsADenseI32Array(self.0) {
                (0..n)
                    .map(|i| sys::mlirDenseI32ArrayGetElement(self.0, i) as i64)
                    .collect()
            } else if sys::mlirAttributeIsADenseI64Array(self.0) {
                (0..n)
                    .map(|i| sys::mlirDenseI64ArrayGetElement(self.0, i))
                    .collect()
            } else {
                vec![]
            }
        }
    }

    /// The elements of an array attribute.
    pub fn elements(self) -> Vec<Attr> {
        // SAFETY: the attribute is live and checked to be an array.
        unsafe {
            if !sys::mlirAttributeIsAArray(self.0) {
                return vec![];
            }
            (0..sys::mlirArrayAttrGetNumElements(self.0))
                .map(|i| Attr(sys::mlirArrayAttrGetElement(self.0, i)))
                .collect()
        }
    }

    /// The value of a string or flat symbol reference attribute.
    pub fn string(self) -> Option<String> {
        // SAFETY: the attribute is live and checked for its kind.
        let raw = unsafe {
            if sys::mlirAttributeIsAString(self.0) {
                sys::mlirStringAttrGetValue(self.0)
            } else if sys::mlirAttributeIsAFlatSymbolRef(self.0) {
                sys::mlirFlatSymbolRefAttrGetValue(self.0)
            } else {
                return None;
            }
        };
        // SAFETY: the bytes live as long as the attribute.
        let bytes = unsafe { std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length) };
        Some(String::from_utf8_lossy(bytes).into_owned())
    }

    /// The type of a type attribute.
    pub fn as_type(self) -> Option<Type> {
        // SAFETY: the attribute is live and checked to be a type attribute.
        unsafe {
            sys::mlirAttributeIsAType(self.0).then(|| Type(sys::mlirTypeAttrGetValue(self.0)))
        }
    }
}

impl Block {
    /// The block's arguments.
    pub fn args(self) -> Vec<Value> {
        // SAFETY: the block is live; indices are in range.
        unsafe {
            (0..sys::mlirBlockGetNumArguments(self.0))
                .map(|i| Value(sys::mlirBlockGetArgument(self.0, i)))
                .collect()
        }
    }

    /// Appends an argument.
    pub fn add_arg(self, ty: Type, loc: Loc) -> Value {
        // SAFETY: the block, type and location are live.
        Value(unsafe { sys::mlirBlockAddArgument(self.0, ty.0, loc.0) })
    }

    /// Erases argument `i` (which must be unused).
    pub fn erase_arg(self, i: usize) {
        // SAFETY: the block is live and the index in range.
        unsafe { sys::mlirBlockEraseArgument(self.0, i as u32) }
    }

    /// Whether `self` is `ancestor` or nested (at any depth) in one of the
    /// operations of `ancestor`.
    pub fn is_within(self, ancestor: Block) -> bool {
        let mut block = self;
        loop {
            if block == ancestor {
                return true;
            }
            // SAFETY: the block is live; its region may be detached.
            let op = unsafe { sys::mlirBlockGetParentOperation(block.0) };
            if op.ptr.is_null() {
                return false;
            }
            // SAFETY: the operation is live.
            let up = unsafe { sys::mlirOperationGetBlock(op) };
            if up.ptr.is_null() {
                return false;
            }
            block = Block(up);
        }
    }

    /// The operations of the block, in order.
    pub fn ops(self) -> Vec<Op> {
        let mut ops = vec![];
        // SAFETY: the block is live; iteration stops at null.
        unsafe {
            let mut op = sys::mlirBlockGetFirstOperation(self.0);
            while !op.ptr.is_null() {
                ops.push(Op(op));
                op = sys::mlirOperationGetNextInBlock(op);
            }
        }
        ops
    }

    /// The block's terminator (its last operation).
    pub fn terminator(self) -> Option<Op> {
        self.ops().last().copied()
    }

    /// The operation that holds the block's region.
    pub fn parent_op(self) -> Op {
        // SAFETY: the block is live and inside a region.
        Op(unsafe { sys::mlirBlockGetParentOperation(self.0) })
    }
}

impl Region {
    /// A new region with no blocks, owned by the caller until an
    /// operation takes its body ([`Builder::create`]); then [`Self::destroy`].
    #[allow(clippy::new_without_default)]
    pub fn new() -> Region {
        // SAFETY: creating a region has no preconditions.
        Region(unsafe { sys::mlirRegionCreate() })
    }

    /// Frees a region that no operation owns.
    pub fn destroy(self) {
        // SAFETY: the region is not owned by an operation.
        unsafe { sys::mlirRegionDestroy(self.0) }
    }

    /// The blocks of the region, in order.
    pub fn blocks(self) -> Vec<Block> {
        let mut blocks = vec![];
        // SAFETY: the region is live; iteration stops at null.
        unsafe {
            let mut block = sys::mlirRegionGetFirstBlock(self.0);
            while !block.ptr.is_null() {
                blocks.push(Block(block));
                block = sys::mlirBlockGetNextInRegion(block);
            }
        }
        blocks
    }

    /// A new region (see [`Self::new`]) holding one block with arguments of
    /// the given types.
    pub fn with_block(types: &[Type], loc: Loc) -> (Region, Block) {
        let region = Region::new();
        let raw_types: Vec<_> = types.iter().map(|t| t.0).collect();
        let locs = vec![loc.0; types.len()];
        // SAFETY: the arrays hold `types.len()` live handles; the region
        // takes the new block.
        let block = unsafe {
            let block =
                sys::mlirBlockCreate(types.len() as isize, raw_types.as_ptr(), locs.as_ptr());
            sys::mlirRegionAppendOwnedBlock(region.0, block);
            Block(block)
        };
        (region, block)
    }

    /// The first block, if any.
    pub fn entry(self) -> Option<Block> {
        self.blocks().first().copied()
    }
}

/// Operations without side effects that dead-code removal may erase.
fn is_pure(name: &str) -> bool {
    (name.starts_with("arith.") || name.starts_with("math."))
        || matches!(
            name,
            "vector.broadcast"
                | "vector.transfer_read"
                | "memref.load"
                | "memref.dim"
                | "memref.subview"
                | "memref.cast"
        )
}

/// Erases unused side-effect-free operations of a generated function:
/// tangents nobody needs, and primal work that only fed dropped results.
pub fn remove_dead_code(function: Op) {
    loop {
        let dead: Vec<Op> = function
            .walk()
            .into_iter()
            .rev()
            .filter(|op| is_pure(&op.name()) && op.results().iter().all(|r| r.is_unused()))
            .collect();
        if dead.is_empty() {
            return;
        }
        for op in dead {
            if op.results().iter().all(|r| r.is_unused()) {
                op.erase();
            }
        }
    }
}
