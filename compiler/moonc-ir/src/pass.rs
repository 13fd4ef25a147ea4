//! Registration of moonc's Rust passes in MLIR's pass registry, so that
//! `moonc-opt` (MlirOptMain) and textual pipelines know them by flag.

use crate::{
    Error, ffi,
    ir::{Op, error_at},
};
use melior::{StringRef, dialect::DialectHandle, ir::r#type::TypeId, pass::Pass};
use mlir_sys::MlirOperation;
use std::{
    cell::Cell,
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
    /// The pass's options (`--moon-foo=name=value`), usually none.
    pub options: &'static [PassOption],
    /// Transforms one operation, given the values of the options. Problems
    /// are reported as diagnostics at the faulty operation
    /// ([`error_at`]) before returning `Err(Error::Reported)`.
    pub run: fn(Op, OptionValues) -> Result<(), Error>,
}

/// An unsigned integer option of a pass, set like those of MLIR's own
/// passes: `--moon-foo=name=value` on `moonc-opt`'s command line,
/// `moon-foo{name=value}` in a textual pipeline.
#[derive(Debug)]
pub struct PassOption {
    /// The option's name (`min-flops`).
    pub name: &'static str,
    /// One line for `--help`.
    pub description: &'static str,
    /// The value when the option is not given.
    pub default: u64,
}

/// The values of a pass's options for one run.
#[derive(Clone, Copy, Debug)]
pub struct OptionValues<'a> {
    declared: &'static [PassOption],
    values: &'a [u64],
}

impl OptionValues<'_> {
    /// The value of the option `name`. Panics (an internal error) when the
    /// pass declares no such option.
    pub fn get(&self, name: &str) -> u64 {
        let position = self
            .declared
            .iter()
            .position(|o| o.name == name)
            .unwrap_or_else(|| panic!("the pass declares no option `{name}`"));
        self.values[position]
    }
}

impl PassInfo {
    /// A new instance of the pass, for adding to a pass manager.
    pub fn create(&'static self) -> Pass {
        self.create_with(&[])
    }

