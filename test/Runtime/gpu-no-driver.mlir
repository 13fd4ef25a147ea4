// Host code calling moonrt's GPU runtime (the mgpu* functions that
// gpu-to-llvm's lowering calls) on a machine without a CUDA driver:
// MOONRT_CUDA_LIBRARY names a missing library, so the test does not depend
// on whether this machine has a GPU. Every call returns null or nothing
// (the function's results: null stream, null buffer) and the run fails
// with moonrt's error.
// RUN: env MOONRT_CUDA_LIBRARY=/nonexistent/libcuda.so.1 not moonc run %s 2> %t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// CHECK: {"results": [0, 0], "args": []}
// ERR: moonc: error: @gpu reported an error: no CUDA driver found (/nonexistent/libcuda.so.1 could not be loaded: {{.*}})

func.func private @mgpuStreamCreate() -> !llvm.ptr
func.func private @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
func.func private @mgpuMemFree(!llvm.ptr, !llvm.ptr)
func.func private @mgpuStreamSynchronize(!llvm.ptr)
func.func private @mgpuStreamDestroy(!llvm.ptr)

func.func @gpu() -> (i64, i64) {
  %bytes = arith.constant 4096 : i64
  %device_only = arith.constant 0 : i8
  %stream = func.call @mgpuStreamCreate() : () -> !llvm.ptr
  %buffer = func.call @mgpuMemAlloc(%bytes, %stream, %device_only)
      : (i64, !llvm.ptr, i8) -> !llvm.ptr
  func.call @mgpuMemFree(%buffer, %stream) : (!llvm.ptr, !llvm.ptr) -> ()
  func.call @mgpuStreamSynchronize(%stream) : (!llvm.ptr) -> ()
  func.call @mgpuStreamDestroy(%stream) : (!llvm.ptr) -> ()
  %s = llvm.ptrtoint %stream : !llvm.ptr to i64
  %b = llvm.ptrtoint %buffer : !llvm.ptr to i64
  return %s, %b : i64, i64
}
