#!/usr/bin/env bash
# bench/forward: the cost of forward mode relative to the primal, in one
# run on one machine: a JVP (width 1) and eight JVPs at once (width 8) of
# sum(cos(exp(x))) at n = 1024, and the JVP of a 500-step scalar sin loop.
# Writes bench/forward/results.json and prints a table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
x = [i / 1024 for i in range(1024)]
e = [[1.0 if i % 8 == k else 0.0 for i in range(1024)] for k in range(8)]
json.dump([x], open(f"{work}/sum_cos_exp.json", "w"))
json.dump([x, [1.0] * 1024], open(f"{work}/sum_cos_exp_jvp.json", "w"))
json.dump([x, e, [0.0] * 8], open(f"{work}/sum_cos_exp_jvp8.json", "w"))
json.dump([0.5, 1.5], open(f"{work}/sin_loop.json", "w"))
json.dump([0.5, 1.5, 1.0, 1.0], open(f"{work}/sin_loop_jvp.json", "w"))
PY
for f in sum_cos_exp sum_cos_exp_jvp sum_cos_exp_jvp8 sin_loop sin_loop_jvp; do
  # Primal timings only: the JVP functions are timed as functions.
  "$moonc" bench forward.mlir --entry "$f" --args "@$work/$f.json" --primal-only >>"$work/results.jsonl"
done

python3 - "$work" <<'PY'
import json, os, platform, sys
work = sys.argv[1]
r = {x["entry"]: x for x in map(json.loads, open(f"{work}/results.jsonl"))}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
rows = []
print(cpu)
print(f"{'derivative':<18}{'primal':<14}{'ns':>10}{'primal ns':>12}{'ratio':>8}{'per direction':>15}")
for name, primal, directions in (("sum_cos_exp_jvp", "sum_cos_exp", 1),
                                 ("sum_cos_exp_jvp8", "sum_cos_exp", 8),
                                 ("sin_loop_jvp", "sin_loop", 1)):
    ratio = r[name]["primal_ns"] / r[primal]["primal_ns"]
    rows.append({"derivative": name, "primal": primal, "directions": directions,
                 "derivative_ns": r[name]["primal_ns"], "primal_ns": r[primal]["primal_ns"],
                 "ratio": round(ratio, 3), "ratio_per_direction": round(ratio / directions, 3)})
    print(f"{name:<18}{primal:<14}{r[name]['primal_ns']:>10.1f}{r[primal]['primal_ns']:>12.1f}"
          f"{ratio:>8.2f}{ratio / directions:>15.2f}")
out = {"machine": {"cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release()},
       "command": "make bench (bench/forward/run.sh)", "results": rows, "raw": list(r.values())}
json.dump(out, open("results.json", "w"), indent=2)
print("wrote bench/forward/results.json")
PY
