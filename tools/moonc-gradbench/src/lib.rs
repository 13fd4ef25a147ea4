//! `moonc gradbench`: a GradBench tool. It reads GradBench's messages, one
//! JSON object a line, on stdin and answers each on stdout, so that
//! GradBench's intermediary (`gradbench run --tool 'moonc gradbench'`) can
//! run moonc against GradBench's evals (see docs/gradbench.md).
//!
//! - `start`: answered with the tool's name and configuration.
//! - `define`: compiles the eval's workload (`bench/suite/workloads/`, built
//!   into moonc) with the derivative wrappers its functions need, once;
//!   `success: false` with an error for an eval moonc has no workload for.
//! - `evaluate`: maps the input to the arguments of the workload's function
//!   (or of its VJP wrapper), calls it as often as `min_runs` and
//!   `min_seconds` ask, timing each call (`evaluate` timings, in
//!   nanoseconds), and maps what the last call left to GradBench's output.
//! - any other kind (`analysis` included): answered with the `id` alone.
//!
//! A line that is not a JSON object with an `id` cannot be answered: it is
//! reported on stderr, and the exit status is 1 at the end of the input.

mod ba;
mod buffers;
mod evals;
mod gmm;
mod llsq;
mod lse;
mod lstm;
mod ode;

use crate::{
    failure::{Failure, Outcome},
    json::Json,
    program::{Session, find_entry},
    reverse::TapeUse,
    tensor::Tensor,
    values::Results,
    wrapper::{self, Wrt, is_active_arg, is_active_result, is_dup_arg},
};
use buffers::{Arg, Array, Cells};
use evals::{Called, Eval, How, Input};
use melior::ir::operation::OperationLike;
use moonc_codegen::{Jit, Signature, ValueType};
use serde_json::Value;
use std::{
    collections::HashMap,
    io::{BufRead, Write},
    path::Path,
    time::{Duration, Instant},
};

/// Serves GradBench's messages from stdin until it closes.
pub fn serve() -> Outcome<()> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    Tool::default().serve(&mut stdin.lock(), &mut stdout.lock())
}

/// The modules defined so far.
#[derive(Default)]
struct Tool {
    modules: HashMap<String, Defined>,
}

