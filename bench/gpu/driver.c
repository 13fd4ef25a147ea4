/* bench/gpu/driver.c: the GPU benchmark (bench/gpu/README.md). Linked with
 * bench/gpu/grad.mlir compiled by `moonc compile --gpu` and with libmoonrt;
 * test/GPU/bundle.sh builds it, test/GPU/device.sh runs it.
 *
 * On the default device it measures, each as the median of REPS timed
 * calls after two untimed ones (wall time, every call synchronous):
 *   copy   a device-to-device copy of N f32 (cuMemcpyAsync, then a wait);
 *   sce    sum(cos(exp(x))) over N f32, and sce_vg its value and gradient;
 *   bcast  sum_ij cos(exp(x_j) w_ij) over R x C f32, and bcast_vg.
 * It checks the results against the host's (double precision) and prints
 * one line per measurement, `name: key=value ...`; bytes are what each
 * call must move at least (sce_vg: read x, write dx; bcast_vg: read w and
 * x, write dw and dx). Exits 1 when a check fails or the GPU reports an
 * error. Usage: bench-gpu [LOG2_N [REPS]] (default 26 and 20).
 *
 * Built with -DBENCH_GPU_ON_HOST and grad.mlir compiled for the CPU, it
 * runs the same steps on host memory (test/GPU/bench-host.test): a
 * rehearsal of everything but the GPU. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "moonrt.h"

#ifdef BENCH_GPU_ON_HOST
#include <string.h>
static void *host_alloc(size_t bytes) { return malloc(bytes); }
static bool host_copy(void *dst, const void *src, size_t bytes) {
  memcpy(dst, src, bytes);
  return true;
}
static bool host_name(char *buf, size_t len) {
  snprintf(buf, len, "host (BENCH_GPU_ON_HOST rehearsal)");
  return true;
}
#define moonrt_gpu_alloc host_alloc
#define moonrt_gpu_copy_to_device host_copy
#define moonrt_gpu_copy_to_host host_copy
#define moonrt_gpu_device_name host_name
#define COPY(dst, src, bytes) memcpy((dst), (src), (bytes))
#else
#define COPY(dst, src, bytes)                                                  \
  do {                                                                         \
    void *stream_ = mgpuStreamCreate();                                        \
    mgpuMemcpy((dst), (src), (bytes), stream_);                                \
    mgpuStreamSynchronize(stream_);                                            \
    mgpuStreamDestroy(stream_);                                                \
  } while (0)
#endif

float sce(moonrt_memref_f32_1d *x);
float sce_vg(moonrt_memref_f32_1d *x, moonrt_memref_f32_1d *dx);
float bcast(moonrt_memref_f32_1d *x, moonrt_memref_f32_2d *w);
float bcast_vg(moonrt_memref_f32_1d *x, moonrt_memref_f32_2d *w,
               moonrt_memref_f32_1d *dx, moonrt_memref_f32_2d *dw);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fail(const char *what) {
  const char *error = moonrt_last_error();
  fprintf(stderr, "bench-gpu: %s%s%s\n", what, error ? ": " : "",
          error ? error : "");
  exit(1);
}

/* Device memory holding a copy of `host` (n f32). */
static float *upload(const float *host, size_t n) {
  float *device = moonrt_gpu_alloc(n * sizeof(float));
  if (!device || !moonrt_gpu_copy_to_device(device, host, n * sizeof(float)))
    fail("copying the input to the device");
  return device;
}

static float *download(const float *device, size_t n) {
  float *host = malloc(n * sizeof(float));
  if (!host || !moonrt_gpu_copy_to_host(host, device, n * sizeof(float)))
    fail("copying a result to the host");
  return host;
}

/* The median seconds of `reps` calls of `call` (after two untimed). */
#define MEDIAN(result, reps, call)                                             \
  do {                                                                         \
    double *t_ = malloc((reps) * sizeof(double));                              \
    for (int r_ = -2; r_ < (reps); r_++) {                                     \
      double t0_ = now();                                                      \
      call;                                                                    \
      if (r_ >= 0)                                                             \
        t_[r_] = now() - t0_;                                                  \
    }                                                                          \
    qsort(t_, (reps), sizeof(double), by_value);                               \
    (result) = t_[(reps) / 2];                                                 \
    free(t_);                                                                  \
  } while (0)

static int failures = 0;

/* Counts and reports a relative `error` over `tolerance`. */
static void check_error(const char *what, double error, double tolerance) {
  if (!(error <= tolerance)) {
    printf("check %s: FAIL error=%.3g tolerance=%.1g\n", what, error,
           tolerance);
    failures++;
  }
}

/* Whether `got` is within `tolerance` (relative) of `want`. */
static void check(const char *what, double got, double want,
                  double tolerance) {
  check_error(what, fabs(got - want) / fmax(fabs(want), 1e-30), tolerance);
}

/* The largest error of `got` against `want` over n elements, relative to
 * the largest |want|. */
static double max_error(const float *got, const double *want, size_t n) {
  double worst = 0, scale = 1e-30;
  for (size_t i = 0; i < n; i++) {
    scale = fmax(scale, fabs(want[i]));
    worst = fmax(worst, fabs(got[i] - want[i]));
  }
  return worst / scale;
}

