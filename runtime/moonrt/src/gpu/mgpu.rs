//! The MLIR GPU runtime ABI over the CUDA driver: the `mgpu*` functions that
//! MLIR 22's `gpu-to-llvm` host code calls, with the signatures of
//! mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp. Errors go to moonrt's
//! last error instead of stderr; a failed call returns null or does
//! nothing.

#![allow(non_snake_case)]

use std::ffi::{CStr, c_char, c_int, c_uint, c_ushort, c_void};
use std::ptr;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

use super::driver::{self, CuDevicePtr, CuHandle, Driver};
use super::{DEFAULT_DEVICE, c_entry, with_context};
use crate::error::last_error;

/// Default dynamic shared memory a kernel may use without opting in.
const DEFAULT_MAX_DYNAMIC_SHARED_BYTES: i32 = 48 * 1024;

/// Size of the buffer that receives the PTX JIT's error log.
const JIT_LOG_BYTES: usize = 8192;

/// Whether a call on `handle` should be skipped: it is null because an
/// earlier call failed and left its error, which this call would otherwise
/// replace with a less useful one ("invalid handle"). A null handle with no
/// pending error is still passed to the driver, which reports it.
fn follows_failure(handle: *mut c_void) -> bool {
    handle.is_null() && last_error().is_some()
}

/// Calls `body` in the primary context, or records why it cannot.
fn entry<R>(
    function: &str,
    default: R,
    body: impl FnOnce(&'static Driver) -> Result<R, String>,
) -> R {
    c_entry(function, default, || with_context(body))
}

/// Modules loaded so far, kept for the life of the process. `gpu-to-llvm`
/// loads the kernel's module before every launch and unloads it after;
/// the PTX JIT takes milliseconds, so each image is loaded once and later
/// loads of the same bytes at the same address return the same module.
static MODULES: Mutex<Vec<LoadedModule>> = Mutex::new(Vec::new());

/// One cached module: the image it came from (a copy, since a JIT engine
/// may later put other bytes at the same address) and how it was loaded.
struct LoadedModule {
    /// Where the image was.
    address: usize,
    /// The JIT optimisation level, or `None` for a cubin or fatbin.
    opt_level: Option<c_int>,
    /// The image's bytes.
    image: Box<[u8]>,
    /// The driver's module, as an address.
    module: usize,
}

/// The cached module for `image` at `address`, or `load`'s new one, which
/// is then cached (replacing a stale entry for that address). Failures are
/// not cached.
fn cached_module(
    address: *const c_void,
    opt_level: Option<c_int>,
    image: &[u8],
    load: impl FnOnce() -> Result<CuHandle, String>,
) -> Result<CuHandle, String> {
    let mut modules = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    let address = address as usize;
    let slot = modules
        .iter()
        .position(|m| m.address == address && m.opt_level == opt_level);
    if let Some(i) = slot
        && *modules[i].image == *image
    {
        return Ok(modules[i].module as CuHandle);
    }
    let module = load()?;
    // A stale module is left loaded: another thread may still use it.
    let entry = LoadedModule {
        address,
        opt_level,
        image: image.into(),
        module: module as usize,
    };
    match slot {
        Some(i) => modules[i] = entry,
        None => modules.push(entry),
    }
    Ok(module)
}

/// Whether `module` is one of the cached modules, which stay loaded.
fn is_cached(module: *mut c_void) -> bool {
    let modules = MODULES.lock().unwrap_or_else(|e| e.into_inner());
    modules.iter().any(|m| m.module == module as usize)
}

/// Loads a module from a cubin or fatbin (`gpu.binary` in `bin` or
/// `fatbin` format) of `gpu_blob_size` bytes, or returns the module already
/// loaded from these bytes; returns null on failure.
///
/// # Safety
///
/// `data` must point to a module image of `gpu_blob_size` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleLoad(data: *mut c_void, gpu_blob_size: usize) -> *mut c_void {
    entry("mgpuModuleLoad", ptr::null_mut(), |d| {
        // SAFETY: the caller gives the image's size.
        let image = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), gpu_blob_size) };
        cached_module(data, None, image, || {
            let mut module: CuHandle = ptr::null_mut();
            // SAFETY: the caller gives a module image.
            d.check("cuModuleLoadData", unsafe {
                (d.module_load_data)(&mut module, data)
            })?;
            Ok(module)
        })
    })
}

