#!/usr/bin/env bash
# bench/vmap: per-example gradients of a 10-parameter model over a batch of
# 4096 by moon.vmap of a per-example moon.value_and_grad, against the same
# computation written by hand as a loop over the batch, and JAX's
# jit(vmap(grad)) when build/bench-venv has JAX. Each moonc function runs
# in five `moonc bench --primal-only` processes, in turn; the table shows
# the medians. Writes results.json and prints a table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
python=${BENCH_PYTHON:-../../build/bench-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, random, sys
work = sys.argv[1]
rng = random.Random(4)
batch = 4096
p = [rng.uniform(-0.5, 0.5) for _ in range(10)]
xs = [[rng.uniform(-1, 1) for _ in range(9)] for _ in range(batch)]
ys = [rng.uniform(-1, 1) for _ in range(batch)]
json.dump([p, [[0.0] * 10 for _ in range(batch)], xs, ys], open(f"{work}/args.json", "w"))
PY
for _ in 1 2 3 4 5; do
  for entry in per_example_vmap per_example_loop; do
    "$moonc" bench vmap.mlir --entry "$entry" --args "@$work/args.json" --primal-only >>"$work/results.jsonl"
  done
done
# Both compute the same gradients (from zero buffers).
"$moonc" run vmap.mlir --entry per_example_vmap --args "@$work/args.json" >"$work/vmap.json"
"$moonc" run vmap.mlir --entry per_example_loop --args "@$work/args.json" >"$work/loop.json"
if "$python" -c 'import jax' 2>/dev/null; then
  "$python" jax_vmap.py "$work/args.json" "$work/vmap.json" >"$work/jax.json"
else
  echo '{}' >"$work/jax.json"
fi

python3 - "$work" <<'PY'
import json, statistics, sys
work = sys.argv[1]
runs = {}
for r in map(json.loads, open(f"{work}/results.jsonl")):
    runs.setdefault(r["entry"], []).append(r["primal_ns"])
vmap_ns = statistics.median(runs["per_example_vmap"])
loop_ns = statistics.median(runs["per_example_loop"])
same = json.load(open(f"{work}/vmap.json"))["args"][1] == json.load(open(f"{work}/loop.json"))["args"][1]
jax = json.load(open(f"{work}/jax.json"))
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"bench/vmap on {cpu}: per-example gradients, 10 parameters, batch 4096")
print(f"{'':<26}{'ns':>12}{'ns / example':>14}{'/ hand loop':>13}")
for name, ns in (("moonc vmap(grad)", vmap_ns), ("moonc hand-batched loop", loop_ns)) + (
        (("jax jit(vmap(grad))", jax["ns"]),) if jax else ()):
    print(f"{name:<26}{ns:>12.0f}{ns / 4096:>14.2f}{ns / loop_ns:>13.2f}")
print(f"medians of 5 processes each; vmap(grad) ranged {min(runs['per_example_vmap']):.0f}-"
      f"{max(runs['per_example_vmap']):.0f} ns, the loop {min(runs['per_example_loop']):.0f}-"
      f"{max(runs['per_example_loop']):.0f} ns; target: vmap(grad) within 1.5x of the loop")
print(f"the two compute {'the same' if same else 'DIFFERENT'} gradients"
      + (f"; JAX's agree to {jax['rel_err']:.1e}" if jax else "; jax: skipped (`make bench-venv`)"))
json.dump({"cpu": cpu, "runs_ns": runs, "vmap_ns": vmap_ns, "loop_ns": loop_ns,
           "ratio": round(vmap_ns / loop_ns, 3), "same_gradients": same, "jax": jax},
          open("results.json", "w"), indent=2)
PY