impl Tool {
    /// Answers every message of `input` on `output`.
    fn serve(&mut self, input: &mut dyn BufRead, output: &mut dyn Write) -> Outcome<()> {
        let mut unanswered = 0;
        let mut line = vec![];
        for number in 1.. {
            line.clear();
            let read = input
                .read_until(b'\n', &mut line)
                .map_err(|e| Failure::new(format!("gradbench: reading stdin: {e}")))?;
            if read == 0 {
                break;
            }
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            let response = match serde_json::from_str::<Value>(&text) {
                Ok(Value::Object(message)) => match message.get("id") {
                    Some(id @ Value::Number(_)) => {
                        let id = id.clone();
                        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            self.answer(&id, &message)
                        }));
                        Ok(answer.unwrap_or_else(|_| {
                            failed(&id, "internal error: moonc panicked (see stderr)".into())
                        }))
                    }
                    Some(other) => Err(format!("its id is `{other}`, not a number")),
                    None => Err("it has no id".to_string()),
                },
                Ok(other) => Err(format!("it is `{}`, not an object", abbreviate(&other))),
                Err(e) => Err(format!("it is not valid JSON ({e})")),
            };
            match response {
                Ok(response) => {
                    writeln!(output, "{}", response.render())
                        .and_then(|()| output.flush())
                        .map_err(|e| Failure::new(format!("gradbench: writing stdout: {e}")))?;
                }
                Err(why) => {
                    unanswered += 1;
                    eprintln!("moonc gradbench: line {number} cannot be answered: {why}");
                }
            }
        }
        if unanswered > 0 {
            return Err(Failure::new(format!(
                "gradbench: {unanswered} message{} could not be answered (see above)",
                if unanswered == 1 { "" } else { "s" }
            )));
        }
        Ok(())
    }

    /// The response to one message.
    fn answer(&mut self, id: &Value, message: &serde_json::Map<String, Value>) -> Json {
        let kind = message.get("kind").and_then(Value::as_str);
        match kind {
            Some("start") => Json::Object(vec![
                ("id".into(), id_json(id)),
                ("tool".into(), Json::Str("moonc".into())),
                ("config".into(), config()),
            ]),
            Some("define") => match string_field(message, "module") {
                Ok(module) => self.define(id, module),
                Err(e) => failed(id, e),
            },
            Some("evaluate") => match self.evaluate(message) {
                Ok((output, timings)) => Json::Object(vec![
                    ("id".into(), id_json(id)),
                    ("success".into(), Json::Raw("true".into())),
                    ("output".into(), output),
                    ("timings".into(), timings_json("evaluate", &timings)),
                ]),
                Err(e) => failed(id, e),
            },
            Some("analysis") => {
                if message.get("valid") == Some(&Value::Bool(false)) {
                    let of = message.get("of").map_or("?".into(), Value::to_string);
                    let error = message.get("error").and_then(Value::as_str);
                    eprintln!(
                        "moonc gradbench: the eval found the output of message {of} invalid{}",
                        error.map_or(String::new(), |e| format!(": {e}"))
                    );
                }
                Json::Object(vec![("id".into(), id_json(id))])
            }
            other => {
                // The protocol asks for the id alone in answer to any other
                // kind; a kind moonc does not know is worth a note.
                match other {
                    Some("end") => {}
                    Some(kind) => eprintln!(
                        "moonc gradbench: message {id}: unknown kind `{kind}`, acknowledged"
                    ),
                    None => eprintln!("moonc gradbench: message {id} has no kind, acknowledged"),
                }
                Json::Object(vec![("id".into(), id_json(id))])
            }
        }
    }

    /// Compiles module `name`, unless it is defined already.
    fn define(&mut self, id: &Value, name: &str) -> Json {
        let start = Instant::now();
        if !self.modules.contains_key(name) {
            match Defined::compile(name) {
                Ok(defined) => {
                    self.modules.insert(name.to_string(), defined);
                }
                Err(e) => return failed(id, e),
            }
        }
        Json::Object(vec![
            ("id".into(), id_json(id)),
            ("success".into(), Json::Raw("true".into())),
            (
                "timings".into(),
                timings_json("compile", &[start.elapsed().as_nanos()]),
            ),
        ])
    }

    /// Evaluates the function an `evaluate` message names: its output and
    /// the time of each run.
    fn evaluate(
        &self,
        message: &serde_json::Map<String, Value>,
    ) -> Result<(Json, Vec<u128>), String> {
        let module = string_field(message, "module")?;
        let function = string_field(message, "function")?;
        let defined = self.modules.get(module).ok_or_else(|| {
            if evals::find(module).is_some() {
                format!("module `{module}` is not defined: send a define message for it first")
            } else {
                format!(
                    "unknown module `{module}`; moonc implements {}",
                    evals::names()
                )
            }
        })?;
        let index = (defined.eval.functions.iter())
            .position(|f| f.name == function)
            .ok_or_else(|| {
                format!(
                    "module `{module}` has no function `{function}`; its functions are {}",
                    quoted(defined.eval.functions.iter().map(|f| f.name))
                )
            })?;
        let input = message
            .get("input")
            .ok_or("the evaluate message has no input")?;
        defined.evaluate(index, input)
    }
}

