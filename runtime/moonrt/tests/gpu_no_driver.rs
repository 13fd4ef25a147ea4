//! moonrt's GPU entry points without a CUDA driver ($MOONRT_CUDA_LIBRARY
//! names a missing file): each returns null or nothing, never crashes, and
//! leaves "no CUDA driver found (...)" as the last error.

use std::ffi::{CStr, c_void};
use std::ptr;

use moonrt::gpu::{self, DeviceBuffer};
use moonrt::*;

const LIBRARY: &str = "/nonexistent/libcuda.so.1";

/// The expected start of every error.
fn expected_prefix() -> String {
    format!("no CUDA driver found ({LIBRARY} could not be loaded: ")
}

/// Clears the last error, runs `call`, and checks the error it left.
fn fails(what: &str, call: impl FnOnce()) {
    clear_error();
    call();
    let message = moonrt_last_error();
    assert!(!message.is_null(), "{what} recorded no error");
    // SAFETY: a non-null result is a NUL-terminated string.
    let message = unsafe { CStr::from_ptr(message) }.to_string_lossy();
    assert!(
        message.starts_with(&expected_prefix()) && message.ends_with(')'),
        "{what}: {message}"
    );
}

// One test, so that nothing else in this process loads the driver before
// the environment variable is set.
#[test]
fn every_entry_point_fails_cleanly() {
    // SAFETY: the only test of this binary sets it before any other thread
    // reads the environment.
    unsafe { std::env::set_var(gpu::LIBRARY_ENV, LIBRARY) };

    // The query records nothing.
    clear_error();
    assert!(!moonrt_gpu_available());
    assert!(!gpu::available());
    assert!(last_error().is_none());

    let dangling = 0x1000 as *mut c_void;
    let mut host = [0u8; 16];
    let mut name = [0 as std::ffi::c_char; 64];
    fails("moonrt_gpu_alloc", || {
        assert!(moonrt_gpu_alloc(64).is_null())
    });
    fails("moonrt_gpu_free", || moonrt_gpu_free(dangling));
    // SAFETY: `host` has 16 bytes; the device side is never touched.
    fails("moonrt_gpu_copy_to_device", || unsafe {
        assert!(!moonrt_gpu_copy_to_device(
            dangling,
            host.as_ptr().cast(),
            16
        ))
    });
    // SAFETY: as above.
    fails("moonrt_gpu_copy_to_host", || unsafe {
        assert!(!moonrt_gpu_copy_to_host(
            host.as_mut_ptr().cast(),
            dangling,
            16
        ))
    });
    fails("moonrt_gpu_synchronize", || {
        assert!(!moonrt_gpu_synchronize())
    });
    // SAFETY: `name` has 64 bytes.
    fails("moonrt_gpu_device_name", || unsafe {
        assert!(!moonrt_gpu_device_name(name.as_mut_ptr(), name.len()))
    });

    // The MLIR ABI.
    let ptx = c".version 8.0\n";
    // SAFETY (all calls below): nothing reaches a driver, so no pointer is
    // read but the module image's (never) and the descriptor's.
    unsafe {
        fails("mgpuModuleLoad", || {
            assert!(mgpuModuleLoad(ptx.as_ptr() as *mut c_void, 13).is_null())
        });
        fails("mgpuModuleLoadJIT", || {
            assert!(mgpuModuleLoadJIT(ptx.as_ptr() as *mut c_void, 2).is_null())
        });
        fails("mgpuModuleUnload", || mgpuModuleUnload(dangling));
        fails("mgpuModuleGetFunction", || {
            assert!(mgpuModuleGetFunction(dangling, c"k".as_ptr()).is_null())
        });
        fails("mgpuLaunchKernel", || {
            mgpuLaunchKernel(
                dangling,
                1,
                1,
                1,
                32,
                1,
                1,
                0,
                ptr::null_mut(),
                ptr::null_mut(),
                ptr::null_mut(),
                0,
            )
        });
        fails("mgpuStreamCreate", || assert!(mgpuStreamCreate().is_null()));
        fails("mgpuStreamDestroy", || mgpuStreamDestroy(dangling));
        fails("mgpuStreamSynchronize", || mgpuStreamSynchronize(dangling));
        fails("mgpuStreamWaitEvent", || {
            mgpuStreamWaitEvent(dangling, dangling)
        });
        fails("mgpuEventCreate", || assert!(mgpuEventCreate().is_null()));
        fails("mgpuEventDestroy", || mgpuEventDestroy(dangling));
        fails("mgpuEventSynchronize", || mgpuEventSynchronize(dangling));
        fails("mgpuEventRecord", || mgpuEventRecord(dangling, dangling));
        fails("mgpuMemAlloc", || {
            assert!(mgpuMemAlloc(64, ptr::null_mut(), 0).is_null())
        });
        fails("mgpuMemAlloc (managed)", || {
            assert!(mgpuMemAlloc(64, ptr::null_mut(), 1).is_null())
        });
        fails("mgpuMemFree", || mgpuMemFree(dangling, ptr::null_mut()));
        fails("mgpuMemcpy", || {
            mgpuMemcpy(dangling, dangling, 16, ptr::null_mut())
        });
        fails("mgpuMemset32", || {
            mgpuMemset32(dangling, 7, 4, ptr::null_mut())
        });
        fails("mgpuMemset16", || {
            mgpuMemset16(dangling, 7, 4, ptr::null_mut())
        });
        fails("mgpuMemHostRegister", || {
            mgpuMemHostRegister(host.as_mut_ptr().cast(), 16)
        });
        fails("mgpuMemHostUnregister", || {
            mgpuMemHostUnregister(host.as_mut_ptr().cast())
        });
        let mut data = [0f32; 4];
        let mut memref = MemRef::<f32, 1>::from_slice(&mut data, [4]).unwrap();
        let descriptor = (&raw mut memref).cast::<c_void>();
        fails("mgpuMemHostRegisterMemRef", || {
            mgpuMemHostRegisterMemRef(1, descriptor, 4)
        });
        fails("mgpuMemHostUnregisterMemRef", || {
            mgpuMemHostUnregisterMemRef(1, descriptor, 4)
        });
    }
    // Choosing a device records nothing.
    clear_error();
    mgpuSetDefaultDevice(0);
    assert!(last_error().is_none());

    // The Rust API.
    let prefix = expected_prefix();
    for error in [
        DeviceBuffer::new(64).err(),
        DeviceBuffer::from_slice(&[1.0f64, 2.0]).err(),
        gpu::device_name().err(),
        gpu::compute_capability().err(),
        gpu::synchronize().err(),
        gpu::elapsed_ms(|| ()).err(),
    ] {
        let error = error.expect("an error");
        assert!(error.starts_with(&prefix), "{error}");
    }
    // An empty buffer needs no driver.
    let empty = DeviceBuffer::new(0).unwrap();
    assert!(empty.as_ptr().is_null());
    assert_eq!(empty.to_vec::<f32>().unwrap(), Vec::<f32>::new());
}
