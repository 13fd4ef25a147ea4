//! The tape of reverse-mode derivative code: a LIFO arena of chained, doubling chunks.

use crate::error::{Error, guard, set_error};
use std::alloc::{Layout, alloc, dealloc};
use std::ptr::{self, NonNull};

/// Alignment of every chunk's first byte: pushes aligned to at most this
/// need no padding at the start of a chunk.
const CHUNK_ALIGN: usize = 64;

/// The smallest chunk the arena allocates, in bytes.
const MIN_CHUNK: usize = 256;

/// One block of memory that pushes are carved from.
struct Chunk {
    /// First byte, aligned to `CHUNK_ALIGN`.
    base: NonNull<u8>,
    /// Size in bytes.
    capacity: usize,
}

impl Chunk {
    /// Allocates a chunk of `capacity` bytes.
    fn new(capacity: usize) -> Result<Chunk, Error> {
        let failed = || {
            Error::new(format!(
                "moonrt arena: cannot allocate a {capacity}-byte chunk"
            ))
        };
        let layout = Layout::from_size_align(capacity, CHUNK_ALIGN).map_err(|_| failed())?;
        // SAFETY: `capacity` is at least MIN_CHUNK, so the layout is not empty.
        let base = NonNull::new(unsafe { alloc(layout) }).ok_or_else(failed)?;
        Ok(Chunk { base, capacity })
    }

    /// Where a push of `bytes` aligned to `align` would start if the chunk's
    /// top were at offset `top`, or `None` if it does not fit.
    fn fit(&self, top: usize, bytes: usize, align: usize) -> Option<usize> {
        let base = self.base.as_ptr().addr();
        let start = base.checked_add(top)?.checked_next_multiple_of(align)? - base;
        (start.checked_add(bytes)? <= self.capacity).then_some(start)
    }
}

impl Drop for Chunk {
    fn drop(&mut self) {
        // SAFETY: allocated in `Chunk::new` with this very layout.
        unsafe {
            dealloc(
                self.base.as_ptr(),
                Layout::from_size_align_unchecked(self.capacity, CHUNK_ALIGN),
            )
        };
    }
}

/// What one push changed, so that its pop can undo it exactly.
#[derive(Clone, Copy)]
struct Record {
    /// The pushed bytes.
    ptr: NonNull<u8>,
    /// Their number.
    bytes: usize,
    /// The arena's current chunk before the push.
    chunk: usize,
    /// The top offset in that chunk before the push (before padding).
    top: usize,
}

/// The state behind a C `moonrt_arena *`: a LIFO stack allocator for the
/// values that reverse-mode code saves on its forward sweep and reads back,
/// in reverse order, on its backward sweep.
///
/// Design: a list of chunks whose sizes double (the first one holds at least
/// `initial_bytes`), a current chunk and a top offset in it, and a stack of
/// push records. A push aligns the top of the current chunk and carves its
/// bytes there; when they do not fit it moves on to the next chunk of the
/// list (skipping chunks too small for the request), and only past the end
/// of the list does it allocate a new chunk, twice the size of the last one
/// and big enough for the request. Each push records the pointer it returned
/// and the (chunk, top before padding) it started from; a pop checks its
/// size against the latest record, returns that pointer and restores the
/// record's chunk and top exactly. Chunks are never moved nor released before
/// `moonrt_arena_free`, so returned memory stays put and popped chunks are
/// reused by later pushes. Once the arena has reached its peak, pushes and
/// pops allocate nothing (the record stack keeps its capacity) and an
/// identical push sequence returns identical pointers. Each operation is
/// amortised O(1). An arena is not thread-safe: one thread at a time.
pub struct RawArena {
    /// Every chunk allocated so far, in order of allocation.
    chunks: Vec<Chunk>,
    /// Index in `chunks` of the chunk the next push tries first.
    current: usize,
    /// Offset in the current chunk of its first free byte.
    top: usize,
    /// One record per live push, the latest last.
    records: Vec<Record>,
    /// Bytes of the live pushes (without padding).
    in_use: usize,
    /// The most `in_use` has ever been.
    peak: usize,
}

// SAFETY: a `RawArena` exclusively owns its chunks; the pointers in its
// records point into them and are only handed out, never dereferenced.
unsafe impl Send for RawArena {}

