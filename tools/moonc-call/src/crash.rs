//! What moonc says when it crashes: a fatal signal (a segmentation fault in
//! MLIR, LLVM or moonc's own code, a stack overflow, an abort) ends it with
//! a message naming the input and the phase it was in, and a status of its
//! own, instead of a bare "Segmentation fault". A crash while compiled code
//! runs is the program's (an out-of-bounds access, say) and is reported as
//! such, with another status.

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The status of a crash of the compiler itself.
pub const COMPILER_CRASH_STATUS: i32 = 70;
/// The status of a crash of the program moonc compiled and ran.
pub const PROGRAM_CRASH_STATUS: i32 = 71;

/// What moonc is doing, for the message: a static string and its length.
static PHASE: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static PHASE_LEN: AtomicUsize = AtomicUsize::new(0);
/// Whether the phase is compiled code running (a crash is the program's).
static RUNNING_PROGRAM: AtomicUsize = AtomicUsize::new(0);
/// The input file's name, leaked once set, for the message.
static INPUT: AtomicPtr<u8> = AtomicPtr::new(std::ptr::null_mut());
static INPUT_LEN: AtomicUsize = AtomicUsize::new(0);

/// Records what moonc is doing now (`parsing`, `--moon-autodiff`, ...);
/// `MOONC_LOG=moonc_phase=debug` logs each phase as it starts, with the
/// time.
pub fn set_phase(phase: &'static str) {
    tracing::debug!(target: "moonc_phase", "{phase}");
    PHASE_LEN.store(0, Ordering::SeqCst);
    PHASE.store(phase.as_ptr().cast_mut(), Ordering::SeqCst);
    PHASE_LEN.store(phase.len(), Ordering::SeqCst);
    RUNNING_PROGRAM.store(0, Ordering::SeqCst);
}

/// Records that compiled code runs now (`@name` of what was called).
pub fn set_running_program() {
    set_phase("running the compiled program");
    RUNNING_PROGRAM.store(1, Ordering::SeqCst);
}

/// Records the input file the messages name.
pub fn set_input(path: &str) {
    let leaked: &'static str = Box::leak(path.to_string().into_boxed_str());
    INPUT_LEN.store(0, Ordering::SeqCst);
    INPUT.store(leaked.as_ptr().cast_mut(), Ordering::SeqCst);
    INPUT_LEN.store(leaked.len(), Ordering::SeqCst);
}

/// The signals that end moonc with the message.
const SIGNALS: [(libc::c_int, &str); 5] = [
    (
        libc::SIGSEGV,
        "a segmentation fault (SIGSEGV; a stack overflow is one)",
    ),
    (libc::SIGBUS, "a bus error (SIGBUS)"),
    (libc::SIGILL, "an illegal instruction (SIGILL)"),
    (libc::SIGFPE, "an arithmetic exception (SIGFPE)"),
    (libc::SIGABRT, "an abort (SIGABRT)"),
];

/// Bytes of the alternate stack the handler runs on (it must run when the
/// thread's own stack has overflowed).
const ALT_STACK_BYTES: usize = 64 * 1024;

/// Installs the handler of every signal in [`SIGNALS`], and an alternate
/// stack for the calling thread (each thread that may crash needs one:
/// call [`on_this_thread`] in the others).
pub fn install() {
    on_this_thread();
    for (signal, _) in SIGNALS {
        // SAFETY: a zeroed sigaction is valid; the handler is an
        // `extern "C" fn(c_int)` that only calls async-signal-safe
        // functions (write, _exit).
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as libc::sighandler_t;
            action.sa_flags = libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Gives the calling thread an alternate signal stack, so that the handler
/// can run after a stack overflow.
pub fn on_this_thread() {
    let stack: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK_BYTES].into_boxed_slice());
    let alt = libc::stack_t {
        ss_sp: stack.as_mut_ptr().cast(),
        ss_flags: 0,
        ss_size: stack.len(),
    };
    // SAFETY: the stack is leaked, so it outlives the thread.
    unsafe { libc::sigaltstack(&alt, std::ptr::null_mut()) };
}

/// Writes `bytes` to stderr (async-signal-safe).
fn write_stderr(bytes: &[u8]) {
    // SAFETY: writes from a valid buffer.
    unsafe { libc::write(2, bytes.as_ptr().cast(), bytes.len()) };
}

/// The static string at `ptr` of `len` bytes (empty when unset).
fn recorded(ptr: &AtomicPtr<u8>, len: &AtomicUsize) -> &'static [u8] {
    let p = ptr.load(Ordering::SeqCst);
    let n = len.load(Ordering::SeqCst);
    if p.is_null() {
        return b"";
    }
    // SAFETY: `p` and `n` describe a leaked or static string (the length is
    // stored after the pointer and zeroed before it changes).
    unsafe { std::slice::from_raw_parts(p, n) }
}

extern "C" fn handler(signal: libc::c_int) {
    let what = SIGNALS
        .iter()
        .find(|(s, _)| *s == signal)
        .map_or("a fatal signal", |(_, w)| w);
    let program = RUNNING_PROGRAM.load(Ordering::SeqCst) == 1;
    if program && signal == libc::SIGABRT {
        // A failed `--checked` check printed its message with `puts` and
        // called `abort`: show the message. (Flushing is not
        // async-signal-safe in general; `abort` is called from the
        // program's own code here, outside stdio.)
        // SAFETY: flushes every stdio stream.
        unsafe { libc::fflush(std::ptr::null_mut()) };
    }
    let input = recorded(&INPUT, &INPUT_LEN);
    let phase = recorded(&PHASE, &PHASE_LEN);
    if program {
        write_stderr(b"moonc: error: the compiled program crashed with ");
    } else {
        write_stderr(b"moonc: internal compiler error: ");
    }
    write_stderr(what.as_bytes());
    if !phase.is_empty() && !program {
        write_stderr(b" while ");
        write_stderr(phase);
    }
    if !input.is_empty() {
        write_stderr(b" (input ");
        write_stderr(input);
        write_stderr(b")");
    }
    if program {
        write_stderr(
            b"\nmoonc: the program did something undefined: an access out of a \
              buffer's bounds, a stack too deep, a buffer freed twice (--checked \
              checks the accesses), or failed a check --checked added (above)\n",
        );
    } else {
        write_stderr(b"\nmoonc: this is a bug in moonc; please report it with the input\n");
    }
    let status = if program {
        PROGRAM_CRASH_STATUS
    } else {
        COMPILER_CRASH_STATUS
    };
    // SAFETY: ends the process without running anything else.
    unsafe { libc::_exit(status) };
}
