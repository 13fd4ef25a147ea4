#!/usr/bin/env bash
# bench/gradbench/setup.sh GRADBENCH_REPO DIR: a GradBench work tree at
# commit f26651a in DIR/gradbench, a virtualenv DIR/venv with its Python
# package and the versions its uv.lock pins, and its C++ reference tool
# `manual` built (the evals validate moonc's outputs against it). Not a
# test; `run.sh` then runs an eval. GRADBENCH_REPO is a clone or a bare git
# directory of gradbench/gradbench (e.g. the path the `fetch` tool gives).
#
# The snapshot this was written against lacks three blobs: two `ht` inputs
# (moonc has no ht eval) and `evals/lstm/data/lstm_full.txt` (Shakespeare's
# sonnets). lstm_full_head.txt stands in for the latter: its first 4,096
# characters match the bits of GradBench's own lstm_l2_c4096.txt, the rest
# (to 9,037 characters) was transcribed; the eval reads at most 8,192.
set -euo pipefail
repo=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
if [ ! -d "$dir/gradbench" ]; then
  git clone -q --no-checkout "$repo" "$dir/gradbench"
fi
cd "$dir/gradbench"
# A missing blob stops `git checkout`; check out what is there.
git checkout -q f26651a 2>/dev/null || {
  git symbolic-ref HEAD >/dev/null 2>&1 && git update-ref HEAD f26651a || git update-ref --no-deref HEAD f26651a
  git read-tree f26651a
  git checkout-index -a -f 2>/dev/null || true
}
lstm=evals/lstm/data/lstm_full.txt
[ -s "$lstm" ] || cp "$here/lstm_full_head.txt" "$lstm"
if [ ! -x "$dir/venv/bin/python" ]; then
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install -q numpy==1.26.4 scipy==1.15.1 pydantic==2.10.5 \
    dataclasses-json==0.6.7
  "$dir/venv/bin/pip" install -q -e python/gradbench
fi
# manual includes "json.hpp" from cpp/ (GradBench downloads it; Debian's
# nlohmann-json3-dev has 3.11.2).
if [ ! -f cpp/json.hpp ]; then
  [ -f /usr/include/nlohmann/json.hpp ] || apt-get install -y -q nlohmann-json3-dev
  ln -sf /usr/include/nlohmann/json.hpp cpp/json.hpp
fi
make -s -C tools/manual
echo "GradBench ready in $dir"
