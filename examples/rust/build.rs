//! Compiles src/kernels.mlir with moonc (from MOONC or PATH) and links it.

fn main() {
    moonc_build::Build::new().file("src/kernels.mlir").compile();
}
