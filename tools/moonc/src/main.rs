//! `moonc`: the driver that compiles, runs and differentiates MLIR programs.
//! Its subcommands (`run`, `grad`, `jacobian`, `hessian`, `check`, `bench`,
//! `compile`) arrive with the issues that implement them; until then it
//! only answers `--help` and `--version`.

use clap::Parser;

/// moonc: automatic differentiation as an MLIR/LLVM compiler toolchain.
#[derive(Parser)]
#[command(name = "moonc", version, about)]
struct Cli {}

fn main() {
    let Cli {} = Cli::parse();
}
