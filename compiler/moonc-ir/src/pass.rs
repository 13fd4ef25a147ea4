//! Registration of moonc's Rust passes in MLIR's pass registry, so that
//! `moonc-opt` (MlirOptMain) and textual pipelines know them by flag.

use crate::{Error, ffi};
use melior::{
    Context, ContextRef,
    dialect::DialectHandle,
    ir::{Location, OperationRef, r#type::TypeId},
    pass::{ExternalPass, Pass, RunExternalPass, create_external},
};
use std::{
    ffi::c_void,
    panic::{AssertUnwindSafe, catch_unwind},
};

/// Everything MLIR needs to know about a moonc pass, and how to run it.
/// Each pass is one `static PassInfo` in its own file.
#[derive(Debug)]
pub struct PassInfo {
    /// The flag that names the pass, without dashes: `moon-grad-to-vjp`.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// What the pass does, with a before/after example (Markdown), for
    /// `docs/passes.md`.
    pub description: &'static str,
    /// The operation the pass runs on (`builtin.module`, `func.func`).
    pub op_name: &'static str,
    /// The dialects whose operations the pass creates, which MLIR loads
    /// before the pass runs (loading them during a run is not allowed).
    pub dependent_dialects: fn() -> Vec<DialectHandle>,
    /// Transforms one operation, given the context that owns it. Problems
    /// are reported as diagnostics at the faulty operation before returning
    /// `Err(Error::Reported)`.
    pub run: for<'c, 'a> fn(&'c Context, OperationRef<'c, 'a>) -> Result<(), Error>,
}

impl PassInfo {
    /// A new instance of the pass, for adding to a pass manager.
    pub fn create(&'static self) -> Pass {
        create_external(
            RustPass(self),
            // The address of the static `PassInfo` identifies the pass.
            TypeId::create(self),
            self.argument,
            self.argument,
            self.summary,
            self.op_name,
            &(self.dependent_dialects)(),
        )
    }

    /// Registers the pass in MLIR's global pass registry.
    pub fn register(&'static self) {
        unsafe extern "C" fn factory(user_data: *mut c_void) -> mlir_sys::MlirPass {
            // SAFETY: `register` passes a `&'static PassInfo`.
            let info = unsafe { &*(user_data as *const PassInfo) };
            info.create().to_raw()
        }
        // SAFETY: the factory and its data live for the whole program.
        unsafe { ffi::moonRegisterPass(factory, self as *const PassInfo as *mut c_void) }
    }
}

/// The adapter between a [`PassInfo`] and melior's external passes.
#[derive(Clone)]
struct RustPass(&'static PassInfo);

impl<'c> RunExternalPass<'c> for RustPass {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, operation: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        let location = operation.location();
        let context = operation.context();
        // SAFETY: `to_ref` points into the local `context`, so the reference
        // is valid only during this call. The pass gets it only for the call
        // and cannot keep it: nothing in the IR holds a `&Context`.
        let context = unsafe { context.to_ref() };
        let outcome = catch_unwind(AssertUnwindSafe(|| (self.0.run)(context, operation)));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                if !matches!(error, Error::Reported) {
                    emit_error(location, &format!("{}: {error}", self.0.argument));
                }
                pass.signal_failure();
            }
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                emit_error(
                    location,
                    &format!(
                        "internal compiler error in --{}: {message}",
                        self.0.argument
                    ),
                );
                pass.signal_failure();
            }
        }
    }
}

/// Reports an error diagnostic at `location` to the context's handlers.
pub fn emit_error(location: Location, message: &str) {
    let message =
        std::ffi::CString::new(message.replace('\0', " ")).expect("NUL bytes were replaced");
    // SAFETY: the location is live and the message is NUL-terminated.
    unsafe { mlir_sys::mlirEmitError(location.to_raw(), message.as_ptr()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::{ir::Module, pass::PassManager};
    use std::sync::{Arc, Mutex};

    fn panics(_: &Context, _: OperationRef) -> Result<(), Error> {
        panic!("bad rule table")
    }

    fn reports(_: &Context, op: OperationRef) -> Result<(), Error> {
        emit_error(op.location(), "cannot do this");
        Err(Error::Reported)
    }

    static PANICS: PassInfo = PassInfo {
        argument: "test-panics",
        summary: "",
        description: "",
        op_name: "builtin.module",
        dependent_dialects: Vec::new,
        run: panics,
    };

    static REPORTS: PassInfo = PassInfo {
        argument: "test-reports",
        run: reports,
        ..PANICS
    };

    /// Runs `pass` on a small module; returns whether it succeeded and the
    /// diagnostics it reported.
    fn run(pass: &'static PassInfo) -> (bool, Vec<String>) {
        let context = create_context();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.lock().unwrap().push(diagnostic.to_string());
            true
        });
        let mut module = Module::parse(&context, "func.func private @f()").unwrap();
        let manager = PassManager::new(&context);
        manager.add_pass(pass.create());
        let ok = manager.run(&mut module).is_ok();
        let messages = seen.lock().unwrap().clone();
        (ok, messages)
    }

    #[test]
    fn a_panic_is_a_located_internal_error() {
        let (ok, messages) = run(&PANICS);
        assert!(!ok);
        assert_eq!(
            messages,
            ["internal compiler error in --test-panics: bad rule table"]
        );
    }

    #[test]
    fn a_reported_error_fails_the_pass() {
        let (ok, messages) = run(&REPORTS);
        assert!(!ok);
        assert_eq!(messages, ["cannot do this"]);
    }
}
