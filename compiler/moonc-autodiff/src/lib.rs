//! moonc's differentiation of MLIR functions: activity analysis, one table
//! of derivative rules per dialect, and the generation of the tangent
//! functions that replace `moon.jvp`.

pub mod activity;
pub mod adjoint;
pub mod driver;
pub mod expr;
pub mod forward;
mod inline;
mod recompute_selected;
pub mod request;
pub mod reverse;
pub mod rules;
mod stack_arrays;
pub mod tangent;

use moonc_ir::{Error, ir::Op};

/// Replaces every `moon.jvp` and `moon.vjp` in `module` by a call to a
/// generated tangent or adjoint function.
pub fn differentiate_module(module: Op) -> Result<(), Error> {
    differentiate_module_with(module, Settings::default())
}

/// How differentiation generates code (`--moon-autodiff`'s options).
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Reverse an `scf.parallel` whose body is flat as an `scf.parallel`
    /// (with atomic adds into shared shadows) instead of a sequential
    /// `scf.for` nest: for the GPU.
    pub parallel_reverse: bool,
    /// Both modes inline called functions of at most this many operations,
    /// with what they call (0: none; see `inline.rs`).
    pub inline_max_ops: usize,
}

/// The attribute of a segment function whose memref arguments are distinct
/// buffers (or unwritten), so that writing one leaves the others unchanged.
pub const DISTINCT_ARGS: &str = "moon.distinct_args";

/// The attribute of the loops reverse mode makes to run a primal loop's
/// iterations backwards (`--moon-fuse-adjoint-loops` fuses runs of them).
pub const REVERSE_LOOP: &str = "moon.reverse";

/// The attribute of a segment function's loop listing the function's
/// arguments (positions) that every iteration overwrites before reading.
pub const OVERWRITTEN_ARGS: &str = "moon.overwritten_args";

/// The attribute of a reverse loop listing the arguments (positions) of
/// its function that are zero at the start of each of its iterations.
pub const ZERO_SHADOWS: &str = "moon.zero_shadows";

/// The attribute of a `moon.vjp` whose shadows receive the derivatives
/// instead of having them added: the adjoint function sets them to zero
/// first, or, where a loop of its reverse sweep writes every element
/// before anything else touches them, lets that loop store instead of add
/// (`moonc gradbench` asks for it, as GradBench's gradients are new arrays).
pub const OVERWRITE_SHADOWS: &str = "moon.overwrite_shadows";

/// The attribute of the load of a shadow element in a reverse loop that
/// visits every element of that shadow once (see [`OVERWRITE_SHADOWS`]).
pub(crate) const COVERS: &str = "moon.covers";

/// The default of [`Settings::inline_max_ops`].
pub const INLINE_MAX_OPS: usize = 200;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            parallel_reverse: false,
            inline_max_ops: INLINE_MAX_OPS,
        }
    }
}

/// [`differentiate_module`] with `settings`.
pub fn differentiate_module_with(module: Op, settings: Settings) -> Result<(), Error> {
    driver::differentiate(module, settings)
}