/// Loads a module from NUL-terminated PTX (`gpu.binary` in `isa` format),
/// compiled by the driver's JIT at optimisation level `opt_level` (0 to 4;
/// negative leaves the driver's default); returns null on failure, with
/// the JIT's error log in the error.
///
/// # Safety
///
/// `data` must point to NUL-terminated PTX.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleLoadJIT(data: *mut c_void, opt_level: c_int) -> *mut c_void {
    entry("mgpuModuleLoadJIT", ptr::null_mut(), |d| {
        // SAFETY: the caller gives NUL-terminated PTX.
        let image = unsafe { CStr::from_ptr(data.cast::<c_char>()) }.to_bytes();
        cached_module(data, Some(opt_level), image, || {
            load_jit(d, data, opt_level)
        })
    })
}

/// Compiles the PTX at `data` with the driver's JIT (see
/// [`mgpuModuleLoadJIT`]).
fn load_jit(d: &Driver, data: *mut c_void, opt_level: c_int) -> Result<CuHandle, String> {
    let mut module: CuHandle = ptr::null_mut();
    let mut log = vec![0u8; JIT_LOG_BYTES];
    let mut options = vec![
        driver::CU_JIT_ERROR_LOG_BUFFER,
        driver::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
    ];
    // The driver reads option values as pointer-sized integers.
    let mut values: Vec<*mut c_void> = vec![log.as_mut_ptr().cast(), JIT_LOG_BYTES as *mut c_void];
    if opt_level >= 0 {
        options.push(driver::CU_JIT_OPTIMIZATION_LEVEL);
        values.push(opt_level as usize as *mut c_void);
    }
    // SAFETY: the caller gives PTX; options and values have the same
    // length and the log buffer its stated size.
    let status = unsafe {
        (d.module_load_data_ex)(
            &mut module,
            data,
            options.len() as c_uint,
            options.as_mut_ptr(),
            values.as_mut_ptr(),
        )
    };
    d.check("cuModuleLoadDataEx", status).map_err(|error| {
        let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
        let log = String::from_utf8_lossy(&log[..end]);
        let log = log.trim();
        if log.is_empty() {
            error
        } else {
            format!("{error}: {log}")
        }
    })?;
    Ok(module)
}

/// Unloads a module, unless it is cached (see [`MODULES`]); null (from a
/// failed load) is ignored after that failure.
///
/// # Safety
///
/// `module` must be null or a module from `mgpuModuleLoad*` not yet unloaded.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleUnload(module: *mut c_void) {
    entry("mgpuModuleUnload", (), |d| {
        if follows_failure(module) || is_cached(module) {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        d.check("cuModuleUnload", unsafe { (d.module_unload)(module) })
    })
}

/// The kernel `name` of `module`, or null on failure.
///
/// # Safety
///
/// `name` must be a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleGetFunction(
    module: *mut c_void,
    name: *const c_char,
) -> *mut c_void {
    entry("mgpuModuleGetFunction", ptr::null_mut(), |d| {
        if follows_failure(module) {
            return Ok(ptr::null_mut());
        }
        let mut function: CuHandle = ptr::null_mut();
        // SAFETY: the caller gives a C string; the driver checks `module`.
        d.check("cuModuleGetFunction", unsafe {
            (d.module_get_function)(&mut function, module, name)
        })?;
        Ok(function)
    })
}

/// A launch dimension as the driver's `unsigned int`.
fn dimension(what: &str, value: isize) -> Result<c_uint, String> {
    c_uint::try_from(value)
        .map_err(|_| format!("mgpuLaunchKernel: {what} is {value}, out of range"))
}

