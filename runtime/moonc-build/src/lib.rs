//! moonc-build compiles `.mlir` files with moonc from a Cargo build script
//! and tells Cargo to link them, in the spirit of the `cc` crate:
//!
//! ```ignore
//! // build.rs
//! fn main() {
//!     moonc_build::Build::new().file("src/kernels.mlir").compile();
//! }
//! ```
//!
//! Each `<stem>.mlir` becomes `$OUT_DIR/lib<stem>.a` (linked statically),
//! `$OUT_DIR/<stem>.h` (the C header) and `$OUT_DIR/<stem>.rs` (the Rust
//! bindings, which `moonrt::include_mlir!("<stem>")` includes). moonc is
//! `.moonc(...)`, else the `MOONC` environment variable, else `moonc` on
//! `PATH`. `MOONC_TARGET_CPU`, when set, is passed as `--target-cpu` (the
//! CPU the objects are for; this machine's by default).

mod error;
mod moonc;

pub use error::Error;

use moonc::Environment;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A set of `.mlir` files to compile with moonc and link into the crate
/// whose build script runs it.
#[derive(Clone, Debug, Default)]
pub struct Build {
    files: Vec<PathBuf>,
    moonc: Option<PathBuf>,
    out_dir: Option<PathBuf>,
}

impl Build {
    /// An empty build: add files with [`Build::file`].
    pub fn new() -> Build {
        Build::default()
    }

    /// Adds a `.mlir` file (relative paths are relative to the package
    /// root, where build scripts run).
    pub fn file(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.files.push(path.as_ref().to_path_buf());
        self
    }

    /// Runs this moonc binary instead of `MOONC` or `moonc` on `PATH`.
    pub fn moonc(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.moonc = Some(path.as_ref().to_path_buf());
        self
    }

    /// Writes the outputs to this directory (created if missing) instead of
    /// `$OUT_DIR`.
    pub fn out_dir(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.out_dir = Some(path.as_ref().to_path_buf());
        self
    }

    /// Compiles every file and prints Cargo's link instructions; panics
    /// with the error (moonc's diagnostics included) on failure, which is
    /// how a build script reports it.
    pub fn compile(&self) {
        if let Err(error) = self.try_compile() {
            panic!("{error}");
        }
    }

    /// Compiles every file and prints Cargo's link instructions, or says
    /// why it could not.
    pub fn try_compile(&self) -> Result<(), Error> {
        self.compile_with(&Environment::from_process(), &mut std::io::stdout().lock())
    }

    /// [`Build::try_compile`] with the environment variables `env`, writing
    /// Cargo's instructions to `cargo`.
    fn compile_with(&self, env: &Environment, cargo: &mut dyn Write) -> Result<(), Error> {
        let mut say = |line: String| {
            writeln!(cargo, "cargo:{line}").map_err(|source| Error::Io {
                what: "writing Cargo's instructions".into(),
                source,
            })
        };
        if self.files.is_empty() {
            return Err(Error::NoFiles);
        }
        if let (Some(host), Some(target)) = (&env.host, &env.target) {
            if host != target {
                return Err(Error::CrossCompile {
                    host: host.clone(),
                    target: target.clone(),
                });
            }
        }
        say("rerun-if-env-changed=MOONC".into())?;
        say("rerun-if-env-changed=MOONC_TARGET_CPU".into())?;
        for file in &self.files {
            say(format!("rerun-if-changed={}", file.display()))?;
        }
        let stems = stems(&self.files)?;
        let moonc = moonc::find(self.moonc.as_deref(), env)?;
        say(format!("rerun-if-changed={}", moonc.display()))?;
        let out_dir = match (&self.out_dir, &env.out_dir) {
            (Some(dir), _) => dir.clone(),
            (None, Some(dir)) => PathBuf::from(dir),
            (None, None) => return Err(Error::NoOutDir),
        };
        std::fs::create_dir_all(&out_dir).map_err(|source| Error::Io {
            what: format!("creating {}", out_dir.display()),
            source,
        })?;
        for (file, stem) in self.files.iter().zip(&stems) {
            let mut command =
                moonc::command(&moonc, file, &out_dir, stem, env.target_cpu.as_deref());
            let output = command.output().map_err(|source| Error::Io {
                what: format!("running {}", moonc.display()),
                source,
            })?;
            if !output.status.success() {
                return Err(Error::Moonc {
                    command: moonc::render(&command),
                    status: output.status,
                    output: String::from_utf8_lossy(&[output.stderr, output.stdout].concat())
                        .into_owned(),
                });
            }
        }
        say(format!("rustc-link-search=native={}", out_dir.display()))?;
        for stem in &stems {
            say(format!("rustc-link-lib=static={stem}"))?;
        }
        say("rustc-link-lib=mvec".into())?;
        say("rustc-link-lib=m".into())
    }
}

