#!/usr/bin/env bash
# bench/ndual: the workloads of the fused-elementwise issue, value and
# gradient over primal (`ratio`) by `moonc bench` (three processes each,
# the median-ratio one shown), side by side with JAX when build/bench-venv
# has it. Writes results.json and prints a table. Not a test.
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
import json, sys
work = sys.argv[1]
runs = {}
for r in map(json.loads, open(f"{work}/results.jsonl")):
    runs.setdefault(r["entry"], []).append(r)
jax = {r["entry"]: r for r in map(json.loads, open(f"{work}/jax.jsonl"))}
targets = {"broadcast_sin_cos_exp": 1.5, "map_sin_cos_exp": 1.5, "sum_sin_1000": 1.5, "lse": 2.0, "llsq": 1.5}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"bench/ndual on {cpu}; moonc's general reverse mode (the fused N-wide dual path does not exist yet)")
print(f"{'workload':<24}{'primal ns':>12}{'grad ns':>12}{'ratio':>8}{'range':>12}{'target':>8}{'tape bytes':>12}"
      + (f"{'jax grad ns':>13}{'jax ratio':>11}{'speed-up':>10}" if jax else ""))
rows = []
for entry, rs in runs.items():
    r = sorted(rs, key=lambda r: r["ratio"])[len(rs) // 2]
    lo, hi = min(x["ratio"] for x in rs), max(x["ratio"] for x in rs)
    line = (f"{entry:<24}{r['primal_ns']:>12.0f}{r['grad_ns']:>12.0f}{r['ratio']:>8.2f}"
            f"{f'{lo:.2f}-{hi:.2f}':>12}{targets[entry]:>8.2f}{r['tape_peak_bytes']:>12}")
    if entry in jax:
        j = jax[entry]
        line += f"{j['grad_ns']:>13.0f}{j['ratio']:>11.2f}{j['grad_ns'] / r['grad_ns']:>10.2f}"
    print(line + ("" if r["ratio"] <= targets[entry] else "  (missed)"))
    rows.append({"moonc": r, "range": [lo, hi], "target": targets[entry], "jax": jax.get(entry)})
if jax:
    worst = max(j["rel_err"] for j in jax.values())
    print(f"jax {next(iter(jax.values()))['jax']} (jit, CPU, x64); speed-up = jax grad ns / grad ns; "
          f"JAX's values and gradients agree with moonc grad to {worst:.1e}")
json.dump({"cpu": cpu, "rows": rows}, open("results.json", "w"), indent=2)
PY
