//! Forward mode: generates the tangent function of a function for one
//! choice of argument and result activities and one width, and replaces
//! `moon.jvp` operations by calls to them.
//!
//! A tangent function is a copy of the primal function in which every
//! active value gets its tangent computed right after it (by the rule of
//! its operation, see [`crate::rules`]) and every active memref a shadow
//! buffer. Loops carry tangents as extra iteration values, branches pass
//! them as extra block arguments, and calls call the callees' tangent
//! functions, which are generated on demand (once per key, so recursion
//! works).

use crate::{
    activity::Activity,
    expr,
    inline::inline_helpers,
    recompute_selected::recompute_selected,
    request::{Differentiator, Key, Requested},
    rules::{self, Forward},
    tangent::{FunctionState, op_loc, tangent_type},
};
use moonc_ir::{
    Error,
    ir::{Block, Builder, Op, Region, Type, Value, error_at, remove_dead_code},
    moon::Activity as Act,
};
use std::collections::HashMap;

impl FunctionState<'_> {
    /// Transforms every block of `region`; the entry block's arguments
    /// belong to the region's owner, other blocks get a tangent argument
    /// for each active argument.
    pub fn transform_region(&mut self, region: Region) -> Result<(), Error> {
        let blocks = region.blocks();
        for &block in blocks.iter().skip(1) {
            for arg in block.args() {
                if self.is_active(arg) {
                    let ty = self.tangent_type(arg.ty());
                    let t = block.add_arg(ty, op_loc(block));
                    self.tangents.insert(arg, t);
                }
            }
        }
        for block in blocks {
            self.transform_block(block)?;
        }
        Ok(())
    }

    /// Transforms the operations of one block.
    pub fn transform_block(&mut self, block: Block) -> Result<(), Error> {
        for op in block.ops() {
            self.transform_op(op)?;
        }
        Ok(())
    }

    /// Emits the tangent code of one operation.
    fn transform_op(&mut self, op: Op) -> Result<(), Error> {
        let name = op.name();
        let rule = rules::lookup(&name);
        if let Some(Forward::Custom(transform)) = rule.map(|r| r.forward) {
            return transform(self, op);
        }
        let operands = op.operands();
        let uses_active = operands.iter().any(|&v| self.is_active(v))
            || (!op.regions().is_empty()
                && op
                    .walk()
                    .iter()
                    .any(|o| o.operands().iter().any(|&v| self.is_active(v))));
        if !uses_active {
            return Ok(());
        }
        let rule = rules::or_missing(rule, op)?;
        match rule.forward {
            Forward::Expr(text) => {
                let result = op.result(0);
                if !self.is_active(result) {
                    return Ok(());
                }
                if result.ty().is_memref() {
                    return Err(error_at(
                        op,
                        &format!("`{name}` of active buffers cannot be differentiated yet"),
                    ));
                }
                let tangents: Vec<Option<Value>> =
                    operands.iter().map(|&v| self.tangent(v)).collect();
                let ty = self.tangent_type(result.ty());
                let mut b = Builder::after(op);
                if let Some(t) = expr::tangent(&mut b, op, text, &tangents, ty, self.width) {
                    self.tangents.insert(result, t);
                }
                Ok(())
            }
            Forward::Zero | Forward::Inactive => Ok(()),
            Forward::Custom(_) => unreachable!("handled above"),
        }
    }
}

