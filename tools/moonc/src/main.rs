//! `moonc`: the driver that compiles, runs and differentiates MLIR
//! programs. Subcommands: `run` (JIT-compile and call a function), `compile`
//! (ahead-of-time: object, shared or static library, assembly, LLVM IR,
//! with a C header and Rust bindings), `bench` (time a function
//! in-process), `jacobian`, `grad` and `hessian` (derivatives at a point)
//! and `check`
//! (test the derivatives moonc generates), and `gradbench` (a GradBench
//! tool on stdin and stdout). Every failure is one paragraph
//! on stderr and exit status 1.

mod bench;
mod derivatives;
mod output;

use clap::{Parser, Subcommand, ValueEnum};
use derivatives::Mode;
use moonc_call::{
    crash,
    failure::{Failure, Outcome},
    frame::{Frame, frame},
    gpu,
    json::Json,
    program::{self, Session},
    values::{self, Arguments, Results},
    wrapper,
};
use moonc_check::CheckMode;
use moonc_codegen::{Emit, Jit, Signature};
use std::{
    path::{Path, PathBuf},
    time::Instant,
};

/// Libraries compiled code needs at link time: glibc's vector math (libmvec)
/// and libm.
pub const LINK_LIBRARIES: &[&str] = &["-lmvec", "-lm"];

/// The OpenMP runtime, which code compiled with `--parallel` also needs.
pub const OPENMP_LINK_LIBRARY: &str = "-l:libomp.so.5";

/// moonc: automatic differentiation as an MLIR/LLVM compiler toolchain.
#[derive(Parser)]
#[command(name = "moonc", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// The largest number of distinct differentiable inputs of an element
    /// function that reverse mode differentiates with fused N-wide duals
    /// (0 turns the fused path off; see docs/ndual.md).
    #[arg(long, global = true, value_name = "N")]
    moon_ndual_max_width: Option<u32>,
    /// Run loops whose iterations are independent on all cores (OpenMP,
    /// libomp) when they take at least 32768 iterations; the same as
    /// `--moon-parallel-min-trips 32768` (see docs/parallel.md).
    #[arg(long, global = true)]
    parallel: bool,
    /// Run such loops on all cores when they take at least N iterations (0,
    /// the default, turns this off; overrides `--parallel`).
    #[arg(long, global = true, value_name = "N")]
    moon_parallel_min_trips: Option<u64>,
    /// Call BLAS for linalg matrix products of at least N multiply-adds (0
    /// keeps them all as loops; default 1500; see docs/linalg-to-blas.md).
    #[arg(long, global = true, value_name = "N")]
    moon_blas_min_flops: Option<u64>,
    /// Checkpoint a loop in reverse mode when its tape would take more than
    /// BYTES (default 16 MiB; 0 never checkpoints; see docs/autodiff.md).
    #[arg(long, global = true, value_name = "BYTES")]
    moon_tape_budget: Option<u64>,
    /// End the program when the tape of a derivative grows past SIZE (bytes,
    /// or with a suffix K, M or G: 512M, 2G): `run`, `grad`, `jacobian`,
    /// `check` and `bench` exit with status 1 and `moonrt: out of memory:
    /// the tape needs N bytes, over the limit of M bytes` instead of using
    /// up the machine's memory (default: no limit; see docs/autodiff.md).
    #[arg(long, global = true, value_name = "SIZE", value_parser = parse_size)]
    max_tape_memory: Option<u64>,
    /// The levels of checkpoints a checkpointed loop may use when one level
    /// cannot fit the tape budget; each level runs the loop once more
    /// (at least 1, the default; see docs/autodiff.md).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    moon_checkpoint_levels: Option<u32>,
    /// Keep IEEE subnormal numbers in reverse sweeps, which otherwise run
    /// their loop nests with subnormals flushed to zero (x86-64's FTZ and
    /// DAZ; see docs/autodiff.md, "Subnormals").
    #[arg(long, global = true)]
    moon_keep_subnormals: bool,
    /// Let the sums that loops carry (`s = s + f(i)`) be added in any order,
    /// so that they vectorize; by default moonc keeps the order the program
    /// wrote (see docs/autodiff.md, "Reduction order").
    #[arg(long, global = true)]
    moon_reassociate_sums: bool,
    /// Check every memref access of the compiled code at run time (the
    /// bounds of loads, stores and views, dimensions, casts; MLIR's
    /// runtime verification), derivatives included: a failed check prints
    /// the operation and its location and ends the program (status 71).
    /// For `run`, `grad`, `jacobian`, `check` and `bench` (see
    /// docs/driver.md, "Errors").
    #[arg(long, global = true)]
    checked: bool,
    /// Compile for an NVIDIA GPU through moon-gpu-pipeline (parallel loops
    /// and sums become kernels). `run`, `jacobian`, `grad` and `check` then
    /// call the code with their memref arguments in device memory (see
    /// docs/gpu.md); `compile` writes the host side with the PTX embedded.
    #[arg(long, global = true)]
    gpu: bool,
}

