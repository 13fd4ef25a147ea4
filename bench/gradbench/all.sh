#!/usr/bin/env bash
# bench/gradbench/all.sh DIR LOGDIR: every GradBench eval at its default
# sizes against `moonc gradbench` (LOGDIR/moonc/EVAL.jsonl), then GradBench's
# JAX tool on the evals it implements (LOGDIR/jax/), one after the other on
# this machine; then table.py writes the comparison (LOGDIR/table.md). DIR
# is a GradBench work tree made by setup.sh. ht stops at hand 11: the
# snapshot setup.sh checks out lacks hand 12's data. MINRUNS and MINSEC as
# run.sh (defaults here 3 and 0.3). Not a test.
set -uo pipefail
dir=$1 logdir=$2
mkdir -p "$logdir"
here=$(cd "$(dirname "$0")" && pwd)
export MINRUNS=${MINRUNS:-3} MINSEC=${MINSEC:-0.3}
evals="ba det gmm ht kmeans llsq lse lstm ode particle saddle"
for eval in $evals; do
  args=()
  [ "$eval" = ht ] && args=(--max 11)
  echo "== moonc $eval"
  "$here/run.sh" "$dir" "$eval" "$logdir/moonc" "${args[@]}" 2>"$logdir/moonc-$eval.err" | tail -1
done
for eval in gmm kmeans llsq lse ode; do
  echo "== jax $eval"
  TOOL=jax "$here/run.sh" "$dir" "$eval" "$logdir/jax" 2>"$logdir/jax-$eval.err" | tail -1
done
{
  echo "moonc $(git -C "$here" rev-parse --short HEAD), GradBench $(git -C "$dir/gradbench" rev-parse --short HEAD)," \
    "$(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs), $(nproc) cores;" \
    "MINRUNS=$MINRUNS MINSEC=$MINSEC"
  echo
  "$dir/venv/bin/python" "$here/table.py" "$logdir"
} > "$logdir/table.md"
