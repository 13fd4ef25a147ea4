//! moonc's passes over MLIR. Each pass lives in a file named after its flag
//! (`--moon-grad-to-vjp` is `grad_to_vjp.rs`) and is described by one
//! `static PassInfo` listed in [`PASSES`].

use moonc_ir::pass::PassInfo;

pub mod ascending_reverse_loops;
pub mod autodiff;
pub mod blocked_loops;
pub mod bufferize;
pub mod check_argument_shapes;
pub mod collapse_dims;
pub mod contract_adjoints;
pub mod conv_to_gemm;
pub mod flush_subnormals;
pub mod fuse_adjoint_loops;
pub mod fuse_partials;
pub mod grad_to_vjp;
pub mod hvp_to_jvp;
pub mod inline_alloca_scopes;
pub mod inline_exp;
pub mod inline_tape;
mod kernel;
pub mod linalg_to_blas;
mod loop_annotation;
mod memory;
pub mod outline_loops;
pub mod parallelize;
pub mod reassociate_sums;
pub mod reductions_to_atomics;
pub mod reverse_loops;
pub mod share_sincos;
pub mod short_update_loops;
pub mod tile_reverse_loops;
pub mod uniform_buffers;
pub mod vmap;
pub mod zero_loads;

/// The function a `moon.*` request `op` in `module` names (its `callee`),
/// with the function's argument and result types; a located error when
/// there is none.
pub(crate) fn requested_function(
    module: moonc_ir::ir::Op,
    op: moonc_ir::ir::Op,
) -> Result<(String, moonc_ir::ir::Op, FunctionTypes), moonc_ir::Error> {
    let callee = op
        .attr("callee")
        .and_then(|a| a.string())
        .expect("a moon request names a callee (verified)");
    match module
        .find_function(&callee)
        .and_then(|f| Some((f, f.function_type()?)))
    {
        Some((f, types)) => Ok((callee, f, types)),
        None => Err(moonc_ir::ir::error_at(
            op,
            &format!("no function @{callee}"),
        )),
    }
}

/// A function's argument and result types.
pub(crate) type FunctionTypes = (Vec<moonc_ir::ir::Type>, Vec<moonc_ir::ir::Type>);

/// Every moonc pass, in the order `docs/passes.md` lists them.
pub static PASSES: &[&PassInfo] = &[
    &grad_to_vjp::GRAD_TO_VJP,
    &hvp_to_jvp::HVP_TO_JVP,
    &vmap::VMAP,
    &bufferize::BUFFERIZE,
    &conv_to_gemm::CONV_TO_GEMM,
    &collapse_dims::COLLAPSE_DIMS,
    &reassociate_sums::REASSOCIATE_SUMS,
    &check_argument_shapes::CHECK_ARGUMENT_SHAPES,
    &autodiff::AUTODIFF,
    &fuse_adjoint_loops::FUSE_ADJOINT_LOOPS,
    &zero_loads::ZERO_LOADS,
    &tile_reverse_loops::TILE_REVERSE_LOOPS,
    &uniform_buffers::UNIFORM_BUFFERS,
    &linalg_to_blas::LINALG_TO_BLAS,
    &fuse_partials::FUSE_PARTIALS,
    &reductions_to_atomics::REDUCTIONS_TO_ATOMICS,
    &inline_exp::INLINE_EXP,
    &share_sincos::SHARE_SINCOS,
    &parallelize::PARALLELIZE,
    &inline_alloca_scopes::INLINE_ALLOCA_SCOPES,
    &blocked_loops::BLOCKED_LOOPS,
    &reverse_loops::REVERSE_LOOPS,
    &contract_adjoints::CONTRACT_ADJOINTS,
    &ascending_reverse_loops::ASCENDING_REVERSE_LOOPS,
    &flush_subnormals::FLUSH_SUBNORMALS,
    &short_update_loops::SHORT_UPDATE_LOOPS,
    &outline_loops::OUTLINE_LOOPS,
    &inline_tape::INLINE_TAPE,
];

/// Registers every moonc pass in MLIR's global pass registry (once per
/// process, however often it is called), so that `moonc-opt` and textual
/// pipelines such as `moon-cpu-pipeline` can name them.
pub fn register_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for pass in PASSES {
            pass.register();
        }
    });
}

/// The reference page of the passes, `docs/passes.md`, rendered from
/// [`PASSES`].
pub fn passes_markdown() -> String {
    let mut page = String::from(
        "# moonc passes\n\n\
         <!-- Generated from compiler/moonc-passes by `make docs`; do not edit. -->\n\n\
         Every pass runs in `moonc-opt` as a flag (`--moon-...`) and inside \
         `--pass-pipeline='builtin.module(...)'`.\n",
    );
    for pass in PASSES {
        page += &format!(
            "\n## `--{}`\n\n_{}_ (runs on `{}`)\n\n{}\n",
            pass.argument,
            pass.summary,
            pass.op_name,
            pass.description.trim()
        );
        if !pass.options.is_empty() {
            page += &format!(
                "\nOptions (`--{0}=name=value`, or `{0}{{name=value}}` in a pipeline):\n\n",
                pass.argument
            );
            for option in pass.options {
                page += &format!(
                    "- `{}` (default {}): {}\n",
                    option.name, option.default, option.description
                );
            }
        }
    }
    page
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/passes.md` must match the passes; `MOONC_UPDATE_DOCS=1` rewrites it.
    #[test]
    fn passes_reference_is_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/passes.md");
        let expected = passes_markdown();
        if std::env::var_os("MOONC_UPDATE_DOCS").is_some() {
            std::fs::write(path, &expected).expect("docs/passes.md is writable");
        }
        let actual = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/passes.md is stale: run `make docs` (MOONC_UPDATE_DOCS=1 cargo test -p moonc-passes)"
        );
    }
}