/// Generates the tangent function `name` of `primal` for `key`.
pub(crate) fn generate(
    diff: &mut Differentiator,
    primal: Op,
    key: &Key,
    name: &str,
    at: Op,
) -> Result<Op, Error> {
    let ctx = diff.ctx();
    let (inputs, outputs) = diff.function_type(&key.function).expect("a function");
    if key.args.len() != inputs.len() || key.results.len() != outputs.len() {
        return Err(error_at(
            at,
            "activities do not match the function's arguments and results",
        ));
    }
    for (i, (&t, &a)) in inputs.iter().zip(&key.args).enumerate() {
        let fits = match a {
            Act::Active => t.is_differentiable(),
            Act::Dup | Act::DupNoNeed => t.is_float_memref(),
            _ => true,
        };
        if !fits || a == Act::ActiveNoNeed {
            return Err(error_at(
                at,
                &format!(
                    "argument #{i} of @{} ({t}) cannot be `{}`",
                    key.function,
                    a.keyword()
                ),
            ));
        }
    }
    let function = primal.clone_after();
    function.set_attr("sym_name", ctx.attr(&format!("\"{name}\"")));
    function.set_attr("sym_visibility", ctx.attr("\"private\""));
    function.remove_attr("arg_attrs");
    function.remove_attr("res_attrs");
    function.remove_attr("llvm.emit_c_interface");
    inline_helpers(diff, function)?;
    recompute_selected(function);

    let body = function.regions()[0];
    let entry = body.entry().expect("the function has a body");
    let args = entry.args();
    let seeds: Vec<usize> = (0..args.len())
        .filter(|&i| key.args[i] != Act::Const)
        .collect();
    let writes = rules::Writes::of(diff);
    let activity = Activity::analyze(
        function,
        &seeds.iter().map(|&i| args[i]).collect::<Vec<_>>(),
        &|op| writes.by(op),
    );
    let mut state = FunctionState {
        diff,
        activity,
        tangents: HashMap::new(),
        width: key.width,
        results: key.results.clone(),
    };
    state.add_tangent_args(entry, &seeds);
    state.transform_region(body)?;

    let mut new_inputs: Vec<String> = inputs.iter().map(ToString::to_string).collect();
    new_inputs.extend(
        seeds
            .iter()
            .map(|&i| state.tangent_type(inputs[i]).to_string()),
    );
    let mut new_outputs = vec![];
    for (t, a) in outputs.iter().zip(&key.results) {
        if !matches!(a, Act::ActiveNoNeed | Act::DupNoNeed) {
            new_outputs.push(t.to_string());
        }
    }
    for (t, a) in outputs.iter().zip(&key.results) {
        if *a != Act::Const {
            new_outputs.push(state.tangent_type(*t).to_string());
        }
    }
    let ty = format!(
        "({}) -> ({})",
        new_inputs.join(", "),
        new_outputs.join(", ")
    );
    function.set_attr("function_type", ctx.attr(&ty));
    remove_dead_code(function);
    tracing::debug!(function = name, "generated a tangent function");
    Ok(function)
}

/// Replaces one `moon.jvp` by a call.
pub(crate) fn replace_jvp(diff: &mut Differentiator, op: Op) -> Result<(), Error> {
    if op.attr(crate::OVERWRITE_SHADOWS).is_some() {
        return Err(error_at(
            op,
            &format!(
                "`{}` is for `moon.vjp`: forward mode has no shadows to set",
                crate::OVERWRITE_SHADOWS
            ),
        ));
    }
    let requested = Requested::read(diff, op)?;
    let name = match requested.served_by(diff.custom_rule(&requested.callee), op)? {
        Some(custom) => custom,
        None => diff.request(requested.key.clone(), op)?,
    };
    let Requested { ty, key, .. } = requested;
    let width = key.width;
    let ctx = diff.ctx();
    let mut b = Builder::before(op);
    let mut operands = op.operands();
    let n_args = ty.0.len();
    let shadowed = (0..n_args).filter(|&i| key.args[i] != Act::Const);
    for (k, i) in shadowed.enumerate() {
        if ty.0[i].is_memref() && width > 1 {
            let internal = tangent_type(ctx, ty.0[i], width);
            operands[n_args + k] = b.value("memref.cast", &[operands[n_args + k]], internal, &[]);
        }
    }
    let mut result_types: Vec<Type> = op.results().iter().map(|r| r.ty()).collect();
    let kept = key
        .results
        .iter()
        .filter(|a| !matches!(a, Act::ActiveNoNeed | Act::DupNoNeed))
        .count();
    let tangent_results: Vec<usize> = (0..key.results.len())
        .filter(|&i| key.results[i] != Act::Const)
        .collect();
    for (k, &i) in tangent_results.iter().enumerate() {
        if ty.1[i].is_memref() && width > 1 {
            result_types[kept + k] = tangent_type(ctx, ty.1[i], width);
        }
    }
    let callee_attr = ctx.attr(&format!("@{name}"));
    let call = b.create(
        "func.call",
        &operands,
        &result_types,
        &[("callee", callee_attr)],
        &[],
        &[],
    );
    let mut after = Builder::after(call);
    for (old, mut new) in op.results().into_iter().zip(call.results()) {
        if old.ty() != new.ty() {
            new = after.value("memref.cast", &[new], old.ty(), &[]);
        }
        old.replace_uses(new);
    }
    op.erase();
    Ok(())
}
