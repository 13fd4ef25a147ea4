//! A program read from a `.mlir` file: parsing, finding functions, adding
//! generated functions, differentiating (`--moon-autodiff`) and compiling
//! through moonc-codegen, with every failure turned into a located
//! [`Failure`].

use crate::{
    diagnostics::{Diagnostics, file_line_col},
    failure::{Failure, Outcome},
};
use melior::{
    Context,
    ir::{
        BlockLike, Module, OperationRef,
        attribute::StringAttribute,
        operation::{Operation, OperationLike, OperationMutLike, OperationRefMut},
    },
    pass::PassManager,
};
use moonc_codegen::{Emit, Error, Jit, Signature, ValueType};
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
        crate::crash::set_input(&name);
        crate::crash::set_phase("parsing and verifying the input");
        let source = std::fs::read_to_string(path)
            .map_err(|e| Failure::new(format!("cannot read {name}: {e}")))?;
        check_result_numbers(&source, &name)?;
        let module =
            moonc_ir::pipeline::parse_module(&self.context, &source, &name).ok_or_else(|| {
                self.diagnostics
                    .failure(&format!("{name} is not valid MLIR"))
            })?;
        if !module.as_operation().verify() {
            return Err(self.diagnostics.failure(&format!("{name} does not verify")));
        }
        // Functions on tensors are called, and differentiated, as functions
        // on memrefs (`--moon-bufferize`).
        let pm = PassManager::new(&self.context);
        pm.add_pass(moonc_passes::bufferize::BUFFERIZE.create());
        let mut module = module;
        pm.run(&mut module).map_err(|_| {
            self.diagnostics
                .failure(&format!("{name}: bufferization failed"))
        })?;
        Ok(module)
    }

    /// Reads `path` and finds the public function `entry` (or the only
    /// public function when `entry` is `None`): the module, the function's
    /// signature and its location (as MLIR prints it, `loc(...)`).
    pub fn load_entry(
        &self,
        path: &Path,
        entry: Option<&str>,
    ) -> Outcome<(Module<'_>, Signature, String)> {
        let module = self.load(path)?;
        let name = match entry {
            Some(name) => name.to_string(),
            None => only_function(&module, path)?,
        };
        let (op, signature) = find_entry(self, &module, path, &name)?;
        let location = op.location().to_string();
        Ok((module, signature, location))
    }

    /// Adds the function `name`, defined in `text`, to `module`. `text` is
    /// a module of its own, which may declare (privately) the functions of
    /// `module` that `name` calls; only `name` is moved. Parsing it apart
    /// keeps the user's locations as they are and works whether or not the
    /// user wrote an explicit `module { ... }`.
    pub fn add_function(&self, module: &mut Module, name: &str, text: &str) -> Outcome<()> {
        if top_level_symbols(module).iter().any(|s| s == name) {
            return Err(Failure::new(format!(
                "the symbol @{name} is reserved for the function moonc generates; rename yours"
            )));
        }
        let generated = "<moonc-generated>";
        let parsed = moonc_ir::pipeline::parse_module(&self.context, text, generated)
            .ok_or_else(|| self.diagnostics.failure("moonc generated invalid MLIR"))?;
        let found = top_level_operations(&parsed)
            .into_iter()
            .find(|op| symbol_name(op).as_deref() == Some(name))
            .ok_or_else(|| Failure::new(format!("moonc generated no function @{name}")))?;
        // SAFETY: the operation belongs to `parsed`, which stays alive until
        // it is detached; once detached it is owned by the `Operation`.
        let function = unsafe {
            OperationRefMut::from_raw(found.to_raw()).remove_from_parent();
            Operation::from_raw(found.to_raw())
        };
        module.body().append_operation(function);
        if !module.as_operation().verify() {
            return Err(self
                .diagnostics
                .failure(&format!("the generated function @{name} does not verify")));
        }
        Ok(())
    }

    /// Compiles `module` (see [`Session::compile`]) and loads it into this
    /// process, with packed entry points for `packed`.
    /// With `--gpu`, the module goes through `moon-gpu-pipeline` instead
    /// (see [`Session::compile_gpu`]), and no entry may return a memref.
    pub fn jit(&self, module: &mut Module, packed: &[Signature]) -> Outcome<Jit> {
        self.keep_only_entries(module, packed)?;
        let object = if crate::gpu::enabled() {
            if let Some(signature) = packed.iter().find(|s| {
                s.results
                    .iter()
                    .any(|t| matches!(t, ValueType::MemRef { .. }))
            }) {
                return Err(Failure::new(format!(
                    "@{} returns a memref: a memref result is not supported with --gpu yet",
                    signature.name
                )));
            }
            let libdevice = crate::gpu::libdevice();
            self.compile_gpu(module, crate::gpu::target_chip(), libdevice.as_deref())?;
            moonc_codegen::emit(module, Emit::Object, packed).map_err(|e| self.failure(e, None))?
        } else {
            self.compile(module, Emit::Object, packed)?
        };
        Jit::load(&object, &moonrt::jit_symbols())
            .map_err(|e| Failure::new(format!("loading the compiled code: {e}")))
    }

    /// Makes every public function but the entry points `packed` private
    /// and drops the functions nothing left calls (`symbol-dce`): the JIT
    /// calls only the packed entry points, and the rest of a big module
    /// would go through differentiation and `moon-cpu-pipeline` for
    /// nothing (1.1 ms a function; minutes for a 50 MB module).
    fn keep_only_entries(&self, module: &mut Module, packed: &[Signature]) -> Outcome<()> {
        let private = StringAttribute::new(&self.context, "private");
        for op in top_level_operations(module) {
            let is_function = op.name().as_string_ref().as_str() == Ok("func.func");
            let public = op.attribute("sym_visibility").is_err();
            let entry = op
                .attribute("sym_name")
                .ok()
                .and_then(|n| StringAttribute::try_from(n).ok())
                .is_some_and(|n| packed.iter().any(|s| n.value() == s.name));
            if is_function && public && !entry {
                // SAFETY: `op` is a live top-level operation of `module`.
                let mut op = unsafe { OperationRefMut::from_raw(op.to_raw()) };
                op.set_attribute("sym_visibility", private.into());
            }
        }
        let pm = PassManager::new(&self.context);
        pm.add_pass(melior::pass::transform::create_symbol_dce());
        pm.run(module)
            .map_err(|_| self.diagnostics.failure("dropping unused functions failed"))
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

    /// Differentiates `module` (`--moon-autodiff` replaces every
    /// `moon.jvp`), lowers it for the CPU and emits `what`, with packed JIT
    /// entry points for `packed`.
    pub fn compile(
        &self,
        module: &mut Module,
        what: Emit,
        packed: &[Signature],
    ) -> Outcome<Vec<u8>> {
        let pm = PassManager::new(&self.context);
        if moonc_ir::options::reassociate_sums() {
            pm.add_pass(moonc_passes::reassociate_sums::REASSOCIATE_SUMS.create());
        }
        if moonc_ir::options::checked() {
            // Argument shapes first, so that derivatives check them too.
            pm.add_pass(moonc_passes::check_argument_shapes::CHECK_ARGUMENT_SHAPES.create());
        }
        pm.add_pass(moonc_passes::autodiff::AUTODIFF.create());
        crate::crash::set_phase("differentiating (--moon-autodiff)");
        pm.run(module)
            .map_err(|_| self.diagnostics.failure("differentiation failed"))?;
        drop_custom_rules(module);
        if moonc_ir::options::checked() {
            // Checks of every memref access (bounds of loads, stores and
            // views, dimensions, casts), the derivatives' included: a
            // failed one prints the op and its location and aborts.
            melior::utility::register_all_passes();
            let checks = PassManager::new(&self.context);
            melior::utility::parse_pass_pipeline(
                checks.as_operation_pass_manager(),
                "builtin.module(generate-runtime-verification)",
            )
            .map_err(|e| Failure::new(format!("--checked: {e}")))?;
            checks.run(module).map_err(|_| {
                self.diagnostics
                    .failure("--checked: adding the checks failed")
            })?;
        }
        moonc_codegen::mark_c_interface(&self.context, module);
        crate::crash::set_phase("lowering to the LLVM dialect (moon-cpu-pipeline)");
        moonc_codegen::lower_to_llvm_dialect(&self.context, module)
            .map_err(|e| self.failure(e, None))?;
        crate::crash::set_phase("generating machine code (LLVM)");
        moonc_codegen::emit(module, what, packed).map_err(|e| self.failure(e, None))
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// Differentiates `module` like [`Session::compile`] (but with
    /// `--moon-autodiff`'s `parallel-reverse`), then runs
    /// `moon-gpu-pipeline` for `chip` (linking `libdevice` when given):
    /// kernels become PTX in `gpu.binary` ops, the host side the LLVM
    /// dialect.
    pub fn compile_gpu(
        &self,
        module: &mut Module,
        chip: &str,
        libdevice: Option<&str>,
    ) -> Outcome<()> {
        let pm = PassManager::new(&self.context);
        if moonc_ir::options::reassociate_sums() {
            pm.add_pass(moonc_passes::reassociate_sums::REASSOCIATE_SUMS.create());
        }
        // Reverse mode keeps parallel loops parallel (kernels) on the GPU.
        pm.add_pass(moonc_passes::autodiff::AUTODIFF.create_with(&[("parallel-reverse", 1)]));
        crate::crash::set_phase("differentiating (--moon-autodiff)");
        pm.run(module)
            .map_err(|_| self.diagnostics.failure("differentiation failed"))?;
        drop_custom_rules(module);
        moonc_codegen::mark_c_interface(&self.context, module);
        crate::crash::set_phase("compiling for the GPU (moon-gpu-pipeline)");
        moonc_codegen::lower_for_gpu(&self.context, module, chip, libdevice)
            .map_err(|e| self.failure(e, None))
    }
}

/// Rejects what would crash MLIR's parser (`moonc_ir::input`), located.
fn check_result_numbers(source: &str, name: &str) -> Outcome<()> {
    moonc_ir::input::check_source(source)
        .map_err(|(line, col, message)| Failure::at(Some(format!("{name}:{line}:{col}")), message))
}

/// `file:line:col` of an operation, when it has one.
fn location(op: &OperationRef) -> Option<String> {
    file_line_col(&op.location().to_string())
}

/// The results of the public function `name` of `module` that were
/// tensors before `--moon-bufferize` made them buffers the function
/// allocates (`moon.tensor_results`).
pub fn tensor_results(module: &Module, name: &str) -> Vec<usize> {
    moonc_codegen::public_functions(module)
        .iter()
        .find(|op| symbol_name(op).as_deref() == Some(name))
        .and_then(|op| op.attribute(moonc_passes::bufferize::TENSOR_RESULTS).ok())
        .and_then(|a| melior::ir::attribute::DenseI64ArrayAttribute::try_from(a).ok())
        .map(|a| {
            (0..a.len())
                .filter_map(|i| a.element(i).ok())
                .map(|j| j as usize)
                .collect()
        })
        .unwrap_or_default()
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

/// Every operation directly in `module`'s body, in order.
fn top_level_operations<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
    let mut operations = vec![];
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        operations.push(op);
        next = op.next_in_block();
    }
    operations
}

/// Erases the `moon.custom_rule` operations of `module`: they only tell
/// differentiation what to call, it is done, and nothing lowers them.
fn drop_custom_rules(module: &mut Module) {
    let rules: Vec<_> = top_level_operations(module)
        .iter()
        .filter(|op| op.name().as_string_ref().as_str() == Ok("moon.custom_rule"))
        .map(|op| op.to_raw())
        .collect();
    for rule in rules {
        // SAFETY: each rule is a live operation of `module`, erased once;
        // nothing refers to it (it defines no value or symbol).
        unsafe { mlir_sys::mlirOperationDestroy(rule) };
    }
}

/// The names of the symbols defined directly in `module`.
fn top_level_symbols(module: &Module) -> Vec<String> {
    top_level_operations(module)
        .iter()
        .filter_map(symbol_name)
        .collect()
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
