//! `moonc`: the driver that compiles, runs and differentiates MLIR
//! programs. Subcommands: `run` (JIT-compile and call a function), `compile`
//! (ahead-of-time: object, shared or static library, assembly, LLVM IR,
//! with a C header and Rust bindings) and `bench` (time a function
//! in-process). Every failure is one paragraph on stderr and exit status 1.

mod bench;
mod diagnostics;
mod failure;
mod ffi;
mod json;
mod output;
mod program;
mod values;

use clap::{Parser, Subcommand, ValueEnum};
use failure::{Failure, Outcome};
use json::Json;
use moonc_codegen::{Emit, Jit};
use program::Session;
use std::{
    ffi::c_void,
    path::{Path, PathBuf},
    time::Instant,
};
use values::{Arguments, Results};

/// Libraries compiled code needs at link time: glibc's vector math (libmvec)
/// and libm.
pub const LINK_LIBRARIES: &[&str] = &["-lmvec", "-lm"];

/// moonc: automatic differentiation as an MLIR/LLVM compiler toolchain.
#[derive(Parser)]
#[command(name = "moonc", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `--args` and `--entry` say about the call to make.
#[derive(clap::Args)]
struct CallOptions {
    /// The `.mlir` file.
    file: PathBuf,
    /// The public function to call (may be left out when there is only one).
    #[arg(long)]
    entry: Option<String>,
    /// A JSON array with one value per argument (or `@file.json`): a number
    /// for a scalar (an integer for index/iN), a nested list for a memref.
    #[arg(long, default_value = "[]")]
    args: String,
}

#[derive(Subcommand)]
enum Command {
    /// JIT-compile FILE and call a function; prints
    /// `{"results": [...], "args": [...]}` where `args` holds the final
    /// contents of every memref argument and null for scalars.
    Run(CallOptions),
    /// Time a function in-process (warm-up, then repeated samples); prints
    /// `{"primal_ns": median, "primal_min_ns": min, "compile_ms": ...}`.
    Bench {
        #[command(flatten)]
        call: CallOptions,
        /// How long to sample, in milliseconds.
        #[arg(long, default_value_t = 500)]
        time_ms: u64,
    },
    /// Compile FILE ahead of time for the host CPU.
    Compile {
        /// The `.mlir` file.
        file: PathBuf,
        /// Where to write the output.
        #[arg(short, long)]
        output: PathBuf,
        /// What to write.
        #[arg(long, value_enum, default_value_t = EmitKind::Obj)]
        emit: EmitKind,
        /// Also write a C header declaring every public function.
        #[arg(long)]
        header: Option<PathBuf>,
        /// Also write Rust bindings (extern declarations and safe wrappers).
        #[arg(long)]
        rust: Option<PathBuf>,
    },
}

/// `--emit` values.
#[derive(Clone, Copy, ValueEnum)]
enum EmitKind {
    /// A relocatable object file.
    Obj,
    /// A shared library, linked with `$CC` (default `cc`).
    Shared,
    /// A static library, archived with `$AR` (default `ar`).
    Static,
    /// Assembly.
    Asm,
    /// Optimized LLVM IR.
    Llvm,
}

/// A compiled function ready to call, and what compiling it took.
struct Prepared {
    jit: Jit,
    signature: moonc_codegen::Signature,
    arguments: Arguments,
    compile_ms: f64,
}

fn prepare(call: &CallOptions) -> Outcome<Prepared> {
    let start = Instant::now();
    let values = values::parse_args(&call.args)?;
    let session = Session::new();
    let mut module = session.load(&call.file)?;
    let name = match &call.entry {
        Some(name) => name.clone(),
        None => program::only_function(&module, &call.file)?,
    };
    let (_, signature) = program::find_entry(&session, &module, &call.file, &name)?;
    let arguments = Arguments::bind(&signature, &values)?;
    let object = session.compile(&mut module, Emit::Object, std::slice::from_ref(&signature))?;
    let jit = Jit::load(&object, &moonrt::jit_symbols())
        .map_err(|e| Failure::new(format!("loading the compiled code: {e}")))?;
    Ok(Prepared {
        jit,
        signature,
        arguments,
        compile_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

/// A packed entry point and the slots of one call to it.
type Frame = (unsafe extern "C" fn(*mut *mut c_void), Vec<*mut c_void>);

impl Prepared {
    /// The packed entry point, with its argument slots followed by the
    /// slots of `results` (which must outlive every call).
    fn frame(&mut self, results: &mut Results) -> Outcome<Frame> {
        let entry = self
            .jit
            .packed(&self.signature)
            .map_err(|e| Failure::new(e.to_string()))?;
        let mut slots = self.arguments.slots();
        slots.extend(results.slots());
        Ok((entry, slots))
    }
}

fn run(call: &CallOptions) -> Outcome<Json> {
    let mut prepared = prepare(call)?;
    let mut results = Results::new(&prepared.signature);
    let (entry, mut slots) = prepared.frame(&mut results)?;
    // SAFETY: the slots were laid out for this entry point's signature.
    unsafe { entry(slots.as_mut_ptr()) };
    Ok(Json::object([
        // SAFETY: the call has stored every result.
        ("results", unsafe { results.to_json() }),
        ("args", prepared.arguments.to_json()),
    ]))
}

fn compile(
    file: &Path,
    output: &Path,
    emit: EmitKind,
    header: Option<&Path>,
    rust: Option<&Path>,
) -> Outcome<()> {
    let session = Session::new();
    let mut module = session.load(file)?;
    let signatures = program::all_signatures(&session, &module)?;
    let what = match emit {
        EmitKind::Asm => Emit::Assembly,
        EmitKind::Llvm => Emit::LlvmIr,
        EmitKind::Obj | EmitKind::Shared | EmitKind::Static => Emit::Object,
    };
    let bytes = session.compile(&mut module, what, &[])?;
    let source = file.display().to_string();
    let header_text = moonc_codegen::header::render(&signatures, &source, header);
    let rust_text = moonc_codegen::rust_bindings::render(&signatures, &source);
    match emit {
        EmitKind::Shared => output::link_shared(&bytes, output)?,
        EmitKind::Static => output::archive(&bytes, output)?,
        _ => output::write(output, &bytes)?,
    }
    if let Some(path) = header {
        output::write(path, header_text.as_bytes())?;
    }
    if let Some(path) = rust {
        output::write(path, rust_text.as_bytes())?;
    }
    Ok(())
}

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("MOONC_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Run(call) => run(call).map(|json| println!("{}", json.render())),
        Command::Bench { call, time_ms } => prepare(call)
            .and_then(|prepared| bench::bench(prepared, *time_ms))
            .map(|json| println!("{}", json.render())),
        Command::Compile {
            file,
            output,
            emit,
            header,
            rust,
        } => compile(file, output, *emit, header.as_deref(), rust.as_deref()),
    };
    if let Err(failure) = outcome {
        eprintln!("{failure}");
        std::process::exit(1);
    }
}