impl RawArena {
    /// An empty arena whose first chunk holds `initial_bytes` (at least
    /// `MIN_CHUNK`).
    fn new(initial_bytes: usize) -> Result<RawArena, Error> {
        Ok(RawArena {
            chunks: vec![Chunk::new(initial_bytes.max(MIN_CHUNK))?],
            current: 0,
            top: 0,
            records: Vec::new(),
            in_use: 0,
            peak: 0,
        })
    }

    /// Carves `bytes` fresh bytes aligned to `align` off the top.
    fn push(&mut self, bytes: usize, align: usize) -> Result<NonNull<u8>, Error> {
        if !align.is_power_of_two() {
            return Err(Error::new(format!(
                "moonrt_arena_push: alignment {align} is not a power of two"
            )));
        }
        let out_of_memory = || {
            Error::new(format!(
                "moonrt_arena_push: out of memory for {bytes} bytes"
            ))
        };
        self.records.try_reserve(1).map_err(|_| out_of_memory())?;
        let (mut chunk, mut top) = (self.current, self.top);
        let start = loop {
            let grown = chunk == self.chunks.len();
            if grown {
                self.grow(bytes, align)?;
            }
            if let Some(start) = self.chunks[chunk].fit(top, bytes, align) {
                break start;
            }
            if grown {
                return Err(out_of_memory());
            }
            (chunk, top) = (chunk + 1, 0);
        };
        // SAFETY: `fit` checked that `start + bytes` lies within the chunk.
        let ptr = unsafe { self.chunks[chunk].base.add(start) };
        self.records.push(Record {
            ptr,
            bytes,
            chunk: self.current,
            top: self.top,
        });
        (self.current, self.top) = (chunk, start + bytes);
        self.in_use += bytes;
        self.peak = self.peak.max(self.in_use);
        Ok(ptr)
    }

    /// Appends a chunk twice the size of the last one, and big enough for a
    /// push of `bytes` aligned to `align` at its start.
    fn grow(&mut self, bytes: usize, align: usize) -> Result<(), Error> {
        let last = self.chunks.last().map_or(MIN_CHUNK, |chunk| chunk.capacity);
        let needed = bytes.checked_add(align).ok_or_else(|| {
            Error::new(format!(
                "moonrt_arena_push: {bytes} bytes aligned to {align} is too large"
            ))
        })?;
        let capacity = last.saturating_mul(2).max(needed);
        self.chunks.try_reserve(1).map_err(|_| {
            Error::new(format!(
                "moonrt_arena_push: out of memory for {bytes} bytes"
            ))
        })?;
        self.chunks.push(Chunk::new(capacity)?);
        Ok(())
    }

    /// Releases the latest push, which must have been of `bytes` bytes
    /// aligned to `align`, and returns its pointer.
    fn pop(&mut self, bytes: usize, align: usize) -> Result<NonNull<u8>, Error> {
        let Some(&record) = self.records.last() else {
            return Err(Error::new(format!(
                "moonrt_arena_pop: popped more than was pushed (popping {bytes} bytes off an \
                 empty arena)"
            )));
        };
        if record.bytes != bytes {
            return Err(Error::new(format!(
                "moonrt_arena_pop: popping {bytes} bytes, but the latest push was of {} bytes",
                record.bytes
            )));
        }
        if !align.is_power_of_two() || record.ptr.as_ptr().addr() % align != 0 {
            return Err(Error::new(format!(
                "moonrt_arena_pop: alignment {align} does not match the latest push"
            )));
        }
        self.records.pop();
        (self.current, self.top) = (record.chunk, record.top);
        self.in_use -= bytes;
        Ok(record.ptr)
    }

    /// Releases every push at once, keeping the chunks for reuse.
    fn reset(&mut self) {
        self.records.clear();
        (self.current, self.top, self.in_use) = (0, 0, 0);
    }

    /// The total size of the chunks.
    fn capacity(&self) -> usize {
        self.chunks.iter().map(|chunk| chunk.capacity).sum()
    }
}