/// An eval's workload, compiled, with what to call for each function.
struct Defined {
    eval: &'static Eval,
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
    fn compile(name: &str) -> Result<Defined, String> {
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
    fn evaluate(&self, index: usize, input: &Value) -> Result<(Json, Vec<u128>), String> {
        let function = &self.eval.functions[index];
        let input = Input::new(input)?;
        let runs = Runs::of(&input)?;
        let mut args = (function.arguments)(&input)?;
        let entry = &self.entries[index];
        let primal = &entry.primal;
        let called = match &entry.vjp {
            None => {
                let run = timed(&self.jit, primal, &mut args, 0..0, runs)?;
                Called {
                    results: run.results,
                    arguments: run.arguments,
                    gradient: vec![None; primal.args.len()],
                    timings: run.timings,
                }
            }
            Some((vjp, wrt)) => {
                // The VJP's operands: the arguments, a zero shadow per
                // differentiated memref, the cotangent 1 per float result.
                let first = args.len();
                let shadows: Vec<Arg> = (primal.args.iter().zip(&args).enumerate())
                    .filter(|(i, (t, _))| wrt.includes(*i, t) && is_dup_arg(t))
                    .map(|(_, (_, arg))| match arg {
                        Arg::Array(array) => Arg::Array(Array::zeros(&array.shape)),
                        other => other.clone(),
                    })
                    .collect();
                let dups = shadows.len();
                args.extend(shadows);
                let active = primal.results.iter().filter(|t| is_active_result(t));
                args.extend(active.map(|_| Arg::Float(1.0)));
                let run = timed(&self.jit, vjp, &mut args, first..first + dups, runs)?;
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
                    let made = wrapper::vjp_wrapper(&primal, &location, &wrt);
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

/// How often to run a function: at least `min_runs` times, and until the
/// runs took `min_seconds` in all (GradBench's `Runs`; 1 and 0 when left
/// out). There is always at least one run, for the output.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Runs {
    min_runs: u64,
    min_seconds: f64,
}

impl Runs {
    fn of(input: &Input) -> Result<Runs, String> {
        let min_runs = match input.get("min_runs") {
            None => 1,
            Some(v) => v
                .as_u64()
                .ok_or_else(|| format!("min_runs must be a non-negative integer, not `{v}`"))?,
        };
        let min_seconds = match input.get("min_seconds") {
            None => 0.0,
            Some(v) => v
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("min_seconds must be a non-negative number, not `{v}`"))?,
        };
        Ok(Runs {
            min_runs,
            min_seconds,
        })
    }

    /// Whether `count` runs that took `total` are enough.
    fn done(&self, count: u64, total: Duration) -> bool {
        count >= self.min_runs.max(1) && total.as_secs_f64() >= self.min_seconds
    }
}

/// What the last of several timed calls left.
struct Run {
    /// Every result of the called function.
    results: Vec<Tensor>,
    /// The final value of every argument of the called function.
    arguments: Vec<Tensor>,
    /// The time of each call, in nanoseconds.
    timings: Vec<u128>,
}

/// Calls `signature`'s entry point in `jit` on `args` as often as `runs`
/// asks, timing each call; before each, the arrays at `zero` (the VJP's
/// shadows, which it adds to) are set to zero, inside the timed region.
/// The arguments are bound once: a function that changes its memref
/// arguments sees what the previous call left.
fn timed(
    jit: &Jit,
    signature: &Signature,
    args: &mut [Arg],
    zero: std::ops::Range<usize>,
    runs: Runs,
) -> Result<Run, String> {
    let mut cells = Cells::bind(signature, args)?;
    let mut results = Results::new(signature);
    let entry = jit.packed(signature).map_err(|e| e.to_string())?;
    let mut slots = cells.slots();
    slots.extend(results.slots());
    let mut timings = vec![];
    let mut total = Duration::ZERO;
    let ((), tape) = TapeUse::around(|| {
        loop {
            let start = Instant::now();
            for arg in &mut args[zero.clone()] {
                if let Arg::Array(array) = arg {
                    array.zero();
                }
            }
            // SAFETY: the slots were laid out for this entry point's
            // signature; the arrays stay where they are (zeroing does not
            // move them), and `cells` outlives the calls.
            unsafe { entry(slots.as_mut_ptr()) };
            let elapsed = start.elapsed();
            timings.push(elapsed.as_nanos());
            total += elapsed;
            if runs.done(timings.len() as u64, total) {
                break;
            }
        }
    });
    drop(cells);
    if let Some(error) = &tape.error {
        return Err(format!("@{} reported an error: {error}", signature.name));
    }
    if tape.left != 0 {
        return Err(format!(
            "@{} left {} bytes on moonrt's tape (a bug in the generated reverse code)",
            signature.name, tape.left
        ));
    }
    Ok(Run {
        // SAFETY: the last call stored every result (scalars only, as
        // `compile_workload` checked).
        results: unsafe { results.tensors() },
        arguments: args
            .iter()
            .map(|arg| match arg {
                Arg::Array(array) => array.tensor(),
                Arg::Float(x) => Tensor::new(moonc_codegen::Scalar::F64, &[], vec![*x]),
                Arg::Int(n) => Tensor::new(moonc_codegen::Scalar::I64, &[], vec![*n as f64]),
            })
            .collect(),
        timings,
    })
}

/// What the start response says about how moonc compiles.
fn config() -> Json {
    Json::object([
        ("version", Json::Str(env!("CARGO_PKG_VERSION").into())),
        (
            "parallel_min_trips",
            Json::int(moonc_ir::options::parallel_min_trips() as i64),
        ),
        (
            "blas_min_flops",
            Json::int(moonc_ir::options::blas_min_flops() as i64),
        ),
        (
            "ndual_max_width",
            Json::int(moonc_ir::options::ndual_max_width() as i64),
        ),
    ])
}

/// A response saying the message failed, with `error`.
fn failed(id: &Value, error: String) -> Json {
    Json::Object(vec![
        ("id".into(), id_json(id)),
        ("success".into(), Json::Raw("false".into())),
        ("error".into(), Json::Str(error)),
    ])
}

/// The id as it came (a JSON number).
fn id_json(id: &Value) -> Json {
    Json::Raw(id.to_string())
}

/// `[{"name": name, "nanoseconds": t}, ...]`.
fn timings_json(name: &str, nanoseconds: &[u128]) -> Json {
    Json::List(
        nanoseconds
            .iter()
            .map(|t| {
                Json::object([
                    ("name", Json::Str(name.into())),
                    ("nanoseconds", Json::Raw(t.to_string())),
                ])
            })
            .collect(),
    )
}

/// The string field `key` of a message.
fn string_field<'a>(
    message: &'a serde_json::Map<String, Value>,
    key: &str,
) -> Result<&'a str, String> {
    match message.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!(
            "the message's {key} is `{}`, not a string",
            abbreviate(other)
        )),
        None => Err(format!("the message has no {key}")),
    }
}

