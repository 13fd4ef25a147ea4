#!/usr/bin/env bash
# bench/blas/threshold.sh: where calling BLAS beats the loop lowering, to
# choose moon-linalg-to-blas's min-flops (--moon-blas-min-flops). For square
# f64 and f32 matmuls (C += A B, n x n) and f64 matvecs (y += A x), static
# and dynamic shapes, times with `moonc bench --primal-only`:
# - loops: the op lowered by convert-linalg-to-loops first, as
#   moon-cpu-pipeline does when it leaves the op alone;
# - blas: the op rewritten by moon-linalg-to-blas{min-flops=1} (the moonrt
#   call it emits).
# Prints a table and writes it to bench/blas/threshold.txt. Not a test:
# timings are noisy (SIZES, TIME_MS and ROUNDS override the defaults; the
# median over ROUNDS runs is kept).
set -euo pipefail
cd "$(dirname "$0")"
root=../..
moonc=${MOONC:-$root/target/release/moonc}
opt=${MOONC_OPT:-$root/target/release/moonc-opt}
sizes=${SIZES:-4 8 12 16 20 24 32 40 48 64 128}
time_ms=${TIME_MS:-300}
rounds=${ROUNDS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The source of one case: `op` (matmul or matvec) on n x n, element type
# `t`, static or dynamic shapes.
source() {
  local op=$1 n=$2 t=$3 shape=$4 d
  if [ "$shape" = static ]; then d=$n; else d='?'; fi
  if [ "$op" = matmul ]; then
    cat <<EOF
func.func @f(%a: memref<${d}x${d}x$t>, %b: memref<${d}x${d}x$t>, %c: memref<${d}x${d}x$t>) {
  linalg.matmul ins(%a, %b : memref<${d}x${d}x$t>, memref<${d}x${d}x$t>) outs(%c : memref<${d}x${d}x$t>)
  return
}
EOF
  else
    cat <<EOF
func.func @f(%a: memref<${d}x${d}x$t>, %x: memref<${d}x$t>, %y: memref<${d}x$t>) {
  linalg.matvec ins(%a, %x : memref<${d}x${d}x$t>, memref<${d}x$t>) outs(%y : memref<${d}x$t>)
  return
}
EOF
  fi
}

cases="matmul:f64:static matmul:f64:dynamic matmul:f32:static matvec:f64:static matvec:f64:dynamic"
: >"$work/results.jsonl"
for case in $cases; do
  IFS=: read -r op t shape <<<"$case"
  for n in $sizes; do
    python3 - "$op" "$n" >"$work/args.json" <<'PY'
import json, sys
op, n = sys.argv[1], int(sys.argv[2])
m = [[((i * 7 + j * 3) % 11) / 11 for j in range(n)] for i in range(n)]
v = [(i % 5) / 5 for i in range(n)]
print(json.dumps([m, m, m] if op == "matmul" else [m, v, v]))
PY
    source "$op" "$n" "$t" "$shape" >"$work/case.mlir"
    "$opt" "$work/case.mlir" --pass-pipeline='builtin.module(func.func(convert-linalg-to-loops))' \
      -o "$work/loops.mlir"
    "$opt" "$work/case.mlir" '--moon-linalg-to-blas=min-flops=1' -o "$work/blas.mlir"
    for variant in loops blas; do
      for _ in $(seq "$rounds"); do
        "$moonc" bench "$work/$variant.mlir" --primal-only --time-ms "$time_ms" \
          --args "@$work/args.json" |
          python3 -c "import json, sys; r = json.load(sys.stdin); print(json.dumps({'op': '$op', 't': '$t', 'shape': '$shape', 'n': $n, 'variant': '$variant', 'ns': r['primal_ns']}))" \
            >>"$work/results.jsonl"
      done
    done
  done
done

python3 - "$work/results.jsonl" <<'PY' | tee threshold.txt
import json, os, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"bench/blas/threshold.sh on {cpu}, {os.cpu_count()} cores (OpenBLAS);")
print("median primal ns of moonc bench --primal-only; flops = multiply-adds of one call")
print(f"{'op':<8}{'type':<5}{'shape':<9}{'n':>5}{'flops':>10}{'loops ns':>12}{'blas ns':>12}{'loops/blas':>12}")
keys = []
for r in rows:
    k = (r["op"], r["t"], r["shape"], r["n"])
    if k not in keys:
        keys.append(k)
for op, t, shape, n in keys:
    ns = {v: statistics.median(r["ns"] for r in rows
                               if (r["op"], r["t"], r["shape"], r["n"], r["variant"]) == (op, t, shape, n, v))
          for v in ("loops", "blas")}
    flops = n ** 3 if op == "matmul" else n ** 2
    print(f"{op:<8}{t:<5}{shape:<9}{n:>5}{flops:>10}{ns['loops']:>12.1f}{ns['blas']:>12.1f}"
          f"{ns['loops'] / ns['blas']:>12.2f}")
PY
