//! Inline math kernels: a function of arith and math operations, written
//! in MLIR text, parsed once per pass run and copied into loops in place of
//! library calls (so that the loops still vectorize).

use mlir_sys as sys;
use moonc_ir::ir::{Attr, Block, Builder, Op, Type, Value};
use std::collections::HashMap;

/// The loops whose math is computed by inline kernels.
pub(crate) const LOOPS: &[&str] = &["scf.for", "scf.while", "scf.parallel"];

/// The innermost of [`LOOPS`] around `op` (within its function).
pub(crate) fn innermost_loop(op: Op) -> Option<Op> {
    let mut current = op.parent();
    while let Some(parent) = current {
        if LOOPS.contains(&parent.name().as_str()) {
            return Some(parent);
        }
        current = parent.parent();
    }
    None
}

/// Whether `op` is nested in one of [`LOOPS`] (within its function).
pub(crate) fn in_loop(op: Op) -> bool {
    innermost_loop(op).is_some()
}

/// A parsed kernel: the body of the one function of a module.
pub(crate) struct Kernel {
    module: sys::MlirModule,
    body: Block,
}

impl Kernel {
    /// Copies every top-level operation of the parsed module (its
    /// functions) to the end of `module`'s body.
    pub(crate) fn copy_into(&self, module: Op) {
        // SAFETY: the parsed module is live while `self` is.
        let top = Block(unsafe { sys::mlirModuleGetBody(self.module) });
        let body = module.regions()[0].blocks()[0];
        for op in top.ops() {
            Builder::at_end(body, op.loc()).insert(op.clone_detached());
        }
    }
}

impl Kernel {
    /// Copies the top-level operations of the parsed module that `module`
    /// has no symbol of the same name for (functions and declarations).
    pub(crate) fn copy_missing_into(&self, module: Op) {
        let body = module.regions()[0].blocks()[0];
        let name = |op: &Op| op.attr("sym_name").map(|n| n.to_string());
        let present: Vec<String> = body.ops().iter().filter_map(name).collect();
        // SAFETY: the parsed module is live while `self` is.
        let top = Block(unsafe { sys::mlirModuleGetBody(self.module) });
        for op in top.ops() {
            if name(&op).is_none_or(|n| !present.contains(&n)) {
                Builder::at_end(body, op.loc()).insert(op.clone_detached());
            }
        }
    }

    /// Parses `text` (a module holding one function of region-less ops,
    /// NUL-terminated, as MLIR's parser wants its buffer) in `anchor`'s
    /// context; `origin` names the file in the panic when it does not parse.
    pub(crate) fn parse(anchor: Op, text: &str, origin: &str) -> Kernel {
        assert!(text.ends_with('\0'), "{origin} is not NUL-terminated");
        // SAFETY: the context is live; the text is read during the call.
        let module = unsafe {
            let context = sys::mlirOperationGetContext(anchor.0);
            sys::mlirModuleCreateParse(
                context,
                sys::MlirStringRef {
                    data: text.as_ptr().cast(),
                    length: text.len() - 1,
                },
            )
        };
        assert!(!module.ptr.is_null(), "{origin} does not parse");
        // SAFETY: the module is live.
        let top = Block(unsafe { sys::mlirModuleGetBody(module) });
        let function = top.ops()[0];
        let body = function.regions()[0].blocks()[0];
        Kernel { module, body }
    }

    /// Builds the kernel at `b` for `args`; returns what it returns.
    pub(crate) fn inline(&self, b: &mut Builder, args: &[Value]) -> Vec<Value> {
        let mut map: HashMap<Value, Value> =
            self.body.args().into_iter().zip(args.to_vec()).collect();
        for op in self.body.ops() {
            let operands: Vec<Value> = op.operands().iter().map(|v| map[v]).collect();
            if op.name() == "func.return" {
                return operands;
            }
            let made = rebuild(b, op, &operands);
            map.insert(op.result(0), made.result(0));
        }
        unreachable!("a kernel ends in func.return")
    }
}

impl Drop for Kernel {
    fn drop(&mut self) {
        // SAFETY: the module is ours and nothing points into it any more.
        unsafe { sys::mlirModuleDestroy(self.module) }
    }
}

/// A copy of the region-less `op` at `b` with new operands.
pub(crate) fn rebuild(b: &mut Builder, op: Op, operands: &[Value]) -> Op {
    let types: Vec<Type> = op.results().iter().map(|v| v.ty()).collect();
    let attrs = op.attrs();
    let attrs: Vec<(&str, Attr)> = attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    b.create(&op.name(), operands, &types, &attrs, &[], &[])
}
