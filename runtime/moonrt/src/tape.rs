//! The default tape of compiled reverse-mode code: a per-thread LIFO of scalars on [`Arena`] blocks.

use crate::arena::Arena;
use crate::error::{guard, set_error};
use std::cell::UnsafeCell;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicU64, Ordering};

/// The most bytes a thread's default tape may hold (values and noted
/// allocations); `u64::MAX` for no limit (`moonrt_tape_set_limit`).
static LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);

/// Bytes of one block, the unit a stack takes from its arena.
const BLOCK_BYTES: usize = 4096;

/// Where a stack's current block is: what compiled code reads and moves to
/// push and pop without a call (`moonrt_tape_cursor`, `--moon-inline-tape`).
/// `top` is the next free slot, `end` the end of the block, `base` its
/// start; all null before the first push. `high` is the highest `top` a pop
/// has started from since the peak was last brought up to date (pops
/// record it, so that the peak stays exact without pushes counting bytes).
#[repr(C)]
pub struct Cursor {
    top: *mut u8,
    end: *mut u8,
    base: *mut u8,
    high: *mut u8,
}

/// A LIFO of `SLOT`-byte values (8 for f64 and i64, 4 for f32).
///
/// Design: values live in fixed-size blocks pushed on a private [`Arena`]
/// (created on the first push). The cursor into the current block is all
/// a push or pop touches, unless the block is full (a push then takes a
/// new block from the arena) or empty (a pop then gives the block back and
/// goes on in the previous one, which is full). The arena reuses its
/// chunks, and `blocks` keeps its capacity, so once a tape has reached its
/// peak nothing allocates any more.
struct Stack<const SLOT: usize> {
    cursor: Cursor,
    /// The arena the blocks come from, once the first push needed one.
    arena: Option<Arena>,
    /// Every block in use, in order; the last one is the cursor's.
    blocks: Vec<NonNull<u8>>,
}

impl<const SLOT: usize> Stack<SLOT> {
    /// Slots per block.
    const SLOTS: usize = BLOCK_BYTES / SLOT;

    const fn new() -> Self {
        Stack {
            cursor: Cursor {
                top: ptr::null_mut(),
                end: ptr::null_mut(),
                base: ptr::null_mut(),
                high: ptr::null_mut(),
            },
            arena: None,
            blocks: Vec::new(),
        }
    }

    /// Pushes the low `SLOT` bytes of `bits`; false (and the last error)
    /// when memory runs out.
    #[inline(always)]
    fn push(&mut self, bits: u64) -> bool {
        if self.cursor.top == self.cursor.end && !self.next_block() {
            return false;
        }
        // SAFETY: `top < end`, so the slot lies in the current block.
        unsafe {
            ptr::copy_nonoverlapping(bits.to_le_bytes().as_ptr(), self.cursor.top, SLOT);
            self.cursor.top = self.cursor.top.add(SLOT);
        }
        true
    }

    /// Pops the latest value, or `None` when the stack is empty.
    #[inline(always)]
    fn pop(&mut self) -> Option<u64> {
        if self.cursor.top == self.cursor.base {
            self.previous_block()?;
        }
        let c = &mut self.cursor;
        c.high = c.high.max(c.top);
        let mut bytes = [0u8; 8];
        // SAFETY: `top > base`: the slot below it holds a pushed value.
        unsafe {
            c.top = c.top.sub(SLOT);
            ptr::copy_nonoverlapping(c.top, bytes.as_mut_ptr(), SLOT);
        }
        Some(u64::from_le_bytes(bytes))
    }

    /// Makes a fresh block current; false (and the last error) when memory
    /// runs out.
    #[cold]
    fn next_block(&mut self) -> bool {
        guard("moonrt_tape_push", false, || {
            let block = (|| {
                if self.arena.is_none() {
                    self.arena = Some(Arena::new(BLOCK_BYTES)?);
                }
                let arena = self.arena.as_mut().ok_or_else(|| out_of_memory(SLOT))?;
                self.blocks
                    .try_reserve(1)
                    .map_err(|_| out_of_memory(SLOT))?;
                arena.push(BLOCK_BYTES, SLOT)
            })();
            match block {
                Ok(block) => {
                    self.blocks.push(block);
                    self.point_at(block.as_ptr(), 0);
                    true
                }
                Err(error) => {
                    set_error(&format!("moonrt_tape_push: {error} (the value is lost)"));
                    false
                }
            }
        })
    }