/// Launches `function` on a grid of blocks with `smem` bytes of dynamic
/// shared memory on `stream`; `params` points to `params_count` pointers
/// to the arguments (`params_count` is unused, as in MLIR's wrappers).
///
/// # Safety
///
/// `params` must point to the kernel's arguments as `cuLaunchKernel`
/// expects; `extra` must be null or a valid `extra` array.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mgpuLaunchKernel(
    function: *mut c_void,
    grid_x: isize,
    grid_y: isize,
    grid_z: isize,
    block_x: isize,
    block_y: isize,
    block_z: isize,
    smem: i32,
    stream: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    params_count: usize,
) {
    let _ = params_count;
    entry("mgpuLaunchKernel", (), |d| {
        if follows_failure(function) {
            return Ok(());
        }
        let grid = [
            dimension("the grid's x size", grid_x)?,
            dimension("the grid's y size", grid_y)?,
            dimension("the grid's z size", grid_z)?,
        ];
        let block = [
            dimension("the block's x size", block_x)?,
            dimension("the block's y size", block_y)?,
            dimension("the block's z size", block_z)?,
        ];
        let shared = dimension("the dynamic shared memory size", smem as isize)?;
        if smem > DEFAULT_MAX_DYNAMIC_SHARED_BYTES {
            // SAFETY: the driver checks the handle and the size.
            d.check("cuFuncSetAttribute", unsafe {
                (d.func_set_attribute)(
                    function,
                    driver::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    smem,
                )
            })?;
        }
        // SAFETY: the caller vouches for `params` and `extra`.
        d.check("cuLaunchKernel", unsafe {
            (d.launch_kernel)(
                function, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared, stream,
                params, extra,
            )
        })
    })
}

/// Streams that `mgpuStreamDestroy` gave back, kept for the next
/// `mgpuStreamCreate`: `gpu-to-llvm`'s host code creates and destroys a
/// stream around every launch, and creating one costs microseconds.
static IDLE_STREAMS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// The most streams kept idle; more are destroyed.
const MAX_IDLE_STREAMS: usize = 16;

/// Returns a non-blocking stream (one given back before, or a new one);
/// null on failure.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuStreamCreate() -> *mut c_void {
    entry("mgpuStreamCreate", ptr::null_mut(), |d| {
        let reused = IDLE_STREAMS.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(stream) = reused {
            return Ok(stream as CuHandle);
        }
        let mut stream: CuHandle = ptr::null_mut();
        // SAFETY: a valid out-pointer.
        d.check("cuStreamCreate", unsafe {
            (d.stream_create)(&mut stream, driver::CU_STREAM_NON_BLOCKING)
        })?;
        Ok(stream)
    })
}

/// Gives a stream back: it is kept for a later `mgpuStreamCreate` (work
/// still queued on it runs first, in order), or destroyed when enough are
/// kept. Null (from a failed create) is ignored after that failure.
///
/// # Safety
///
/// `stream` must be null or a stream from `mgpuStreamCreate` not yet
/// given back.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamDestroy(stream: *mut c_void) {
    entry("mgpuStreamDestroy", (), |d| {
        if follows_failure(stream) {
            return Ok(());
        }
        if !stream.is_null() {
            let mut idle = IDLE_STREAMS.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < MAX_IDLE_STREAMS {
                idle.push(stream as usize);
                return Ok(());
            }
        }
        // SAFETY: the driver checks the handle.
        d.check("cuStreamDestroy", unsafe { (d.stream_destroy)(stream) })
    })
}

/// Waits until the work queued on `stream` is done.
///
/// # Safety
///
/// `stream` must be null (the default stream) or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamSynchronize(stream: *mut c_void) {
    entry("mgpuStreamSynchronize", (), |d| {
        // SAFETY: the driver checks the handle (null: the default stream).
        d.check("cuStreamSynchronize", unsafe {
            (d.stream_synchronize)(stream)
        })
    })
}

/// Makes later work on `stream` wait for `event`.
///
/// # Safety
///
/// `stream` and `event` must be live handles (or null stream, or a null
/// event after a failed create).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamWaitEvent(stream: *mut c_void, event: *mut c_void) {
    entry("mgpuStreamWaitEvent", (), |d| {
        if follows_failure(event) {
            return Ok(());
        }
        // SAFETY: the driver checks the handles.
        d.check("cuStreamWaitEvent", unsafe {
            (d.stream_wait_event)(stream, event, 0)
        })
    })
}

/// Creates an event without timing; returns null on failure.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuEventCreate() -> *mut c_void {
    entry("mgpuEventCreate", ptr::null_mut(), |d| {
        let mut event: CuHandle = ptr::null_mut();
        // SAFETY: a valid out-pointer.
        d.check("cuEventCreate", unsafe {
            (d.event_create)(&mut event, driver::CU_EVENT_DISABLE_TIMING)
        })?;
        Ok(event)
    })
}

