//! `moonc-opt`'s engine: MLIR's own `mlir-opt` driver (MlirOptMain), run
//! with every upstream dialect and pass, the moon dialect and moonc's passes.

use crate::{dialect_registry, ffi};
use melior::{StringRef, utility::register_all_passes};
use std::ffi::{CString, c_char, c_int};

/// Runs the `mlir-opt` driver on the process's command line and returns its
/// exit code (0 on success, 1 on any failure). Register moonc's passes
/// before calling it so that they appear as flags and in `--help`.
pub fn opt_main(title: &str) -> i32 {
    // Input files that would crash MLIR's parser are rejected first (an
    // argument that names a readable file; stdin is not checked).
    for argument in std::env::args().skip(1).filter(|a| !a.starts_with('-')) {
        let Ok(source) = std::fs::read_to_string(&argument) else {
            continue;
        };
        if let Err((line, col, message)) = crate::input::check_source(&source) {
            eprintln!("{argument}:{line}:{col}: error: {message}");
            return 1;
        }
    }
    register_all_passes();
    let registry = dialect_registry();
    // Arguments are passed through as bytes; a NUL cannot occur in them.
    let arguments: Vec<CString> = std::env::args_os()
        .map(|a| CString::new(a.into_encoded_bytes()).expect("no NUL in argv"))
        .collect();
    let mut argv: Vec<*mut c_char> = arguments.iter().map(|a| a.as_ptr().cast_mut()).collect();
    argv.push(std::ptr::null_mut());
    // SAFETY: argv is NUL-terminated and outlives the call; the registry is live.
    unsafe {
        ffi::moonOptMain(
            arguments.len() as c_int,
            argv.as_mut_ptr(),
            StringRef::new(title).to_raw(),
            registry.to_raw(),
        )
    }
}
