#!/usr/bin/env bash
# bench/frontends: ResNet-50 from ONNX (test/Frontends/resnet/make_resnet.py:
# ResNet-50's architecture, depth and op mix, width 16, one 1x3x32x32
# image), converted by torch-mlir, compiled and timed by `moonc bench`:
# compile time of the loss and of its value and gradient (the issue asks
# under 30 s each), the loss's time and the value and gradient's, with
# onnxruntime's primal beside it when build/frontend-venv has it. Needs
# `make frontend-venv`. Prints the report; results.json holds the numbers.
# Not a test.
set -euo pipefail
cd "$(dirname "$0")"
moonc=${MOONC:-../../target/release/moonc}
python=${FRONTEND_PYTHON:-../../build/frontend-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ort=()
if "$python" -c 'import onnxruntime' 2>/dev/null; then ort=(--ort); fi
"$python" ../../test/Frontends/resnet/check.py "$work" --depth 50 --width 16 --size 32 \
  --moonc "$moonc" --skip-check --bench-ms 1000 --max-compile-s 30 "${ort[@]}" --json results.json