    /// Gives the empty current block back and makes the previous (full)
    /// one current; `None` when there is none, that is the stack is empty.
    #[cold]
    fn previous_block(&mut self) -> Option<()> {
        if self.blocks.len() < 2 {
            return None;
        }
        let arena = self.arena.as_mut()?;
        arena.pop(BLOCK_BYTES, SLOT).ok()?;
        self.blocks.pop();
        let block = self.blocks.last()?.as_ptr();
        self.point_at(block, BLOCK_BYTES);
        Some(())
    }

    /// Moves the cursor to `block`, `used` bytes of it in use.
    fn point_at(&mut self, block: *mut u8, used: usize) {
        // SAFETY: `used` and `BLOCK_BYTES` are within the block.
        self.cursor = unsafe {
            Cursor {
                top: block.add(used),
                end: block.add(BLOCK_BYTES),
                base: block,
                high: block.add(used),
            }
        };
    }

    /// How many values are on the stack.
    fn len(&self) -> usize {
        self.len_at(self.cursor.top)
    }

    /// How many values were on the stack at its highest since the peak was
    /// last brought up to date.
    fn high_len(&self) -> usize {
        self.len_at(self.cursor.high.max(self.cursor.top))
    }

    /// How many values are on the stack when its top is at `top` (in the
    /// current block).
    fn len_at(&self, top: *mut u8) -> usize {
        match self.blocks.len() {
            0 => 0,
            n => (n - 1) * Self::SLOTS + (top as usize - self.cursor.base as usize) / SLOT,
        }
    }
}

/// The error of a push whose block cannot be allocated.
fn out_of_memory(slot: usize) -> crate::Error {
    crate::Error::new(format!(
        "out of memory for a {BLOCK_BYTES}-byte block of {slot}-byte values"
    ))
}

/// The calling thread's default tape: one stack per value size, and the
/// byte counts `moonrt_tape_peak_bytes` reports.
struct Tape {
    /// f64 and i64 values.
    wide: Stack<8>,
    /// f32 values.
    narrow: Stack<4>,
    /// Bytes of the allocations noted (`moonrt_tape_note_alloc`) and not
    /// noted as freed.
    noted: u64,
    /// The most bytes in use (values and noted allocations) since the last
    /// `moonrt_tape_reset_peak`, up to the last [`Tape::update_peak`].
    peak: u64,
}

impl Tape {
    const fn new() -> Tape {
        Tape {
            wide: Stack::new(),
            narrow: Stack::new(),
            noted: 0,
            peak: 0,
        }
    }

    /// Bytes of the values on the tape plus the noted allocations.
    fn in_use(&self) -> u64 {
        8 * self.wide.len() as u64 + 4 * self.narrow.len() as u64 + self.noted
    }

    /// Brings the peak up to date with what the stacks held at their
    /// highest since the last update (compiled code pushes and pops without
    /// counting; a pop records where it started), and starts that record
    /// again from now. Every call into the tape does this before and after
    /// it changes anything.
    fn update_peak(&mut self) {
        let high = 8 * self.wide.high_len() as u64 + 4 * self.narrow.high_len() as u64;
        self.peak = self.peak.max(high.saturating_add(self.noted));
        self.wide.cursor.high = self.wide.cursor.top;
        self.narrow.cursor.high = self.narrow.cursor.top;
    }

    /// Ends the process ([`out_of_tape`]) when `more` bytes beyond those in
    /// use would pass the limit.
    #[inline(always)]
    fn check_limit(&self, more: u64) {
        let needed = self.in_use().saturating_add(more);
        if needed > LIMIT.load(Ordering::Relaxed) {
            out_of_tape(needed);
        }
    }
}

/// Ends the process, with status 1 and a message on stderr, because the
/// default tape needs `needed` bytes that it cannot have: memory ran out,
/// or the limit `moonrt_tape_set_limit` set is passed. A derivative whose
/// tape is incomplete cannot be computed, and going on would only pop the
/// values that were lost (or retry the allocation for ever).
#[cold]
#[inline(never)]
fn out_of_tape(needed: u64) -> ! {
    let limit = LIMIT.load(Ordering::Relaxed);
    let why = if needed > limit {
        format!(", over the limit of {limit} bytes")
    } else {
        String::new()
    };
    eprintln!("moonrt: out of memory: the tape needs {needed} bytes{why}");
    // What the program wrote is flushed, but no exit handler runs: one may
    // wait for threads that are themselves short of memory (OpenBLAS's).
    // SAFETY: flushes every stdio stream, then ends the process.
    unsafe {
        fflush(ptr::null_mut());
        _exit(1)
    }
}

