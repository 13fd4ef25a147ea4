/* bench/suite/aot_ab.sh's driver: loads a library that `moonc compile
 * --emit shared` made from GradBench's plain gmm plus `@dg` (its value and
 * gradient, moon.grad), reads one input that aot_ab.sh wrote, and times
 * REPS calls of the objective, then of the value and gradient, alternately.
 * Prints the medians in microseconds. Not a test. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "moonrt.h"

typedef double (*gmm_fn)(moonrt_memref_f64_1d *, moonrt_memref_f64_2d *,
                         moonrt_memref_f64_2d *, moonrt_memref_f64_2d *,
                         moonrt_memref_f64_2d *, double, int64_t);
typedef void (*dg_fn)(moonrt_memref_f64_1d *, moonrt_memref_f64_2d *,
                      moonrt_memref_f64_2d *, moonrt_memref_f64_2d *,
                      moonrt_memref_f64_2d *, double, int64_t,
                      moonrt_memref_f64_1d *, moonrt_memref_f64_2d *,
                      moonrt_memref_f64_2d *, moonrt_memref_f64_2d *);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double *doubles(FILE *f, long n) {
  double *p = calloc(n > 0 ? n : 1, sizeof(double));
  if (!p || fread(p, sizeof(double), n, f) != (size_t)n) {
    fprintf(stderr, "aot_driver: short input\n");
    exit(1);
  }
  return p;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: aot_driver LIBRARY INPUT REPS\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "aot_driver: %s\n", dlerror());
    return 1;
  }
  gmm_fn gmm = (gmm_fn)dlsym(lib, "gmm");
  dg_fn dg = (dg_fn)dlsym(lib, "dg");
  FILE *f = fopen(argv[2], "rb");
  if (!gmm || !dg || !f) {
    fprintf(stderr, "aot_driver: no gmm/dg in %s, or no input %s\n", argv[1],
            argv[2]);
    return 1;
  }
  /* k, d, n, d(d-1)/2, then alpha, mu, q, l and x, row-major. */
  int64_t h[4];
  if (fread(h, sizeof(int64_t), 4, f) != 4) {
    fprintf(stderr, "aot_driver: short input\n");
    return 1;
  }
  long k = h[0], d = h[1], n = h[2], ls = h[3];
  double *al = doubles(f, k), *mu = doubles(f, k * d), *q = doubles(f, k * d);
  double *l = doubles(f, k * ls), *x = doubles(f, n * d);
  double *dal = calloc(k, 8), *dmu = calloc(k * d, 8), *dq = calloc(k * d, 8);
  double *dl = calloc(k * ls + 1, 8);
  moonrt_memref_f64_1d A = moonrt_memref_f64_1d_from(al, k);
  moonrt_memref_f64_1d DA = moonrt_memref_f64_1d_from(dal, k);
  moonrt_memref_f64_2d MU = moonrt_memref_f64_2d_from(mu, k, d);
  moonrt_memref_f64_2d Q = moonrt_memref_f64_2d_from(q, k, d);
  moonrt_memref_f64_2d L = moonrt_memref_f64_2d_from(l, k, ls);
  moonrt_memref_f64_2d X = moonrt_memref_f64_2d_from(x, n, d);
  moonrt_memref_f64_2d DMU = moonrt_memref_f64_2d_from(dmu, k, d);
  moonrt_memref_f64_2d DQ = moonrt_memref_f64_2d_from(dq, k, d);
  moonrt_memref_f64_2d DL = moonrt_memref_f64_2d_from(dl, k, ls);
  /* As moonc does at start: freed tapes are reused, not returned. */
  moonrt_keep_freed_memory();
  int reps = atoi(argv[3]);
  if (reps < 1)
    reps = 1;
  double *tp = calloc(reps, sizeof(double)), *tg = calloc(reps, sizeof(double));
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    gmm(&A, &MU, &Q, &L, &X, 1.0, 0);
    double t1 = now();
    dg(&A, &MU, &Q, &L, &X, 1.0, 0, &DA, &DMU, &DQ, &DL);
    tp[r] = t1 - t0;
    tg[r] = now() - t1;
  }
  qsort(tp, reps, sizeof(double), by_value);
  qsort(tg, reps, sizeof(double), by_value);
  printf("primal %.1f us grad %.1f us ratio %.3f\n", tp[reps / 2] * 1e6,
         tg[reps / 2] * 1e6, tg[reps / 2] / tp[reps / 2]);
  return 0;
}
