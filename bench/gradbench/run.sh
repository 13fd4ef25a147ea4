#!/usr/bin/env bash
# bench/gradbench/run.sh DIR EVAL LOGDIR [EVAL ARGS...]: runs GradBench's
# EVAL (lse, llsq, gmm, ode, lstm or ba) from DIR (made by setup.sh)
# against `moonc gradbench` through forward.py, logging the conversation
# to LOGDIR/EVAL.jsonl; summarize.py reads it. MINRUNS (5), MINSEC (0.5)
# and MOONC (target/release/moonc) may be set. Not a test.
set -euo pipefail
dir=$(cd "$1" && pwd) eval=$2 logdir=$3
shift 3
main=$(cd "$(dirname "$0")/../.." && pwd)
moonc=$(realpath "${MOONC:-$main/target/release/moonc}")
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
export GB_ROOT=$dir/gradbench
cd "$main"
exec "$dir/venv/bin/python" bench/gradbench/forward.py "$logdir/$eval.jsonl" -- \
  "$dir/venv/bin/python" "$GB_ROOT/python/gradbench/gradbench/evals/$eval/run.py" \
  --min-runs "${MINRUNS:-5}" --min-seconds "${MINSEC:-0.5}" "$@" -- "$moonc" gradbench
