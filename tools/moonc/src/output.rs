//! Writing output files all at once: each is written to a temporary file
//! beside its destination and renamed into place, so a failure never leaves
//! a partial file behind.

use moonc_call::failure::{Failure, Outcome};
use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// A temporary file beside `destination` (beside the file a symbolic link
/// names), created exclusively and removed on drop unless committed.
pub struct Staged {
    path: PathBuf,
    destination: PathBuf,
}

impl Staged {
    /// Creates a fresh, empty temporary file beside `destination`'s file:
    /// a name no other file has (`O_EXCL`), so nothing that is there
    /// already (a link an attacker placed) is written through.
    pub fn new(destination: &Path, suffix: &str) -> Outcome<Staged> {
        let destination = resolve_links(destination);
        let name = destination
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let cannot = |e: std::io::Error| {
            Failure::new(format!("cannot write {}: {e}", destination.display()))
        };
        for attempt in 0u32.. {
            let path = destination.with_file_name(format!(
                ".{name}.{}.{attempt}.tmp{suffix}",
                std::process::id()
            ));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(_) => return Ok(Staged { path, destination }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {}
                Err(e) => return Err(cannot(e)),
            }
        }
        unreachable!("the loop returns")
    }

    /// The temporary path to write.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Moves the finished file into place. A destination that is a device
    /// or a pipe (`-o /dev/null`) is written into instead: renaming onto it
    /// would replace it by a regular file. A symbolic link stays one: the
    /// file it names is replaced.
    pub fn commit(self) -> Outcome<()> {
        let special =
            std::fs::metadata(&self.destination).is_ok_and(|m| !m.is_file() && !m.is_dir());
        let done = if special {
            std::fs::copy(&self.path, &self.destination).map(drop)
        } else {
            std::fs::rename(&self.path, &self.destination)
        };
        done.map_err(|e| Failure::new(format!("cannot write {}: {e}", self.destination.display())))
    }
}

/// The file `path` names once symbolic links are followed (those of its
/// last component; a dangling link names the file it would create).
fn resolve_links(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
    }
    path
}

impl Drop for Staged {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Writes `bytes` to `destination` atomically (`-`: to stdout).
pub fn write(destination: &Path, bytes: &[u8]) -> Outcome<()> {
    if destination == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .write_all(bytes)
            .map_err(|e| Failure::new(format!("cannot write to stdout: {e}")));
    }
    let staged = Staged::new(destination, "")?;
    std::fs::write(staged.path(), bytes)
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", destination.display())))?;
    staged.commit()
}

/// Runs a tool (the C compiler, `ar`), failing with its stderr.
pub fn run_tool(program: &str, arguments: &[&std::ffi::OsStr], purpose: &str) -> Outcome<()> {
    let output = Command::new(program)
        .args(arguments)
        .output()
        .map_err(|e| Failure::new(format!("{purpose}: cannot run `{program}`: {e}")))?;
    if !output.status.success() {
        return Err(Failure::new(format!(
            "{purpose}: `{program}` failed:\n{}",
            String::from_utf8_lossy(&output.stderr).trim_end()
        )));
    }
    Ok(())
}

/// Links an object into a shared library at `destination` with the system
/// C compiler (`$CC`, default `cc`), against libmvec and libm.
pub fn link_shared(object: &[u8], destination: &Path) -> Outcome<()> {
    let input = Staged::new(destination, ".o")?;
    std::fs::write(input.path(), object)
        .map_err(|e| Failure::new(format!("cannot write {}: {e}", input.path().display())))?;
    let staged = Staged::new(destination, "")?;
    let compiler = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let mut arguments: Vec<&std::ffi::OsStr> = vec![
        "-shared".as_ref(),
        "-o".as_ref(),
        staged.path().as_os_str(),
        input.path().as_os_str(),
    ];
    arguments.extend(crate::LINK_LIBRARIES.iter().map(std::ffi::OsStr::new));
    if moonc_ir::options::parallel_min_trips() > 0 {
        arguments.push(crate::OPENMP_LINK_LIBRARY.as_ref());
    }
    run_tool(
        &compiler,
        &arguments,
        &format!("linking {}", destination.display()),
    )?;
    staged.commit()
}

/// A new directory only this user can enter, under the system's temporary
/// directory (created exclusively: never one that was there before).
fn private_directory() -> Outcome<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = std::env::temp_dir();
    for attempt in 0u32..100 {
        let directory = base.join(format!("moonc-{}-{attempt}", std::process::id()));
        match std::fs::DirBuilder::new().mode(0o700).create(&directory) {
            Ok(()) => return Ok(directory),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(Failure::new(format!(
                    "cannot create {}: {e}",
                    directory.display()
                )));
            }
        }
    }
    Err(Failure::new(format!(
        "cannot create a temporary directory in {}",
        base.display()
    )))
}

/// Archives an object into a static library at `destination` with `$AR`
/// (default `ar`); the member is named after the library.
pub fn archive(object: &[u8], destination: &Path) -> Outcome<()> {
    let stem = destination
        .file_stem()
        .map(|s| s.to_string_lossy().trim_start_matches("lib").to_string())
        .unwrap_or_else(|| "moonc".to_string());
    let directory = private_directory()?;
    let member = directory.join(format!("{stem}.o"));
    let library = directory.join(format!("lib{stem}.a"));
    let result = (|| {
        std::fs::write(&member, object)
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", member.display())))?;
        let tool = std::env::var("AR").unwrap_or_else(|_| "ar".to_string());
        run_tool(
            &tool,
            &["rcs".as_ref(), library.as_os_str(), member.as_os_str()],
            &format!("archiving {}", destination.display()),
        )?;
        let staged = Staged::new(destination, ".a")?;
        std::fs::copy(&library, staged.path())
            .map_err(|e| Failure::new(format!("cannot write {}: {e}", destination.display())))?;
        staged.commit()
    })();
    let _ = std::fs::remove_dir_all(&directory);
    result
}
