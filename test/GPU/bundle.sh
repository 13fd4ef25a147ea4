#!/usr/bin/env bash
# test/GPU/bundle.sh OUT: the bundle that carries the GPU checks to a
# machine with an NVIDIA GPU but no Rust or LLVM (docs/gpu.md, "On a real
# device"; `make gpu-bundle` writes build/gpu-bundle). OUT gets
#   moonc.xz     moonc (MOONC, default target/release/moonc), stripped
#   lib.tar.xz   the shared libraries moonc loads beyond glibc's own
#                (OpenBLAS, LAPACKE, gfortran, libstdc++, ...)
#   device.sh    test/GPU/device.sh, which unpacks both and runs the checks
#   Inputs/      test/GPU/Inputs
#   bench-gpu    the benchmark: bench/gpu/grad.mlir compiled ahead of time
#                for sm_90 (moonc compile --gpu, PTX embedded) and
#                bench/gpu/driver.c, linked with libmoonrt.so (in lib.tar.xz)
#   jax_bench.py JAX on the same programs
#   MANIFEST     what is in it, from which commit
# and fails when it is over 40 MiB. xz -9e takes a few minutes.
set -euo pipefail
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
moonc=${MOONC:-$root/target/release/moonc}
limit=$((40 * 1024 * 1024))
rm -rf "$out"
mkdir -p "$out/Inputs"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
strip -o "$stage/moonc" "$moonc"
xz -9e -T0 -c "$stage/moonc" > "$out/moonc.xz"
mkdir -p "$stage/lib"
# Every library ldd resolves, by the name moonc asks for, except glibc's
# (the device's own must serve: they go with its dynamic loader).
ldd "$moonc" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r name path; do
  case $name in
    libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | ld-linux*) ;;
    *) cp -L "$path" "$stage/lib/$name" ;;
  esac
done
cp -L "${MOONRT:-$root/target/release/libmoonrt.so}" "$stage/lib/libmoonrt.so"
tar -cf - -C "$stage/lib" . | xz -9e -T0 > "$out/lib.tar.xz"
"$moonc" compile "$root/bench/gpu/grad.mlir" --gpu --gpu-chip sm_90 -o "$stage/grad.o"
cc -O2 -std=c11 -Wall -Werror -I "$root/runtime/moonrt/include" "$root/bench/gpu/driver.c" \
  "$stage/grad.o" -L "$stage/lib" -lmoonrt -lm -o "$out/bench-gpu"
cp "$root/bench/gpu/jax_bench.py" "$out/jax_bench.py"
cp "$root/test/GPU/device.sh" "$out/device.sh"
cp "$root"/test/GPU/Inputs/* "$out/Inputs/"
{
  echo "moonc commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm)"
  echo "libraries: $(ls "$stage/lib" | tr '\n' ' ')"
  (cd "$out" && find . -type f ! -name MANIFEST -printf '%s %p\n' | sort -k2)
} > "$out/MANIFEST"
size=$(du -sb "$out" | cut -f1)
echo "bundle: $out, $size bytes ($((size / 1024 / 1024)) MiB)"
if [ "$size" -gt "$limit" ]; then
  echo "bundle.sh: $out is over 40 MiB" >&2
  exit 1
fi
