#!/usr/bin/env bash
# Installs what building and testing moonc needs on a Debian 12 machine:
# Debian's LLVM/MLIR 22 toolchain and build tools (one `apt-get update`
# first, only when something is missing) and the lit virtualenv. Idempotent:
# does nothing when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools clang-22
  libclang-22-dev libpolly-22-dev libzstd-dev clang-format-22
  g++ binutils libc6-dev cmake ninja-build
  libomp-22-dev libopenblas-dev liblapacke-dev valgrind
)
# Any python3 that can make virtualenvs with pip (pyenv's, say) will do;
# Debian's needs python3-venv for ensurepip.
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  packages+=(python3 python3-venv)
fi
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  echo "bootstrap: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for tool in cargo rustc rustfmt cargo-clippy; do
  if ! command -v "$tool" >/dev/null; then
    echo "bootstrap: '$tool' not found: install Rust with rustup (components rustfmt, clippy)" >&2
    exit 1
  fi
done
# The workspace uses edition 2024.
rust_version=$(rustc --version | cut -d' ' -f2)
if [ "$(printf '%s\n' 1.85.0 "$rust_version" | sort -V | head -n1)" != 1.85.0 ]; then
  echo "bootstrap: rustc $rust_version is too old: moonc needs Rust 1.85 or newer" >&2
  exit 1
fi

venv=build/venv
lit_version=18.1.8
if [ "$("$venv/bin/lit" --version 2>/dev/null)" != "lit $lit_version" ]; then
  echo "bootstrap: creating $venv with lit $lit_version"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "lit==$lit_version"
fi
