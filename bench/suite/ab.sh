#!/usr/bin/env bash
# bench/suite/ab.sh OLD_MOONC NEW_MOONC [REPS]: the suite's moonc rows for
# two moonc binaries, workload by workload, the two alternating (old, new,
# old, new, ...) so that the machine's drift hits both alike; JAX is left
# out. Prints, per workload and repetition, the primal and value+gradient
# medians of each and new ÷ old. Build the old binary from another commit
# with `git worktree add /tmp/old REV && (cd /tmp/old &&
# CARGO_TARGET_DIR=/tmp/oldtarget cargo build --release -p moonc)`. Needs
# `make bench-venv`. AB_WORKLOADS="a b" limits it to those workloads. Not a
# test.
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$(realpath "$1") new=$(realpath "$2") reps=${3:-2}
python=build/bench-venv/bin/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
workloads=${AB_WORKLOADS:-$("$python" -c 'import json; print(" ".join(r["name"] for r in json.load(open("bench/results/results.json"))["rows"]))')}
for rep in $(seq "$reps"); do
  for w in $workloads; do
    for which in old new; do
      bin=$old; [ "$which" = new ] && bin=$new
      MOONC=$bin "$python" bench/suite/run.py --only "$w" --no-jax --no-readme --out "$work/$which" > /dev/null 2>&1 || true
      cp "$work/$which/results.json" "$work/$which-$w.json" 2>/dev/null || true
    done
    "$python" - "$work" "$w" "$rep" <<'PY'
import json, sys
work, w, rep = sys.argv[1:]
try:
    o, n = (json.load(open(f"{work}/{k}-{w}.json"))["rows"][0]["moonc"] for k in ("old", "new"))
except (OSError, KeyError, IndexError):
    print(f"{w:24s} rep {rep}: failed"); sys.exit()
cells = [f"{k[:-3]} {o[k]/1e3:.1f} -> {n[k]/1e3:.1f} us ({n[k]/o[k]:.2f})" for k in ("primal_ns", "grad_ns") if k in o and k in n]
print(f"{w:24s} rep {rep}: " + "; ".join(cells), flush=True)
PY
  done
done
