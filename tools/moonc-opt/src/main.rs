//! `moonc-opt`: MLIR's `mlir-opt` driver with every upstream dialect and
//! pass, the moon dialect and moonc's passes. It takes mlir-opt's options:
//! `--pass-pipeline`, one flag per pass, `--split-input-file`,
//! `--verify-diagnostics`, `-o`, `--mlir-print-ir-after-all`, ...
//! `MOONC_LOG=debug` (any `tracing` filter) logs what moonc's passes do.

use std::{io::IsTerminal, process::ExitCode};
use tracing_subscriber::EnvFilter;

/// The stack of the thread moonc-opt works on: deeply nested programs make
/// MLIR's parser, verifier and passes, and moonc's own, recurse deeply.
const STACK_BYTES: usize = 128 << 20;

fn main() -> ExitCode {
    // On a thread with a large stack (reserved, not touched: only what is
    // used is memory); on the main thread if there is no room for one.
    let worker = std::thread::Builder::new()
        .name("moonc-opt".into())
        .stack_size(STACK_BYTES)
        .spawn(opt_main);
    match worker {
        Ok(worker) => worker.join().unwrap_or(ExitCode::FAILURE),
        Err(_) => opt_main(),
    }
}

/// moonc-opt's work (MLIR's `mlir-opt` main with moonc's passes); its exit
/// status.
fn opt_main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::from_env("MOONC_LOG"))
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    moonc_passes::register_passes();
    moonc_ir::pipeline::register_pipelines();
    let code = moonc_ir::opt::opt_main("moonc-opt: moonc's modular optimizer driver\n");
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
