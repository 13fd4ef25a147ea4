//! `moonc gradbench`: a GradBench tool. It reads GradBench's messages, one
//! JSON object a line, on stdin and answers each on stdout, so that
//! GradBench's intermediary (`gradbench run --tool 'moonc gradbench'`) can
//! run moonc against GradBench's evals (see docs/gradbench.md).
//!
//! - `start`: answered with the tool's name and configuration.
//! - `define`: compiles the eval's workload (`workloads/`, built into
//!   moonc) with the derivative wrappers its functions need, once;
//!   `success: false` with an error for an eval moonc has no workload for.
//! - `evaluate`: maps the input to the arguments of the workload's function
//!   (or of its VJP wrapper), calls it as often as `min_runs` and
//!   `min_seconds` ask, timing each call (`evaluate` timings, in
//!   nanoseconds), and maps what the last call left to GradBench's output.
//! - any other kind (`analysis` included): answered with the `id` alone.
//!
//! A line that is not a JSON object with an `id` cannot be answered: it is
//! reported on stderr, and the exit status is 1 at the end of the input.
//!
//! The workloads are the `.mlir` files of this crate's `workloads/` folder,
//! built into moonc; `bench/suite` times the same files against JAX.

mod ba;
mod buffers;
mod det;
mod evals;
mod gmm;
mod ht;
mod kmeans;
mod llsq;
mod lse;
mod lstm;
mod nested;
mod ode;
mod runs;
mod workload;

use moonc_call::{
    failure::{Failure, Outcome},
    json::Json,
};
use serde_json::Value;
use std::{
    collections::HashMap,
    io::{BufRead, Write},
    time::Instant,
};
use workload::Defined;

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

/// What the start response says about how moonc compiles.
fn config() -> Json {
    Json::object([
        ("version", Json::Str(env!("CARGO_PKG_VERSION").into())),
        (
            "parallel_min_trips",
            Json::int(moonc_ir::options::parallel_min_trips() as i64),
        ),
        (
            "reassociate_sums",
            Json::Raw(moonc_ir::options::reassociate_sums().to_string()),
        ),
        (
            "keep_subnormals",
            Json::Raw(moonc_ir::options::keep_subnormals().to_string()),
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
}
