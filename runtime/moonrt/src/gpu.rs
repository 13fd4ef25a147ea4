//! moonrt's GPU runtime over the CUDA driver API, loaded at run time: the
//! device memory helpers for C (`moonrt_gpu_*`) and Rust ([`DeviceBuffer`],
//! [`available`], ...), and the MLIR GPU runtime ABI (`mgpu*`, in
//! `gpu/mgpu.rs`) that `gpu-to-llvm`'s host code calls. See
//! docs/gpu-runtime.md.

mod driver;
mod mgpu;

use std::ffi::{c_char, c_int, c_void};
use std::ptr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI32, Ordering};

use crate::error::{guard, set_error};
use driver::{CuDevice, CuDevicePtr, CuHandle, Driver};

pub use driver::LIBRARY_ENV;
pub use mgpu::{
    mgpuEventCreate, mgpuEventDestroy, mgpuEventRecord, mgpuEventSynchronize, mgpuLaunchKernel,
    mgpuMemAlloc, mgpuMemFree, mgpuMemHostRegister, mgpuMemHostRegisterMemRef,
    mgpuMemHostUnregister, mgpuMemHostUnregisterMemRef, mgpuMemcpy, mgpuMemset16, mgpuMemset32,
    mgpuModuleGetFunction, mgpuModuleLoad, mgpuModuleLoadJIT, mgpuModuleUnload,
    mgpuSetDefaultDevice, mgpuStreamCreate, mgpuStreamDestroy, mgpuStreamSynchronize,
    mgpuStreamWaitEvent,
};

/// The device whose primary context moonrt makes current, chosen by
/// `mgpuSetDefaultDevice` before the first GPU call.
static DEFAULT_DEVICE: AtomicI32 = AtomicI32::new(0);

/// The primary context of the default device, retained at first use.
struct Context {
    /// The device's handle.
    device: CuDevice,
    /// Its primary context.
    context: CuHandle,
}

// SAFETY: a CUDA context handle may be made current on any thread; moonrt
// never frees it.
unsafe impl Send for Context {}
// SAFETY: as above; the handle is only read.
unsafe impl Sync for Context {}

/// The loaded driver and the primary context of the default device, set up
/// at the first call: `cuInit`, `cuDeviceGet`, `cuDevicePrimaryCtxRetain`.
fn context() -> Result<(&'static Driver, &'static Context), String> {
    static CONTEXT: OnceLock<Result<Context, String>> = OnceLock::new();
    let driver = driver::driver()?;
    let context = CONTEXT
        .get_or_init(|| {
            // SAFETY: driver calls with valid out-pointers.
            unsafe {
                driver.check("cuInit", (driver.init)(0))?;
                let mut device: CuDevice = 0;
                let ordinal = DEFAULT_DEVICE.load(Ordering::Relaxed);
                driver.check("cuDeviceGet", (driver.device_get)(&mut device, ordinal))?;
                let mut context: CuHandle = ptr::null_mut();
                driver.check(
                    "cuDevicePrimaryCtxRetain",
                    (driver.primary_ctx_retain)(&mut context, device),
                )?;
                Ok(Context { device, context })
            }
        })
        .as_ref()
        .map_err(Clone::clone)?;
    Ok((driver, context))
}

/// Runs `body` with the default device's primary context current on this
/// thread (pushed before, popped after, as MLIR's CUDA wrappers do).
fn with_context<R>(body: impl FnOnce(&'static Driver) -> Result<R, String>) -> Result<R, String> {
    let (driver, context) = context()?;
    // SAFETY: a context from cuDevicePrimaryCtxRetain.
    driver.check("cuCtxPushCurrent", unsafe {
        (driver.ctx_push_current)(context.context)
    })?;
    let result = body(driver);
    let mut popped: CuHandle = ptr::null_mut();
    // SAFETY: pops the context pushed above.
    let pop = driver.check("cuCtxPopCurrent", unsafe {
        (driver.ctx_pop_current)(&mut popped)
    });
    let value = result?;
    pop.map(|()| value)
}

/// Runs the body of an exported C function: a panic or an error becomes
/// moonrt's last error and `default` is returned.
fn c_entry<R>(function: &str, default: R, body: impl FnOnce() -> Result<R, String>) -> R {
    let fallback = || match body() {
        Ok(value) => Some(value),
        Err(message) => {
            set_error(&message);
            None
        }
    };
    guard(function, None, fallback).unwrap_or(default)
}

/// Whether a CUDA driver is loaded and sees at least one device. Never
/// records an error: it is the question to ask before using the GPU.
pub fn available() -> bool {
    context().is_ok_and(|(driver, _)| {
        let mut count: c_int = 0;
        // SAFETY: a valid out-pointer.
        let status = unsafe { (driver.device_get_count)(&mut count) };
        status == 0 && count > 0
    })
}

/// The name of the default device, e.g. "NVIDIA H100 80GB HBM3".
pub fn device_name() -> Result<String, String> {
    let (driver, context) = context()?;
    let mut name = [0 as c_char; 256];
    // SAFETY: the buffer's length is passed.
    driver.check("cuDeviceGetName", unsafe {
        (driver.device_get_name)(name.as_mut_ptr(), name.len() as c_int, context.device)
    })?;
    // SAFETY: the driver NUL-terminates the name within the buffer; the
    // last byte is still 0 if it did not.
    let name = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) };
    Ok(name.to_string_lossy().into_owned())
}