/// Runs `operation` on the arena behind `arena`, or reports a null arena.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
unsafe fn with_arena<R: Copy>(
    function: &str,
    arena: *mut RawArena,
    default: R,
    operation: impl FnOnce(&mut RawArena) -> R,
) -> R {
    guard(function, default, || {
        // SAFETY: the caller passes a live arena or null.
        match unsafe { arena.as_mut() } {
            Some(arena) => operation(arena),
            None => {
                set_error(&format!("{function}: the arena is NULL"));
                default
            }
        }
    })
}

/// Reports `result`'s error as the last error and turns the result into a
/// C pointer (null on error).
fn to_c(result: Result<NonNull<u8>, Error>) -> *mut u8 {
    result.map_or_else(
        |error| {
            set_error(error.message());
            ptr::null_mut()
        },
        NonNull::as_ptr,
    )
}

/// A new, empty arena whose first chunk holds `initial_bytes`; null (and the
/// last error) if memory runs out. Free it with `moonrt_arena_free`.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_arena_new(initial_bytes: usize) -> *mut RawArena {
    guard(
        "moonrt_arena_new",
        ptr::null_mut(),
        || match RawArena::new(initial_bytes) {
            Ok(arena) => Box::into_raw(Box::new(arena)),
            Err(error) => {
                set_error(error.message());
                ptr::null_mut()
            }
        },
    )
}

/// Frees an arena and all the memory pushed on it; null is ignored.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_free(arena: *mut RawArena) {
    guard("moonrt_arena_free", (), || {
        if !arena.is_null() {
            // SAFETY: made by `Box::into_raw` in `moonrt_arena_new`.
            drop(unsafe { Box::from_raw(arena) });
        }
    })
}

/// Pushes `bytes` fresh bytes aligned to `align` (a power of two) and
/// returns them; null (and the last error) on bad alignment or when memory
/// runs out. The bytes stay put until they are popped.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_push(
    arena: *mut RawArena,
    bytes: usize,
    align: usize,
) -> *mut u8 {
    // SAFETY: forwarded from the caller.
    unsafe {
        with_arena("moonrt_arena_push", arena, ptr::null_mut(), |arena| {
            to_c(arena.push(bytes, align))
        })
    }
}

/// Pops the latest push, which must have been of `bytes` bytes aligned to
/// `align`, and returns its pointer (its contents are intact until the next
/// push). Popping more than was pushed, or a size that differs from the
/// latest push, returns null and sets the last error.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_pop(
    arena: *mut RawArena,
    bytes: usize,
    align: usize,
) -> *mut u8 {
    // SAFETY: forwarded from the caller.
    unsafe {
        with_arena("moonrt_arena_pop", arena, ptr::null_mut(), |arena| {
            to_c(arena.pop(bytes, align))
        })
    }
}

/// Pops every push at once; the chunks are kept for reuse.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_reset(arena: *mut RawArena) {
    // SAFETY: forwarded from the caller.
    unsafe { with_arena("moonrt_arena_reset", arena, (), RawArena::reset) }
}

/// The bytes pushed and not yet popped (padding excluded); 0 for null.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_bytes_in_use(arena: *const RawArena) -> usize {
    // SAFETY: forwarded from the caller; the arena is only read.
    unsafe {
        with_arena("moonrt_arena_bytes_in_use", arena.cast_mut(), 0, |arena| {
            arena.in_use
        })
    }
}

/// The most bytes ever in use at once on the arena (resets included); 0 for null.
///
/// # Safety
///
/// `arena` must be null or come from `moonrt_arena_new` and not be freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_arena_peak_bytes(arena: *const RawArena) -> usize {
    // SAFETY: forwarded from the caller; the arena is only read.
    unsafe {
        with_arena("moonrt_arena_peak_bytes", arena.cast_mut(), 0, |arena| {
            arena.peak
        })
    }
}

/// A moonrt arena owned by Rust: the tape that reverse-mode code pushes to
/// and pops from (see [`RawArena`] for the design). Dropping it frees it.
pub struct Arena {
    /// The arena, allocated as `moonrt_arena_new` does.
    raw: Box<RawArena>,
}

impl Arena {
    /// A new, empty arena whose first chunk holds `initial_bytes`.
    pub fn new(initial_bytes: usize) -> Result<Arena, Error> {
        Ok(Arena {
            raw: Box::new(RawArena::new(initial_bytes)?),
        })
    }

