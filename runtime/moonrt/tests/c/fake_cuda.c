/* fake_cuda.c: a fake CUDA driver for tests/gpu_fake_driver.rs: "device
 * memory" is host memory, copies are memcpy, kernels never launch. */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;

#define FAKE_ERROR_INVALID_VALUE 1
#define FAKE_ERROR_INVALID_PTX 218
#define FAKE_ERROR_UNNAMED 999

static int fake_handle;

CUresult cuInit(unsigned flags) { return flags == 0 ? 0 : FAKE_ERROR_INVALID_VALUE; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return ordinal == 0 ? 0 : FAKE_ERROR_INVALID_VALUE; }
CUresult cuDeviceGetName(char *name, int len, int device) {
  (void)device;
  strncpy(name, "moonrt fake GPU", (size_t)len);
  return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  (void)device;
  *value = attribute == 75 ? 9 : 0;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) { (void)device; *context = &fake_handle; return 0; }
CUresult cuCtxPushCurrent_v2(void *context) { return context == &fake_handle ? 0 : FAKE_ERROR_INVALID_VALUE; }
CUresult cuCtxPopCurrent_v2(void **context) { *context = &fake_handle; return 0; }
CUresult cuCtxSynchronize(void) { return 0; }
/* Every load gives a new module handle, so tests can tell loads apart. */
static char fake_modules[256];
static unsigned fake_module_loads;
static void *next_module(void) { return &fake_modules[fake_module_loads++ % sizeof fake_modules]; }

CUresult cuModuleLoadData(void **module, const void *image) { (void)image; *module = next_module(); return 0; }
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
  unsigned i;
  *module = next_module();
  if (!strstr((const char *)image, "bad"))
    return 0;
  for (i = 0; i < n; i++)
    if (options[i] == 5) /* CU_JIT_ERROR_LOG_BUFFER */
      strcpy((char *)values[i], "fake JIT: bad PTX");
  *module = NULL;
  return FAKE_ERROR_INVALID_PTX;
}
CUresult cuModuleUnload(void *module) { (void)module; return 0; }
CUresult cuModuleGetFunction(void **function, void *module, const char *name) { (void)module; (void)name; *function = &fake_handle; return 0; }
CUresult cuFuncSetAttribute(void *function, int attribute, int value) { (void)function; (void)attribute; (void)value; return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, void *stream, void **params, void **extra) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem; (void)stream; (void)params; (void)extra;
  return FAKE_ERROR_INVALID_VALUE;
}
CUresult cuStreamCreate(void **stream, unsigned flags) { (void)flags; *stream = &fake_handle; return 0; }
CUresult cuStreamSynchronize(void *stream) { (void)stream; return 0; }
CUresult cuStreamDestroy_v2(void *stream) { (void)stream; return 0; }
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) { (void)stream; (void)event; (void)flags; return FAKE_ERROR_UNNAMED; }
CUresult cuEventCreate(void **event, unsigned flags) { (void)flags; *event = &fake_handle; return 0; }
CUresult cuEventRecord(void *event, void *stream) { (void)event; (void)stream; return 0; }
CUresult cuEventSynchronize(void *event) { (void)event; return 0; }
CUresult cuEventDestroy_v2(void *event) { (void)event; return 0; }
CUresult cuEventElapsedTime(float *ms, void *start, void *end) { (void)start; (void)end; *ms = 1.5f; return 0; }
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) { *p = (CUdeviceptr)(uintptr_t)malloc(bytes); return 0; }
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t bytes, unsigned flags) { (void)flags; return cuMemAlloc_v2(p, bytes); }
CUresult cuMemFree_v2(CUdeviceptr p) { free((void *)(uintptr_t)p); return 0; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n) { memcpy(dst, (void *)(uintptr_t)src, n); return 0; }
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, void *stream) {
  (void)stream;
  memcpy((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
  return 0;
}
CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned value, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    ((unsigned *)(uintptr_t)dst)[i] = value;
  return 0;
}
CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t n, void *stream) { (void)stream; return cuMemsetD32_v2(dst, value, n); }
CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t n, void *stream) {
  size_t i;
  (void)stream;
  for (i = 0; i < n; i++)
    ((unsigned short *)(uintptr_t)dst)[i] = value;
  return 0;
}
CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) { (void)p; (void)flags; return bytes == 16 ? 0 : FAKE_ERROR_INVALID_VALUE; }
CUresult cuMemHostUnregister(void *p) { (void)p; return 0; }
CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
  case FAKE_ERROR_INVALID_VALUE: *name = "CUDA_ERROR_INVALID_VALUE"; return 0;
  case FAKE_ERROR_INVALID_PTX: *name = "CUDA_ERROR_INVALID_PTX"; return 0;
  default: *name = NULL; return FAKE_ERROR_INVALID_VALUE;
  }
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  switch (error) {
  case FAKE_ERROR_INVALID_VALUE: *text = "invalid argument"; return 0;
  case FAKE_ERROR_INVALID_PTX: *text = "a PTX JIT compilation failed"; return 0;
  default: *text = NULL; return FAKE_ERROR_INVALID_VALUE;
  }
}
