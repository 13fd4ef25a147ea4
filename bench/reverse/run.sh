#!/usr/bin/env bash
# bench/reverse: value-and-gradient time over primal time (`ratio`, both
# measured by one `moonc bench` process) and the tape's peak bytes, for the
# reverse-mode targets, side by side with JAX (jit, CPU, x64) on the same
# inputs when build/bench-venv has it (`make bench-venv`). Writes
# bench/reverse/results.json and prints a table. Not a test.
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
x = [rng.uniform(-1, 1) for _ in range(1024)]
json.dump([x], open(f"{work}/x1024.json", "w"))
json.dump([x[:1000]], open(f"{work}/x1000.json", "w"))
json.dump([0.7], open(f"{work}/scalar.json", "w"))
PY
jax_specs=()
for spec in sum_cos_exp:x1024 sum_5x:x1024 while_sum:x1000 while_sum_sin:x1000 sin_loop:scalar; do
  entry=${spec%%:*} args=$work/${spec##*:}.json
  # Five processes: the speed of libmvec loops varies between processes.
  for _ in 1 2 3 4 5; do
    "$moonc" bench reverse.mlir --entry "$entry" --args "@$args" >>"$work/results.jsonl"
  done
  "$moonc" grad reverse.mlir --entry "$entry" --args "@$args" >"$work/$entry.grad.json"
  jax_specs+=("$entry:$args:$work/$entry.grad.json")
done

if "$python" -c 'import jax' 2>/dev/null; then
  "$python" jax_bench.py "${jax_specs[@]}" >"$work/jax.jsonl"
else
  touch "$work/jax.jsonl"
fi

python3 - "$work" "$python" <<'PY'
import json, os, platform, sys
work = sys.argv[1]
runs = {}
for r in map(json.loads, open(f"{work}/results.jsonl")):
    runs.setdefault(r["entry"], []).append(r)
# Per workload, the process with the median ratio (and the range).
rows = [sorted(rs, key=lambda r: r["ratio"])[len(rs) // 2] for rs in runs.values()]
spread = {e: (min(r["ratio"] for r in rs), max(r["ratio"] for r in rs)) for e, rs in runs.items()}
jax = {r["entry"]: r for r in map(json.loads, open(f"{work}/jax.jsonl"))}
targets = {"sum_cos_exp": 1.3, "sum_5x": 2.0, "while_sum": 1.2, "while_sum_sin": 2.0, "sin_loop": 3.0}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"bench/reverse on {cpu}, {os.cpu_count()} cores")
print(f"{'workload':<16}{'primal ns':>12}{'grad ns':>12}{'ratio':>8}{'range':>12}{'target':>8}{'tape bytes':>12}"
      + (f"{'jax primal ns':>15}{'jax grad ns':>13}{'jax ratio':>11}{'speed-up':>10}" if jax else ""))
for r in rows:
    t = targets[r["entry"]]
    mark = "" if r["ratio"] <= t else "  (missed)"
    lo, hi = spread[r["entry"]]
    line = (f"{r['entry']:<16}{r['primal_ns']:>12.0f}{r['grad_ns']:>12.0f}{r['ratio']:>8.2f}"
            f"{f'{lo:.2f}-{hi:.2f}':>12}{t:>8.2f}{r['tape_peak_bytes']:>12}")
    if j := jax.get(r["entry"]):
        speedup = j["grad_ns"] / r["grad_ns"]
        line += f"{j['primal_ns']:>15.0f}{j['grad_ns']:>13.0f}{j['ratio']:>11.2f}{speedup:>10.2f}"
        if r["entry"] == "sum_cos_exp" and speedup <= 1:
            mark += "  (not faster than JAX)"
    print(line + mark)
if jax:
    j = next(iter(jax.values()))
    print(f"jax {j['jax']}, jaxlib {j['jaxlib']} (jit, CPU, x64); speed-up = jax grad ns / grad ns")
    for j in jax.values():
        check = "agrees with" if j["agrees"] else f"MISMATCH (beyond rtol {j['rtol']:.0e}) with"
        print(f"  {j['entry']:<14} {j['form']}; {check} moonc grad: "
              f"value rel err {j['value_rel_err']:.1e}, gradient rel err {j['gradient_rel_err']:.1e}")
else:
    print(f"JAX skipped: {sys.argv[2]} cannot import jax (`make bench-venv` makes build/bench-venv with it)")
json.dump({"cpu": cpu, "cores": os.cpu_count(), "results": rows,
           "runs": [r for rs in runs.values() for r in rs], "jax": list(jax.values())},
          open("results.json", "w"), indent=1)
PY