/// Destroys an event; null (from a failed create) is ignored after that
/// failure.
///
/// # Safety
///
/// `event` must be null or an event from `mgpuEventCreate` not yet destroyed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuEventDestroy(event: *mut c_void) {
    entry("mgpuEventDestroy", (), |d| {
        if follows_failure(event) {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        d.check("cuEventDestroy", unsafe { (d.event_destroy)(event) })
    })
}

/// Waits until `event` has happened.
///
/// # Safety
///
/// `event` must be null or a live event.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuEventSynchronize(event: *mut c_void) {
    entry("mgpuEventSynchronize", (), |d| {
        if follows_failure(event) {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        d.check("cuEventSynchronize", unsafe {
            (d.event_synchronize)(event)
        })
    })
}

/// Records `event` on `stream`.
///
/// # Safety
///
/// `event` must be null or a live event, `stream` null or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuEventRecord(event: *mut c_void, stream: *mut c_void) {
    entry("mgpuEventRecord", (), |d| {
        if follows_failure(event) {
            return Ok(());
        }
        // SAFETY: the driver checks the handles.
        d.check("cuEventRecord", unsafe { (d.event_record)(event, stream) })
    })
}

/// Managed allocations of at most this many bytes are kept when freed and
/// handed out again: `moon-gpu-alloc` makes a sum's rank-0 accumulator
/// one on every call, and `cuMemAllocManaged` and `cuMemFree` each take
/// microseconds (`cuMemFree` also waits for the whole device).
const MAX_CACHED_MANAGED_BYTES: usize = 64 * 1024;

/// At most this many bytes of freed device memory are kept for reuse:
/// generated code allocates its temporaries (reverse mode's partials) on
/// every call, and `cuMemAlloc` of hundreds of megabytes takes longer than
/// a kernel that streams through them.
const MAX_CACHED_DEVICE_BYTES: usize = 1 << 30;

/// Allocations that `mgpuMemFree` keeps for reuse, as a caching allocator
/// does: those handed out, by address, and those free, by size and kind.
#[derive(Default)]
struct Cache {
    /// Address -> (bytes, managed).
    live: std::collections::HashMap<usize, (usize, bool)>,
    /// (bytes, managed) -> free addresses.
    free: std::collections::HashMap<(usize, bool), Vec<usize>>,
    /// Bytes of device memory in `free`.
    free_device_bytes: usize,
}

static CACHE: Mutex<Option<Cache>> = Mutex::new(None);

/// Runs `f` on the allocation cache.
fn with_cache<R>(f: impl FnOnce(&mut Cache) -> R) -> R {
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    f(cache.get_or_insert_with(Cache::default))
}

/// Forgets `address` if the cache handed it out (it is being freed some
/// other way, by `moonrt_gpu_free`).
pub(super) fn forget(address: usize) {
    with_cache(|c| c.live.remove(&address));
}

/// Allocates `size_bytes` of device memory, or managed memory (visible to
/// the host too) when `is_host_shared` is nonzero (C `bool`); returns
/// null on failure, and for 0 bytes. `stream` is unused: the allocation
/// is synchronous. An allocation of the same size and kind freed before
/// is handed out again when there is one (see `mgpuMemFree`).
#[unsafe(no_mangle)]
pub extern "C" fn mgpuMemAlloc(
    size_bytes: u64,
    stream: *mut c_void,
    is_host_shared: u8,
) -> *mut c_void {
    let _ = stream;
    let managed = is_host_shared != 0;
    let cacheable = !managed || size_bytes <= MAX_CACHED_MANAGED_BYTES as u64;
    entry("mgpuMemAlloc", ptr::null_mut(), |d| {
        let bytes = usize::try_from(size_bytes)
            .map_err(|_| format!("mgpuMemAlloc: {size_bytes} bytes is too large"))?;
        if bytes == 0 {
            return Ok(ptr::null_mut());
        }
        let reused = with_cache(|c| {
            let address = c.free.get_mut(&(bytes, managed)).and_then(Vec::pop)?;
            if !managed {
                c.free_device_bytes -= bytes;
            }
            c.live.insert(address, (bytes, managed));
            Some(address)
        });
        if let Some(address) = reused {
            return Ok(address as *mut c_void);
        }
        let mut address: CuDevicePtr = 0;
        if managed {
            // SAFETY: a valid out-pointer.
            d.check("cuMemAllocManaged", unsafe {
                (d.mem_alloc_managed)(&mut address, bytes, driver::CU_MEM_ATTACH_GLOBAL)
            })?;
        } else {
            // SAFETY: a valid out-pointer.
            d.check("cuMemAlloc", unsafe { (d.mem_alloc)(&mut address, bytes) })?;
        }
        if cacheable {
            with_cache(|c| c.live.insert(address as usize, (bytes, managed)));
        }
        Ok(address as *mut c_void)
    })
}

