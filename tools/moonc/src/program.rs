//! A program read from a `.mlir` file: parsing, finding functions, and
//! compiling through moonc-codegen, with every failure turned into a
//! located [`Failure`].

use crate::{
    diagnostics::{Diagnostics, file_line_col},
    failure::{Failure, Outcome},
};
use melior::{
    Context,
    ir::{Module, OperationRef, attribute::StringAttribute},
};
use moonc_codegen::{Emit, Error, Signature};
use std::path::Path;

/// The MLIR side of a command: a context whose diagnostics are collected.
pub struct Session {
    pub context: Context,
    pub diagnostics: Diagnostics,
}

impl Session {
    /// A context with every dialect moonc reads.
    pub fn new() -> Session {
        let context = moonc_ir::create_context();
        let diagnostics = Diagnostics::attach(&context);
        Session {
            context,
            diagnostics,
        }
    }

    /// Reads, parses and verifies `path`.
    pub fn load(&self, path: &Path) -> Outcome<Module<'_>> {
        let name = path.display().to_string();
        let source = std::fs::read_to_string(path)
            .map_err(|e| Failure::new(format!("cannot read {name}: {e}")))?;
        let module =
            moonc_ir::pipeline::parse_module(&self.context, &source, &name).ok_or_else(|| {
                self.diagnostics
                    .failure(&format!("{name} is not valid MLIR"))
            })?;
        if !module.as_operation().verify() {
            return Err(self.diagnostics.failure(&format!("{name} does not verify")));
        }
        Ok(module)
    }

    /// Turns a codegen error into a failure, located at `op` when the error
    /// is about it.
    pub fn failure(&self, error: Error, op: Option<&OperationRef>) -> Failure {
        match error {
            Error::Reported => self.diagnostics.failure("compilation failed"),
            Error::Unsupported(message) => Failure::at(op.and_then(location), message),
            other => Failure::new(other.to_string()),
        }
    }

    /// Lowers `module` for the CPU and emits `what`, with packed JIT entry
    /// points for `packed`.
    pub fn compile(
        &self,
        module: &mut Module,
        what: Emit,
        packed: &[Signature],
    ) -> Outcome<Vec<u8>> {
        moonc_codegen::mark_c_interface(&self.context, module);
        moonc_codegen::lower_to_llvm_dialect(&self.context, module)
            .map_err(|e| self.failure(e, None))?;
        moonc_codegen::emit(module, what, packed).map_err(|e| self.failure(e, None))
    }
}

/// `file:line:col` of an operation, when it has one.
fn location(op: &OperationRef) -> Option<String> {
    file_line_col(&op.location().to_string())
}

fn symbol_name(op: &OperationRef) -> Option<String> {
    let attribute = op.attribute("sym_name").ok()?;
    Some(
        StringAttribute::try_from(attribute)
            .ok()?
            .value()
            .to_string(),
    )
}

/// The public function `name` of `module` and its signature, or a failure
/// that names the functions there are.
pub fn find_entry<'c, 'a>(
    session: &Session,
    module: &'a Module<'c>,
    path: &Path,
    name: &str,
) -> Outcome<(OperationRef<'c, 'a>, Signature)> {
    let public = moonc_codegen::public_functions(module);
    let Some(op) = public
        .iter()
        .find(|op| symbol_name(op).as_deref() == Some(name))
    else {
        let names: Vec<String> = public
            .iter()
            .filter_map(symbol_name)
            .map(|n| format!("@{n}"))
            .collect();
        let available = if names.is_empty() {
            "it defines no public function".to_string()
        } else {
            format!("its public functions are {}", names.join(", "))
        };
        return Err(Failure::new(format!(
            "--entry: {} has no public function @{name}; {available}",
            path.display()
        )));
    };
    let signature = moonc_codegen::signature_of(op).map_err(|e| session.failure(e, Some(op)))?;
    Ok((*op, signature))
}

/// Every public function's signature, failing at the first one whose types
/// cannot cross the C interface.
pub fn all_signatures(session: &Session, module: &Module) -> Outcome<Vec<Signature>> {
    moonc_codegen::public_functions(module)
        .iter()
        .map(|op| moonc_codegen::signature_of(op).map_err(|e| session.failure(e, Some(op))))
        .collect()
}

/// The name of the only public function of `module` (for a missing
/// `--entry`), or a failure asking for `--entry`.
pub fn only_function(module: &Module, path: &Path) -> Outcome<String> {
    let public = moonc_codegen::public_functions(module);
    match public.as_slice() {
        [only] => symbol_name(only).ok_or_else(|| Failure::new("a function without a name")),
        _ => Err(Failure::new(format!(
            "--entry is required: {} defines {} public functions ({})",
            path.display(),
            public.len(),
            public
                .iter()
                .filter_map(symbol_name)
                .map(|n| format!("@{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}