/// A failure's message without moonc's `moonc: error: ` prefix.
fn message_of(failure: &Failure) -> String {
    failure
        .0
        .strip_prefix("moonc: error: ")
        .unwrap_or(&failure.0)
        .to_string()
}

/// `a`, `b` and `c`.
fn quoted<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    match names.as_slice() {
        [] => "none".into(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// At most 80 characters of `value`'s JSON.
fn abbreviate(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(80) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn serve(lines: &str) -> (Vec<Value>, Outcome<()>) {
        let mut output = vec![];
        let outcome = Tool::default().serve(&mut lines.as_bytes(), &mut output);
        let responses = String::from_utf8(output)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (responses, outcome)
    }

    #[test]
    fn every_message_with_an_id_is_answered() {
        let (responses, outcome) = serve(
            "{\"id\": 0, \"kind\": \"start\", \"eval\": \"lse\"}\n\n\
             {\"id\": 1, \"kind\": \"define\", \"module\": \"nope\"}\n\
             {\"id\": 2, \"kind\": \"evaluate\", \"module\": \"lse\", \"function\": \"primal\", \
             \"input\": {\"x\": [1]}}\n\
             {\"id\": 3, \"kind\": \"analysis\", \"of\": 2, \"valid\": true}\n\
             {\"id\": 4, \"kind\": \"wat\"}\n",
        );
        assert!(outcome.is_ok());
        assert_eq!(responses.len(), 5);
        assert_eq!(responses[0]["tool"], json!("moonc"));
        assert_eq!(responses[1]["success"], json!(false));
        let error = responses[1]["error"].as_str().unwrap();
        assert!(
            error.contains("no implementation of module `nope`"),
            "{error}"
        );
        let error = responses[2]["error"].as_str().unwrap();
        assert!(error.contains("`lse` is not defined"), "{error}");
        assert_eq!(responses[3], json!({"id": 3}));
        assert_eq!(responses[4], json!({"id": 4}));
    }

    #[test]
    fn lines_without_an_id_fail_at_the_end() {
        let (responses, outcome) = serve("not json\n[1]\n{\"kind\": \"start\"}\n{\"id\": 7}\n");
        assert_eq!(responses, vec![json!({"id": 7})]);
        let error = outcome.unwrap_err();
        assert!(
            error.0.contains("3 messages could not be answered"),
            "{error}"
        );
    }

    #[test]
    fn runs_default_to_one_and_are_checked() {
        let runs = |v: Value| Runs::of(&Input::new(&v).unwrap());
        assert_eq!(
            runs(json!({})),
            Ok(Runs {
                min_runs: 1,
                min_seconds: 0.0
            })
        );
        let some = runs(json!({"min_runs": 3, "min_seconds": 0.5})).unwrap();
        assert!(!some.done(2, Duration::from_secs(1)));
        assert!(!some.done(3, Duration::from_millis(100)));
        assert!(some.done(3, Duration::from_millis(500)));
        assert!(
            runs(json!({"min_runs": 0}))
                .unwrap()
                .done(1, Duration::ZERO)
        );
        assert!(
            !runs(json!({"min_runs": 0}))
                .unwrap()
                .done(0, Duration::ZERO)
        );
        assert!(runs(json!({"min_runs": -1})).is_err());
        assert!(runs(json!({"min_seconds": "1"})).is_err());
    }
}