/// The default device's compute capability (major, minor), e.g. (9, 0).
pub fn compute_capability() -> Result<(i32, i32), String> {
    let (driver, context) = context()?;
    let mut major: c_int = 0;
    let mut minor: c_int = 0;
    // SAFETY: valid out-pointers.
    unsafe {
        driver.check(
            "cuDeviceGetAttribute",
            (driver.device_get_attribute)(
                &mut major,
                driver::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                context.device,
            ),
        )?;
        driver.check(
            "cuDeviceGetAttribute",
            (driver.device_get_attribute)(
                &mut minor,
                driver::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                context.device,
            ),
        )?;
    }
    Ok((major, minor))
}

/// Waits until the device has finished all the work given to it
/// (`cuCtxSynchronize`).
pub fn synchronize() -> Result<(), String> {
    with_context(|driver| {
        // SAFETY: no arguments.
        driver.check("cuCtxSynchronize", unsafe { (driver.ctx_synchronize)() })
    })
}

/// Runs `work` between two events recorded on the default stream and
/// returns its result and the device time between them in milliseconds
/// (`cuEventElapsedTime`): the time of the device work `work` queued on
/// the default stream, or that finished while it ran.
pub fn elapsed_ms<R>(work: impl FnOnce() -> R) -> Result<(R, f32), String> {
    let events = with_context(|driver| {
        let mut events: [CuHandle; 2] = [ptr::null_mut(); 2];
        for event in &mut events {
            // SAFETY: a valid out-pointer.
            driver.check("cuEventCreate", unsafe {
                (driver.event_create)(event, driver::CU_EVENT_DEFAULT)
            })?;
        }
        Ok(events)
    })?;
    let record = |event: CuHandle| {
        with_context(|driver| {
            // SAFETY: an event created above, the default stream.
            driver.check("cuEventRecord", unsafe {
                (driver.event_record)(event, ptr::null_mut())
            })
        })
    };
    let timed = record(events[0]).and_then(|()| {
        let result = work();
        record(events[1])?;
        with_context(|driver| {
            let mut ms = 0f32;
            // SAFETY: recorded events, a valid out-pointer.
            unsafe {
                driver.check("cuEventSynchronize", (driver.event_synchronize)(events[1]))?;
                driver.check(
                    "cuEventElapsedTime",
                    (driver.event_elapsed_time)(&mut ms, events[0], events[1]),
                )?;
            }
            Ok((result, ms))
        })
    });
    let destroyed = with_context(|driver| {
        for event in events {
            // SAFETY: events created above.
            driver.check("cuEventDestroy", unsafe { (driver.event_destroy)(event) })?;
        }
        Ok(())
    });
    let timed = timed?;
    destroyed.map(|()| timed)
}

/// Allocates `bytes` of device memory; 0 bytes gives the null address.
fn alloc(bytes: usize) -> Result<CuDevicePtr, String> {
    if bytes == 0 {
        return Ok(0);
    }
    with_context(|driver| {
        let mut address: CuDevicePtr = 0;
        // SAFETY: a valid out-pointer.
        driver.check("cuMemAlloc", unsafe {
            (driver.mem_alloc)(&mut address, bytes)
        })?;
        Ok(address)
    })
}

/// Frees device memory from [`alloc`]; the null address is ignored.
fn free(address: CuDevicePtr) -> Result<(), String> {
    if address == 0 {
        return Ok(());
    }
    mgpu::forget(address as usize);
    with_context(|driver| {
        // SAFETY: the driver checks the address.
        driver.check("cuMemFree", unsafe { (driver.mem_free)(address) })
    })
}

