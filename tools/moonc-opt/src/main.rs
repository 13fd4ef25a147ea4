//! `moonc-opt`: MLIR's `mlir-opt` driver with every upstream dialect and
//! pass, the moon dialect and moonc's passes. It takes mlir-opt's options:
//! `--pass-pipeline`, one flag per pass, `--split-input-file`,
//! `--verify-diagnostics`, `-o`, `--mlir-print-ir-after-all`, ...
//! `MOONC_LOG=debug` (any `tracing` filter) logs what moonc's passes do.

use std::{io::IsTerminal, process::ExitCode};
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
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
