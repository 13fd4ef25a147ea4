//! moonc-build's error type: why `.mlir` files could not be compiled.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::process::ExitStatus;

/// Why [`Build::try_compile`](crate::Build::try_compile) failed; its
/// `Display` text is what a failing build script shows.
#[derive(Debug)]
pub enum Error {
    /// `compile` was called without any `.file(...)`.
    NoFiles,
    /// moonc was not found: `name` is what was looked for, `origin` where the
    /// name came from (`.moonc(...)`, `MOONC` or the default).
    MooncNotFound {
        /// The path or bare command name that was looked for.
        name: PathBuf,
        /// Where the name came from, for the message.
        origin: &'static str,
    },
    /// Neither `.out_dir(...)` nor the `OUT_DIR` environment variable said
    /// where to write (it is set only for build scripts).
    NoOutDir,
    /// The build targets another machine; moonc compiles for the host only.
    CrossCompile {
        /// The host triple (`HOST`).
        host: String,
        /// The target triple (`TARGET`).
        target: String,
    },
    /// A file's name has no stem that can name a library and a Rust module
    /// (ASCII letters, digits, `_` and `-`).
    BadFileName(PathBuf),
    /// Two files have the same stem, so their outputs would collide.
    DuplicateStem {
        /// The stem both files share.
        stem: String,
        /// The first file with that stem.
        first: PathBuf,
        /// The second file with that stem.
        second: PathBuf,
    },
    /// An I/O operation failed (creating the output directory, starting
    /// moonc, writing Cargo's instructions).
    Io {
        /// What was being done.
        what: String,
        /// The underlying error.
        source: io::Error,
    },
    /// moonc ran and failed.
    Moonc {
        /// The command line, for the message.
        command: String,
        /// moonc's exit status.
        status: ExitStatus,
        /// What moonc printed (its diagnostics), stderr then stdout.
        output: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NoFiles => {
                f.write_str("moonc-build: no .mlir file to compile (call .file(...))")
            }
            Error::MooncNotFound { name, origin } => write!(
                f,
                "moonc-build: moonc not found ({origin}: {}); set MOONC to the moonc binary \
                 or put moonc on PATH (`cargo build --release -p moonc` builds it)",
                name.display()
            ),
            Error::NoOutDir => f.write_str(
                "moonc-build: OUT_DIR is not set (run from a build script or call .out_dir(...))",
            ),
            Error::CrossCompile { host, target } => write!(
                f,
                "moonc-build: moonc compiles for the host ({host}) only, not for {target}"
            ),
            Error::BadFileName(path) => write!(
                f,
                "moonc-build: {} needs a stem of ASCII letters, digits, `_` and `-`",
                path.display()
            ),
            Error::DuplicateStem {
                stem,
                first,
                second,
            } => write!(
                f,
                "moonc-build: {} and {} would both compile to lib{stem}.a",
                first.display(),
                second.display()
            ),
            Error::Io { what, source } => write!(f, "moonc-build: {what}: {source}"),
            Error::Moonc {
                command,
                status,
                output,
            } => write!(f, "moonc-build: `{command}` failed ({status}):\n{output}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
