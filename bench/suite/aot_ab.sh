#!/usr/bin/env bash
# bench/suite/aot_ab.sh OLD_MOONC NEW_MOONC [RUNS] [CALLS]: GradBench's plain
# gmm (tools/moonc-gradbench/workloads/gmm.mlir) and its value and gradient,
# compiled ahead of time by each binary (`moonc compile --emit shared`) and
# timed from C (aot_driver.c) on GradBench's inputs at n = 1000 and
# (d, k) = (2, 100), (10, 25), (10, 100): RUNS processes per binary (5),
# old and new alternating, each the median of CALLS calls (300). One
# process per library avoids the JIT's compile and the suite's
# process-to-process spread, which hides changes of a few percent. Prints
# each run and, per size, the medians of the value and gradient and new ÷
# old. Needs `make bench-venv` and `make build` (libmoonrt.so). Not a test.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$(realpath "$1") new=$(realpath "$2") runs=${3:-5} calls=${4:-300}
python=build/bench-venv/bin/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sizes="2_100 10_25 10_100"
{
  cat tools/moonc-gradbench/workloads/gmm.mlir
  cat <<'MLIR'
func.func @dg(%alpha: memref<?xf64>, %mu: memref<?x?xf64>, %q: memref<?x?xf64>,
              %l: memref<?x?xf64>, %x: memref<?x?xf64>, %gamma: f64, %m: index,
              %da: memref<?xf64>, %dmu: memref<?x?xf64>, %dq: memref<?x?xf64>,
              %dl: memref<?x?xf64>) {
  moon.grad @gmm(%alpha, %mu, %q, %l, %x, %gamma, %m, %da, %dmu, %dq, %dl)
      args [dup, dup, dup, dup, const, const, const]
      : (memref<?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>,
         f64, index, memref<?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  return
}
MLIR
} > "$work/gmm.mlir"
"$python" - "$work" $sizes <<'PY'
import sys
import numpy as np
sys.path.insert(0, "bench/suite")
sys.path.insert(0, "bench/suite/workloads")
import gmm
work, sizes = sys.argv[1], sys.argv[2:]
for size in sizes:
    d, k = map(int, size.split("_"))
    inp = gmm.generate(d, k, 1000)
    with open(f"{work}/{size}.bin", "wb") as out:
        np.array([k, d, 1000, d * (d - 1) // 2], dtype=np.int64).tofile(out)
        for name in ("alpha", "mu", "q", "l", "x"):
            np.asarray(inp[name], dtype=np.float64).tofile(out)
PY
"$old" compile "$work/gmm.mlir" --emit shared -o "$work/old.so"
"$new" compile "$work/gmm.mlir" --emit shared -o "$work/new.so"
rt=target/release
cc -O2 -Iruntime/moonrt/include bench/suite/aot_driver.c -o "$work/driver" \
  -L"$rt" -lmoonrt -Wl,-rpath,"$(realpath "$rt")" -ldl -lm
for size in $sizes; do
  for run in $(seq "$runs"); do
    for which in old new; do
      echo "$size $which $("$work/driver" "$work/$which.so" "$work/$size.bin" "$calls")"
    done
  done
done | tee "$work/runs.txt"
"$python" - "$work/runs.txt" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    f = line.split()
    runs.setdefault((f[0], f[1]), []).append((float(f[3]), float(f[6])))
for size in dict.fromkeys(s for s, _ in runs):
    med = {w: [statistics.median(v[i] for v in runs[(size, w)]) for i in (0, 1)] for w in ("old", "new")}
    print(f"{size}: value+grad median {med['old'][1]:.0f} -> {med['new'][1]:.0f} us "
          f"({med['new'][1] / med['old'][1]:.3f}); objective {med['old'][0]:.0f} / {med['new'][0]:.0f} us")
PY