    /// Pushes `bytes` fresh bytes aligned to `align` (a power of two).
    pub fn push(&mut self, bytes: usize, align: usize) -> Result<NonNull<u8>, Error> {
        self.raw.push(bytes, align)
    }

    /// Pops the latest push, which must have been of `bytes` bytes aligned
    /// to `align`, and returns its pointer.
    pub fn pop(&mut self, bytes: usize, align: usize) -> Result<NonNull<u8>, Error> {
        self.raw.pop(bytes, align)
    }

    /// Pops every push at once, keeping the memory for reuse.
    pub fn reset(&mut self) {
        self.raw.reset()
    }

    /// The bytes pushed and not yet popped (padding excluded).
    pub fn bytes_in_use(&self) -> usize {
        self.raw.in_use
    }

    /// The most bytes ever in use at once.
    pub fn peak_bytes(&self) -> usize {
        self.raw.peak
    }

    /// The bytes of memory the arena holds (all its chunks).
    pub fn capacity_bytes(&self) -> usize {
        self.raw.capacity()
    }

    /// The `moonrt_arena *` to hand to compiled code; valid while `self`
    /// lives and is not otherwise used.
    pub fn as_raw(&mut self) -> *mut RawArena {
        &mut *self.raw
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{clear_error, last_error};

    /// Pushes of mixed sizes and alignments, enough to grow past the first chunk.
    fn pattern() -> Vec<(usize, usize)> {
        let mut pushes = Vec::new();
        for i in 0..400 {
            let align = [1, 8, 4, 16, 64, 2, 256, 8][i % 8];
            pushes.push((1 + (i * 37) % 100, align));
        }
        pushes.push((10_000, 4096));
        pushes.push((3, 1));
        pushes
    }

    /// Pushes `pattern`, fills each push with its index, pops everything in
    /// reverse checking pointers and contents; returns the pushed pointers.
    fn cycle(arena: &mut Arena, pattern: &[(usize, usize)]) -> Vec<NonNull<u8>> {
        let mut pointers = Vec::new();
        for (i, &(bytes, align)) in pattern.iter().enumerate() {
            let ptr = arena.push(bytes, align).unwrap();
            assert_eq!(ptr.as_ptr().addr() % align, 0);
            // SAFETY: `bytes` fresh bytes.
            unsafe { ptr::write_bytes(ptr.as_ptr(), i as u8, bytes) };
            pointers.push(ptr);
        }
        let total: usize = pattern.iter().map(|&(bytes, _)| bytes).sum();
        assert_eq!(arena.bytes_in_use(), total);
        for (i, &(bytes, align)) in pattern.iter().enumerate().rev() {
            let ptr = arena.pop(bytes, align).unwrap();
            assert_eq!(ptr, pointers[i]);
            // SAFETY: popped bytes are intact until the next push.
            let contents = unsafe { std::slice::from_raw_parts(ptr.as_ptr(), bytes) };
            assert!(
                contents.iter().all(|&b| b == i as u8),
                "push {i} was overwritten"
            );
        }
        assert_eq!(arena.bytes_in_use(), 0);
        pointers
    }

    #[test]
    fn lifo_across_chunks_with_mixed_alignments() {
        let mut arena = Arena::new(0).unwrap();
        cycle(&mut arena, &pattern());
        assert!(
            arena.raw.chunks.len() > 3,
            "the pattern should have grown the arena"
        );
        let sizes: Vec<usize> = arena
            .raw
            .chunks
            .iter()
            .map(|chunk| chunk.capacity)
            .collect();
        assert!(
            sizes.windows(2).all(|pair| pair[1] >= 2 * pair[0]),
            "{sizes:?}"
        );
    }

    #[test]
    fn no_reallocation_after_warm_up() {
        let mut arena = Arena::new(128).unwrap();
        let pattern = pattern();
        let first = cycle(&mut arena, &pattern);
        let (peak, capacity, chunks) = (
            arena.peak_bytes(),
            arena.capacity_bytes(),
            arena.raw.chunks.len(),
        );
        let record_capacity = arena.raw.records.capacity();
        let second = cycle(&mut arena, &pattern);
        assert_eq!(first, second, "identical cycles return identical pointers");
        assert_eq!(arena.peak_bytes(), peak);
        assert_eq!(arena.capacity_bytes(), capacity);
        assert_eq!(arena.raw.chunks.len(), chunks);
        assert_eq!(arena.raw.records.capacity(), record_capacity);
    }

    #[test]
    fn interleaved_pushes_and_pops() {
        let mut arena = Arena::new(256).unwrap();
        let a = arena.push(200, 8).unwrap();
        let b = arena.push(200, 8).unwrap(); // second chunk
        assert_eq!(arena.pop(200, 8).unwrap(), b);
        let c = arena.push(16, 8).unwrap(); // back in the first chunk
        assert_eq!(c.as_ptr().addr(), a.as_ptr().addr() + 200);
        assert_eq!(arena.pop(16, 8).unwrap(), c);
        assert_eq!(arena.pop(200, 8).unwrap(), a);
        assert_eq!(arena.push(200, 8).unwrap(), a);
        assert_eq!(arena.peak_bytes(), 400);
        arena.reset();
        assert_eq!(arena.bytes_in_use(), 0);
        assert_eq!(arena.push(200, 8).unwrap(), a);
    }

    #[test]
    fn zero_byte_pushes() {
        let mut arena = Arena::new(0).unwrap();
        let a = arena.push(0, 16).unwrap();
        let b = arena.push(0, 1).unwrap();
        assert_eq!(arena.pop(0, 1).unwrap(), b);
        assert_eq!(arena.pop(0, 16).unwrap(), a);
    }

    #[test]
    fn over_pop_and_mismatches_are_errors() {
        let mut arena = Arena::new(0).unwrap();
        let error = arena.pop(8, 8).unwrap_err();
        assert!(
            error.message().contains("popped more than was pushed"),
            "{error}"
        );
        arena.push(8, 8).unwrap();
        assert!(
            arena
                .pop(16, 8)
                .unwrap_err()
                .message()
                .contains("latest push was of 8 bytes")
        );
        assert!(
            arena
                .push(8, 3)
                .unwrap_err()
                .message()
                .contains("not a power of two")
        );
        assert!(arena.push(usize::MAX, 8).is_err());
        assert!(arena.pop(8, 8).is_ok());
    }

    #[test]
    fn c_api() {
        let arena = moonrt_arena_new(64);
        assert!(!arena.is_null());
        // SAFETY: a live arena, then null, then the arena freed once.
        unsafe {
            let a = moonrt_arena_push(arena, 24, 8);
            let b = moonrt_arena_push(arena, 1000, 32);
            assert!(!a.is_null() && !b.is_null());
            assert_eq!(b.addr() % 32, 0);
            assert_eq!(moonrt_arena_bytes_in_use(arena), 1024);
            assert_eq!(moonrt_arena_pop(arena, 1000, 32), b);
            assert_eq!(moonrt_arena_pop(arena, 24, 8), a);
            assert_eq!(moonrt_arena_peak_bytes(arena), 1024);

            clear_error();
            assert!(moonrt_arena_pop(arena, 24, 8).is_null());
            let message = std::ffi::CStr::from_ptr(crate::error::moonrt_last_error());
            assert!(
                message
                    .to_str()
                    .unwrap()
                    .starts_with("moonrt_arena_pop: popped more")
            );

            moonrt_arena_push(arena, 8, 8);
            moonrt_arena_reset(arena);
            assert_eq!(moonrt_arena_bytes_in_use(arena), 0);

            assert!(moonrt_arena_push(ptr::null_mut(), 8, 8).is_null());
            assert!(last_error().unwrap().message().contains("NULL"));
            assert_eq!(moonrt_arena_bytes_in_use(ptr::null()), 0);
            moonrt_arena_free(ptr::null_mut());
            moonrt_arena_free(arena);
        }
    }

    #[test]
    fn as_raw_drives_the_same_arena() {
        let mut arena = Arena::new(0).unwrap();
        let raw = arena.as_raw();
        // SAFETY: `arena` is live and unused while `raw` is.
        let pushed = unsafe { moonrt_arena_push(raw, 40, 8) };
        assert_eq!(arena.bytes_in_use(), 40);
        assert_eq!(arena.pop(40, 8).unwrap().as_ptr(), pushed);
    }
}
