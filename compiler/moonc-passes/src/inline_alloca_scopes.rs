//! `--moon-inline-alloca-scopes`: replaces each `memref.alloca_scope` that
//! holds no `memref.alloca` by its body.
//!
//! `convert-scf-to-openmp` wraps every parallel loop body in an alloca
//! scope, which must stay one block, so the body's own loops could not
//! be lowered to control flow afterwards. Without allocas the scope frees
//! nothing and can go.

use moonc_ir::ir::Op;
use moonc_ir::{
    Error,
    pass::{OptionValues, PassInfo},
};

/// The registration of `--moon-inline-alloca-scopes`.
pub static INLINE_ALLOCA_SCOPES: PassInfo = PassInfo {
    argument: "moon-inline-alloca-scopes",
    summary: "Replace memref.alloca_scope ops that hold no alloca by their bodies",
    description: r#"
`convert-scf-to-openmp` wraps the body of every parallel loop in a
`memref.alloca_scope`, whose region must stay a single block; lowering the
loops inside it to control flow would then fail to verify. A scope with no
`memref.alloca` inside (at any depth) releases nothing, so this pass moves
its body in front of it, replaces its results by the values its
`memref.alloca_scope.return` returns, and erases it. `moon-cpu-pipeline`
runs it after `convert-scf-to-openmp` under `--moon-parallel-min-trips`.
"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_ir::dependent_dialects,
    options: &[],
    run,
};

fn run(module: Op, _: OptionValues) -> Result<(), Error> {
    for scope in module.walk() {
        if scope.name() != "memref.alloca_scope"
            || scope.walk().iter().any(|op| op.name() == "memref.alloca")
        {
            continue;
        }
        let body = scope.regions()[0].blocks()[0];
        let ret = body.terminator().expect("memref.alloca_scope.return");
        for (result, value) in scope.results().iter().zip(ret.operands()) {
            result.replace_uses(value);
        }
        for op in body.ops() {
            if op != ret {
                op.move_before(scope);
            }
        }
        scope.erase();
    }
    Ok(())
}
