#!/usr/bin/env bash
# test/GPU/device.sh OUTDIR: the GPU checks, run on a machine with an
# NVIDIA GPU and no Rust or LLVM (docs/gpu.md, "On a real device").
#
# Run from the bundle `make gpu-bundle` writes (build/gpu-bundle, with
# this script in it): it unpacks moonc and the shared libraries it needs
# into a temporary directory. With MOONC set (a moonc binary) it uses that
# instead and reads the inputs from test/GPU/Inputs (the CPU rehearsal;
# `make test` runs it so, on machines without a GPU).
#
# It runs the parts that need no GPU first (moonc starts; the CPU's
# gradients that the GPU's are compared with), then, when `moonc gpu-info`
# finds a device, the GPU tests of test/GPU (moonc check --gpu, moonc grad
# --gpu against the CPU) and the benchmark (bench-gpu, and JAX when it is
# installed). Each step's outcome goes to OUTDIR/results.txt
# (`NAME: PASS|FAIL|SKIP`, the benchmark's lines prefixed `bench: `),
# everything it prints to OUTDIR/device.log.
# Without a GPU it says so on stderr and exits 1; with one, it exits 1 when
# a step failed.
set -uo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
out=$1
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/device.log
results=$out/results.txt
: > "$log"
: > "$results"
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

if [ -n "${MOONC:-}" ]; then
  moonc=$MOONC
  inputs=$here/Inputs
else
  if [ ! -f "$here/moonc.xz" ]; then
    echo "device.sh: no moonc.xz beside this script: run it from the bundle (make gpu-bundle) or set MOONC" >&2
    exit 2
  fi
  xz -dc "$here/moonc.xz" > "$work/moonc" && chmod +x "$work/moonc"
  mkdir -p "$work/lib"
  tar -xJf "$here/lib.tar.xz" -C "$work/lib"
  export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  moonc=$work/moonc
  inputs=$here/Inputs
fi
python=$(command -v python3 || command -v python || true)

failed=0
# step NAME COMMAND...: runs COMMAND, logging it, and records its outcome.
step() {
  local name=$1
  shift
  echo "== $name: $*" >> "$log"
  if "$@" >> "$log" 2>&1; then
    echo "$name: PASS" >> "$results"
  else
    echo "$name: FAIL" >> "$results"
    failed=1
  fi
}
# compare NAME GPU_JSON CPU_JSON: the GPU's numbers against the CPU's.
compare() {
  if [ -z "$python" ]; then
    echo "$1: SKIP (no python3 to compare with)" >> "$results"
    return
  fi
  step "$1" "$python" "$inputs/compare.py" 1e-5 "$2" "$3"
}

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host: $(uname -srm)"
  echo "moonc: $("$moonc" --version 2>&1 | head -1)"
} >> "$results"

# The parts that need no GPU.
step "moonc starts" "$moonc" --version
step "cpu grad sum-cos-exp" sh -c "\"$moonc\" grad \"$inputs/sum-cos-exp.mlir\" --args @\"$inputs/x600.json\" > \"$work/cpu.json\""
step "cpu grad broadcast" sh -c "\"$moonc\" grad \"$inputs/broadcast.mlir\" --args @\"$inputs/xw.json\" > \"$work/b.cpu.json\""

if ! "$moonc" gpu-info >> "$log" 2>&1; then
  echo "gpu: none" >> "$results"
  echo "device.sh: no usable NVIDIA GPU (moonc gpu-info failed; see $log); ran the parts that need none" >&2
  exit 1
fi
echo "gpu: $("$moonc" gpu-info 2>&1 | head -1)" >> "$results"
echo "compiles: $("$moonc" gpu-info 2>&1 | sed -n 2p)" >> "$results"
if command -v nvidia-smi > /dev/null; then
  echo "driver: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)" >> "$results"
fi

