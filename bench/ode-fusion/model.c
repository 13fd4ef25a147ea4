// bench/ode-fusion/model.c: what fusing the reverse sweep of one RK4 step
// of GradBench's ode (written plainly, as tools/moonc-gradbench/workloads/
// ode.mlir) would buy, modelled in C. Not moonc's output: the loops are
// written by hand the way moonc's reverse mode lays them out, so that the
// three forms of the reverse sweep can be timed side by side.
//
// - primal_step: the step as written (8 loops: 4 right-hand sides, 3 axpys,
//   the update), moonc's primal;
// - taped_step: the same, storing the value each right-hand side reads at
//   i - 1 into a tape (what the recomputation in a checkpointed segment
//   does);
// - reverse_separate: the reverse as moonc emits it today, one loop per
//   primal loop, the stage adjoints in memory, zeroed after use;
// - reverse_carried: one descending loop, the stage adjoints in registers
//   and the contributions to element i - 1 carried to the next iteration;
//   LLVM does not vectorize it (chained recurrences);
// - reverse_recomputed: one loop whose iterations are independent: the
//   stage adjoints at i are recomputed from the state adjoint and x at
//   i..i+4, and the new state adjoint goes to another buffer. It vectorizes.
//
// The ratio model is (primal + taped recomputation + reverse) / primal per
// step, what a checkpointed gradient costs (the forward sweep is the
// primal). Build and run: bench/ode-fusion/run.sh.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 10000 /* elements */
#define S 17    /* steps per segment (moonc's default schedule at n = 10^4) */
#define PAD 8   /* zeros past N, read by reverse_recomputed */

static double x[N + PAD], y[N], k1[N], k2[N], k3[N], k4[N], yt[N];
static double tape[S][4][N];
static double yb[N], xb[N], k1b[N], k2b[N], k3b[N], k4b[N], ytb[N];
static const double h = 0.02;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

__attribute__((noinline)) static void primal_step(void) {
  k1[0] = x[0];
  for (int i = 1; i < N; i++) k1[i] = x[i] * y[i - 1];
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k1[i] / 2;
  k2[0] = x[0];
  for (int i = 1; i < N; i++) k2[i] = x[i] * yt[i - 1];
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k2[i] / 2;
  k3[0] = x[0];
  for (int i = 1; i < N; i++) k3[i] = x[i] * yt[i - 1];
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k3[i];
  k4[0] = x[0];
  for (int i = 1; i < N; i++) k4[i] = x[i] * yt[i - 1];
  for (int i = 0; i < N; i++) y[i] = y[i] + h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
}

__attribute__((noinline)) static void taped_step(double (*t)[N]) {
  k1[0] = x[0];
  for (int i = 1; i < N; i++) { double v = y[i - 1]; k1[i] = x[i] * v; t[0][i - 1] = v; }
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k1[i] / 2;
  k2[0] = x[0];
  for (int i = 1; i < N; i++) { double v = yt[i - 1]; k2[i] = x[i] * v; t[1][i - 1] = v; }
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k2[i] / 2;
  k3[0] = x[0];
  for (int i = 1; i < N; i++) { double v = yt[i - 1]; k3[i] = x[i] * v; t[2][i - 1] = v; }
  for (int i = 0; i < N; i++) yt[i] = y[i] + h * k3[i];
  k4[0] = x[0];
  for (int i = 1; i < N; i++) { double v = yt[i - 1]; k4[i] = x[i] * v; t[3][i - 1] = v; }
  for (int i = 0; i < N; i++) y[i] = y[i] + h * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) / 6;
}

__attribute__((noinline)) static void reverse_separate(double (*t)[N]) {
  for (int i = N - 1; i >= 0; i--) {
    double b = yb[i] * h / 6;
    k1b[i] += b; k2b[i] += 2 * b; k3b[i] += 2 * b; k4b[i] += b;
  }
  for (int i = N - 1; i >= 1; i--) { double b = k4b[i]; k4b[i] = 0; xb[i] += b * t[3][i - 1]; ytb[i - 1] += x[i] * b; }
  xb[0] += k4b[0]; k4b[0] = 0;
  for (int i = N - 1; i >= 0; i--) { double b = ytb[i]; ytb[i] = 0; k3b[i] += h * b; yb[i] += b; }
  for (int i = N - 1; i >= 1; i--) { double b = k3b[i]; k3b[i] = 0; xb[i] += b * t[2][i - 1]; ytb[i - 1] += x[i] * b; }
  xb[0] += k3b[0]; k3b[0] = 0;
  for (int i = N - 1; i >= 0; i--) { double b = ytb[i]; ytb[i] = 0; k2b[i] += h / 2 * b; yb[i] += b; }
  for (int i = N - 1; i >= 1; i--) { double b = k2b[i]; k2b[i] = 0; xb[i] += b * t[1][i - 1]; ytb[i - 1] += x[i] * b; }
  xb[0] += k2b[0]; k2b[0] = 0;
  for (int i = N - 1; i >= 0; i--) { double b = ytb[i]; ytb[i] = 0; k1b[i] += h / 2 * b; yb[i] += b; }
  for (int i = N - 1; i >= 1; i--) { double b = k1b[i]; k1b[i] = 0; xb[i] += b * t[0][i - 1]; yb[i - 1] += x[i] * b; }
  xb[0] += k1b[0]; k1b[0] = 0;
}