unsafe extern "C" {
    /// C's `fflush` (NULL: every output stream).
    fn fflush(stream: *mut std::ffi::c_void) -> std::ffi::c_int;
    /// POSIX `_exit`: ends the process without running exit handlers.
    fn _exit(status: std::ffi::c_int) -> !;
}

/// Limits the default tape of every thread to `bytes` (values and noted
/// allocations; 0 or less: no limit). A push or a noted allocation past
/// the limit ends the process with status 1 and `moonrt: out of memory:
/// the tape needs N bytes, over the limit of M bytes` on stderr, as running
/// out of memory does.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_set_limit(bytes: i64) {
    let limit = if bytes <= 0 { u64::MAX } else { bytes as u64 };
    LIMIT.store(limit, Ordering::Relaxed);
}

thread_local! {
    /// The default tape of each thread.
    static TAPE: UnsafeCell<Tape> = const { UnsafeCell::new(Tape::new()) };
}

/// Runs `operation` on the calling thread's tape, or returns `default`
/// while the thread is being torn down.
#[inline(always)]
fn with_tape<R>(default: R, operation: impl FnOnce(&mut Tape) -> R) -> R {
    TAPE.try_with(|tape| {
        // SAFETY: the tape is only reached through `with_tape`, whose
        // operations call nothing that reaches it again: the borrow is unique.
        operation(unsafe { &mut *tape.get() })
    })
    .unwrap_or(default)
}

/// Records that `function` popped an empty tape.
#[cold]
fn report_empty(function: &str) {
    set_error(&format!(
        "{function}: the tape is empty (popped more values of this type than were pushed)"
    ));
}

/// Pushes `bits` on the tape's `SLOT`-byte stack.
#[inline(always)]
fn push<const SLOT: usize>(bits: u64, stack: impl FnOnce(&mut Tape) -> &mut Stack<SLOT>) {
    with_tape((), |tape| {
        tape.update_peak();
        tape.check_limit(SLOT as u64);
        if !stack(tape).push(bits) {
            out_of_tape(tape.in_use().saturating_add(BLOCK_BYTES as u64));
        }
        tape.update_peak();
    })
}

/// Pops the latest value of the tape's `SLOT`-byte stack, or reports an
/// empty stack as `function` and returns 0.
#[inline(always)]
fn pop<const SLOT: usize>(
    function: &str,
    stack: impl FnOnce(&mut Tape) -> &mut Stack<SLOT>,
) -> u64 {
    let popped = with_tape(None, |tape| {
        tape.update_peak();
        let value = stack(tape).pop();
        tape.update_peak();
        value
    });
    popped.unwrap_or_else(|| {
        report_empty(function);
        0
    })
}

/// The cursor of the calling thread's stack of f64 and i64 values, for
/// compiled code that pushes and pops them without a call while there is
/// room (`--moon-inline-tape`): a push stores at `top` and moves it up
/// when `top != end`, a pop moves it down and loads when `top != base`
/// (first raising `high` to `top`); otherwise they call
/// `moonrt_tape_push_f64` and its siblings, which take or give back a
/// block and move the cursor. Its address stays the same for the
/// thread's life; while the thread is torn down it is a cursor with no
/// room, so that every push and pop calls.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_cursor() -> *mut Cursor {
    with_tape(ptr::addr_of!(NO_ROOM.0).cast_mut(), |tape| {
        &mut tape.wide.cursor as *mut Cursor
    })
}

/// The cursor `moonrt_tape_cursor` gives while the tape is gone: null
/// pointers, never written (every push and pop finds it full and empty).
static NO_ROOM: NoRoom = NoRoom(Cursor {
    top: ptr::null_mut(),
    end: ptr::null_mut(),
    base: ptr::null_mut(),
    high: ptr::null_mut(),
});

/// [`NO_ROOM`]'s type: a cursor is raw pointers, which are not `Sync`;
/// this one is only read.
struct NoRoom(Cursor);
// SAFETY: nothing writes the cursor (see `NO_ROOM`).
unsafe impl Sync for NoRoom {}

