//! The CUDA driver API, loaded with `dlopen` at first use: the few types and
//! functions moonrt calls, declared here so that no CUDA header or toolkit
//! is needed to build moonrt.

use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_ushort, c_void};
use std::sync::OnceLock;

use crate::ffi;

/// A driver call's status (`CUresult`): 0 is success.
pub type CuResult = c_int;
/// A device ordinal's handle (`CUdevice`).
pub type CuDevice = c_int;
/// A device address (`CUdeviceptr`).
pub type CuDevicePtr = u64;
/// An opaque driver handle: `CUcontext`, `CUmodule`, `CUfunction`,
/// `CUstream` or `CUevent`.
pub type CuHandle = *mut c_void;

/// `CU_STREAM_NON_BLOCKING`: a stream that does not synchronise with the
/// legacy default stream.
pub const CU_STREAM_NON_BLOCKING: c_uint = 1;
/// `CU_EVENT_DEFAULT`: an event that records timing.
pub const CU_EVENT_DEFAULT: c_uint = 0;
/// `CU_EVENT_DISABLE_TIMING`: an event without timing, cheaper to record.
pub const CU_EVENT_DISABLE_TIMING: c_uint = 2;
/// `CU_MEM_ATTACH_GLOBAL`: managed memory any stream may access.
pub const CU_MEM_ATTACH_GLOBAL: c_uint = 1;
/// `CU_JIT_ERROR_LOG_BUFFER`: where the PTX JIT writes its errors.
pub const CU_JIT_ERROR_LOG_BUFFER: c_int = 5;
/// `CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES`: that buffer's size.
pub const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
/// `CU_JIT_OPTIMIZATION_LEVEL`: the PTX JIT's optimisation level, 0 to 4.
pub const CU_JIT_OPTIMIZATION_LEVEL: c_int = 7;
/// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES`: a kernel's dynamic
/// shared memory limit, to raise above the default 48 KiB.
pub const CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: c_int = 8;
/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR`.
pub const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
/// `CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR`.
pub const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;

/// The environment variable naming the driver library to load instead of
/// `libcuda.so.1` (tests point it at a missing file or a fake driver).
pub const LIBRARY_ENV: &str = "MOONRT_CUDA_LIBRARY";

/// The driver library moonrt loads by default, and the name tried when it
/// is missing.
const DEFAULT_LIBRARIES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

/// Declares [`Driver`], one field per driver function (every one returns a
/// `CUresult`), and its loader, which resolves each by its symbol.
macro_rules! driver_functions {
    ($($(#[$doc:meta])* $field:ident = $symbol:literal ($($arg:ty),* $(,)?);)*) => {
        /// The driver functions moonrt calls, resolved from the loaded
        /// library; the library stays loaded for the life of the process.
        pub struct Driver {
            $($(#[$doc])* pub $field: unsafe extern "C" fn($($arg),*) -> CuResult,)*
        }

        impl Driver {
            /// Resolves every function in the library `handle` (named
            /// `library` in errors).
            fn resolve(handle: *mut c_void, library: &str) -> Result<Self, String> {
                Ok(Driver {
                    $($field: {
                        let address = symbol(handle, library, $symbol)?;
                        // SAFETY: the driver exports `$symbol` with this
                        // signature (CUDA's cuda.h), and `address` is not
                        // null.
                        unsafe {
                            std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($arg),*) -> CuResult>(address)
                        }
                    },)*
                })
            }
        }
    };
}

driver_functions! {
    /// `cuInit(flags)`.
    init = "cuInit"(c_uint);
    /// `cuDeviceGetCount(&count)`.
    device_get_count = "cuDeviceGetCount"(*mut c_int);
    /// `cuDeviceGet(&device, ordinal)`.
    device_get = "cuDeviceGet"(*mut CuDevice, c_int);
    /// `cuDeviceGetName(name, len, device)`.
    device_get_name = "cuDeviceGetName"(*mut c_char, c_int, CuDevice);
    /// `cuDeviceGetAttribute(&value, attribute, device)`.
    device_get_attribute = "cuDeviceGetAttribute"(*mut c_int, c_int, CuDevice);
    /// `cuDevicePrimaryCtxRetain(&context, device)`.
    primary_ctx_retain = "cuDevicePrimaryCtxRetain"(*mut CuHandle, CuDevice);
    /// `cuCtxPushCurrent(context)`.
    ctx_push_current = "cuCtxPushCurrent_v2"(CuHandle);
    /// `cuCtxPopCurrent(&context)`.
    ctx_pop_current = "cuCtxPopCurrent_v2"(*mut CuHandle);
    /// `cuCtxSynchronize()`.
    ctx_synchronize = "cuCtxSynchronize"();
    /// `cuModuleLoadData(&module, image)`.
    module_load_data = "cuModuleLoadData"(*mut CuHandle, *const c_void);
    /// `cuModuleLoadDataEx(&module, image, count, options, values)`.
    module_load_data_ex = "cuModuleLoadDataEx"(
        *mut CuHandle,
        *const c_void,
        c_uint,
        *mut c_int,
        *mut *mut c_void,
    );
    /// `cuModuleUnload(module)`.
    module_unload = "cuModuleUnload"(CuHandle);
    /// `cuModuleGetFunction(&function, module, name)`.
    module_get_function = "cuModuleGetFunction"(*mut CuHandle, CuHandle, *const c_char);
    /// `cuFuncSetAttribute(function, attribute, value)`.
    func_set_attribute = "cuFuncSetAttribute"(CuHandle, c_int, c_int);
    /// `cuLaunchKernel(function, grid x/y/z, block x/y/z, shared bytes,
    /// stream, params, extra)`.
    launch_kernel = "cuLaunchKernel"(
        CuHandle,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        CuHandle,
        *mut *mut c_void,
        *mut *mut c_void,
    );
    /// `cuStreamCreate(&stream, flags)`.
    stream_create = "cuStreamCreate"(*mut CuHandle, c_uint);
    /// `cuStreamSynchronize(stream)`.
    stream_synchronize = "cuStreamSynchronize"(CuHandle);
    /// `cuStreamDestroy(stream)`.
    stream_destroy = "cuStreamDestroy_v2"(CuHandle);
    /// `cuStreamWaitEvent(stream, event, flags)`.
    stream_wait_event = "cuStreamWaitEvent"(CuHandle, CuHandle, c_uint);
    /// `cuEventCreate(&event, flags)`.
    event_create = "cuEventCreate"(*mut CuHandle, c_uint);
    /// `cuEventRecord(event, stream)`.
    event_record = "cuEventRecord"(CuHandle, CuHandle);
    /// `cuEventSynchronize(event)`.
    event_synchronize = "cuEventSynchronize"(CuHandle);
    /// `cuEventDestroy(event)`.
    event_destroy = "cuEventDestroy_v2"(CuHandle);
    /// `cuEventElapsedTime(&milliseconds, start, end)`.
    event_elapsed_time = "cuEventElapsedTime"(*mut f32, CuHandle, CuHandle);
    /// `cuMemAlloc(&address, bytes)`.
    mem_alloc = "cuMemAlloc_v2"(*mut CuDevicePtr, usize);
    /// `cuMemAllocManaged(&address, bytes, flags)`.
    mem_alloc_managed = "cuMemAllocManaged"(*mut CuDevicePtr, usize, c_uint);
    /// `cuMemFree(address)`.
    mem_free = "cuMemFree_v2"(CuDevicePtr);
    /// `cuMemcpyHtoD(device, host, bytes)`.
    memcpy_htod = "cuMemcpyHtoD_v2"(CuDevicePtr, *const c_void, usize);
    /// `cuMemcpyDtoH(host, device, bytes)`.
    memcpy_dtoh = "cuMemcpyDtoH_v2"(*mut c_void, CuDevicePtr, usize);
    /// `cuMemcpyAsync(dst, src, bytes, stream)`, either direction (unified
    /// addressing).
    memcpy_async = "cuMemcpyAsync"(CuDevicePtr, CuDevicePtr, usize, CuHandle);
    /// `cuMemsetD32(address, value, count)`.
    memset_d32 = "cuMemsetD32_v2"(CuDevicePtr, c_uint, usize);
    /// `cuMemsetD32Async(address, value, count, stream)`.
    memset_d32_async = "cuMemsetD32Async"(CuDevicePtr, c_uint, usize, CuHandle);
    /// `cuMemsetD16Async(address, value, count, stream)`.
    memset_d16_async = "cuMemsetD16Async"(CuDevicePtr, c_ushort, usize, CuHandle);
    /// `cuMemHostRegister(pointer, bytes, flags)`.
    mem_host_register = "cuMemHostRegister_v2"(*mut c_void, usize, c_uint);
    /// `cuMemHostUnregister(pointer)`.
    mem_host_unregister = "cuMemHostUnregister"(*mut c_void);
    /// `cuGetErrorName(result, &name)`.
    get_error_name = "cuGetErrorName"(CuResult, *mut *const c_char);
    /// `cuGetErrorString(result, &description)`.
    get_error_string = "cuGetErrorString"(CuResult, *mut *const c_char);
}