/// A size in bytes, with an optional suffix K, M or G (powers of 1024).
fn parse_size(text: &str) -> Result<u64, String> {
    let (digits, unit) = match text.char_indices().last() {
        Some((at, 'K' | 'k')) => (&text[..at], 1u64 << 10),
        Some((at, 'M' | 'm')) => (&text[..at], 1 << 20),
        Some((at, 'G' | 'g')) => (&text[..at], 1 << 30),
        _ => (text, 1),
    };
    let value: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a size (bytes, or a number with K, M or G)"))?;
    value
        .checked_mul(unit)
        .filter(|&bytes| bytes > 0)
        .ok_or_else(|| format!("`{text}` is not a size between 1 byte and 16 EiB"))
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
    /// Default: `[]` (for `check`: random inputs).
    #[arg(long)]
    args: Option<String>,
}

/// `--wrt`, for the commands that differentiate through the JVP or VJP
/// wrapper.
#[derive(clap::Args)]
struct WrtOption {
    /// Differentiate with respect to these arguments only: a
    /// comma-separated list of 0-based argument indices (e.g. `0,2`), each
    /// a float scalar or a memref of floats. The other arguments are
    /// constants, so the derivative code does not compute their
    /// derivatives. Default: every float argument.
    #[arg(long, value_name = "LIST")]
    wrt: Option<String>,
}

impl WrtOption {
    /// The arguments to differentiate.
    fn wrt(&self) -> Outcome<wrapper::Wrt> {
        wrapper::Wrt::parse(self.wrt.as_deref())
    }
}

impl CallOptions {
    /// `--args`, `[]` when not given.
    fn args(&self) -> &str {
        self.args.as_deref().unwrap_or("[]")
    }
}