/// Copies `bytes` from host memory at `src` to device memory at `dst`.
///
/// # Safety
///
/// `src` must be readable for `bytes` bytes.
unsafe fn copy_to_device(dst: CuDevicePtr, src: *const c_void, bytes: usize) -> Result<(), String> {
    if bytes == 0 {
        return Ok(());
    }
    with_context(|driver| {
        // SAFETY: the caller vouches for `src`; the driver checks `dst`.
        driver.check("cuMemcpyHtoD", unsafe {
            (driver.memcpy_htod)(dst, src, bytes)
        })
    })
}

/// Copies `bytes` from device memory at `src` to host memory at `dst`.
///
/// # Safety
///
/// `dst` must be writable for `bytes` bytes.
unsafe fn copy_to_host(dst: *mut c_void, src: CuDevicePtr, bytes: usize) -> Result<(), String> {
    if bytes == 0 {
        return Ok(());
    }
    with_context(|driver| {
        // SAFETY: the caller vouches for `dst`; the driver checks `src`.
        driver.check("cuMemcpyDtoH", unsafe {
            (driver.memcpy_dtoh)(dst, src, bytes)
        })
    })
}

/// Element types whose values may be copied to and from the device as
/// bytes: every bit pattern is a value.
pub trait DeviceScalar: Copy + sealed::Sealed {}

mod sealed {
    /// Keeps [`super::DeviceScalar`] to the types listed here.
    pub trait Sealed {}
}

macro_rules! device_scalars {
    ($($t:ty),*) => { $(impl sealed::Sealed for $t {} impl DeviceScalar for $t {})* };
}
device_scalars!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64);

/// A buffer of device memory, freed when dropped.
#[derive(Debug)]
pub struct DeviceBuffer {
    /// The device address (0 for an empty buffer).
    address: CuDevicePtr,
    /// Its size in bytes.
    bytes: usize,
}

impl DeviceBuffer {
    /// Allocates `bytes` of uninitialised device memory.
    pub fn new(bytes: usize) -> Result<Self, String> {
        Ok(DeviceBuffer {
            address: alloc(bytes)?,
            bytes,
        })
    }

    /// A device buffer holding a copy of `data`.
    pub fn from_slice<T: DeviceScalar>(data: &[T]) -> Result<Self, String> {
        let mut buffer = DeviceBuffer::new(std::mem::size_of_val(data))?;
        buffer.copy_from(data)?;
        Ok(buffer)
    }

    /// The device address, what kernels and the `mgpu*` functions take.
    pub fn as_ptr(&self) -> *mut c_void {
        self.address as *mut c_void
    }

    /// Its size in bytes.
    pub fn len_bytes(&self) -> usize {
        self.bytes
    }

    /// Copies `data` to the start of the buffer.
    pub fn copy_from<T: DeviceScalar>(&mut self, data: &[T]) -> Result<(), String> {
        let bytes = std::mem::size_of_val(data);
        self.check_fits(bytes)?;
        // SAFETY: `data` is readable for `bytes` bytes.
        unsafe { copy_to_device(self.address, data.as_ptr().cast(), bytes) }
    }

    /// Fills `data` from the start of the buffer.
    pub fn copy_to<T: DeviceScalar>(&self, data: &mut [T]) -> Result<(), String> {
        let bytes = std::mem::size_of_val(data);
        self.check_fits(bytes)?;
        // SAFETY: `data` is writable for `bytes` bytes, and any bytes are
        // a valid `T` (`DeviceScalar`).
        unsafe { copy_to_host(data.as_mut_ptr().cast(), self.address, bytes) }
    }

    /// Sets every 32-bit word of the buffer to `value` (a trailing partial
    /// word is left alone), waiting until done.
    pub fn fill_u32(&mut self, value: u32) -> Result<(), String> {
        let words = self.bytes / 4;
        if words == 0 {
            return Ok(());
        }
        with_context(|driver| {
            // SAFETY: the buffer holds `words` words.
            driver.check("cuMemsetD32", unsafe {
                (driver.memset_d32)(self.address, value, words)
            })
        })
    }

    /// The buffer's contents as `T`s (a trailing partial element is left
    /// out).
    pub fn to_vec<T: DeviceScalar + Default>(&self) -> Result<Vec<T>, String> {
        let mut data = vec![T::default(); self.bytes / std::mem::size_of::<T>().max(1)];
        self.copy_to(&mut data)?;
        Ok(data)
    }