/// Frees memory from `mgpuMemAlloc`; null is ignored. Small managed
/// allocations, and device memory while at most 1 GiB of it is kept, are
/// kept for a later `mgpuMemAlloc` of the same size, once the work queued
/// on `stream` (which may still use them) is done.
///
/// # Safety
///
/// `stream` must be null or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemFree(ptr: *mut c_void, stream: *mut c_void) {
    entry("mgpuMemFree", (), |d| {
        if ptr.is_null() {
            return Ok(());
        }
        let address = ptr as usize;
        if let Some((bytes, managed)) = with_cache(|c| c.live.remove(&address)) {
            if !stream.is_null() {
                // SAFETY: the caller's live stream.
                d.check("cuStreamSynchronize", unsafe {
                    (d.stream_synchronize)(stream)
                })?;
            }
            let kept = with_cache(|c| {
                let room = managed || c.free_device_bytes + bytes <= MAX_CACHED_DEVICE_BYTES;
                if room {
                    c.free_device_bytes += if managed { 0 } else { bytes };
                    c.free.entry((bytes, managed)).or_default().push(address);
                }
                room
            });
            if kept {
                return Ok(());
            }
        }
        // SAFETY: the driver checks the address.
        d.check("cuMemFree", unsafe { (d.mem_free)(ptr as CuDevicePtr) })
    })
}

/// Queues a copy of `size_bytes` from `src` to `dst` on `stream`, host or
/// device memory either side (unified addressing).
///
/// # Safety
///
/// Host memory named must stay valid until the stream has done the copy.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemcpy(
    dst: *mut c_void,
    src: *mut c_void,
    size_bytes: usize,
    stream: *mut c_void,
) {
    entry("mgpuMemcpy", (), |d| {
        // SAFETY: the caller vouches for host memory; the driver checks
        // device memory.
        d.check("cuMemcpyAsync", unsafe {
            (d.memcpy_async)(dst as CuDevicePtr, src as CuDevicePtr, size_bytes, stream)
        })
    })
}

/// Queues setting `count` 32-bit words at `dst` to `value` on `stream`.
///
/// # Safety
///
/// `dst` must be device memory of at least `count` words; `stream` null or
/// a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemset32(
    dst: *mut c_void,
    value: c_uint,
    count: usize,
    stream: *mut c_void,
) {
    entry("mgpuMemset32", (), |d| {
        // SAFETY: the driver checks the address.
        d.check("cuMemsetD32Async", unsafe {
            (d.memset_d32_async)(dst as CuDevicePtr, value, count, stream)
        })
    })
}

/// Queues setting `count` 16-bit words at `dst` to `value` on `stream`.
///
/// # Safety
///
/// `dst` must be device memory of at least `count` half-words; `stream`
/// null or a live stream.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemset16(
    dst: *mut c_void,
    value: c_ushort,
    count: usize,
    stream: *mut c_void,
) {
    entry("mgpuMemset16", (), |d| {
        // SAFETY: the driver checks the address.
        d.check("cuMemsetD16Async", unsafe {
            (d.memset_d16_async)(dst as CuDevicePtr, value, count, stream)
        })
    })
}

/// Page-locks `size_bytes` of host memory at `ptr` and maps it for the
/// device.
///
/// # Safety
///
/// `ptr` must be host memory of at least `size_bytes`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemHostRegister(ptr: *mut c_void, size_bytes: u64) {
    entry("mgpuMemHostRegister", (), |d| register(d, ptr, size_bytes))
}

/// `cuMemHostRegister` on `bytes` at `ptr`.
fn register(d: &Driver, ptr: *mut c_void, bytes: u64) -> Result<(), String> {
    let bytes = usize::try_from(bytes)
        .map_err(|_| format!("mgpuMemHostRegister: {bytes} bytes is too large"))?;
    // SAFETY: the caller vouches for the memory; the driver checks it.
    d.check("cuMemHostRegister", unsafe {
        (d.mem_host_register)(ptr, bytes, 0)
    })
}

