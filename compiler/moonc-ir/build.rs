//! Builds the moon dialect (C++, `dialects/moon`) with CMake and links it.

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dialect = root.join("dialects/moon");
    for watched in ["dialects/moon", "cmake"] {
        println!("cargo:rerun-if-changed={}", root.join(watched).display());
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");

    let mut config = cmake::Config::new(&dialect);
    config
        .generator("Ninja")
        .profile("Release")
        .build_target("Moon");
    if let Ok(prefix) = std::env::var("MLIR_SYS_220_PREFIX") {
        config.define("MOON_LLVM_PREFIX", prefix);
    }
    let out = config.build();
    println!(
        "cargo:rustc-link-search=native={}",
        out.join("build").display()
    );
    println!("cargo:rustc-link-lib=static=Moon");
}