/// Pushes an f64 on the calling thread's default tape.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_push_f64(value: f64) {
    push(value.to_bits(), |tape| &mut tape.wide)
}

/// Pops the latest f64 off the calling thread's default tape; 0 and the
/// last error if there is none.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_pop_f64() -> f64 {
    f64::from_bits(pop("moonrt_tape_pop_f64", |tape| &mut tape.wide))
}

/// Pushes an f32 on the calling thread's default tape.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_push_f32(value: f32) {
    push(value.to_bits() as u64, |tape| &mut tape.narrow)
}

/// Pops the latest f32 off the calling thread's default tape; 0 and the
/// last error if there is none.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_pop_f32() -> f32 {
    f32::from_bits(pop("moonrt_tape_pop_f32", |tape| &mut tape.narrow) as u32)
}

/// Pushes an i64 (compiled code widens index, i1 and iN values to it) on
/// the calling thread's default tape.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_push_i64(value: i64) {
    push(value as u64, |tape| &mut tape.wide)
}

/// Pops the latest i64 off the calling thread's default tape; 0 and the
/// last error if there is none.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_pop_i64() -> i64 {
    pop("moonrt_tape_pop_i64", |tape| &mut tape.wide) as i64
}

/// Counts `bytes` of memory that compiled code allocated itself for its
/// tape (a buffer sized before a loop) as in use on the default tape
/// (past the limit, the process ends: `moonrt_tape_set_limit`).
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_note_alloc(bytes: i64) {
    if bytes < 0 {
        set_error(&format!(
            "moonrt_tape_note_alloc: {bytes} bytes is negative"
        ));
        return;
    }
    with_tape((), |tape| {
        tape.update_peak();
        tape.check_limit(bytes as u64);
        tape.noted += bytes as u64;
        tape.update_peak();
    })
}

/// Counts `bytes` of memory noted by `moonrt_tape_note_alloc` as released.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_note_free(bytes: i64) {
    let noted = with_tape(None, |tape| {
        if bytes < 0 || bytes as u64 > tape.noted {
            return Some(tape.noted);
        }
        tape.update_peak();
        tape.noted -= bytes as u64;
        None
    });
    if let Some(noted) = noted {
        set_error(&format!(
            "moonrt_tape_note_free: freeing {bytes} bytes, but {noted} are noted as allocated"
        ));
    }
}

/// The most bytes the default tape has held at once since the last
/// `moonrt_tape_reset_peak` (or since the thread started): values pushed
/// (8 bytes per f64 or i64, 4 per f32) plus noted allocations.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_peak_bytes() -> i64 {
    with_tape(0, |tape| {
        tape.update_peak();
        tape.peak.min(i64::MAX as u64) as i64
    })
}

/// Restarts the peak of the default tape at the bytes it holds now.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_reset_peak() {
    with_tape((), |tape| {
        tape.update_peak();
        tape.peak = tape.in_use();
    })
}

