// moonc --moon-reassociate-sums (docs/autodiff.md, "Reduction order"):
// GradBench's log-sum-exp with its in-order sum, the sum then vectorized.
// The value may differ in its last bits from the in-order one; the
// gradient is checked against finite differences.
//
// RUN: env MOONC_LOG=moonc_passes=debug moonc --moon-reassociate-sums grad %moonc_src/tools/moonc-gradbench/workloads/lse.mlir --entry lse --args '[[0.5, -1, 2, 0.25, 3, -2, 1, 0, 1.5]]' 2>&1 | FileCheck %s
// CHECK: carried sums reassociable {{.*}}marked{{.*}}1
// CHECK: "value": 3.66639
// RUN: moonc --moon-reassociate-sums check %moonc_src/tools/moonc-gradbench/workloads/lse.mlir --entry lse --args '[[0.5, -1, 2, 0.25, 3, -2, 1, 0, 1.5]]' | FileCheck %s --check-prefix=PASS
// PASS: check: PASS