int main(int argc, char **argv) {
  int log2n = argc > 1 ? atoi(argv[1]) : 26;
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  if (log2n < 10 || log2n > 30 || reps < 1) {
    fprintf(stderr, "usage: bench-gpu [LOG2_N (10..30) [REPS]]\n");
    return 2;
  }
  char name[256];
  if (!moonrt_gpu_device_name(name, sizeof name))
    fail("no usable GPU");
  printf("device: %s\n", name);
  size_t n = (size_t)1 << log2n;
  size_t cols = (size_t)1 << (log2n / 2), rows = n / cols;

  /* Inputs in [-1, 1) (x) and [-2, 2) (w), from a fixed LCG. */
  float *x = malloc(n * sizeof(float)), *w = malloc(n * sizeof(float));
  uint64_t state = 42;
  for (size_t i = 0; i < n; i++) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = (float)((state >> 40) / (double)(1 << 24) * 2 - 1);
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    w[i] = (float)((state >> 40) / (double)(1 << 24) * 4 - 2);
  }
  float *dev_x = upload(x, n), *dev_w = upload(w, n);
  float *dev_dx = moonrt_gpu_alloc(n * sizeof(float));
  float *dev_dw = moonrt_gpu_alloc(n * sizeof(float));
  float *dev_copy = moonrt_gpu_alloc(n * sizeof(float));
  if (!dev_dx || !dev_dw || !dev_copy)
    fail("allocating device memory");
  moonrt_memref_f32_1d X = moonrt_memref_f32_1d_from(dev_x, (int64_t)n);
  moonrt_memref_f32_1d DX = moonrt_memref_f32_1d_from(dev_dx, (int64_t)n);
  moonrt_memref_f32_1d XB = moonrt_memref_f32_1d_from(dev_x, (int64_t)cols);
  moonrt_memref_f32_1d DXB = moonrt_memref_f32_1d_from(dev_dx, (int64_t)cols);
  moonrt_memref_f32_2d W =
      moonrt_memref_f32_2d_from(dev_w, (int64_t)rows, (int64_t)cols);
  moonrt_memref_f32_2d DW =
      moonrt_memref_f32_2d_from(dev_dw, (int64_t)rows, (int64_t)cols);
  double bytes = (double)n * sizeof(float);

  /* The copy: read N f32, write N f32. */
  double t_copy;
  MEDIAN(t_copy, reps, COPY(dev_copy, dev_x, n * sizeof(float)));
  if (moonrt_last_error())
    fail("the device-to-device copy");
  double copy_rate = 2 * bytes / t_copy;
  printf("copy: n=%zu ms=%.4f bytes=%.0f gbps=%.1f\n", n, t_copy * 1e3,
         2 * bytes, copy_rate / 1e9);

  /* sum(cos(exp(x))): the primal reads x; value and gradient read x and
   * write dx. */
  double t_p, t_g;
  float value = 0, value_vg = 0;
  MEDIAN(t_p, reps, value = sce(&X));
  MEDIAN(t_g, reps, value_vg = sce_vg(&X, &DX));
  if (moonrt_last_error())
    fail("sce");
  double want = 0;
  double *want_dx = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    double e = exp((double)x[i]);
    want += cos(e);
    want_dx[i] = -sin(e) * e;
  }
  float *got_dx = download(dev_dx, n);
  check("sce value", value, want, 1e-4);
  check("sce_vg value", value_vg, want, 1e-4);
  double dx_error = max_error(got_dx, want_dx, n);
  check_error("sce_vg gradient", dx_error, 1e-5);
  printf("sce: n=%zu primal_ms=%.4f primal_fraction=%.3f\n", n, t_p * 1e3,
         (bytes / t_p) / copy_rate);
  printf("sce_vg: n=%zu ms=%.4f bytes=%.0f fraction=%.3f value=%.6g "
         "value_error=%.2g gradient_error=%.2g\n",
         n, t_g * 1e3, 2 * bytes, (2 * bytes / t_g) / copy_rate, value_vg,
         fabs(value_vg - want) / fabs(want), dx_error);

  /* The broadcast: rows x cols of w, x[j] for each column. */
  MEDIAN(t_p, reps, value = bcast(&XB, &W));
  MEDIAN(t_g, reps, value_vg = bcast_vg(&XB, &W, &DXB, &DW));
  if (moonrt_last_error())
    fail("bcast");
  want = 0;
  double *want_dw = want_dx; /* n doubles, reused */
  double *want_dxb = calloc(cols, sizeof(double));
  for (size_t i = 0; i < rows; i++)
    for (size_t j = 0; j < cols; j++) {
      double e = exp((double)x[j]), p = e * w[i * cols + j];
      want += cos(p);
      want_dw[i * cols + j] = -sin(p) * e;
      want_dxb[j] += -sin(p) * p;
    }
  float *got_dw = download(dev_dw, n), *got_dxb = download(dev_dx, cols);
  check("bcast value", value, want, 1e-3);
  check("bcast_vg value", value_vg, want, 1e-3);
  double dw_error = max_error(got_dw, want_dw, n);
  double dxb_error = max_error(got_dxb, want_dxb, cols);
  check_error("bcast_vg gradient w", dw_error, 1e-5);
  check_error("bcast_vg gradient x", dxb_error, 1e-3);
  double moved = 2 * bytes + 2.0 * cols * sizeof(float);
  printf("bcast: rows=%zu cols=%zu primal_ms=%.4f primal_fraction=%.3f\n",
         rows, cols, t_p * 1e3, (bytes / t_p) / copy_rate);
  printf("bcast_vg: rows=%zu cols=%zu ms=%.4f bytes=%.0f fraction=%.3f "
         "value=%.6g value_error=%.2g gradient_error=%.2g,%.2g\n",
         rows, cols, t_g * 1e3, moved, (moved / t_g) / copy_rate, value_vg,
         fabs(value_vg - want) / fabs(want), dw_error, dxb_error);
  printf("checks: %s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