__attribute__((noinline)) static void reverse_carried(double (*t)[N]) {
  double c4 = 0, c3 = 0, c2 = 0, c1 = 0; /* x[i+1] * kjb[i+1] */
  for (int i = N - 1; i >= 0; i--) {
    double ybn = yb[i], b = ybn * h / 6;
    double kb4 = b, kb3 = 2 * b + h * c4, kb2 = 2 * b + h / 2 * c3, kb1 = b + h / 2 * c2;
    yb[i] = ybn + c4 + c3 + c2 + c1;
    if (i >= 1) xb[i] += kb4 * t[3][i - 1] + kb3 * t[2][i - 1] + kb2 * t[1][i - 1] + kb1 * t[0][i - 1];
    else xb[0] += kb4 + kb3 + kb2 + kb1;
    c4 = x[i] * kb4; c3 = x[i] * kb3; c2 = x[i] * kb2; c1 = x[i] * kb1;
  }
}

__attribute__((noinline)) static void reverse_recomputed(const double *restrict ybn, double *restrict out,
                                                         double (*t)[N]) {
  for (int i = 0; i < N; i++) {
    double b0 = ybn[i] * h / 6, b1 = ybn[i + 1] * h / 6, b2 = ybn[i + 2] * h / 6;
    double b3 = ybn[i + 3] * h / 6, b4 = ybn[i + 4] * h / 6;
    double x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3], x4 = x[i + 4];
    /* tj(k): the adjoint reaching stage j's input at element k, x[k+1] * kjb(k+1) */
    double t4_0 = x1 * b1, t4_1 = x2 * b2, t4_2 = x3 * b3, t4_3 = x4 * b4;
    double kb3_0 = 2 * b0 + h * t4_0, kb3_1 = 2 * b1 + h * t4_1, kb3_2 = 2 * b2 + h * t4_2, kb3_3 = 2 * b3 + h * t4_3;
    double t3_0 = x1 * kb3_1, t3_1 = x2 * kb3_2, t3_2 = x3 * kb3_3;
    double kb2_0 = 2 * b0 + h / 2 * t3_0, kb2_1 = 2 * b1 + h / 2 * t3_1, kb2_2 = 2 * b2 + h / 2 * t3_2;
    double t2_0 = x1 * kb2_1, t2_1 = x2 * kb2_2;
    double kb1_0 = b0 + h / 2 * t2_0, kb1_1 = b1 + h / 2 * t2_1;
    double t1_0 = x1 * kb1_1;
    out[i] = ybn[i] + t4_0 + t3_0 + t2_0 + t1_0;
    double p4 = i ? t[3][i - 1] : 1, p3 = i ? t[2][i - 1] : 1, p2 = i ? t[1][i - 1] : 1, p1 = i ? t[0][i - 1] : 1;
    xb[i] += b0 * p4 + kb3_0 * p3 + kb2_0 * p2 + kb1_0 * p1;
  }
}

static double max_difference(const double *a, const double *b) {
  double e = 0;
  for (int i = 0; i < N; i++) {
    double d = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
    if (d > e) e = d;
  }
  return e;
}

int main(void) {
  static double seed[N], y_ref[N], x_ref[N], in[N + PAD], out[N + PAD];
  srand(1);
  for (int i = 0; i < N; i++) { x[i] = rand() / (double)RAND_MAX; y[i] = 0.1 * i / N; seed[i] = rand() / (double)RAND_MAX; }
  for (int s = 0; s < S; s++) taped_step(tape[s]);

  /* The three reverse forms agree on one step. */
  memcpy(yb, seed, sizeof seed); memset(xb, 0, sizeof xb); reverse_separate(tape[0]);
  memcpy(y_ref, yb, sizeof yb); memcpy(x_ref, xb, sizeof xb);
  memcpy(yb, seed, sizeof seed); memset(xb, 0, sizeof xb); reverse_carried(tape[0]);
  double e1 = max_difference(yb, y_ref), e2 = max_difference(xb, x_ref);
  memcpy(in, seed, sizeof seed); memset(xb, 0, sizeof xb); reverse_recomputed(in, out, tape[0]);
  double e3 = max_difference(out, y_ref), e4 = max_difference(xb, x_ref);
  printf("max difference from reverse_separate: carried %.2g %.2g, recomputed %.2g %.2g\n", e1, e2, e3, e4);
  if (e1 > 1e-12 || e2 > 1e-12 || e3 > 1e-12 || e4 > 1e-12) return 1;

  enum { PRIMAL, TAPED, SEPARATE, CARRIED, RECOMPUTED, KINDS };
  const char *names[KINDS] = {"primal", "taped", "reverse_separate", "reverse_carried", "reverse_recomputed"};
  double best[KINDS];
  for (int k = 0; k < KINDS; k++) best[k] = 1e9;
  for (int r = 0; r < 30; r++) {
    double t[KINDS + 1];
    t[0] = now();
    for (int s = 0; s < S; s++) primal_step();
    t[1] = now();
    for (int s = 0; s < S; s++) taped_step(tape[s]);
    t[2] = now();
    for (int s = S - 1; s >= 0; s--) reverse_separate(tape[s]);
    t[3] = now();
    for (int s = S - 1; s >= 0; s--) reverse_carried(tape[s]);
    t[4] = now();
    for (int s = S - 1; s >= 0; s--) {
      if (s & 1) reverse_recomputed(in, out, tape[s]);
      else reverse_recomputed(out, in, tape[s]);
    }
    t[5] = now();
    for (int k = 0; k < KINDS; k++)
      if (t[k + 1] - t[k] < best[k]) best[k] = t[k + 1] - t[k];
  }
  for (int k = 0; k < KINDS; k++) printf("%-20s %6.1f us per step\n", names[k], best[k] / S * 1e6);
  for (int k = SEPARATE; k < KINDS; k++)
    printf("ratio model with %-20s %.2f\n", names[k], (best[PRIMAL] + best[TAPED] + best[k]) / best[PRIMAL]);
  return 0;
}
