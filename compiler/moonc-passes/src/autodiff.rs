//! `--moon-autodiff`: replaces every `moon.jvp` with a call to a generated
//! tangent function (see `moonc-autodiff`).

use melior::{Context, ir::OperationRef};
use moonc_ir::{Error, pass::PassInfo};

/// The registration of `--moon-autodiff`.
pub static AUTODIFF: PassInfo = PassInfo {
    argument: "moon-autodiff",
    summary: "Differentiate: replace moon.jvp with calls to generated tangent functions",
    description: r#"TODO"#,
    op_name: "builtin.module",
    dependent_dialects: moonc_autodiff::dependent_dialects,
    run,
};

fn run<'c>(_context: &'c Context, module: OperationRef<'c, '_>) -> Result<(), Error> {
    moonc_autodiff::differentiate_module(module)
}
