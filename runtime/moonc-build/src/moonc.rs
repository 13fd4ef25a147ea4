//! Finding the moonc binary and the command line that compiles one file.

use crate::Error;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variables moonc-build reads, captured once so that tests
/// can supply their own.
#[derive(Clone, Debug, Default)]
pub(crate) struct Environment {
    /// `MOONC`: the moonc binary.
    pub moonc: Option<OsString>,
    /// `PATH`: where a bare command name is looked up.
    pub path: Option<OsString>,
    /// `OUT_DIR`: where Cargo wants build outputs.
    pub out_dir: Option<OsString>,
    /// `HOST`: the triple of the machine running the build.
    pub host: Option<String>,
    /// `TARGET`: the triple of the machine being built for.
    pub target: Option<String>,
    /// `MOONC_TARGET_CPU`: the CPU to compile for (`moonc compile
    /// --target-cpu`), when set.
    pub target_cpu: Option<String>,
}

impl Environment {
    /// The variables as this process sees them.
    pub fn from_process() -> Environment {
        Environment {
            moonc: std::env::var_os("MOONC").filter(|value| !value.is_empty()),
            path: std::env::var_os("PATH"),
            out_dir: std::env::var_os("OUT_DIR"),
            host: std::env::var("HOST").ok(),
            target: std::env::var("TARGET").ok(),
            target_cpu: std::env::var("MOONC_TARGET_CPU")
                .ok()
                .filter(|v| !v.is_empty()),
        }
    }
}

/// The moonc binary to run: `explicit` (from `.moonc(...)`) if given, else
/// `MOONC`, else `moonc`. A name without a `/` is looked up on `PATH`, as a
/// shell would; a path must name an existing file.
pub(crate) fn find(explicit: Option<&Path>, env: &Environment) -> Result<PathBuf, Error> {
    let (name, origin) = match (explicit, &env.moonc) {
        (Some(path), _) => (path.to_path_buf(), ".moonc(...)"),
        (None, Some(value)) => (PathBuf::from(value), "MOONC"),
        (None, None) => (PathBuf::from("moonc"), "PATH"),
    };
    let not_found = || Error::MooncNotFound {
        name: name.clone(),
        origin,
    };
    if name.components().count() > 1 || name.is_absolute() {
        return if name.is_file() {
            Ok(name.clone())
        } else {
            Err(not_found())
        };
    }
    let path = env.path.as_ref().ok_or_else(not_found)?;
    std::env::split_paths(path)
        .map(|dir| dir.join(&name))
        .find(|candidate| candidate.is_file())
        .ok_or_else(not_found)
}

/// `moonc compile FILE -o OUT/lib<stem>.a --emit static --header
/// OUT/<stem>.h --rust OUT/<stem>.rs`.
pub(crate) fn command(
    moonc: &Path,
    file: &Path,
    out_dir: &Path,
    stem: &str,
    target_cpu: Option<&str>,
) -> Command {
    let mut command = Command::new(moonc);
    command
        .arg("compile")
        .arg(file)
        .arg("-o")
        .arg(out_dir.join(format!("lib{stem}.a")))
        .args(["--emit", "static", "--header"])
        .arg(out_dir.join(format!("{stem}.h")))
        .arg("--rust")
        .arg(out_dir.join(format!("{stem}.rs")));
    if let Some(cpu) = target_cpu {
        command.args(["--target-cpu", cpu]);
    }
    command
}

/// A command line as a person would type it, for error messages.
pub(crate) fn render(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|word| word.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line() {
        let command = command(
            Path::new("/opt/moonc/bin/moonc"),
            Path::new("src/kernels.mlir"),
            Path::new("/out"),
            "kernels",
            None,
        );
        assert_eq!(command.get_program(), "/opt/moonc/bin/moonc");
        let args: Vec<_> = command.get_args().collect();
        assert_eq!(
            args,
            [
                "compile",
                "src/kernels.mlir",
                "-o",
                "/out/libkernels.a",
                "--emit",
                "static",
                "--header",
                "/out/kernels.h",
                "--rust",
                "/out/kernels.rs",
            ]
        );
        assert_eq!(
            render(&command),
            "/opt/moonc/bin/moonc compile src/kernels.mlir -o /out/libkernels.a --emit static \
             --header /out/kernels.h --rust /out/kernels.rs"
        );
        let for_cpu = super::command(
            Path::new("moonc"),
            Path::new("k.mlir"),
            Path::new("/out"),
            "k",
            Some("x86-64-v3"),
        );
        assert!(render(&for_cpu).ends_with("--rust /out/k.rs --target-cpu x86-64-v3"));
    }

    #[test]
    fn missing_moonc_on_path() {
        let env = Environment {
            path: Some(OsString::from("/nonexistent/bin:/also/not/there")),
            ..Environment::default()
        };
        let error = find(None, &env).unwrap_err();
        assert!(matches!(error, Error::MooncNotFound { origin: "PATH", .. }));
        assert!(error.to_string().contains("moonc not found (PATH: moonc)"));
        assert!(find(None, &Environment::default()).is_err());
    }

    #[test]
    fn missing_moonc_from_env_or_builder() {
        let env = Environment {
            moonc: Some(OsString::from("/nonexistent/moonc")),
            ..Environment::default()
        };
        let error = find(None, &env).unwrap_err();
        assert_eq!(
            error.to_string(),
            "moonc-build: moonc not found (MOONC: /nonexistent/moonc); set MOONC to the moonc \
             binary or put moonc on PATH (`cargo build --release -p moonc` builds it)"
        );
        let error = find(Some(Path::new("/nonexistent/bin/moonc")), &env).unwrap_err();
        assert!(matches!(
            error,
            Error::MooncNotFound {
                origin: ".moonc(...)",
                ..
            }
        ));
        // A directory is not a binary.
        assert!(find(Some(Path::new("/")), &env).is_err());
    }

    #[test]
    fn moonc_precedence_and_lookup() {
        // /bin/sh stands in for moonc: a file that exists everywhere.
        let env = Environment {
            moonc: Some(OsString::from("/bin/sh")),
            path: Some(OsString::from("/nonexistent:/bin")),
            ..Environment::default()
        };
        assert_eq!(find(None, &env).unwrap(), Path::new("/bin/sh"));
        assert_eq!(
            find(Some(Path::new("sh")), &env).unwrap(),
            Path::new("/bin/sh")
        );
        let env = Environment {
            moonc: Some(OsString::from("sh")),
            ..env
        };
        assert_eq!(find(None, &env).unwrap(), Path::new("/bin/sh"));
    }
}
