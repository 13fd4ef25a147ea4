//! The CPU to compile for as an LLVM target (the host's by default: O3 for
//! its real feature set, AVX2 and AVX-512 when present; or one `--target-cpu`
//! names) and emission of objects, assembly or LLVM IR.

use crate::{
    Error, Result, Signature, checked_alloc, interface, translate, vector_math, wide_results,
};
use inkwell::{
    OptimizationLevel,
    attributes::{Attribute, AttributeLoc},
    context::Context as LlvmContext,
    module::Module as LlvmModule,
    passes::PassBuilderOptions,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine},
};
use melior::ir::Module;
use std::sync::{Once, RwLock};

/// The CPU [`emit`] compiles for: `None` for the host's (`native`).
static TARGET_CPU: RwLock<Option<String>> = RwLock::new(None);

/// The x86-64 CPU names LLVM 22 knows (`llc-22 -mtriple=x86_64 -mcpu=help`),
/// one per line.
const X86_CPUS: &str = include_str!("x86_cpus.txt");

/// The features the x86-64 micro-architecture levels guarantee that
/// moonc's vector math looks at (the rest follow from the CPU name).
const X86_LEVEL_FEATURES: [(&str, &str); 3] = [
    ("x86-64-v2", "+sse4.2"),
    ("x86-64-v3", "+sse4.2,+avx,+avx2,+fma"),
    ("x86-64-v4", "+sse4.2,+avx,+avx2,+fma,+avx512f"),
];

/// Makes every later [`emit`] of this process compile for `cpu`: `native`
/// (the host, the default), `x86-64`, `x86-64-v2`, `-v3`, `-v4`, or
/// another x86-64 CPU name LLVM knows (`skylake-avx512`, `znver4`, ...).
/// An unknown name is an error that lists the levels.
pub fn set_target_cpu(cpu: &str) -> Result<()> {
    let known = cpu == "native" || X86_CPUS.lines().any(|name| name == cpu);
    if !known {
        return Err(Error::Unsupported(format!(
            "unknown target CPU `{cpu}` (expected native, x86-64, x86-64-v2, x86-64-v3, \
             x86-64-v4 or an x86-64 CPU name LLVM knows, such as skylake-avx512 or znver4)"
        )));
    }
    let chosen = (cpu != "native").then(|| cpu.to_string());
    *TARGET_CPU.write().unwrap_or_else(|e| e.into_inner()) = chosen;
    Ok(())
}

/// The CPU [`emit`] compiles for, as `--header` records it: `native (NAME)`
/// for the host's, else the name given.
pub fn target_cpu_description() -> String {
    match TARGET_CPU.read().unwrap_or_else(|e| e.into_inner()).clone() {
        Some(cpu) => cpu,
        None => format!(
            "native ({})",
            TargetMachine::get_host_cpu_name().to_string_lossy()
        ),
    }
}

/// What [`emit`] produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Emit {
    /// A relocatable ELF object.
    Object,
    /// Assembly text.
    Assembly,
    /// Optimized LLVM IR text.
    LlvmIr,
}

/// Initializes LLVM's native target once per process and sets the LLVM
/// options moonc relies on: `-force-ordered-reductions` lets the loop
/// vectorizer vectorize loops that carry a strict (non-reassociable)
/// floating-point sum, keeping the sum in order while the rest of the body,
/// math calls included, runs on full vectors; results stay bit-identical to
/// the scalar loop. `-slp-copyable-elements=false` turns off LLVM 22's SLP
/// trees that fill missing lanes with idempotent operations (`x * 1`): on
/// the hand-blocked RK4 of `bench/suite`'s ode they made more shuffles than
/// they saved (its primal as `moonc compile` builds it: 0.55 ms without
/// them, as with LLVM 19, 0.90 ms with them). `-disable-loop-idiom-memcpy`
/// keeps a loop that also copies `a[i]` to `b[i]` one loop: LLVM otherwise
/// moves the copy out into a `memcpy` call, which reads `a` again. Reverse
/// mode's taping loops are such loops (the recomputed ode stage stores
/// `y[i - 1]`, which it has just loaded, into the tape), as are the short
/// tape-row copies of gmm's reverse sweep, where the call costs more than
/// the copy: gmm's gradient at d = 2 13-18% faster with 25 to 100
/// components, plain ode's 3-11% (`bench/results/ab-sizes.txt`, and
/// `suite-ab.txt` for the suite's rows).
fn initialize() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        Target::initialize_native(&InitializationConfig::default())
            .expect("LLVM was built with the host target");
        let arguments = [
            c"moonc",
            c"-force-ordered-reductions",
            c"-enable-loop-flatten",
            c"-slp-copyable-elements=false",
            c"-disable-loop-idiom-memcpy",
        ];
        let pointers: Vec<_> = arguments.iter().map(|a| a.as_ptr()).collect();
        // SAFETY: NUL-terminated static strings, read during the call.
        unsafe {
            llvm_sys::support::LLVMParseCommandLineOptions(
                pointers.len() as i32,
                pointers.as_ptr(),
                std::ptr::null(),
            )
        };
    });
}

/// Tuning added to an x86-64 host's features: the vectorizer's cost model
/// then prefers not to gather or scatter. With gathers allowed, LLVM
/// unrolls a short inner loop (an image row of 16 or 32 elements) and
/// vectorizes the loop around it with a gather and a scatter per element
/// of the row; on the AMD EPYC here that made a CNN's loops (im2col,
/// ReLU, bias) several times slower than contiguous vector code (CNN loss
/// 0.96 ms with gathers, 0.62 ms without).
const X86_TUNING: &str = ",+prefer-no-gather,+prefer-no-scatter";

