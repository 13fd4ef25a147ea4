#!/usr/bin/env bash
# bench/compile-time: how long moonc takes on programs that once made its
# compile time grow with the square of their size (issue 30; docs/driver.md,
# "Compile time"): deep nesting, many arguments, big modules. Each line is
# one run's wall time in seconds. Not a test: timings are noisy.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
bin=${BIN:-$root/target/release}
inputs=$root/test/Tools/moonc/Inputs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "# $(date -u +%F), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, at $(git rev-parse --short HEAD)"

# Prints "label: S s" for the command after the label.
timed() {
  local label=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null
  end=$(date +%s.%N)
  python3 -c "print(f'$label: {$end - $start:.2f} s')"
}

python3 "$inputs/nested_ifs.py" 5000 >"$work/nested.mlir"
timed "grad, 5000 nested scf.if" "$bin/moonc" grad "$work/nested.mlir" --args '[1.5, true]' --wrt 0

for n in 1000 3000; do
  python3 "$inputs/many_args.py" "$n" >"$work/args$n.mlir"
  python3 -c "import json; print(json.dumps([0.001 * i for i in range($n)]))" >"$work/args$n.json"
  timed "grad, $n float arguments" "$bin/moonc" grad "$work/args$n.mlir" --args "@$work/args$n.json"
done

python3 "$inputs/big_module.py" 8000 >"$work/big8k.mlir"
timed "moonc-opt --moon-cpu-pipeline, 8000 functions (5.4 MB)" \
  "$bin/moonc-opt" "$work/big8k.mlir" --moon-cpu-pipeline -o /dev/null
python3 "$inputs/big_module.py" 75000 >"$work/big.mlir"
timed "moonc-opt --moon-cpu-pipeline, 75000 functions (50 MB), output to /dev/null" \
  "$bin/moonc-opt" "$work/big.mlir" --moon-cpu-pipeline -o /dev/null
big_args='[[[1,2,3,4,5,6,7,8]], [[0,0,0,0,0,0,0,0]], 2.0]'
timed "run one function of 75000 (50 MB)" "$bin/moonc" run "$work/big.mlir" --entry f0 --args "$big_args"
timed "grad of one function of 75000 (50 MB)" "$bin/moonc" grad "$work/big.mlir" --entry f74999 --args "$big_args"