impl Driver {
    /// `Ok` for `CUDA_SUCCESS`, else the error "`function`: NAME:
    /// description" in the driver's words, e.g. "cuLaunchKernel:
    /// CUDA_ERROR_INVALID_VALUE: invalid argument".
    pub fn check(&self, function: &str, result: CuResult) -> Result<(), String> {
        if result == 0 {
            return Ok(());
        }
        let name = self
            .describe(self.get_error_name, result)
            .unwrap_or_else(|| format!("CUDA error {result}"));
        let description = self
            .describe(self.get_error_string, result)
            .unwrap_or_else(|| "unknown error".to_string());
        Err(format!("{function}: {name}: {description}"))
    }

    /// The string `lookup` (`cuGetErrorName` or `cuGetErrorString`) gives
    /// for `result`, if it knows it.
    fn describe(
        &self,
        lookup: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
        result: CuResult,
    ) -> Option<String> {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: `lookup` writes a pointer to a static string, or nothing.
        let status = unsafe { lookup(result, &mut text) };
        if status != 0 || text.is_null() {
            return None;
        }
        // SAFETY: the driver's strings are NUL-terminated and static.
        Some(
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned(),
        )
    }
}

/// The address of `name` in `handle`, or an error naming the library.
fn symbol(handle: *mut c_void, library: &str, name: &str) -> Result<*mut c_void, String> {
    let c_name = CString::new(name).map_err(|_| format!("bad symbol name {name:?}"))?;
    // SAFETY: `handle` is a live handle from `dlopen`, `c_name` a C string.
    let address = unsafe { ffi::dlsym(handle, c_name.as_ptr()) };
    if address.is_null() {
        Err(format!(
            "the CUDA driver {library} lacks {name} ({})",
            dl_error()
        ))
    } else {
        Ok(address)
    }
}