/// Reads a ranked memref descriptor (`allocated`, `aligned`, `offset`,
/// `sizes[rank]`, `strides[rank]`): its first element's address, and its
/// size in bytes when it is dense row-major, else an error.
///
/// # Safety
///
/// `descriptor` must point to a descriptor of rank `rank`.
unsafe fn dense_extent(
    function: &str,
    rank: i64,
    descriptor: *const c_void,
    element_bytes: i64,
) -> Result<(*mut c_void, u64), String> {
    if descriptor.is_null() || rank < 0 || element_bytes < 0 {
        return Err(format!(
            "{function}: bad memref (descriptor {descriptor:?}, rank {rank}, {element_bytes}-byte elements)"
        ));
    }
    let rank = rank as usize;
    let words = descriptor.cast::<i64>();
    // SAFETY: the caller gives a descriptor of this rank: two pointers,
    // the offset, then 2 * rank sizes and strides, all 8 bytes.
    let (aligned, offset, sizes, strides) = unsafe {
        (
            *descriptor.cast::<*mut u8>().add(1),
            *words.add(2),
            std::slice::from_raw_parts(words.add(3), rank),
            std::slice::from_raw_parts(words.add(3 + rank), rank),
        )
    };
    let mut expected = 1i64;
    for (dim, (&size, &stride)) in sizes.iter().zip(strides).enumerate().rev() {
        if size > 1 && stride != expected {
            return Err(format!(
                "{function}: only dense row-major memrefs can be registered (dimension {dim} has stride {stride}, expected {expected})"
            ));
        }
        expected = expected.saturating_mul(size);
    }
    let bytes = u64::try_from(expected.saturating_mul(element_bytes)).unwrap_or(0);
    let first = aligned.wrapping_offset((offset * element_bytes) as isize);
    Ok((first.cast(), bytes))
}

/// Registers a dense memref's memory (see `mgpuMemHostRegister`):
/// `descriptor` points to a ranked descriptor of rank `rank`.
///
/// # Safety
///
/// `descriptor` must point to a descriptor of rank `rank` whose memory is
/// valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemHostRegisterMemRef(
    rank: i64,
    descriptor: *mut c_void,
    element_size_bytes: i64,
) {
    entry("mgpuMemHostRegisterMemRef", (), |d| {
        // SAFETY: the caller gives a descriptor of this rank.
        let (ptr, bytes) = unsafe {
            dense_extent(
                "mgpuMemHostRegisterMemRef",
                rank,
                descriptor,
                element_size_bytes,
            )
        }?;
        register(d, ptr, bytes)
    })
}

/// Unregisters host memory registered at `ptr`.
///
/// # Safety
///
/// `ptr` must be the start of registered memory.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemHostUnregister(ptr: *mut c_void) {
    entry("mgpuMemHostUnregister", (), |d| {
        // SAFETY: the driver checks the pointer.
        d.check("cuMemHostUnregister", unsafe {
            (d.mem_host_unregister)(ptr)
        })
    })
}

/// Unregisters a memref registered by `mgpuMemHostRegisterMemRef`.
///
/// # Safety
///
/// `descriptor` must point to a descriptor of rank `rank`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemHostUnregisterMemRef(
    rank: i64,
    descriptor: *mut c_void,
    element_size_bytes: i64,
) {
    entry("mgpuMemHostUnregisterMemRef", (), |d| {
        // SAFETY: the caller gives a descriptor of this rank.
        let (ptr, _) = unsafe {
            dense_extent(
                "mgpuMemHostUnregisterMemRef",
                rank,
                descriptor,
                element_size_bytes,
            )
        }?;
        // SAFETY: the driver checks the pointer.
        d.check("cuMemHostUnregister", unsafe {
            (d.mem_host_unregister)(ptr)
        })
    })
}

/// Chooses the device whose primary context moonrt uses. It takes effect
/// only before the first GPU call of the process (moonrt keeps one
/// context), and never records an error.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuSetDefaultDevice(device: i32) {
    DEFAULT_DEVICE.store(device, Ordering::Relaxed);
}
