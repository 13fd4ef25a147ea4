#!/usr/bin/env bash
# bench/reverse: value-and-gradient time over primal time (`ratio`, both
# measured by one `moonc bench` process) and the tape's peak bytes, for the
# reverse-mode targets. Writes bench/reverse/results.json and prints a
# table. Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
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
for spec in sum_cos_exp:x1024 sum_5x:x1024 while_sum:x1000 while_sum_sin:x1000 sin_loop:scalar; do
  "$moonc" bench reverse.mlir --entry "${spec%%:*}" --args "@$work/${spec##*:}.json" >>"$work/results.jsonl"
done

python3 - "$work" <<'PY'
import json, os, platform, sys
work = sys.argv[1]
rows = [json.loads(l) for l in open(f"{work}/results.jsonl")]
targets = {"sum_cos_exp": 1.3, "sum_5x": 2.0, "while_sum": 1.2, "while_sum_sin": 2.0, "sin_loop": 3.0}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
print(f"bench/reverse on {cpu}, {os.cpu_count()} cores")
print(f"{'workload':<16}{'primal ns':>12}{'grad ns':>12}{'ratio':>8}{'target':>8}{'tape bytes':>12}")
for r in rows:
    t = targets[r["entry"]]
    mark = "" if r["ratio"] <= t else "  (missed)"
    print(f"{r['entry']:<16}{r['primal_ns']:>12.0f}{r['grad_ns']:>12.0f}{r['ratio']:>8.2f}{t:>8.2f}{r['tape_peak_bytes']:>12}{mark}")
json.dump({"cpu": cpu, "cores": os.cpu_count(), "results": rows}, open("results.json", "w"), indent=1)
PY