    /// A new instance of the pass whose options named in `values` take
    /// the values given there (the others their defaults), as
    /// `moon-foo{name=value}` in a textual pipeline would. Panics (an
    /// internal error) when the pass declares no such option.
    pub fn create_with(&'static self, values: &[(&str, u64)]) -> Pass {
        for (name, _) in values {
            assert!(
                self.options.iter().any(|o| o.name == *name),
                "the pass declares no option `{name}`"
            );
        }
        let dialects: Vec<_> = (self.dependent_dialects)()
            .iter()
            .map(|d| d.to_raw())
            .collect();
        let options: Vec<_> = self
            .options
            .iter()
            .map(|o| ffi::MoonPassOption {
                name: StringRef::new(o.name).to_raw(),
                description: StringRef::new(o.description).to_raw(),
                default_value: values
                    .iter()
                    .find(|(name, _)| *name == o.name)
                    .map_or(o.default, |&(_, v)| v),
            })
            .collect();
        let definition = ffi::MoonPassDefinition {
            // The address of the static `PassInfo` identifies the pass.
            type_id: TypeId::create(self).to_raw(),
            argument: StringRef::new(self.argument).to_raw(),
            summary: StringRef::new(self.summary).to_raw(),
            op_name: StringRef::new(self.op_name).to_raw(),
            n_dependent_dialects: dialects.len() as isize,
            dependent_dialects: dialects.as_ptr(),
            n_options: options.len() as isize,
            options: options.as_ptr(),
            run: run_pass,
            user_data: self as *const PassInfo as *mut c_void,
        };
        // SAFETY: the strings are static, the arrays are copied during the
        // call, and `run_pass` gets the static `PassInfo` back.
        unsafe { Pass::from_raw(ffi::moonCreatePass(&definition)) }
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

thread_local! {
    /// Whether the pass running on this thread said it changed nothing.
    static UNCHANGED: Cell<bool> = const { Cell::new(false) };
}

/// What a pass returns when it has left the IR exactly as it found it (it
/// found nothing to do): MLIR then keeps its analyses and does not verify
/// the module again, which on a module of many functions costs more than
/// a pass with nothing to do. Return `Ok(())` when anything may have
/// changed.
pub fn unchanged() -> Result<(), Error> {
    UNCHANGED.set(true);
    Ok(())
}

/// Runs the pass whose `PassInfo` is `user_data` on `op` (MLIR's callback):
/// an error fails the pass, a panic too, after an "internal compiler
/// error" diagnostic at `op`.
unsafe extern "C" fn run_pass(
    op: MlirOperation,
    option_values: *const u64,
    user_data: *mut c_void,
) -> ffi::MoonPassResult {
    // SAFETY: `create` passes a `&'static PassInfo`, and MLIR one value per
    // option it declares.
    let info = unsafe { &*(user_data as *const PassInfo) };
    let values = if info.options.is_empty() {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(option_values, info.options.len()) }
    };
    let options = OptionValues {
        declared: info.options,
        values,
    };
    // MLIR passes the live operation the pass runs on.
    let operation = Op(op);
    let location = operation.loc();
    // A pass may run passes itself: the flag of the one that called it is
    // put back afterwards.
    let caller_unchanged = UNCHANGED.replace(false);
    let outcome = catch_unwind(AssertUnwindSafe(|| (info.run)(operation, options)));
    let unchanged = UNCHANGED.replace(caller_unchanged);
    let failed = match outcome {
        Ok(Ok(())) => false,
        Ok(Err(error)) => {
            if !matches!(error, Error::Reported) {
                error_at(location, &format!("{}: {error}", info.argument));
            }
            true
        }
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            error_at(
                location,
                &format!("internal compiler error in --{}: {message}", info.argument),
            );
            true
        }
    };
    match (failed, unchanged) {
        (true, _) => ffi::MOON_PASS_FAILED,
        (false, true) => ffi::MOON_PASS_UNCHANGED,
        (false, false) => ffi::MOON_PASS_SUCCEEDED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_context;
    use melior::{ir::Module, pass::PassManager};
    use std::sync::{Arc, Mutex};

    fn panics(_: Op, _: OptionValues) -> Result<(), Error> {
        panic!("bad rule table")
    }

    fn reports(op: Op, _: OptionValues) -> Result<(), Error> {
        Err(error_at(op, "cannot do this"))
    }

    /// Reports the value of its option `n`.
    fn shows_option(op: Op, options: OptionValues) -> Result<(), Error> {
        Err(error_at(op, &format!("n = {}", options.get("n"))))
    }

    static PANICS: PassInfo = PassInfo {
        argument: "test-panics",
        summary: "",
        description: "",
        op_name: "builtin.module",
        dependent_dialects: Vec::new,
        options: &[],
        run: panics,
    };

    static REPORTS: PassInfo = PassInfo {
        argument: "test-reports",
        run: reports,
        ..PANICS
    };

    static SHOWS_OPTION: PassInfo = PassInfo {
        argument: "test-shows-option",
        options: &[PassOption {
            name: "n",
            description: "a number",
            default: 7,
        }],
        run: shows_option,
        ..PANICS
    };

    /// Runs `pass` on a small module; returns whether it succeeded and the
    /// diagnostics it reported.
    fn run(pass: &'static PassInfo) -> (bool, Vec<String>) {
        run_pipeline(|manager| manager.add_pass(pass.create()))
    }

    /// Runs the passes `add` adds on a small module, as `run`.
    fn run_pipeline(add: impl FnOnce(&PassManager)) -> (bool, Vec<String>) {
        let context = create_context();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.lock().unwrap().push(diagnostic.to_string());
            true
        });
        let mut module = Module::parse(&context, "func.func private @f()").unwrap();
        let manager = PassManager::new(&context);
        add(&manager);
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

    #[test]
    fn an_option_has_its_default_or_the_value_given() {
        let (_, messages) = run(&SHOWS_OPTION);
        assert_eq!(messages, ["n = 7"]);
        SHOWS_OPTION.register();
        let (_, messages) = run_pipeline(|manager| {
            melior::utility::parse_pass_pipeline(
                manager.as_operation_pass_manager(),
                "builtin.module(test-shows-option{n=42})",
            )
            .expect("the pipeline parses");
        });
        assert_eq!(messages, ["n = 42"]);
    }
}