/// The bytes the default tape holds now: values pushed and not popped,
/// plus noted allocations not noted as freed. 0 after a balanced
/// derivative call.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_tape_bytes_in_use() -> i64 {
    with_tape(0, |tape| tape.in_use().min(i64::MAX as u64) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{clear_error, last_error};

    /// Runs `test` on a fresh thread, hence on a fresh default tape.
    fn on_fresh_thread(test: impl FnOnce() + Send + 'static) {
        std::thread::spawn(test).join().unwrap();
    }

    #[test]
    fn values_come_back_in_reverse_order_across_blocks() {
        on_fresh_thread(|| {
            let n = 3 * BLOCK_BYTES / 8 + 17;
            for i in 0..n {
                moonrt_tape_push_f64(i as f64 + 0.5);
                if i % 3 == 0 {
                    moonrt_tape_push_f32(i as f32);
                }
                if i % 5 == 0 {
                    moonrt_tape_push_i64(-(i as i64));
                }
            }
            for i in (0..n).rev() {
                if i % 5 == 0 {
                    assert_eq!(moonrt_tape_pop_i64(), -(i as i64));
                }
                if i % 3 == 0 {
                    assert_eq!(moonrt_tape_pop_f32(), i as f32);
                }
                assert_eq!(moonrt_tape_pop_f64(), i as f64 + 0.5);
            }
            assert_eq!(moonrt_tape_bytes_in_use(), 0);
            assert_eq!(last_error(), None);
        });
    }

    #[test]
    fn bits_survive() {
        on_fresh_thread(|| {
            moonrt_tape_push_f64(-0.0);
            moonrt_tape_push_f64(f64::NAN);
            moonrt_tape_push_f32(f32::NEG_INFINITY);
            moonrt_tape_push_i64(i64::MIN);
            assert_eq!(moonrt_tape_pop_i64(), i64::MIN);
            assert_eq!(moonrt_tape_pop_f32(), f32::NEG_INFINITY);
            assert!(moonrt_tape_pop_f64().is_nan());
            assert_eq!(moonrt_tape_pop_f64().to_bits(), (-0.0f64).to_bits());
        });
    }

    #[test]
    fn popping_an_empty_tape_is_an_error_not_a_crash() {
        on_fresh_thread(|| {
            clear_error();
            assert_eq!(moonrt_tape_pop_f64(), 0.0);
            let error = last_error().unwrap();
            assert!(
                error
                    .message()
                    .starts_with("moonrt_tape_pop_f64: the tape is empty"),
                "{error}"
            );
            // Each width has its own stack: an f64 does not satisfy an f32 pop.
            moonrt_tape_push_f64(1.0);
            clear_error();
            assert_eq!(moonrt_tape_pop_f32(), 0.0);
            assert!(last_error().unwrap().message().contains("pop_f32"));
            assert_eq!(moonrt_tape_pop_i64(), 1.0f64.to_bits() as i64);
            clear_error();
            assert_eq!(moonrt_tape_pop_i64(), 0);
            assert!(last_error().is_some());
            // The tape still works afterwards, across a block boundary too.
            for i in 0..BLOCK_BYTES / 8 + 1 {
                moonrt_tape_push_i64(i as i64);
            }
            for i in (0..BLOCK_BYTES / 8 + 1).rev() {
                assert_eq!(moonrt_tape_pop_i64(), i as i64);
            }
            assert_eq!(moonrt_tape_pop_i64(), 0);
            assert_eq!(moonrt_tape_bytes_in_use(), 0);
        });
    }

    #[test]
    fn peak_counts_values_and_noted_allocations() {
        on_fresh_thread(|| {
            assert_eq!(moonrt_tape_peak_bytes(), 0);
            moonrt_tape_push_f64(1.0);
            moonrt_tape_push_f32(2.0);
            assert_eq!(moonrt_tape_peak_bytes(), 12);
            moonrt_tape_note_alloc(100);
            assert_eq!(moonrt_tape_bytes_in_use(), 112);
            moonrt_tape_note_free(100);
            moonrt_tape_pop_f32();
            moonrt_tape_pop_f64();
            assert_eq!(moonrt_tape_peak_bytes(), 112);
            assert_eq!(moonrt_tape_bytes_in_use(), 0);
            moonrt_tape_reset_peak();
            assert_eq!(moonrt_tape_peak_bytes(), 0);
            moonrt_tape_push_i64(3);
            moonrt_tape_reset_peak();
            assert_eq!(
                moonrt_tape_peak_bytes(),
                8,
                "the peak restarts at what is in use"
            );
            moonrt_tape_pop_i64();
            assert_eq!(moonrt_tape_peak_bytes(), 8);
        });
    }

    #[test]
    fn bad_notes_are_errors() {
        on_fresh_thread(|| {
            moonrt_tape_push_f64(1.0);
            moonrt_tape_note_alloc(16);
            clear_error();
            moonrt_tape_note_free(24);
            let error = last_error().unwrap();
            assert!(
                error
                    .message()
                    .contains("freeing 24 bytes, but 16 are noted"),
                "{error}"
            );
            assert_eq!(moonrt_tape_bytes_in_use(), 24, "nothing was freed");
            moonrt_tape_note_alloc(-1);
            assert!(last_error().unwrap().message().contains("negative"));
            moonrt_tape_note_free(-1);
            assert!(last_error().unwrap().message().contains("freeing -1"));
            moonrt_tape_note_free(16);
            assert_eq!(moonrt_tape_pop_f64(), 1.0);
            assert_eq!(moonrt_tape_bytes_in_use(), 0);
        });
    }

    #[test]
    fn no_allocation_after_the_peak() {
        on_fresh_thread(|| {
            let n = 5 * BLOCK_BYTES / 8;
            let cycle = || {
                for i in 0..n {
                    moonrt_tape_push_f64(i as f64);
                }
                for _ in 0..n {
                    moonrt_tape_pop_f64();
                }
            };
            cycle();
            let capacity = with_tape((0, 0), |tape| {
                let arena = tape.wide.arena.as_ref().unwrap();
                (arena.capacity_bytes(), tape.wide.blocks.capacity())
            });
            cycle();
            let again = with_tape((0, 0), |tape| {
                let arena = tape.wide.arena.as_ref().unwrap();
                (arena.capacity_bytes(), tape.wide.blocks.capacity())
            });
            assert_eq!(capacity, again);
            // At the boundary of two blocks, pushes and pops alternate
            // without allocating either.
            for i in 0..BLOCK_BYTES / 8 {
                moonrt_tape_push_f64(i as f64);
            }
            for _ in 0..10 {
                moonrt_tape_push_f64(1.0);
                moonrt_tape_pop_f64();
            }
            for _ in 0..BLOCK_BYTES / 8 {
                moonrt_tape_pop_f64();
            }
            let after = with_tape((0, 0), |tape| {
                let arena = tape.wide.arena.as_ref().unwrap();
                (arena.capacity_bytes(), tape.wide.blocks.capacity())
            });
            assert_eq!(capacity, after);
        });
    }

    /// Pushes `value` as compiled code does (`--moon-inline-tape`).
    fn inline_push(cursor: *mut Cursor, value: f64) {
        // SAFETY: the cursor is the thread's; a slot below `end` is free.
        unsafe {
            let c = &mut *cursor;
            if c.top == c.end {
                moonrt_tape_push_f64(value);
            } else {
                c.top.cast::<f64>().write_unaligned(value);
                c.top = c.top.add(8);
            }
        }
    }

    /// Pops as compiled code does.
    fn inline_pop(cursor: *mut Cursor) -> f64 {
        // SAFETY: as above; a slot below `top` holds a value.
        unsafe {
            let c = &mut *cursor;
            if c.top == c.base {
                moonrt_tape_pop_f64()
            } else {
                c.high = c.high.max(c.top);
                c.top = c.top.sub(8);
                c.top.cast::<f64>().read_unaligned()
            }
        }
    }

    #[test]
    fn pushes_and_pops_through_the_cursor() {
        on_fresh_thread(|| {
            let cursor = moonrt_tape_cursor();
            // Up to 3 values, down to 1, up to 2 blocks and a bit (the
            // peak), down to 0, with an f32 pushed by call on the way.
            inline_push(cursor, 1.0);
            inline_push(cursor, 2.0);
            inline_push(cursor, 3.0);
            assert_eq!(inline_pop(cursor), 3.0);
            assert_eq!(inline_pop(cursor), 2.0);
            moonrt_tape_push_f32(9.0);
            let n = 2 * BLOCK_BYTES / 8 + 5;
            for i in 0..n {
                inline_push(cursor, i as f64);
            }
            assert_eq!(moonrt_tape_bytes_in_use(), 8 * (n as i64 + 1) + 4);
            for i in (0..n).rev() {
                assert_eq!(inline_pop(cursor), i as f64);
            }
            assert_eq!(moonrt_tape_pop_f32(), 9.0);
            assert_eq!(inline_pop(cursor), 1.0);
            assert_eq!(moonrt_tape_bytes_in_use(), 0);
            assert_eq!(moonrt_tape_peak_bytes(), 8 * (n as i64 + 1) + 4);
            // A peak inside one block, between two calls, is counted too.
            moonrt_tape_reset_peak();
            for i in 0..7 {
                inline_push(cursor, i as f64);
            }
            for _ in 0..7 {
                inline_pop(cursor);
            }
            assert_eq!(moonrt_tape_peak_bytes(), 56);
            assert_eq!(last_error(), None);
        });
    }

    #[test]
    fn tapes_are_per_thread() {
        on_fresh_thread(|| {
            moonrt_tape_push_f64(7.0);
            let other = std::thread::spawn(|| {
                let popped = moonrt_tape_pop_f64();
                (popped, moonrt_tape_peak_bytes())
            })
            .join()
            .unwrap();
            assert_eq!(other, (0.0, 0));
            assert_eq!(moonrt_tape_pop_f64(), 7.0);
        });
    }
}
