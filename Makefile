# moonc's entry points. A newcomer needs two: `make demo` and `make test`.
# Every target bootstraps first (installs missing Debian packages and the
# lit virtualenv), so they work on a fresh Debian 12 machine.

CARGO       ?= cargo
CARGO_FLAGS ?= --release --locked
BIN         := target/release
VENV        := build/venv
LLVM_PREFIX ?= /usr/lib/llvm-22
CXX_SOURCES := $(shell find dialects -name '*.cpp' -o -name '*.h') examples/c/main.c

.PHONY: all bootstrap build unit lit lint test demo docs frontend-venv bench-venv bench bench-issues gpu-bundle fuzz clean

all: build

bootstrap:
	@.ci/bootstrap.sh

build: bootstrap
	$(CARGO) build $(CARGO_FLAGS) --workspace

# Rust unit tests (snapshots included).
unit: build
	$(CARGO) test $(CARGO_FLAGS) --workspace

# lit/FileCheck tests under test/ (test/Frontends/ needs the frontend
# virtualenv).
lit: build frontend-venv
	$(VENV)/bin/lit -sv test

# Formatting and clippy for Rust, clang-format for the dialect's C++.
lint: bootstrap
	$(CARGO) fmt --all --check
	$(CARGO) clippy $(CARGO_FLAGS) --workspace --all-targets -- -D warnings
	clang-format-22 --dry-run --Werror $(CXX_SOURCES)
	$(CARGO) fmt --manifest-path examples/rust/Cargo.toml --check

test: lint unit lit

# The main job on an example: the loss and gradient of a 2-layer MLP on
# tensors (examples/tensors/mlp.mlir, fixed inputs), then the losses of 8
# gradient descent steps on it (examples/tensors/sgd.mlir), which decrease
# (`moonc run` echoes its arguments after the results; sed cuts them off).
demo: build
	@echo "== moonc grad examples/tensors/mlp.mlir: the loss and its gradient w.r.t. W1, b1, W2, b2"
	$(BIN)/moonc grad examples/tensors/mlp.mlir --entry loss --wrt 1,2,3,4 --args @test/Examples/Inputs/mlp.json
	@echo "== moonc run examples/tensors/sgd.mlir: the losses of 8 gradient descent steps"
	$(BIN)/moonc run examples/tensors/sgd.mlir --entry train --args @test/Examples/Inputs/mlp.json | sed 's/, "args": .*/}/'

# Regenerates docs/dialects/moon.md (from the ODS) and docs/passes.md.
docs: bootstrap
	mkdir -p docs/dialects
	$(LLVM_PREFIX)/bin/mlir-tblgen -gen-dialect-doc -dialect=moon \
	  -I dialects/moon/include -I $(LLVM_PREFIX)/include \
	  dialects/moon/include/Moon/MoonOps.td -o docs/dialects/moon.md
	MOONC_UPDATE_DOCS=1 $(CARGO) test $(CARGO_FLAGS) -p moonc-passes passes_reference

# The frontends' virtualenv: torch-mlir's wheel (its ONNX importer and
# torch-mlir-opt) and onnx, whose backend test models test/Frontends/onnx/
# converts, runs and differentiates. lit reports those tests UNSUPPORTED
# without it.
FRONTEND_VENV := build/frontend-venv
TORCH_MLIR_VERSION := 20261001
ONNX_VERSION := 1.23.2
NUMPY_VERSION := 2.4.6
frontend-venv: bootstrap
	@if [ "$$($(FRONTEND_VENV)/bin/python -c 'import importlib.metadata as m; print(*(m.version(p) for p in ("torch-mlir", "onnx", "numpy")))' 2>/dev/null)" != "$(TORCH_MLIR_VERSION) $(ONNX_VERSION) $(NUMPY_VERSION)" ]; then \
	  echo "frontend-venv: creating $(FRONTEND_VENV) with torch-mlir $(TORCH_MLIR_VERSION), onnx $(ONNX_VERSION) and numpy $(NUMPY_VERSION)"; \
	  python3 -m venv $(FRONTEND_VENV) && \
	  $(FRONTEND_VENV)/bin/pip install -q --disable-pip-version-check \
	    'torch-mlir==$(TORCH_MLIR_VERSION)' 'onnx==$(ONNX_VERSION)' 'numpy==$(NUMPY_VERSION)'; \
	fi

