//! The split pair of a call: the forward function (the primal part, taping
//! on moonrt's tape) and the reverse function (popping it).

use moonc_ir::{
    Error,
    ir::{Builder, Op, error_at},
};

/// The forward function of a split pair: the primal part of `function`
/// (before `marker`), returning the first `kept` results, with the first
/// `inputs` arguments.
pub(crate) fn split_forward(
    function: Op,
    marker: Op,
    kept: usize,
    inputs: usize,
) -> Result<Op, Error> {
    let clone = function.clone_before();
    let position = function.regions()[0]
        .entry()
        .expect("a body")
        .ops()
        .iter()
        .position(|&o| o == marker)
        .expect("the marker");
    let body = clone.regions()[0].entry().expect("a body");
    let ops = body.ops();
    let ret = *ops.last().expect("a return");
    let operands = ret.operands()[..kept].to_vec();
    Builder::before(ret).create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();
    for &op in ops[position..ops.len() - 1].iter().rev() {
        op.erase();
    }
    for i in (inputs..body.args().len()).rev() {
        if !body.args()[i].is_unused() {
            return Err(error_at(
                clone,
                "internal error: the forward sweep uses a shadow",
            ));
        }
        body.erase_arg(i);
    }
    Ok(clone)
}

/// The reverse function of a split pair: `function` without its primal
/// part (before `marker`), returning the adjoints (results from `kept` on).
pub(crate) fn split_reverse(function: Op, marker: Op, kept: usize) -> Result<Op, Error> {
    let body = function.regions()[0].entry().expect("a body");
    let ops = body.ops();
    let ret = *ops.last().expect("a return");
    let operands = ret.operands()[kept..].to_vec();
    Builder::before(ret).create("func.return", &operands, &[], &[], &[], &[]);
    ret.erase();
    let position = ops.iter().position(|&o| o == marker).expect("the marker");
    for &op in ops[..=position].iter().rev() {
        if op.results().iter().any(|r| !r.is_unused()) {
            return Err(error_at(
                op,
                "internal error: the reverse sweep of a called function uses a forward value",
            ));
        }
        op.erase();
    }
    Ok(function)
}
