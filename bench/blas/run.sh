#!/usr/bin/env bash
# bench/blas: value-and-gradient time over primal time (`ratio`) of the
# BLAS issue's workloads, by `moonc bench` (three processes each, the
# median-ratio one shown, with the range), and the share of each time spent
# inside moonrt's BLAS and LAPACK routines: the MLP loss (mlp.mlir) with
# every argument differentiated and with the weights only (--wrt 0,2), and
# the Gaussian-process log marginal likelihood (gp.mlir, n = 500). Writes
# results.json and prints a table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, math, random, sys
work = sys.argv[1]
rng = random.Random(1)
def gaussian(rows, cols, scale=1.0):
    return [[rng.gauss(0, scale) for _ in range(cols)] for _ in range(rows)]
# MLP: W1 h x d, X d x b, W2 o x h, Y o x b with h = b = 128, d = o = 256:
# every matrix 128 x 256 or 256 x 128.
h, d, b, o = 128, 256, 128, 256
json.dump([gaussian(h, d, 1 / math.sqrt(d)), gaussian(d, b), gaussian(o, h, 1 / math.sqrt(h)),
           gaussian(o, b)], open(f"{work}/mlp.json", "w"))
# GP: K = exp(-|p_i - p_j|^2 / 2) + 0.1 I over 500 points uniform in
# [0, 10]^2, y standard normal.
n = 500
points = [(rng.uniform(0, 10), rng.uniform(0, 10)) for _ in range(n)]
kernel = [[math.exp(-0.5 * ((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)) + (0.1 if i == j else 0.0)
           for j, q in enumerate(points)] for i, p in enumerate(points)]
json.dump([kernel, [[rng.gauss(0, 1)] for _ in range(n)]], open(f"{work}/gp.json", "w"))
PY

# workload:file:entry:args[:--wrt list]
for spec in mlp:mlp.mlir:mlp:mlp mlp_weights:mlp.mlir:mlp:mlp:0,2 gp:gp.mlir:gp:gp; do
  IFS=: read -r name file entry args wrt <<<"$spec"
  flags=(--entry "$entry" --args "@$work/$args.json")
  if [ -n "$wrt" ]; then flags+=(--wrt "$wrt"); fi
  # Three processes: OpenBLAS's speed varies between them.
  for _ in 1 2 3; do
    if "$moonc" bench "$file" "${flags[@]}" >"$work/out.json" 2>"$work/err.txt"; then
      python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r["workload"] = sys.argv[2]; r["wrt"] = sys.argv[3]; print(json.dumps(r))' \
        "$work/out.json" "$name" "$wrt" >>"$work/results.jsonl"
    else
      python3 -c 'import json, sys; print(json.dumps({"workload": sys.argv[2], "wrt": sys.argv[3], "error": open(sys.argv[1]).read().strip()}))' \
        "$work/err.txt" "$name" "$wrt" >>"$work/results.jsonl"
    fi
  done
done

python3 - "$work" <<'PY'
import json, os, platform, sys
work = sys.argv[1]
runs = {}
for r in map(json.loads, open(f"{work}/results.jsonl")):
    runs.setdefault(r["workload"], []).append(r)
targets = {"mlp": 3.0, "mlp_weights": 3.0, "gp": 4.0}
what = {"mlp": "MLP loss, all 4 arguments", "mlp_weights": "MLP loss, --wrt 0,2 (W1, W2)",
        "gp": "GP log likelihood, n = 500"}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"bench/blas on {cpu}, {os.cpu_count()} cores; times per call, median-ratio process of 3")
print(f"{'workload':<13}{'primal us':>11}{'grad us':>10}{'ratio':>8}{'range':>12}{'target':>8}"
      f"{'BLAS primal':>13}{'BLAS grad':>11}  what")
rows = []
for name, rs in runs.items():
    good = [r for r in rs if "error" not in r]
    if not good:
        first = rs[0]["error"].splitlines()[0]
        print(f"{name:<13}{'failed':>11}  {first}")
        rows.append(rs[0])
        continue
    r = sorted(good, key=lambda r: r["ratio"])[len(good) // 2]
    rows.append(r)
    lo, hi = min(x["ratio"] for x in good), max(x["ratio"] for x in good)
    share = lambda key, total: f"{100 * r[key] / r[total]:.0f}%" if key in r else "-"
    t = targets[name]
    mark = "" if r["ratio"] <= t else "  (missed)"
    print(f"{name:<13}{r['primal_ns'] / 1e3:>11.1f}{r['grad_ns'] / 1e3:>10.1f}{r['ratio']:>8.2f}"
          f"{f'{lo:.2f}-{hi:.2f}':>12}{t:>8.2f}{share('primal_blas_ns', 'primal_ns'):>13}"
          f"{share('grad_blas_ns', 'grad_ns'):>11}  {what[name]}{mark}")
json.dump({"cpu": cpu, "cores": os.cpu_count(), "results": rows,
           "runs": [r for rs in runs.values() for r in rs]},
          open("results.json", "w"), indent=1)
PY