/// The calling thread's pending `dlerror` message.
fn dl_error() -> String {
    // SAFETY: `dlerror` returns null or a NUL-terminated string that stays
    // valid until the next dl call on this thread, which is after the copy.
    let message = unsafe { ffi::dlerror() };
    if message.is_null() {
        "unknown error".to_string()
    } else {
        // SAFETY: see above.
        unsafe { CStr::from_ptr(message) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Loads the driver library `library` and resolves its functions; the
/// error says why not: "no CUDA driver found (`library` could not be
/// loaded: ...)" when `dlopen` fails.
pub fn load(library: &str) -> Result<Driver, String> {
    let c_library = CString::new(library)
        .map_err(|_| format!("no CUDA driver found ({library:?} is not a file name)"))?;
    // SAFETY: a C string; loading the driver runs its initialisers, which
    // is what every CUDA program does.
    let handle = unsafe { ffi::dlopen(c_library.as_ptr(), ffi::RTLD_NOW) };
    if handle.is_null() {
        return Err(format!(
            "no CUDA driver found ({library} could not be loaded: {})",
            dl_error()
        ));
    }
    // The handle is never closed: the driver stays loaded, as the function
    // pointers and every handle it gave out need it.
    Driver::resolve(handle, library)
}

/// The library to load: `$MOONRT_CUDA_LIBRARY` when set and not empty,
/// else `libcuda.so.1` and then `libcuda.so`. The error is that of the
/// first library tried.
fn load_configured() -> Result<Driver, String> {
    if let Some(library) = std::env::var_os(LIBRARY_ENV).filter(|l| !l.is_empty()) {
        return load(&library.to_string_lossy());
    }
    let [first, fallback] = DEFAULT_LIBRARIES;
    load(first).or_else(|error| load(fallback).map_err(|_| error))
}

/// The process's driver, loaded at the first call (later calls return the
/// same driver, or the same error).
pub fn driver() -> Result<&'static Driver, String> {
    static DRIVER: OnceLock<Result<Driver, String>> = OnceLock::new();
    DRIVER
        .get_or_init(load_configured)
        .as_ref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_library() {
        let error = load("/nonexistent/libcuda.so.1").err().unwrap();
        assert!(
            error.starts_with(
                "no CUDA driver found (/nonexistent/libcuda.so.1 could not be loaded: "
            ),
            "{error}"
        );
        assert!(error.contains("No such file"), "{error}");
    }

    #[test]
    fn library_without_the_driver_functions() {
        // libc loads but has no cuInit.
        let error = load("libc.so.6").err().unwrap();
        assert!(
            error.starts_with("the CUDA driver libc.so.6 lacks cuInit ("),
            "{error}"
        );
    }
}