# test/GPU/check.test
step "check --gpu sum-cos-exp" sh -c "\"$moonc\" check --gpu \"$inputs/sum-cos-exp.mlir\" --args '[[0.1, 0.2, 0.3, 0.4, 0.5]]' | tee -a \"$work/check.txt\" | grep -q 'check: PASS'"
# test/GPU/grad.test
step "grad --gpu sum-cos-exp" sh -c "\"$moonc\" grad --gpu \"$inputs/sum-cos-exp.mlir\" --args @\"$inputs/x600.json\" > \"$work/gpu.json\""
compare "grad --gpu sum-cos-exp matches the CPU" "$work/gpu.json" "$work/cpu.json"
step "grad --gpu --mode forward sum-cos-exp" sh -c "\"$moonc\" grad --gpu --mode forward \"$inputs/sum-cos-exp.mlir\" --args @\"$inputs/x600.json\" > \"$work/gpu-fwd.json\""
compare "grad --gpu --mode forward sum-cos-exp matches the CPU" "$work/gpu-fwd.json" "$work/cpu.json"
step "grad --gpu broadcast" sh -c "\"$moonc\" grad --gpu \"$inputs/broadcast.mlir\" --args @\"$inputs/xw.json\" > \"$work/b.gpu.json\""
compare "grad --gpu broadcast matches the CPU" "$work/b.gpu.json" "$work/b.cpu.json"
step "grad --gpu --mode forward broadcast" sh -c "\"$moonc\" grad --gpu --mode forward \"$inputs/broadcast.mlir\" --args @\"$inputs/xw.json\" > \"$work/b.gpu-fwd.json\""
compare "grad --gpu --mode forward broadcast matches the CPU" "$work/b.gpu-fwd.json" "$work/b.cpu.json"

# The benchmark (bench/gpu/README.md): moonc's value and gradient against
# the device's copy bandwidth and against JAX on the same GPU.
bench_out=$work/bench.txt
if [ ! -x "$here/bench-gpu" ]; then
  echo "benchmark: SKIP (no bench-gpu beside this script: run it from the bundle)" >> "$results"
else
  step "benchmark bench-gpu" sh -c "\"$here/bench-gpu\" 26 20 > \"$bench_out\""
  cat "$bench_out" >> "$log"
  sed 's/^/bench: /' "$bench_out" >> "$results"
  if [ -n "$python" ] && [ -f "$here/jax_bench.py" ]; then
    "$python" "$here/jax_bench.py" 26 20 > "$work/jax.txt" 2>> "$log"
    sed 's/^/bench: /' "$work/jax.txt" >> "$results"
    cat "$work/jax.txt" >> "$bench_out"
  fi
  # value=KEY LINE-PREFIX: the KEY= field of the line starting with PREFIX.
  value() { awk -v k="$1" -v p="$2" 'index($0, p) == 1 { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) print substr($i, length(k) + 2) }' "$bench_out"; }
  fraction=$(value fraction "sce_vg:")
  ours=$(value ms "sce_vg:")
  jax=$(value ms "jax sce_vg:")
  if [ -n "$fraction" ]; then
    verdict=$(awk -v f="$fraction" 'BEGIN { print (f >= 0.70) ? "PASS" : "FAIL" }')
    echo "sce_vg at >= 70% of the copy bandwidth: $verdict (fraction $fraction)" >> "$results"
    [ "$verdict" = PASS ] || failed=1
  fi
  if [ -n "$ours" ] && [ -n "$jax" ]; then
    verdict=$(awk -v a="$ours" -v b="$jax" 'BEGIN { print (a < b) ? "PASS" : "FAIL" }')
    echo "sce_vg faster than JAX: $verdict (moonc $ours ms, JAX $jax ms)" >> "$results"
    [ "$verdict" = PASS ] || failed=1
  else
    echo "sce_vg faster than JAX: SKIP (no JAX time)" >> "$results"
  fi
fi
echo "seconds: $(( $(date +%s) - started ))" >> "$results"
exit "$failed"
