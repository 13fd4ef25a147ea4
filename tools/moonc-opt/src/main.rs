//! `moonc-opt`: MLIR's `mlir-opt` driver with every upstream dialect and
//! pass, the moon dialect and moonc's passes. It takes mlir-opt's options:
//! `--pass-pipeline`, one flag per pass, `--split-input-file`,
//! `--verify-diagnostics`, `-o`, `--mlir-print-ir-after-all`, ...

use std::process::ExitCode;

fn main() -> ExitCode {
    moonc_passes::register_passes();
    let code = moonc_ir::opt::opt_main("moonc-opt: moonc's modular optimizer driver\n");
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
