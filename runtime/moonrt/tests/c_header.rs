//! Checks that `include/moonrt.h` compiles as C99 and C++ and, linked with the
//! static library, drives the C API correctly (`tests/c/abi_check.c`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crate's directory.
fn crate_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether `compiler` can be run; prints a note when it cannot.
fn have(compiler: &str) -> bool {
    let found = Command::new(compiler)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        println!("note: `{compiler}` is not on PATH; skipping its checks of moonrt.h");
    }
    found
}

/// Runs `command`, failing the test with its output if it fails.
fn run(command: &mut Command) {
    let output = command.output().expect("the compiler runs");
    assert!(
        output.status.success(),
        "{command:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn header_compiles_as_c99() {
    if !have("cc") {
        return;
    }
    let header = crate_dir().join("include/moonrt.h");
    let strict = [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-fsyntax-only",
    ];
    run(Command::new("cc")
        .args(strict)
        .args(["-x", "c"])
        .arg(&header));
    let check = crate_dir().join("tests/c/abi_check.c");
    let include = crate_dir().join("include");
    run(Command::new("cc")
        .args(strict)
        .arg("-I")
        .arg(&include)
        .arg(&check));
}

#[test]
fn header_compiles_as_cxx() {
    if !have("c++") {
        return;
    }
    let header = crate_dir().join("include/moonrt.h");
    let strict = [
        "-std=c++11",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-fsyntax-only",
    ];
    run(Command::new("c++")
        .args(strict)
        .args(["-x", "c++"])
        .arg(&header));
    let check = crate_dir().join("tests/c/abi_check.c");
    let include = crate_dir().join("include");
    run(Command::new("c++")
        .args(strict)
        .arg("-I")
        .arg(&include)
        .args(["-x", "c++"])
        .arg(&check));
}

/// The static library cargo built alongside this test, if it can be found:
/// the test runs from `target/<profile>/deps`, where the library lands too.
fn static_library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    [deps, deps.parent()?]
        .into_iter()
        .map(|dir| dir.join("libmoonrt.a"))
        .find(|library| library.exists())
}

#[test]
fn c_program_links_and_runs() {
    if !have("cc") {
        return;
    }
    let Some(library) = static_library() else {
        println!("note: libmoonrt.a not found beside the test; skipping the link check");
        return;
    };
    let exe = std::env::temp_dir().join(format!("moonrt-abi-check-{}", std::process::id()));
    run(Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(crate_dir().join("include"))
        .arg(crate_dir().join("tests/c/abi_check.c"))
        .arg(&library)
        .args(["-lopenblas", "-llapacke", "-lm", "-lpthread", "-ldl", "-o"])
        .arg(&exe));
    let output = Command::new(&exe).output().expect("the C program runs");
    let _ = std::fs::remove_file(&exe);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("abi_check: ok"),
        "{stdout}"
    );
}
