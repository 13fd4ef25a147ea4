#!/usr/bin/env bash
# bench/cpu: moonc against the same loops in C (clang-22 -O3 -march=native,
# scalar libm), n = 1024 f64, in one run on one machine. Writes
# bench/cpu/results.json and prints a table. Not a test: timings are noisy;
# quote ratios from one run.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
moonc=${MOONC:-$root/target/release/moonc}
n=${N:-1024}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

clang-22 -O3 -march=native baseline.c -o "$work/baseline" -lm
python3 -c "import json; print(json.dumps([[i / $n for i in range($n)]]))" >"$work/args.json"

"$work/baseline" "$n" >"$work/c.jsonl"
for f in sum_cos_exp sum_5x; do
  "$moonc" bench "$f.mlir" --args "@$work/args.json" >>"$work/moonc.jsonl"
  MOONC_VECTOR_MATH=0 "$moonc" bench "$f.mlir" --args "@$work/args.json" >>"$work/scalar.jsonl"
done

python3 - "$work" "$n" <<'PY'
import json, platform, subprocess, sys
work, n = sys.argv[1], int(sys.argv[2])
c = {r["entry"]: r for r in map(json.loads, open(f"{work}/c.jsonl"))}
m = {r["entry"]: r for r in map(json.loads, open(f"{work}/moonc.jsonl"))}
s = {r["entry"]: r for r in map(json.loads, open(f"{work}/scalar.jsonl"))}
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
rows = []
print(f"n = {n}, {cpu}")
print(f"{'function':<14}{'moonc ns':>12}{'C ns':>12}{'C / moonc':>11}{'scalar-math ns':>16}{'compile ms':>12}")
for name in ("sum_cos_exp", "sum_5x"):
    speedup = c[name]["primal_ns"] / m[name]["primal_ns"]
    rows.append({"function": name, "moonc": m[name], "c": c[name], "c_over_moonc": round(speedup, 3),
                 "moonc_without_vector_math": s[name]})
    print(f"{name:<14}{m[name]['primal_ns']:>12.1f}{c[name]['primal_ns']:>12.1f}{speedup:>11.2f}"
          f"{s[name]['primal_ns']:>16.1f}{m[name]['compile_ms']:>12.1f}")
clang = subprocess.run(["clang-22", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
out = {"n": n, "machine": {"cpu": cpu, "cores": __import__("os").cpu_count(), "kernel": platform.release()},
       "c_compiler": clang + " -O3 -march=native", "results": rows}
json.dump(out, open("results.json", "w"), indent=2)
print("wrote bench/cpu/results.json")
PY
