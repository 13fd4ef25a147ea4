#!/usr/bin/env bash
# bench/gradbench/run.sh DIR EVAL LOGDIR [EVAL ARGS...]: runs GradBench's
# EVAL from DIR (made by setup.sh) against `moonc gradbench` through
# forward.py, logging the conversation to LOGDIR/EVAL.jsonl; summarize.py
# reads it. TOOL=jax runs GradBench's own JAX tool instead (it implements
# gmm, kmeans, llsq, lse and ode; jax from `make bench-venv`, pinned to one
# core as GradBench runs it), each timed call waited for (jax_blocking.py).
# MINRUNS (5), MINSEC (0.5), MOONC (target/release/moonc) and BENCH_VENV
# (build/bench-venv) may be set. Not a test.
set -euo pipefail
dir=$(cd "$1" && pwd) eval=$2 logdir=$3
shift 3
main=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
export GB_ROOT=$dir/gradbench
case ${TOOL:-moonc} in
  moonc) tool=("$(realpath "${MOONC:-$main/target/release/moonc}")" gradbench) ;;
  jax) tool=(env "PYTHONPATH=$GB_ROOT/python/gradbench" "${BENCH_VENV:-$main/build/bench-venv}/bin/python"
    "$main/bench/gradbench/jax_blocking.py") ;;
  *) echo "run.sh: TOOL must be moonc or jax" >&2; exit 2 ;;
esac
cd "$main"
exec "$dir/venv/bin/python" bench/gradbench/forward.py "$logdir/$eval.jsonl" -- \
  "$dir/venv/bin/python" "$GB_ROOT/python/gradbench/gradbench/evals/$eval/run.py" \
  --min-runs "${MINRUNS:-5}" --min-seconds "${MINSEC:-0.5}" "$@" -- "${tool[@]}"
