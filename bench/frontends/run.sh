#!/usr/bin/env bash
# bench/frontends: ResNet-50 from ONNX (test/Frontends/resnet/make_resnet.py:
# ResNet-50's architecture, depth and op mix, width 16, one 1x3x32x32
# image), converted by torch-mlir, compiled and timed by `moonc bench`:
# compile time of the loss and of its value and gradient (the issue asks
# under 30 s each), the loss's time and the value and gradient's, with
# onnxruntime's primal beside it when build/frontend-venv has it. Then the
# tensor examples (examples/tensors: MLP, CNN, layer norm, attention) by
# `moonc bench` on their test inputs. Needs `make frontend-venv`. Prints
# the report; results.json holds ResNet's numbers. Not a test.
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
echo "examples/tensors (moonc bench --entry loss, inputs of test/Examples/Inputs):"
for example in mlp cnn layernorm attention; do
  echo "$example: $("$moonc" bench ../../examples/tensors/$example.mlir --entry loss --args "@../../test/Examples/Inputs/$example.json")"
done
