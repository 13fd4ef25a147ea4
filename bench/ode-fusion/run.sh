#!/usr/bin/env bash
# bench/ode-fusion/run.sh: builds model.c with clang-22 -O3 for the host and
# runs it (see README.md). Not part of `make bench`; a study, not moonc.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
clang-22 -O3 -march=native -mprefer-vector-width=512 model.c -o "$out/model"
"$out/model"
