/* The C baseline of bench/cpu: the same loops as sum_cos_exp.mlir and
 * sum_5x.mlir, compiled with clang-22 -O3 -march=native (no -ffast-math, so
 * the sums stay in order, as in the MLIR), timed like `moonc bench`:
 * warm-up, then samples of about 1 ms, median and minimum per call.
 * Usage: baseline N  -> one JSON line per function. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__attribute__((noinline)) double sum_cos_exp(const double *x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; ++i)
    s += cos(exp(x[i]));
  return s;
}

__attribute__((noinline)) double sum_5x(const double *x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; ++i)
    s += 5.0 * x[i];
  return s;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static volatile double sink;

/* Hides from the compiler that `x` is unchanged between calls, so that a
 * call cannot be hoisted out of the timing loop. */
static inline void opaque(const double *x) { __asm__ volatile("" : : "r"(x) : "memory"); }

static void bench(const char *name, double (*f)(const double *, long),
                  const double *x, long n) {
  double start = now_ns();
  long warm = 0;
  while (warm < 10 || now_ns() - start < 50e6) {
    opaque(x);
    sink = f(x, n);
    ++warm;
  }
  double per_call = (now_ns() - start) / warm;
  long calls = (long)ceil(1e6 / per_call);
  if (calls < 1)
    calls = 1;
  enum { kMaxSamples = 100000 };
  static double samples[kMaxSamples];
  long count = 0;
  double begin = now_ns();
  while (count < 11 || (now_ns() - begin < 500e6 && count < kMaxSamples)) {
    double t0 = now_ns();
    for (long c = 0; c < calls; ++c) {
      opaque(x);
      sink = f(x, n);
    }
    samples[count++] = (now_ns() - t0) / calls;
  }
  qsort(samples, count, sizeof(double), compare);
  printf("{\"entry\": \"%s\", \"primal_ns\": %.3f, \"primal_min_ns\": %.3f, "
         "\"value\": %.17g}\n",
         name, samples[count / 2], samples[0], f(x, n));
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1024;
  double *x = malloc(n * sizeof(double));
  for (long i = 0; i < n; ++i)
    x[i] = (double)i / n; /* the same inputs as run.sh gives moonc */
  bench("sum_cos_exp", sum_cos_exp, x, n);
  bench("sum_5x", sum_5x, x, n);
  free(x);
  return 0;
}