/// The stem of each file, which names its library and bindings: checked to
/// be usable and distinct.
fn stems(files: &[PathBuf]) -> Result<Vec<String>, Error> {
    let mut seen: BTreeMap<String, &PathBuf> = BTreeMap::new();
    let mut stems = Vec::with_capacity(files.len());
    for file in files {
        let stem = file
            .file_stem()
            .and_then(|stem| stem.to_str())
            .filter(|stem| {
                !stem.is_empty()
                    && stem
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            })
            .ok_or_else(|| Error::BadFileName(file.clone()))?;
        if let Some(first) = seen.insert(stem.to_string(), file) {
            return Err(Error::DuplicateStem {
                stem: stem.to_string(),
                first: first.clone(),
                second: file.clone(),
            });
        }
        stems.push(stem.to_string());
    }
    Ok(stems)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;
    use std::sync::OnceLock;

    /// A fresh scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("moonc-build-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Shell scripts standing in for moonc: `good` writes the three outputs
    /// its command line names, `bad` fails with a diagnostic. They are all
    /// written before any test runs one, so that no child process inherits
    /// a script still open for writing (which makes exec fail).
    fn fake_moonc(kind: &str) -> PathBuf {
        static DIR: OnceLock<PathBuf> = OnceLock::new();
        let dir = DIR.get_or_init(|| {
            use std::os::unix::fs::PermissionsExt;
            let dir = scratch("fake-moonc");
            let scripts = [
                (
                    "good",
                    "#!/bin/sh\necho archive > \"$4\"; echo h > \"$8\"; echo rs > \"${10}\"\n",
                ),
                (
                    "bad",
                    "#!/bin/sh\necho \"$2:3:7: error: unknown op\" >&2\nexit 1\n",
                ),
            ];
            for (name, text) in scripts {
                let path = dir.join(name);
                std::fs::write(&path, text).unwrap();
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            dir
        });
        dir.join(kind)
    }

    fn env_with_out_dir(out_dir: &Path) -> Environment {
        Environment {
            out_dir: Some(OsString::from(out_dir)),
            ..Environment::default()
        }
    }

    #[test]
    fn compiles_and_prints_cargo_instructions() {
        let out = scratch("good");
        let moonc = fake_moonc("good");
        let mut cargo = Vec::new();
        Build::new()
            .file("src/kernels.mlir")
            .file("other/loss.mlir")
            .moonc(&moonc)
            .compile_with(&env_with_out_dir(&out), &mut cargo)
            .unwrap();
        let o = out.display();
        let expected = format!(
            "cargo:rerun-if-env-changed=MOONC\n\
             cargo:rerun-if-env-changed=MOONC_TARGET_CPU\n\
             cargo:rerun-if-changed=src/kernels.mlir\n\
             cargo:rerun-if-changed=other/loss.mlir\n\
             cargo:rerun-if-changed={}\n\
             cargo:rustc-link-search=native={o}\n\
             cargo:rustc-link-lib=static=kernels\n\
             cargo:rustc-link-lib=static=loss\n\
             cargo:rustc-link-lib=mvec\n\
             cargo:rustc-link-lib=m\n",
            moonc.display()
        );
        assert_eq!(String::from_utf8(cargo).unwrap(), expected);
        for name in [
            "libkernels.a",
            "kernels.h",
            "kernels.rs",
            "libloss.a",
            "loss.h",
            "loss.rs",
        ] {
            assert!(out.join(name).is_file(), "{name} was not written");
        }
        std::fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn out_dir_from_the_builder_is_created() {
        let out = scratch("builder-out").join("nested");
        let mut cargo = Vec::new();
        Build::new()
            .file("k.mlir")
            .moonc(fake_moonc("good"))
            .out_dir(&out)
            .compile_with(&Environment::default(), &mut cargo)
            .unwrap();
        assert!(out.join("libk.a").is_file());
        std::fs::remove_dir_all(out.parent().unwrap()).unwrap();
    }

    #[test]
    fn moonc_failure_carries_its_diagnostics() {
        let out = scratch("bad");
        let error = Build::new()
            .file("src/kernels.mlir")
            .moonc(fake_moonc("bad"))
            .compile_with(&env_with_out_dir(&out), &mut Vec::new())
            .unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, Error::Moonc { .. }));
        assert!(
            text.contains("src/kernels.mlir:3:7: error: unknown op"),
            "{text}"
        );
        assert!(text.contains("compile src/kernels.mlir -o"), "{text}");
        std::fs::remove_dir_all(out).unwrap();
    }

    #[test]
    #[should_panic(expected = "src/kernels.mlir:3:7: error: unknown op")]
    fn compile_panics_with_the_error() {
        let out = scratch("panic");
        Build::new()
            .file("src/kernels.mlir")
            .moonc(fake_moonc("bad"))
            .out_dir(out)
            .compile();
    }

    #[test]
    fn missing_moonc_is_an_error() {
        let out = scratch("missing");
        let env = Environment {
            path: Some(OsString::from("/nonexistent")),
            ..env_with_out_dir(&out)
        };
        let error = Build::new()
            .file("k.mlir")
            .compile_with(&env, &mut Vec::new())
            .unwrap_err();
        assert!(matches!(error, Error::MooncNotFound { .. }), "{error}");
        let error = Build::new()
            .file("k.mlir")
            .moonc("/nonexistent/moonc")
            .try_compile()
            .unwrap_err();
        assert!(matches!(error, Error::MooncNotFound { .. }), "{error}");
        std::fs::remove_dir_all(out).unwrap();
    }

    #[test]
    fn configuration_errors() {
        let good = fake_moonc("good");
        let run = |build: &mut Build, env: &Environment| {
            build
                .moonc(&good)
                .compile_with(env, &mut Vec::new())
                .unwrap_err()
        };
        let out = env_with_out_dir(Path::new("/nonexistent/out"));
        assert!(matches!(run(&mut Build::new(), &out), Error::NoFiles));
        assert!(matches!(
            run(Build::new().file("k.mlir"), &Environment::default()),
            Error::NoOutDir
        ));
        let cross = Environment {
            host: Some("x86_64-unknown-linux-gnu".into()),
            target: Some("aarch64-unknown-linux-gnu".into()),
            ..out.clone()
        };
        assert!(matches!(
            run(Build::new().file("k.mlir"), &cross),
            Error::CrossCompile { .. }
        ));
        assert!(matches!(
            run(Build::new().file("src/bad name.mlir"), &out),
            Error::BadFileName(_)
        ));
        assert!(matches!(
            run(Build::new().file("a/k.mlir").file("b/k.mlir"), &out),
            Error::DuplicateStem { .. }
        ));
    }
}
