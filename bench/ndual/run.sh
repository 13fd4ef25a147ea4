#!/usr/bin/env bash
# bench/ndual: the workloads of the fused-elementwise issue, value and
# gradient over primal (`ratio`) by `moonc bench` (three processes each, on
# the default path, on the general path alone (--moon-ndual-max-width=0) and
# with --parallel, the median-ratio one shown), side by side with JAX when
# build/bench-venv has it. Writes results.json and prints a table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
python=${BENCH_PYTHON:-../../build/bench-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
rng = random.Random(1)
json.dump([[[rng.uniform(-1, 1) for _ in range(10)] for _ in range(10)]], open(f"{work}/m10.json", "w"))
json.dump([[rng.uniform(-1, 1) for _ in range(1000)]], open(f"{work}/x1000.json", "w"))
json.dump([[rng.gauss(0, 1) for _ in range(1_000_000)]], open(f"{work}/x1m.json", "w"))
json.dump([[rng.uniform(-1, 1) for _ in range(128)], 4096], open(f"{work}/llsq.json", "w"))
PY
specs=()
for spec in broadcast_sin_cos_exp:m10 map_sin_cos_exp:m10 sum_sin_1000:x1000 lse:x1m llsq:llsq; do
  entry=${spec%%:*} args=$work/${spec##*:}.json
  for _ in 1 2 3; do
    "$moonc" bench ndual.mlir --entry "$entry" --args "@$args" >>"$work/results.jsonl"
    "$moonc" bench ndual.mlir --entry "$entry" --args "@$args" --moon-ndual-max-width 0 >>"$work/fallback.jsonl"
    "$moonc" --parallel bench ndual.mlir --entry "$entry" --args "@$args" >>"$work/parallel.jsonl"
  done
  "$moonc" grad ndual.mlir --entry "$entry" --args "@$args" >"$work/$entry.grad.json"
  specs+=("$entry:$args:$work/$entry.grad.json")
done
if "$python" -c 'import jax' 2>/dev/null; then
  "$python" jax_ndual.py "${specs[@]}" >"$work/jax.jsonl"
else
  touch "$work/jax.jsonl"
fi

python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]

def median_runs(path):
    runs = {}
    for r in map(json.loads, open(path)):
        runs.setdefault(r["entry"], []).append(r)
    return {e: (sorted(rs, key=lambda r: r["ratio"])[len(rs) // 2],
                min(x["ratio"] for x in rs), max(x["ratio"] for x in rs)) for e, rs in runs.items()}

fused, fallback = median_runs(f"{work}/results.jsonl"), median_runs(f"{work}/fallback.jsonl")
parallel = median_runs(f"{work}/parallel.jsonl")
jax = {r["entry"]: r for r in map(json.loads, open(f"{work}/jax.jsonl"))}
targets = {"broadcast_sin_cos_exp": 1.5, "map_sin_cos_exp": 1.5, "sum_sin_1000": 1.5, "lse": 2.0, "llsq": 1.5}
# The path each workload's loops take by default (test/Passes/autodiff/ndual
# shows the same loop shapes with --moon-remarks).
paths = {"broadcast_sin_cos_exp": "general (nested loops)",
         "map_sin_cos_exp": "fused map N=1 + fused sum",
         "sum_sin_1000": "fused in the loop, N=1",
         "lse": "selection + fused N=2",
         "llsq": "general (nested loop, N=128)"}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"bench/ndual on {cpu}: default (fused where it qualifies) vs --moon-ndual-max-width=0 (general path)")
print(f"{'workload':<23}{'primal ns':>11}{'grad ns':>10}{'ratio':>7}{'range':>11}{'target':>7}"
      f"{'fallback ns':>12}{'ratio':>7}{'tape B':>10}"
      + (f"{'jax grad ns':>12}{'speed-up':>9}" if jax else "")
      + f"{'par primal':>11}{'par grad':>10}{'ratio':>7}" + (f"{'speed-up':>9}" if jax else "") + "  path")
rows = []
for entry in targets:
    r, lo, hi = fused[entry]
    f = fallback[entry][0]
    line = (f"{entry:<23}{r['primal_ns']:>11.0f}{r['grad_ns']:>10.0f}{r['ratio']:>7.2f}"
            f"{f'{lo:.2f}-{hi:.2f}':>11}{targets[entry]:>7.2f}{f['grad_ns']:>12.0f}{f['ratio']:>7.2f}"
            f"{r['tape_peak_bytes']:>10}")
    if entry in jax:
        line += f"{jax[entry]['grad_ns']:>12.0f}{jax[entry]['grad_ns'] / r['grad_ns']:>9.2f}"
    p = parallel[entry][0]
    line += f"{p['primal_ns']:>11.0f}{p['grad_ns']:>10.0f}{p['ratio']:>7.2f}"
    if entry in jax:
        line += f"{jax[entry]['grad_ns'] / p['grad_ns']:>9.2f}"
    print(line + f"  {paths[entry]}" + ("" if r["ratio"] <= targets[entry] else "  (missed)"))
    rows.append({"moonc": r, "range": [lo, hi], "fallback": f, "parallel": p,
                 "target": targets[entry], "path": paths[entry], "jax": jax.get(entry)})
if jax:
    worst = max(j["rel_err"] for j in jax.values())
    print(f"jax {next(iter(jax.values()))['jax']} (jit, CPU, x64; its grad and ratio in results.json); "
          f"speed-up = jax grad ns / grad ns; JAX agrees with moonc grad to {worst:.1e}")
print("par: moonc --parallel (loops of at least 32768 iterations on all "
      f"{os.cpu_count()} cores, as JAX uses them)")
json.dump({"cpu": cpu, "rows": rows}, open("results.json", "w"), indent=2)
PY
