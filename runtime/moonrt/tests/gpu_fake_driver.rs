//! moonrt's GPU runtime against a fake CUDA driver (`tests/c/fake_cuda.c`,
//! built here with `cc`; skipped without it): the success paths with host
//! memory standing in for device memory, and driver errors reported with
//! their names and descriptions.

use std::ffi::{CStr, c_void};
use std::path::Path;
use std::process::Command;
use std::ptr;

use moonrt::gpu::{self, DeviceBuffer};
use moonrt::*;

/// The last error's text, or "" when there is none.
fn error_text() -> String {
    let message = moonrt_last_error();
    if message.is_null() {
        return String::new();
    }
    // SAFETY: a non-null result is a NUL-terminated string.
    unsafe { CStr::from_ptr(message) }
        .to_string_lossy()
        .into_owned()
}

/// Builds the fake driver; None when `cc` is missing.
fn build_fake_driver() -> Option<String> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/fake_cuda.c");
    let library = Path::new(env!("CARGO_TARGET_TMPDIR")).join("libfakecuda.so");
    let output = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&library)
        .arg(&source)
        .output()
        .ok()?;
    assert!(
        output.status.success(),
        "cc failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(library.to_string_lossy().into_owned())
}

// One test, so that nothing else in this process loads the driver before
// the environment variable is set.
#[test]
fn fake_driver() {
    let Some(library) = build_fake_driver() else {
        println!("skipped: no cc to build the fake driver");
        return;
    };
    // SAFETY: the only test of this binary sets it before any other thread
    // reads the environment.
    unsafe { std::env::set_var(gpu::LIBRARY_ENV, &library) };

    // The Rust API.
    assert!(gpu::available());
    assert_eq!(gpu::device_name().unwrap(), "moonrt fake GPU");
    assert_eq!(gpu::compute_capability().unwrap(), (9, 0));
    let data = [1.5f64, -2.0, 3.25];
    let mut buffer = DeviceBuffer::from_slice(&data).unwrap();
    assert_eq!(buffer.to_vec::<f64>().unwrap(), data);
    buffer.fill_u32(7).unwrap();
    assert_eq!(buffer.to_vec::<u32>().unwrap(), [7; 6]);
    let (value, ms) = gpu::elapsed_ms(|| 42).unwrap();
    assert_eq!((value, ms), (42, 1.5));
    gpu::synchronize().unwrap();
    drop(buffer);

    // The C helpers.
    clear_error();
    assert!(moonrt_gpu_available());
    let mut name = [0 as std::ffi::c_char; 5];
    // SAFETY: `name` has 5 bytes.
    assert!(unsafe { moonrt_gpu_device_name(name.as_mut_ptr(), name.len()) });
    // SAFETY: NUL-terminated by moonrt_gpu_device_name.
    assert_eq!(unsafe { CStr::from_ptr(name.as_ptr()) }, c"moon");
    let device = moonrt_gpu_alloc(16);
    assert!(!device.is_null());
    let input = [1i32, 2, 3, 4];
    let mut output = [0i32; 4];
    // SAFETY: 16 bytes each side.
    unsafe {
        assert!(moonrt_gpu_copy_to_device(device, input.as_ptr().cast(), 16));
        assert!(moonrt_gpu_copy_to_host(
            output.as_mut_ptr().cast(),
            device,
            16
        ));
    }
    assert_eq!(output, input);
    assert!(moonrt_gpu_synchronize());
    moonrt_gpu_free(device);
    assert!(moonrt_gpu_alloc(0).is_null());
    assert_eq!(error_text(), "");

    // SAFETY (below): handles come from the fake driver, host buffers are
    // large enough for each call.
    unsafe {
        // The MLIR ABI: a stream, memory, copies and sets.
        let stream = mgpuStreamCreate();
        assert!(!stream.is_null());
        let d = mgpuMemAlloc(16, stream, 0);
        let managed = mgpuMemAlloc(16, stream, 1);
        assert!(!d.is_null() && !managed.is_null());
        assert!(mgpuMemAlloc(0, stream, 0).is_null());
        let mut host = [9u32; 4];
        mgpuMemset32(d, 5, 4, stream);
        mgpuMemcpy(host.as_mut_ptr().cast(), d, 16, stream);
        assert_eq!(host, [5; 4]);
        mgpuMemset16(d, 1, 8, stream);
        mgpuMemcpy(managed, d, 16, stream);
        mgpuMemcpy(host.as_mut_ptr().cast(), managed, 16, stream);
        assert_eq!(host, [0x0001_0001; 4]);
        let event = mgpuEventCreate();
        mgpuEventRecord(event, stream);
        mgpuEventSynchronize(event);
        mgpuEventDestroy(event);
        mgpuStreamSynchronize(stream);
        mgpuMemFree(d, stream);
        mgpuMemFree(managed, stream);
        // An allocation freed (small if managed) is handed out again for
        // the same size and kind; a stream given back is reused.
        assert_eq!(mgpuMemAlloc(16, stream, 1), managed);
        mgpuMemFree(managed, ptr::null_mut());
        assert_eq!(mgpuMemAlloc(16, stream, 0), d);
        assert_ne!(mgpuMemAlloc(16, stream, 0), d);
        // Freed some other way, it is no longer the cache's.
        moonrt_gpu_free(d);
        let other = mgpuStreamCreate();
        mgpuStreamDestroy(other);
        assert_eq!(mgpuStreamCreate(), other);
        mgpuStreamDestroy(other);
        mgpuMemHostRegister(host.as_mut_ptr().cast(), 16);
        mgpuMemHostUnregister(host.as_mut_ptr().cast());
        let mut data = [0f32; 4];
        let mut memref = MemRef::<f32, 1>::from_slice(&mut data, [4]).unwrap();
        let descriptor = (&raw mut memref).cast::<c_void>();
        mgpuMemHostRegisterMemRef(1, descriptor, 4);
        mgpuMemHostUnregisterMemRef(1, descriptor, 4);
        let module = mgpuModuleLoad(c"cubin".as_ptr() as *mut c_void, 6);
        let function = mgpuModuleGetFunction(module, c"k".as_ptr());
        assert!(!function.is_null());
        mgpuModuleUnload(module);
        assert_eq!(error_text(), "");

        // A module is loaded once per image, and stays loaded: gpu-to-llvm
        // loads it before every launch. Other bytes at the same address, or
        // another optimisation level, are loaded anew.
        let mut ptx = *b"ptx one\0";
        let image = ptx.as_mut_ptr().cast::<c_void>();
        let first = mgpuModuleLoadJIT(image, 2);
        mgpuModuleUnload(first);
        assert_eq!(mgpuModuleLoadJIT(image, 2), first);
        assert_ne!(mgpuModuleLoadJIT(image, 3), first);
        ptx[4..7].copy_from_slice(b"two");
        let second = mgpuModuleLoadJIT(image, 2);
        assert!(!second.is_null() && second != first);
        assert_eq!(mgpuModuleLoadJIT(image, 2), second);
        assert_eq!(mgpuModuleLoad(c"cubin".as_ptr() as *mut c_void, 6), module);
        assert_eq!(error_text(), "");

        // Driver errors, in the driver's words.
        mgpuLaunchKernel(
            function,
            1,
            1,
            1,
            32,
            1,
            1,
            0,
            stream,
            ptr::null_mut(),
            ptr::null_mut(),
            0,
        );
        assert_eq!(
            error_text(),
            "cuLaunchKernel: CUDA_ERROR_INVALID_VALUE: invalid argument"
        );
        mgpuLaunchKernel(
            function,
            -1,
            1,
            1,
            32,
            1,
            1,
            0,
            stream,
            ptr::null_mut(),
            ptr::null_mut(),
            0,
        );
        assert_eq!(
            error_text(),
            "mgpuLaunchKernel: the grid's x size is -1, out of range"
        );
        mgpuStreamWaitEvent(stream, function);
        assert_eq!(
            error_text(),
            "cuStreamWaitEvent: CUDA error 999: unknown error"
        );
        mgpuMemHostRegister(host.as_mut_ptr().cast(), 8);
        assert_eq!(
            error_text(),
            "cuMemHostRegister: CUDA_ERROR_INVALID_VALUE: invalid argument"
        );
        (*descriptor.cast::<MemRef<f32, 1>>()).strides = [2];
        mgpuMemHostRegisterMemRef(1, descriptor, 4);
        assert_eq!(
            error_text(),
            "mgpuMemHostRegisterMemRef: only dense row-major memrefs can be registered (dimension 0 has stride 2, expected 1)"
        );

        // A PTX module that does not compile: the JIT's log is kept, and
        // calls on the null module do not replace that error.
        clear_error();
        let module = mgpuModuleLoadJIT(c"bad ptx".as_ptr() as *mut c_void, 2);
        assert!(module.is_null());
        let expected = "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed: fake JIT: bad PTX";
        assert_eq!(error_text(), expected);
        let function = mgpuModuleGetFunction(module, c"k".as_ptr());
        assert!(function.is_null());
        mgpuLaunchKernel(
            function,
            1,
            1,
            1,
            1,
            1,
            1,
            0,
            stream,
            ptr::null_mut(),
            ptr::null_mut(),
            0,
        );
        mgpuModuleUnload(module);
        assert_eq!(error_text(), expected);
        mgpuStreamDestroy(stream);
    }
}