/// The target machine for the chosen CPU (the host's name and feature
/// string, or the name `--target-cpu` gave) at O3, and the features moonc's
/// vector math may assume (for a named CPU other than an x86-64 level:
/// none beyond SSE2, so libmvec's SSE variants).
fn target_machine() -> Result<(TargetMachine, String)> {
    initialize();
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| Error::Llvm(e.to_string()))?;
    let chosen = TARGET_CPU.read().unwrap_or_else(|e| e.into_inner()).clone();
    let (cpu, mut features, assumed) = match chosen {
        None => {
            let features = TargetMachine::get_host_cpu_features().to_string();
            (
                TargetMachine::get_host_cpu_name().to_string(),
                features.clone(),
                features,
            )
        }
        Some(cpu) => {
            let level = X86_LEVEL_FEATURES.iter().find(|(name, _)| *name == cpu);
            (
                cpu,
                String::new(),
                level.map_or(String::new(), |(_, f)| f.to_string()),
            )
        }
    };
    if triple.as_str().to_string_lossy().starts_with("x86_64") {
        features.push_str(X86_TUNING);
    }
    let machine = target
        .create_target_machine(
            &triple,
            &cpu,
            &features,
            OptimizationLevel::Aggressive,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| Error::Llvm(format!("no target machine for {cpu} on {triple}")))?;
    Ok((machine, assumed))
}

/// Compiles `module`, already in the LLVM dialect, for the chosen CPU: LLVM
/// IR with C interfaces (and packed JIT entry points for `packed`), vector
/// math, O3, then the requested output.
pub fn emit(module: &Module, what: Emit, packed: &[Signature]) -> Result<Vec<u8>> {
    let llvm = LlvmContext::create();
    tracing::debug!(target: "moonc_phase", "translating to LLVM IR");
    let ir = translate::to_llvm_ir(module, &llvm)?;
    tracing::debug!(target: "moonc_phase", "preparing LLVM IR");
    interface::expose_c_interfaces(&ir, packed.is_empty());
    for signature in packed {
        interface::add_packed_entry(&llvm, &ir, signature)?;
    }
    let (machine, features) = target_machine()?;
    ir.set_triple(&machine.get_triple());
    ir.set_data_layout(&machine.get_target_data().get_data_layout());
    wide_results::return_wide_results_in_memory(&llvm, &ir);
    checked_alloc::check_allocations(&llvm, &ir);
    vector_math::annotate(&llvm, &ir, &features);
    realign_stacks(&llvm, &ir);
    mark_noalias_params(&llvm, &ir);
    ir.verify().map_err(|e| Error::Llvm(e.to_string()))?;
    tracing::trace!(target: "moonc_codegen", "LLVM IR before O3:\n{}", ir.print_to_string());

    let options = PassBuilderOptions::create();
    options.set_loop_vectorization(true);
    options.set_loop_slp_vectorization(true);
    options.set_loop_interleaving(true);
    options.set_loop_unrolling(true);
    tracing::debug!(target: "moonc_phase", "optimizing LLVM IR (O3)");
    ir.run_passes("default<O3>", &machine, options)
        .map_err(|e| Error::Llvm(e.to_string()))?;
    tracing::debug!(target: "moonc_codegen", "optimized LLVM IR:\n{}", ir.print_to_string());

    let file_type = match what {
        Emit::LlvmIr => return Ok(ir.print_to_string().to_bytes().to_vec()),
        Emit::Object => FileType::Object,
        Emit::Assembly => FileType::Assembly,
    };
    tracing::debug!(target: "moonc_phase", "generating machine code");
    let buffer = machine
        .write_to_memory_buffer(&ir, file_type)
        .map_err(|e| Error::Llvm(e.to_string()))?;
    Ok(buffer.as_slice().to_vec())
}

/// Makes the parameters that `moon-outline-loops` lists in a function's
/// `moon-noalias-params` attribute `noalias`, and drops the attribute.
fn mark_noalias_params(llvm: &LlvmContext, module: &LlvmModule) {
    let key = moonc_passes::outline_loops::NOALIAS_PARAMS;
    let noalias = llvm.create_enum_attribute(Attribute::get_named_enum_kind_id("noalias"), 0);
    for function in module.get_functions() {
        let Some(listed) = function.get_string_attribute(AttributeLoc::Function, key) else {
            continue;
        };
        let listed = listed.get_string_value().to_string_lossy().into_owned();
        for param in listed.split(',').filter_map(|p| p.parse::<u32>().ok()) {
            if param < function.count_params() {
                function.add_attribute(AttributeLoc::Param(param), noalias);
            }
        }
        function.remove_string_attribute(AttributeLoc::Function, key);
    }
}

/// Makes every function defined in `module` align its stack frame to what
/// its spill slots need (64 bytes for AVX-512 registers). Without this,
/// vectors spilled around libmvec calls in a vectorized loop straddle cache
/// lines whenever the caller's stack is not 64-byte aligned, which made
/// such loops up to 40% slower, depending on the process.
fn realign_stacks(llvm: &LlvmContext, module: &LlvmModule) {
    let realign = llvm.create_string_attribute("stackrealign", "");
    for function in module.get_functions() {
        if function.count_basic_blocks() > 0 {
            function.add_attribute(AttributeLoc::Function, realign);
        }
    }
}
