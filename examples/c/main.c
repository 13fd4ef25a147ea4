/* Calls the kernels of saxpy.mlir through the header moonc writes. */

#include "saxpy.h"

#include <math.h>
#include <stdio.h>

enum { N = 8, ROWS = 3, COLS = 4 };

static int failures = 0;

/* Prints a result and checks it against the plain C value (1e-12 relative). */
static void check(const char *what, double got, double want) {
  double scale = fabs(want) > 1.0 ? fabs(want) : 1.0;
  int ok = fabs(got - want) <= 1e-12 * scale;
  printf("%s = %.17g%s\n", what, got, ok ? "" : "  MISMATCH");
  if (!ok) {
    fprintf(stderr, "%s: got %.17g, expected %.17g\n", what, got, want);
    ++failures;
  }
}

int main(void) {
  double x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 0.25 * i - 0.5;

  /* A scalar result from a dynamic vector. */
  moonrt_memref_f64_1d xm = moonrt_memref_f64_1d_from(x, N);
  double want = 0.0;
  for (int i = 0; i < N; ++i)
    want += cos(exp(x[i]));
  check("sum_cos_exp", sum_cos_exp(&xm), want);

  /* An f32 vector updated in place. */
  float a = 2.5f, xs[N], ys[N], ys_want[N];
  for (int i = 0; i < N; ++i) {
    xs[i] = 0.3f * (float)i;
    ys[i] = ys_want[i] = 1.0f / (float)(i + 1);
  }
  moonrt_memref_f32_1d xsm = moonrt_memref_f32_1d_from(xs, N);
  moonrt_memref_f32_1d ysm = moonrt_memref_f32_1d_from(ys, N);
  saxpy(a, &xsm, &ysm);
  for (int i = 0; i < N; ++i) {
    char what[32];
    ys_want[i] = a * xs[i] + ys_want[i];
    snprintf(what, sizeof what, "saxpy y[%d]", i);
    check(what, ys[i], ys_want[i]);
  }

  /* A row-major matrix as a 2-D memref. */
  double A[ROWS * COLS], v[COLS], y[ROWS];
  for (int i = 0; i < ROWS * COLS; ++i)
    A[i] = 1.0 / (i + 1);
  for (int j = 0; j < COLS; ++j)
    v[j] = j + 1.0;
  moonrt_memref_f64_2d Am = moonrt_memref_f64_2d_from(A, ROWS, COLS);
  moonrt_memref_f64_1d vm = moonrt_memref_f64_1d_from(v, COLS);
  moonrt_memref_f64_1d ym = moonrt_memref_f64_1d_from(y, ROWS);
  matvec(&Am, &vm, &ym);
  for (int i = 0; i < ROWS; ++i) {
    char what[32];
    double yi = 0.0;
    for (int j = 0; j < COLS; ++j)
      yi += A[i * COLS + j] * v[j];
    snprintf(what, sizeof what, "matvec y[%d]", i);
    check(what, y[i], yi);
  }

  /* Two results, returned through a struct. */
  mean_var_results stats;
  mean_var(&stats, &xm);
  double mean = 0.0, var = 0.0;
  for (int i = 0; i < N; ++i)
    mean += x[i];
  mean /= N;
  for (int i = 0; i < N; ++i)
    var += (x[i] - mean) * (x[i] - mean);
  var /= N;
  check("mean", stats.r0, mean);
  check("variance", stats.r1, var);

  if (failures) {
    fprintf(stderr, "%d mismatches\n", failures);
    return 1;
  }
  printf("all results match\n");
  return 0;
}