# The benchmarks' virtualenv: JAX for CPU, which the benchmarks run side by
# side with moonc, matplotlib for the suite's chart, and onnx and
# onnxruntime for bench/ml (its ONNX models and onnxruntime's times). Only
# the bench targets need it.
BENCH_VENV := build/bench-venv
JAX_VERSION := 0.10.2
MATPLOTLIB_VERSION := 3.11.2
ONNXRUNTIME_VERSION := 1.32.0
bench-venv: bootstrap
	@if [ "$$($(BENCH_VENV)/bin/python -c 'import jax, jaxlib, matplotlib, onnx, onnxruntime; print(jax.__version__, jaxlib.__version__, matplotlib.__version__, onnx.__version__, onnxruntime.__version__)' 2>/dev/null)" != "$(JAX_VERSION) $(JAX_VERSION) $(MATPLOTLIB_VERSION) $(ONNX_VERSION) $(ONNXRUNTIME_VERSION)" ]; then \
	  echo "bench-venv: creating $(BENCH_VENV) with jax $(JAX_VERSION) (CPU), matplotlib $(MATPLOTLIB_VERSION), onnx $(ONNX_VERSION) and onnxruntime $(ONNXRUNTIME_VERSION)"; \
	  python3 -m venv $(BENCH_VENV) && \
	  $(BENCH_VENV)/bin/pip install -q --disable-pip-version-check \
	    'jax[cpu]==$(JAX_VERSION)' 'jaxlib==$(JAX_VERSION)' 'matplotlib==$(MATPLOTLIB_VERSION)' \
	    'onnx==$(ONNX_VERSION)' 'onnxruntime==$(ONNXRUNTIME_VERSION)'; \
	fi

# The benchmark suite (not tests): every workload through moonc and JAX in
# one run, checked against each other; writes bench/results/ (JSON, table,
# chart) and the table in README.md. See bench/suite/README.md. Then
# bench/ml: ML models from ONNX (torch-mlir, from the frontend virtualenv)
# through moonc, JAX and onnxruntime; see bench/ml/README.md.
bench: build bench-venv frontend-venv
	$(BENCH_VENV)/bin/python bench/suite/run.py | tee bench/results/results.txt
	$(BENCH_VENV)/bin/python bench/ml/run.py | tee bench/results/ml.txt

# The earlier issues' benchmarks, each with its own results under bench/:
# moonc against C on the same loops, reverse mode, the Hessian, per-example
# gradients, the fused path, BLAS, ResNet-50 from ONNX (compile times), and
# compile time on deep, wide and big programs.
bench-issues: build bench-venv frontend-venv
	bench/cpu/run.sh | tee bench/cpu/results.txt
	bench/forward/run.sh | tee bench/forward/results.txt
	bench/reverse/run.sh | tee bench/reverse/results.txt
	bench/hessian/run.sh | tee bench/hessian/results.txt
	bench/vmap/run.sh | tee bench/vmap/results.txt
	bench/ndual/run.sh | tee bench/ndual/results.txt
	bench/blas/run.sh | tee bench/blas/results.txt
	bench/frontends/run.sh | tee bench/frontends/results.txt
	bench/compile-time/run.sh | tee bench/compile-time/results.txt

# What a machine with an NVIDIA GPU but no Rust or LLVM needs to run the
# GPU checks (docs/gpu.md, "On a real device"): build/gpu-bundle, at most
# 40 MiB; there, `build/gpu-bundle/device.sh OUTDIR` runs them.
gpu-bundle: build
	test/GPU/bundle.sh build/gpu-bundle

# The mutation fuzzer (docs/fuzzing.md): FUZZ_MUTANTS mutants of the lit
# inputs through moonc-opt and moonc; crashes and hangs are kept under
# build/fuzz/crashes and make it fail. `make test` runs a short, seeded run
# (test/Tools/fuzz/short.test).
FUZZ_MUTANTS ?= 10000
FUZZ_SEED ?= 1
fuzz: build
	python3 tools/fuzz/fuzz.py --bin $(BIN) --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED) --out build/fuzz

clean:
	$(CARGO) clean
	rm -rf build
