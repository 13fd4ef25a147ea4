//! Collects MLIR's diagnostics during a command and renders them as
//! `file:line:col: error: message` paragraphs.

use crate::failure::Failure;
use melior::{
    Context,
    diagnostic::{Diagnostic, DiagnosticSeverity},
};
use std::{cell::RefCell, rc::Rc};

/// The diagnostics a context has reported so far.
#[derive(Clone, Default)]
pub struct Diagnostics(Rc<RefCell<Vec<String>>>);

/// `file:line:col` from a printed MLIR location such as
/// `loc("f.mlir":3:5)` or `loc(callsite("f.mlir":3:5 at ...))`: the first
/// file location in it.
pub fn file_line_col(location: &str) -> Option<String> {
    let start = location.find('"')? + 1;
    let end = start + location[start..].find('"')?;
    let file = &location[start..end];
    let rest = &location[end + 1..];
    let digits = |s: &str| -> Option<(String, usize)> {
        let s = s.strip_prefix(':')?;
        let n = s.chars().take_while(char::is_ascii_digit).count();
        (n > 0).then(|| (s[..n].to_string(), n + 1))
    };
    let (line, used) = digits(rest)?;
    let (column, _) = digits(&rest[used..])?;
    Some(format!("{file}:{line}:{column}"))
}

fn render(diagnostic: &Diagnostic) -> String {
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    let mut text = match file_line_col(&diagnostic.location().to_string()) {
        Some(at) => format!("{at}: {severity}: {diagnostic}"),
        None => format!("moonc: {severity}: {diagnostic}"),
    };
    for index in 0..diagnostic.note_count() {
        let Ok(note) = diagnostic.note(index) else {
            continue;
        };
        let note_text = note.to_string();
        // The dump of the failing operation is long and adds nothing to a
        // located message.
        if note_text.starts_with("see current operation") {
            continue;
        }
        text.push_str(&format!("\n  note: {note_text}"));
    }
    text
}

impl Diagnostics {
    /// Starts collecting `context`'s diagnostics (instead of printing them).
    pub fn attach(context: &Context) -> Diagnostics {
        let diagnostics = Diagnostics::default();
        let sink = diagnostics.0.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(render(&diagnostic));
            true
        });
        diagnostics
    }

    /// A failure made of everything reported so far (or `fallback` when
    /// nothing was); the collected diagnostics are consumed.
    pub fn failure(&self, fallback: &str) -> Failure {
        let collected = std::mem::take(&mut *self.0.borrow_mut());
        if collected.is_empty() {
            Failure::new(fallback)
        } else {
            Failure(collected.join("\n"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::file_line_col;

    #[test]
    fn reads_file_locations() {
        assert_eq!(
            file_line_col("loc(\"a.mlir\":3:15)").as_deref(),
            Some("a.mlir:3:15")
        );
        assert_eq!(
            file_line_col("loc(callsite(\"x/b.mlir\":1:2 at \"c.mlir\":4:4))").as_deref(),
            Some("x/b.mlir:1:2")
        );
        assert_eq!(file_line_col("loc(unknown)"), None);
        assert_eq!(file_line_col("loc(\"weird\")"), None);
    }
}