#[derive(Subcommand)]
enum Command {
    /// JIT-compile FILE and call a function; prints
    /// `{"results": [...], "args": [...]}` where `args` holds the final
    /// contents of every memref argument and null for scalars.
    Run(CallOptions),
    /// Time a function in-process (warm-up, then repeated samples); prints
    /// `{"primal_ns": median, "primal_min_ns": min, "compile_ms": ...}`,
    /// and for a function with one float scalar result the time of its
    /// value and gradient (`grad_ns`, `ratio`, `tape_peak_bytes`,
    /// `grad_compile_ms`: from FILE to a callable gradient). When
    /// the function calls moonrt's BLAS or LAPACK routines, the time per
    /// call spent inside them: `primal_blas_ns` and `grad_blas_ns`.
    Bench {
        #[command(flatten)]
        call: CallOptions,
        #[command(flatten)]
        wrt: WrtOption,
        /// How long to sample, in milliseconds (the primal, then as long
        /// again for the gradient).
        #[arg(long, default_value_t = 500)]
        time_ms: u64,
        /// Time the primal only, without compiling the gradient.
        #[arg(long)]
        primal_only: bool,
    },
    /// The Jacobian at a point; prints `{"results": [...], "jacobian":
    /// [[...]]}` with one row per float scalar result (then, in forward
    /// mode, one per element of each tensor result of floats) and
    /// one column per float input (scalars, then memrefs row-major, in
    /// argument order).
    Jacobian {
        #[command(flatten)]
        call: CallOptions,
        /// How to differentiate: one JVP per float input (forward) or one
        /// VJP per float scalar result (reverse).
        #[arg(long, value_enum, default_value_t = Mode::Forward)]
        mode: Mode,
    },
    /// The gradient of a function with one float scalar result; prints
    /// `{"value": v, "gradient": [...]}` with per argument a number, a
    /// nested list (memrefs) or null (integer and index arguments, and
    /// those `--wrt` leaves out).
    Grad {
        #[command(flatten)]
        call: CallOptions,
        #[command(flatten)]
        wrt: WrtOption,
        /// How to differentiate: one VJP with the cotangent 1 (reverse) or
        /// one JVP per float input (forward).
        #[arg(long, value_enum, default_value_t = Mode::Reverse)]
        mode: Mode,
    },
    /// The Hessian of a function with one float scalar result, by forward
    /// over reverse mode; prints `{"value": v, "gradient": [...],
    /// "hessian": [[...]]}`: `value` and `gradient` as `grad` prints them,
    /// and one row and one column of `hessian` per float input coordinate
    /// (scalars, then memrefs row-major, in argument order).
    Hessian(CallOptions),
    /// Test the derivatives moonc generates for a function: determinism,
    /// the JVP's and the VJP's primal, the JVP against finite differences
    /// in random directions, the VJP's use of the tape, and the dot-product
    /// test between forward and reverse mode. Prints a report; exit status
    /// 1 if a check fails. With `--wrt`, the inputs are the arguments
    /// listed and the outputs the float scalar results and the memrefs
    /// listed.
    Check {
        #[command(flatten)]
        call: CallOptions,
        #[command(flatten)]
        wrt: WrtOption,
        /// Seed of the random inputs (without --args) and directions.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Which derivatives to test: forward, reverse (the VJP against
        /// finite differences) or both (with the dot-product test).
        #[arg(long, value_enum, default_value_t = CheckMode::Both)]
        mode: CheckMode,
    },
    /// Serve GradBench's protocol on stdin and stdout: a GradBench tool
    /// for the evals lse, llsq, gmm, lstm, ode and ba, whose workloads
    /// (tools/moonc-gradbench/workloads) are built in (see
    /// docs/gradbench.md).
    Gradbench,
    /// Print the GPU `--gpu` runs on (`name (sm_XY)`) and what `--gpu`
    /// compiles for (the chip, libdevice or not), or fail with moonrt's
    /// error when there is no CUDA driver or device.
    GpuInfo,
    /// Compile FILE ahead of time for the host CPU (or, for a module with
    /// `gpu` operations, `--gpu` or `--emit ptx`, for an NVIDIA GPU: the
    /// host side with the kernels' PTX embedded).
    Compile {
        /// The `.mlir` file.
        file: PathBuf,
        /// Where to write the output (`-`: stdout, for obj, asm, llvm and
        /// ptx).
        #[arg(short, long)]
        output: PathBuf,
        /// What to write.
        #[arg(long, value_enum, default_value_t = EmitKind::Obj)]
        emit: EmitKind,
        /// The GPU to compile kernels for: sm_80 or sm_90.
        #[arg(long, default_value = moonc_codegen::DEFAULT_CHIP)]
        gpu_chip: String,
        /// libdevice's bitcode (libdevice.10.bc) to link GPU math against;
        /// without it f32 math becomes polynomial approximations and other
        /// transcendental math is an error.
        #[arg(long)]
        libdevice: Option<PathBuf>,
        /// The CPU to compile for: native (this machine's, the default),
        /// x86-64, x86-64-v2, x86-64-v3, x86-64-v4, or an x86-64 CPU name
        /// LLVM knows (skylake-avx512, znver4, ...). The object then runs
        /// on any CPU that has that one's features.
        #[arg(long, default_value = "native")]
        target_cpu: String,
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
    /// The PTX of the module's GPU kernels (compiles for the GPU).
    Ptx,
}

/// How `compile` compiles for the GPU: `--gpu-chip` and `--libdevice`.
struct GpuOptions<'a> {
    /// Whether `--gpu` was given.
    forced: bool,
    chip: &'a str,
    libdevice: Option<&'a Path>,
}