    /// An error unless `bytes` fit in the buffer.
    fn check_fits(&self, bytes: usize) -> Result<(), String> {
        if bytes > self.bytes {
            return Err(format!(
                "a copy of {bytes} bytes does not fit in a device buffer of {} bytes",
                self.bytes
            ));
        }
        Ok(())
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        if let Err(message) = free(self.address) {
            set_error(&message);
        }
    }
}

/// Whether a CUDA driver is loaded and sees at least one device. It never
/// records an error.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_gpu_available() -> bool {
    guard("moonrt_gpu_available", false, available)
}

/// Writes the default device's name, NUL-terminated and truncated to
/// `len - 1` bytes, to `buf`; returns false (and records the error) when
/// there is no device or `buf` is null or `len` is 0.
///
/// # Safety
///
/// `buf` must be null or writable for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_gpu_device_name(buf: *mut c_char, len: usize) -> bool {
    c_entry("moonrt_gpu_device_name", false, || {
        if buf.is_null() || len == 0 {
            return Err("moonrt_gpu_device_name: the buffer is null or empty".to_string());
        }
        let name = device_name()?;
        let n = name.len().min(len - 1);
        // SAFETY: the caller gives `len` writable bytes; n + 1 <= len.
        unsafe {
            ptr::copy_nonoverlapping(name.as_ptr().cast::<c_char>(), buf, n);
            *buf.add(n) = 0;
        }
        Ok(true)
    })
}

/// Allocates `bytes` of device memory on the default device; returns its
/// device address, or null (with the error recorded) on failure. 0 bytes
/// gives null without an error.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_gpu_alloc(bytes: usize) -> *mut c_void {
    c_entry("moonrt_gpu_alloc", ptr::null_mut(), || {
        alloc(bytes).map(|address| address as *mut c_void)
    })
}

/// Frees device memory from `moonrt_gpu_alloc` (or `mgpuMemAlloc`); null
/// is ignored.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_gpu_free(ptr: *mut c_void) {
    c_entry("moonrt_gpu_free", (), || free(ptr as CuDevicePtr))
}

/// Copies `bytes` from host memory `src` to device memory `dst`, waiting
/// until done; returns false (and records the error) on failure.
///
/// # Safety
///
/// `src` must be readable for `bytes` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_gpu_copy_to_device(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> bool {
    c_entry("moonrt_gpu_copy_to_device", false, || {
        // SAFETY: the caller vouches for `src`.
        unsafe { copy_to_device(dst as CuDevicePtr, src, bytes) }.map(|()| true)
    })
}

/// Copies `bytes` from device memory `src` to host memory `dst`, waiting
/// until done; returns false (and records the error) on failure.
///
/// # Safety
///
/// `dst` must be writable for `bytes` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn moonrt_gpu_copy_to_host(
    dst: *mut c_void,
    src: *const c_void,
    bytes: usize,
) -> bool {
    c_entry("moonrt_gpu_copy_to_host", false, || {
        // SAFETY: the caller vouches for `dst`.
        unsafe { copy_to_host(dst, src as CuDevicePtr, bytes) }.map(|()| true)
    })
}

/// Waits until the device has finished all its work; returns false (and
/// records the error) on failure, such as a kernel that faulted.
#[unsafe(no_mangle)]
pub extern "C" fn moonrt_gpu_synchronize() -> bool {
    c_entry("moonrt_gpu_synchronize", false, || {
        synchronize().map(|()| true)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_on_a_gpu() {
        if !available() {
            println!("skipped: no GPU");
            return;
        }
        println!("device: {}", device_name().unwrap());
        let data: Vec<f32> = (0..1000).map(|i| i as f32 * 0.5).collect();
        let buffer = DeviceBuffer::from_slice(&data).unwrap();
        assert_eq!(buffer.len_bytes(), 4000);
        assert_eq!(buffer.to_vec::<f32>().unwrap(), data);
        let mut ones = DeviceBuffer::new(12).unwrap();
        let ((), ms) = elapsed_ms(|| ones.fill_u32(1.0f32.to_bits()).unwrap()).unwrap();
        assert!(ms >= 0.0);
        assert_eq!(ones.to_vec::<f32>().unwrap(), [1.0; 3]);
        synchronize().unwrap();
    }

    #[test]
    fn copies_that_do_not_fit() {
        let buffer = DeviceBuffer {
            address: 0,
            bytes: 4,
        };
        let error = buffer.copy_to(&mut [0.0f64]).unwrap_err();
        assert_eq!(
            error,
            "a copy of 8 bytes does not fit in a device buffer of 4 bytes"
        );
    }
}
