//! An eval's workload compiled for `moonc gradbench`: the module, with a
//! VJP wrapper for each GradBench function that is a gradient, and the
//! evaluation of one function on GradBench's input.

use crate::{
    buffers::{Arg, Array},
    evals::{self, Called, Eval, How, Input},
    runs::{Run, Runs, timed},
};
use melior::ir::operation::OperationLike;
use moonc_call::{
    failure::{Failure, Outcome},
    json::Json,
    program::{Session, find_entry},
    wrapper::{self, Wrt, is_active_arg, is_active_result, is_dup_arg},
};
use moonc_codegen::{Jit, Signature, ValueType};
use serde_json::Value;
use std::{collections::HashMap, path::Path};

/// An eval's workload, compiled, with what to call for each function.
pub struct Defined {
    /// The eval whose workload this is.
    pub eval: &'static Eval,
    jit: Jit,
    /// Per function of `eval`, in order.
    entries: Vec<Entry>,
}

/// What one GradBench function calls.
struct Entry {
    /// The workload's function.
    primal: Signature,
    /// For a gradient: the VJP wrapper of `primal` and the arguments it
    /// differentiates.
    vjp: Option<(Signature, Wrt)>,
}

impl Defined {
    /// Compiles the workload of eval `name` with a VJP wrapper for each
    /// function that is a gradient.
    pub fn compile(name: &str) -> Result<Defined, String> {
        let eval = evals::find(name).ok_or_else(|| {
            format!(
                "moonc has no implementation of module `{name}`; it implements {}",
                evals::names()
            )
        })?;
        let source = eval.source.ok_or_else(|| {
            format!(
                "moonc has no implementation of module `{name}` yet (its workload {} is not \
                 written)",
                eval.file
            )
        })?;
        compile_workload(eval, source)
            .map_err(|failure| format!("compiling {} failed: {}", eval.file, message_of(&failure)))
    }

    /// Runs function `index` on `input` as often as the input asks.
    pub fn evaluate(&self, index: usize, input: &Value) -> Result<(Json, Vec<u128>), String> {
        let function = &self.eval.functions[index];
        let input = Input::new(input)?;
        let runs = Runs::of(&input)?;
        let mut args = (function.arguments)(&input)?;
        let entry = &self.entries[index];
        let primal = &entry.primal;
        let called = match &entry.vjp {
            None => {
                let run = timed(&self.jit, primal, &mut args, runs)?;
                Called {
                    results: run.results,
                    arguments: run.arguments,
                    gradient: vec![None; primal.args.len()],
                    timings: run.timings,
                }
            }
            Some((vjp, wrt)) => {
                // The VJP's operands: the arguments, a shadow per
                // differentiated memref (which the VJP sets), the
                // cotangent 1 per float result.
                let shadows: Vec<Arg> = (primal.args.iter().zip(&args).enumerate())
                    .filter(|(i, (t, _))| wrt.includes(*i, t) && is_dup_arg(t))
                    .map(|(_, (_, arg))| match arg {
                        Arg::Array(array) => Arg::Array(Array::zeros(&array.shape)),
                        other => other.clone(),
                    })
                    .collect();
                args.extend(shadows);
                let active = primal.results.iter().filter(|t| is_active_result(t));
                args.extend(active.map(|_| Arg::Float(1.0)));
                let run = timed(&self.jit, vjp, &mut args, runs)?;
                let Run {
                    mut results,
                    mut arguments,
                    timings,
                } = run;
                let mut shadows = arguments.split_off(primal.args.len()).into_iter();
                let mut cotangents = results.split_off(primal.results.len()).into_iter();
                let gradient = (primal.args.iter().enumerate())
                    .map(|(i, t)| {
                        if !wrt.includes(i, t) {
                            None
                        } else if is_dup_arg(t) {
                            shadows.next()
                        } else if is_active_arg(t) {
                            cotangents.next()
                        } else {
                            None
                        }
                    })
                    .collect();
                Called {
                    results,
                    arguments,
                    gradient,
                    timings,
                }
            }
        };
        let output = (function.output)(&input, &called)?;
        Ok((output, called.timings))
    }
}

/// Parses and compiles `eval`'s workload `source`.
fn compile_workload(eval: &'static Eval, source: &str) -> Outcome<Defined> {
    let session = Session::new();
    let mut module = moonc_ir::pipeline::parse_module(&session.context, source, eval.file)
        .ok_or_else(|| {
            session
                .diagnostics
                .failure(&format!("{} is not valid MLIR", eval.file))
        })?;
    if !module.as_operation().verify() {
        return Err(session
            .diagnostics
            .failure(&format!("{} does not verify", eval.file)));
    }
    let path = Path::new(eval.file);
    // (signature, location) of each entry, before the module changes.
    let mut found: Vec<(Signature, String)> = vec![];
    for function in eval.functions {
        let (op, signature) = find_entry(&session, &module, path, function.entry)?;
        if (signature.results.iter()).any(|t| matches!(t, ValueType::MemRef { .. })) {
            return Err(Failure::new(format!(
                "@{} returns a memref: moonc gradbench takes outputs from scalar results \
                 and memref arguments only",
                signature.name
            )));
        }
        found.push((signature, op.location().to_string()));
    }
    let mut packed: Vec<Signature> = vec![];
    let mut entries = vec![];
    // The VJP wrappers made so far, by entry.
    let mut wrappers: HashMap<&str, (Signature, Wrt)> = HashMap::new();
    for (function, (primal, location)) in eval.functions.iter().zip(found) {
        if !packed.iter().any(|s| s.name == primal.name) {
            packed.push(primal.clone());
        }
        let vjp = match function.how {
            How::Call => None,
            How::Gradient { wrt } => {
                let wrt = Wrt::parse(wrt)?;
                wrt.check(&primal)?;
                if let Some((signature, made)) = wrappers.get(function.entry) {
                    if *made != wrt {
                        return Err(Failure::new(format!(
                            "internal error: two gradients of @{} with respect to different \
                             arguments",
                            primal.name
                        )));
                    }
                    Some((signature.clone(), wrt))
                } else {
                    // GradBench's gradients are new arrays: the VJP sets its
                    // shadows, so they need no zeroing before each call.
                    let made = wrapper::vjp_wrapper(&primal, &location, &wrt, true);
                    session.add_function(&mut module, &made.name, &made.text)?;
                    packed.push(made.signature.clone());
                    wrappers.insert(function.entry, (made.signature.clone(), wrt.clone()));
                    Some((made.signature, wrt))
                }
            }
        };
        entries.push(Entry { primal, vjp });
    }
    let jit = session.jit(&mut module, &packed)?;
    Ok(Defined { eval, jit, entries })
}

/// A failure's message without moonc's `moonc: error: ` prefix.
fn message_of(failure: &Failure) -> String {
    failure
        .0
        .strip_prefix("moonc: error: ")
        .unwrap_or(&failure.0)
        .to_string()
}
