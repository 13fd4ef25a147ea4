//! moonrt's error type and the per-thread last error that the C API reports.

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr;

/// What went wrong in moonrt or in compiled code that reported an error: a
/// message for people.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(String);

impl Error {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Error(message.into())
    }

    /// The message saying what went wrong.
    pub fn message(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Error").field(&self.0).finish()
    }
}

impl std::error::Error for Error {}

thread_local! {
    /// The calling thread's last error, NUL-terminated for C.
    static LAST_ERROR: RefCell<Option<CString>> = const { RefCell::new(None) };
}

/// Stores `message` as the calling thread's last error.
fn store(message: Option<CString>) {
    // `try_with` and `try_borrow_mut` fail only while the thread is being torn
    // down or re-entrantly; losing the message then beats panicking.
    let _ = LAST_ERROR.try_with(|slot| {
        if let Ok(mut slot) = slot.try_borrow_mut() {
            *slot = message;
        }
    });
}

/// Records `message` as the calling thread's last error, the one
/// `moonrt_last_error` returns (NUL bytes in it become spaces).
pub fn set_error(message: &str) {
    let message = CString::new(message.replace('\0', " ")).unwrap_or_default();
    store(Some(message));
}

/// The calling thread's last error, if one was recorded and not cleared.
pub fn last_error() -> Option<Error> {
    LAST_ERROR
        .try_with(|slot| {
            let slot = slot.try_borrow().ok()?;
            let message = slot.as_ref()?;
            Some(Error::new(message.to_string_lossy()))
        })
        .ok()
        .flatten()
}

/// Forgets the calling thread's last error.
pub fn clear_error() {
    store(None);
}

/// Runs the body of an exported C function, turning a panic (a moonrt bug:
/// nothing in moonrt is meant to panic) into the last error and `default`,
/// so that no panic crosses the FFI boundary.
pub(crate) fn guard<R>(function: &str, default: R, body: impl FnOnce() -> R) -> R {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|_| {
        set_error(&format!("{function}: internal error in moonrt (a panic)"));
        default
    })
}

/// The calling thread's last error message, or null if there is none.
///
/// The string is NUL-terminated and stays valid until the next moonrt call
/// on this thread. Successful calls do not clear it (like `errno`): call
/// `moonrt_clear_error` before an operation to tell whether it failed.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_last_error() -> *const c_char {
    guard("moonrt_last_error", ptr::null(), || {
        LAST_ERROR
            .try_with(|slot| {
                let slot = slot.try_borrow().ok()?;
                Some(slot.as_ref()?.as_ptr())
            })
            .ok()
            .flatten()
            .unwrap_or(ptr::null())
    })
}

/// Forgets the calling thread's last error: `moonrt_last_error` then
/// returns null.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_clear_error() {
    guard("moonrt_clear_error", (), clear_error)
}

/// Records `message` as the calling thread's last error; compiled code
/// reports its errors through it. The text is copied; null records
/// "unspecified error".
///
/// # Safety
///
/// `message` must be null or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_set_error(message: *const c_char) {
    guard("moonrt_set_error", (), || {
        if message.is_null() {
            set_error("unspecified error (moonrt_set_error was given NULL)");
        } else {
            // SAFETY: the caller passes a NUL-terminated string.
            let message = unsafe { CStr::from_ptr(message) };
            store(Some(message.to_owned()));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The C view of the last error, as an owned string.
    fn c_last_error() -> Option<String> {
        let message = moonrt_last_error();
        // SAFETY: a non-null result is a NUL-terminated string.
        (!message.is_null()).then(|| unsafe { CStr::from_ptr(message) }.to_string_lossy().into())
    }

    #[test]
    fn set_read_and_clear() {
        clear_error();
        assert_eq!(c_last_error(), None);
        assert_eq!(last_error(), None);
        set_error("bad things");
        assert_eq!(c_last_error().as_deref(), Some("bad things"));
        assert_eq!(last_error(), Some(Error::new("bad things")));
        moonrt_clear_error();
        assert_eq!(c_last_error(), None);
    }

    #[test]
    fn set_from_c() {
        // SAFETY: a NUL-terminated literal, then null.
        unsafe { moonrt_set_error(c"from compiled code".as_ptr()) };
        assert_eq!(c_last_error().as_deref(), Some("from compiled code"));
        // SAFETY: null is allowed.
        unsafe { moonrt_set_error(ptr::null()) };
        assert!(c_last_error().unwrap().starts_with("unspecified error"));
    }

    #[test]
    fn errors_are_per_thread() {
        set_error("main thread");
        let other = std::thread::spawn(c_last_error).join().unwrap();
        assert_eq!(other, None);
        assert_eq!(c_last_error().as_deref(), Some("main thread"));
    }

    #[test]
    fn nul_bytes_become_spaces() {
        set_error("a\0b");
        assert_eq!(c_last_error().as_deref(), Some("a b"));
    }

    #[test]
    fn error_type() {
        let error = Error::new("dimension 0 has size 3, expected 4");
        assert_eq!(error.message(), "dimension 0 has size 3, expected 4");
        assert_eq!(error.to_string(), "dimension 0 has size 3, expected 4");
        assert_eq!(
            format!("{error:?}"),
            "Error(\"dimension 0 has size 3, expected 4\")"
        );
        let _: &dyn std::error::Error = &error;
    }

    #[test]
    fn guard_catches_panics() {
        let result = guard("moonrt_test", 7, || panic!("boom"));
        assert_eq!(result, 7);
        assert!(
            c_last_error()
                .unwrap()
                .contains("moonrt_test: internal error")
        );
    }
}