/// A compiled function ready to call, and what compiling it took.
struct Prepared {
    jit: Jit,
    signature: Signature,
    arguments: Arguments,
    compile_ms: f64,
}

fn prepare(call: &CallOptions) -> Outcome<Prepared> {
    let start = Instant::now();
    let values = values::parse_args(call.args())?;
    let session = Session::new();
    let (mut module, signature, _) = session.load_entry(&call.file, call.entry.as_deref())?;
    let arguments = Arguments::bind(&signature, &values)?;
    let jit = session.jit(&mut module, std::slice::from_ref(&signature))?;
    Ok(Prepared {
        jit,
        signature,
        arguments,
        compile_ms: start.elapsed().as_secs_f64() * 1e3,
    })
}

impl Prepared {
    /// The frame of a call with the bound `--args` (see [`frame`]).
    fn frame(&mut self, results: &mut Results) -> Outcome<Frame> {
        frame(&self.jit, &self.signature, &mut self.arguments, results)
    }
}

fn run(call: &CallOptions) -> Outcome<Json> {
    let mut prepared = prepare(call)?;
    let mut results = Results::new(&prepared.signature);
    let (entry, mut slots) = prepared.frame(&mut results)?;
    moonrt::clear_error();
    // SAFETY: the slots were laid out for this entry point's signature.
    unsafe { gpu::call(entry, &mut slots, &mut prepared.arguments)? };
    let json = Json::object([
        // SAFETY: the call has stored every result.
        ("results", unsafe { results.to_json() }),
        ("args", prepared.arguments.to_json()),
    ]);
    // An error compiled code reported through moonrt (a BLAS call with
    // mismatched sizes, a pop of an empty tape) fails the run, after the
    // state it left is printed.
    if let Some(error) = moonrt::last_error() {
        println!("{}", json.render());
        return Err(Failure::new(format!(
            "@{} reported an error: {}",
            prepared.signature.name,
            error.message()
        )));
    }
    Ok(json)
}

