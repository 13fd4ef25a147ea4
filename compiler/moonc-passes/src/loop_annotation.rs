//! Settings added to an `scf.for`'s `loop_annotation`, which
//! `convert-scf-to-cf` carries to the loop's back edge as `!llvm.loop`
//! metadata for LLVM's loop passes.

use moonc_ir::ir::Op;

/// LLVM's loop vectorizer leaves the loop alone (`llvm.loop.vectorize.enable
/// false`); the SLP vectorizer still works within its body.
pub(crate) const NO_VECTORIZE: &str = "vectorize = #llvm.loop_vectorize<disable = true>";

/// LLVM neither unrolls the loop nor interleaves its vectorized body.
pub(crate) const NO_UNROLL: &str = "unroll = <disable = true>";

/// Adds `setting` (such as [`NO_UNROLL`]) to the `loop_annotation` of the
/// loop `l`, keeping the settings it has. False, and `l` unchanged, when
/// the annotation already says something about `about` (`"unroll"`) or
/// does not print as `#llvm.loop_annotation<...>`.
pub(crate) fn add_setting(l: Op, setting: &str, about: &str) -> bool {
    let annotation = match l.attr("loop_annotation") {
        Some(a) => {
            let text = a.to_string();
            let Some(others) = text.strip_prefix("#llvm.loop_annotation<") else {
                return false;
            };
            if text.contains(about) {
                return false;
            }
            format!("#llvm.loop_annotation<{setting}, {others}")
        }
        None => format!("#llvm.loop_annotation<{setting}>"),
    };
    l.set_attr("loop_annotation", l.ctx().attr(&annotation));
    true
}