fn compile(
    file: &Path,
    output: &Path,
    emit: EmitKind,
    header: Option<&Path>,
    rust: Option<&Path>,
    gpu: &GpuOptions,
) -> Outcome<()> {
    let session = Session::new();
    let mut module = session.load(file)?;
    let signatures = program::all_signatures(&session, &module)?;
    // PTX needs only kernels; anything else needs a function to call.
    if signatures.is_empty() && !matches!(emit, EmitKind::Ptx) {
        return Err(Failure::new(format!(
            "{}: nothing to compile: the module defines no public function",
            file.display()
        )));
    }
    let what = match emit {
        EmitKind::Asm => Emit::Assembly,
        EmitKind::Llvm => Emit::LlvmIr,
        EmitKind::Obj | EmitKind::Shared | EmitKind::Static | EmitKind::Ptx => Emit::Object,
    };
    let for_gpu =
        gpu.forced || matches!(emit, EmitKind::Ptx) || moonc_codegen::has_gpu_code(&module);
    let bytes = if for_gpu {
        let libdevice = gpu.libdevice.map(|p| p.display().to_string());
        session.compile_gpu(&mut module, gpu.chip, libdevice.as_deref())?;
        if matches!(emit, EmitKind::Ptx) {
            ptx_text(&module, file)?
        } else {
            moonc_codegen::emit(&module, what, &[]).map_err(|e| session.failure(e, None))?
        }
    } else {
        session.compile(&mut module, what, &[])?
    };
    let source = file.display().to_string();
    let header_text = moonc_codegen::header::render(
        &signatures,
        &source,
        header,
        &moonc_codegen::target_cpu_description(),
    );
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

/// The PTX of `module`'s kernels (compiled by `moon-gpu-pipeline`): one PTX
/// module per `gpu.module`, each after a comment naming it when there are
/// several.
fn ptx_text(module: &melior::ir::Module, file: &Path) -> Outcome<Vec<u8>> {
    let modules = moonc_codegen::ptx_modules(module);
    match modules.as_slice() {
        [] => Err(Failure::new(format!(
            "{} has no GPU code: no gpu.launch, gpu.module, parallel loop or 1-D sum to \
             compile to PTX",
            file.display()
        ))),
        [(_, ptx)] => Ok(ptx.clone().into_bytes()),
        several => Ok(several
            .iter()
            .map(|(name, ptx)| format!("// moonc: gpu.module @{name}\n{ptx}"))
            .collect::<String>()
            .into_bytes()),
    }
}

/// Turns `--gpu` on for the commands that call compiled code, after
/// checking that there is a GPU to run it (`compile` only compiles, and
/// needs none).
fn gpu_mode(cli: &Cli) -> Outcome<()> {
    if !cli.gpu || matches!(cli.command, Command::Compile { .. }) {
        return Ok(());
    }
    if matches!(
        cli.command,
        Command::Bench { .. } | Command::Hessian(_) | Command::Gradbench
    ) {
        return Err(Failure::new(
            "--gpu is supported by run, jacobian, grad, check and compile only (not yet by \
             bench, hessian or gradbench)",
        ));
    }
    gpu::require_device()?;
    gpu::enable();
    Ok(())
}

/// The stack of the thread moonc works on: deeply nested programs make
/// MLIR's parser, verifier and passes, and moonc's own, recurse deeply.
const STACK_BYTES: usize = 128 << 20;

fn main() {
    // Like other Unix tools, stop quietly when whoever reads standard
    // output goes away (`moonc run ... | head`) instead of panicking on the
    // failed write: Rust's runtime ignores SIGPIPE, so restore its default.
    // SAFETY: sets one signal's action before any other thread exists.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    crash::install();
    // One malloc arena for all threads: glibc reserves 64 MiB of address
    // space for each thread's own arena, which under an address-space
    // limit (`ulimit -v`) leaves that much less to the program's tape.
    // SAFETY: sets a malloc parameter before any other thread allocates.
    unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    // The work runs on a thread with a large stack (reserved, not touched:
    // only what is used is memory); on the main thread if there is no room
    // for one (a small address-space limit).
    let worker = std::thread::Builder::new()
        .name("moonc".into())
        .stack_size(STACK_BYTES)
        .spawn(|| {
            crash::on_this_thread();
            moonc_main()
        });
    let status = match worker {
        Ok(worker) => worker.join().unwrap_or_else(|_| {
            eprintln!(
                "moonc: internal compiler error: a panic (above); please report it with the input"
            );
            crash::COMPILER_CRASH_STATUS
        }),
        Err(_) => moonc_main(),
    };
    std::process::exit(status);
}

/// moonc's work; the process's exit status.
fn moonc_main() -> i32 {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("MOONC_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    // Compiled code allocates and frees the same buffers on every call:
    // keep freed memory rather than fault fresh pages in each time.
    moonrt::moonrt_keep_freed_memory();
    // Large products run on OpenBLAS's threads (all cores, or
    // `$OPENBLAS_NUM_THREADS`; all cores under `--parallel`), small ones
    // on one.
    let blas_threads = if cli.parallel {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        0
    };
    moonrt::moonrt_set_blas_threads(i32::try_from(blas_threads).unwrap_or(1));
    if let Some(width) = cli.moon_ndual_max_width {
        moonc_ir::options::set_ndual_max_width(width);
    }
    if cli.parallel {
        moonc_ir::options::set_parallel_min_trips(moonc_ir::options::PARALLEL_DEFAULT_MIN_TRIPS);
    }
    if let Some(trips) = cli.moon_parallel_min_trips {
        moonc_ir::options::set_parallel_min_trips(trips);
    }
    if let Some(flops) = cli.moon_blas_min_flops {
        moonc_ir::options::set_blas_min_flops(flops);
    }
    if let Some(bytes) = cli.max_tape_memory {
        moonrt::moonrt_tape_set_limit(bytes.min(i64::MAX as u64) as i64);
    }
    if let Some(bytes) = cli.moon_tape_budget {
        moonc_ir::options::set_tape_budget(bytes);
    }
    if let Some(levels) = cli.moon_checkpoint_levels {
        moonc_ir::options::set_checkpoint_levels(levels);
    }
    if cli.moon_keep_subnormals {
        moonc_ir::options::set_keep_subnormals(true);
    }
    if cli.checked {
        moonc_ir::options::set_checked(true);
    }
    if cli.moon_reassociate_sums {
        moonc_ir::options::set_reassociate_sums(true);
    }
    let outcome = gpu_mode(&cli).and_then(|()| match &cli.command {
        Command::Run(call) => run(call).map(|json| println!("{}", json.render())),
        Command::Bench {
            call,
            wrt,
            time_ms,
            primal_only,
        } => wrt
            .wrt()
            .and_then(|wrt| bench::bench(call, &wrt, *time_ms, *primal_only))
            .map(|json| println!("{}", json.render())),
        Command::Jacobian { call, mode } => {
            derivatives::jacobian(call, *mode).map(|json| println!("{}", json.render()))
        }
        Command::Grad { call, wrt, mode } => wrt
            .wrt()
            .and_then(|wrt| derivatives::grad(call, &wrt, *mode))
            .map(|json| println!("{}", json.render())),
        Command::Hessian(call) => {
            derivatives::hessian(call).map(|json| println!("{}", json.render()))
        }
        Command::Check {
            call,
            wrt,
            seed,
            mode,
        } => wrt.wrt().and_then(|wrt| {
            moonc_check::check(
                &call.file,
                call.entry.as_deref(),
                call.args.as_deref(),
                &wrt,
                *seed,
                *mode,
            )
        }),
        Command::Gradbench => moonc_gradbench::serve(),
        Command::GpuInfo => gpu::require_device().and_then(|name| {
            let (major, minor) = moonrt::gpu::compute_capability()
                .map_err(|e| Failure::new(format!("--gpu: {e}")))?;
            println!("{name} (sm_{major}{minor})");
            let libdevice = gpu::libdevice();
            println!(
                "--gpu compiles for {}, math {}",
                gpu::target_chip(),
                libdevice.map_or("by moonc's polynomials (no libdevice found)".into(), |p| {
                    format!("from libdevice {p}")
                })
            );
            Ok(())
        }),
        Command::Compile {
            file,
            output,
            emit,
            target_cpu,
            header,
            rust,
            gpu_chip,
            libdevice,
        } => moonc_codegen::set_target_cpu(target_cpu)
            .map_err(|e| Failure::new(format!("--target-cpu: {e}")))
            .and_then(|()| {
                compile(
                    file,
                    output,
                    *emit,
                    header.as_deref(),
                    rust.as_deref(),
                    &GpuOptions {
                        forced: cli.gpu,
                        chip: gpu_chip,
                        libdevice: libdevice.as_deref(),
                    },
                )
            }),
    });
    if let Err(failure) = outcome {
        eprintln!("{failure}");
        return 1;
    }
    0
}
