# lit configuration of moonc's test suite: every RUN line finds moonc-opt,
# moonc, FileCheck, not and split-file, and %moonc_src names the checkout.
# Binaries come from target/$MOONC_PROFILE (default: release), as
# `make lit` builds them.

import os

import lit.formats
import lit.llvm
from lit.llvm.subst import ToolSubst

lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config  # noqa: E402 (set by initialize)

config.name = "moonc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["lit.cfg.py", "Inputs"]

config.test_source_root = os.path.dirname(__file__)
source_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(source_root, "build", "lit")

profile = os.environ.get("MOONC_PROFILE", "release")
moonc_bin = os.path.join(source_root, "target", profile)
llvm_prefix = os.environ.get("MOONC_LLVM_PREFIX", "/usr/lib/llvm-22")
llvm_bin = os.path.join(llvm_prefix, "bin")
config.llvm_tools_dir = llvm_bin

for tool in ("moonc-opt", "moonc"):
    if not os.path.exists(os.path.join(moonc_bin, tool)):
        lit_config.fatal(f"{tool} is not built in {moonc_bin}: run `make build`")

llvm_config.with_environment("PATH", [moonc_bin, llvm_bin], append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("moonc-opt"), ToolSubst("moonc"), ToolSubst("mlir-tblgen")],
    [moonc_bin, llvm_bin],
)
llvm_config.use_default_substitutions()  # FileCheck, not, split-file, %python
config.substitutions.append(("%moonc_src", source_root))
config.substitutions.append(("%llvm_prefix", llvm_prefix))
config.substitutions.append(("%moonc_bin", moonc_bin))

# glibc's libmvec (vector math) exists on x86-64 Linux only; tests that
# check for vector math calls require it.
import platform
import shutil  # noqa: E402

if platform.machine() == "x86_64" and platform.system() == "Linux":
    config.available_features.add("libmvec")

# moon-flush-subnormals sets x86-64's MXCSR; elsewhere it does nothing.
if platform.machine() == "x86_64":
    config.available_features.add("x86_64")
# valgrind (the bootstrap installs it) runs the examples in
# test/Runtime/*-valgrind.test.
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# The example tests build C and Rust programs: pass the toolchain through.
for name in ("HOME", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "CC", "AR"):
    if name in os.environ:
        config.environment[name] = os.environ[name]

# GPU-executed tests (test/GPU/, `REQUIRES: gpu`) run when moonrt finds a
# CUDA driver and a device: `moonc gpu-info` prints the device, or fails
# cleanly without one.
import subprocess  # noqa: E402

try:
    probe = subprocess.run(
        [os.path.join(moonc_bin, "moonc"), "gpu-info"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    gpu_found = probe.returncode == 0
except (OSError, subprocess.TimeoutExpired):
    gpu_found = False
if gpu_found:
    config.available_features.add("gpu")
    lit_config.note(f"GPU tests run on {probe.stdout.strip()}")
else:
    lit_config.note("GPU tests skipped: no CUDA driver/device")

# The frontend tests (test/Frontends/, `REQUIRES: onnx-frontend`) run with
# the virtualenv `make frontend-venv` makes (torch-mlir and onnx); without
# it they are UNSUPPORTED. %frontend_python is its Python.
import glob  # noqa: E402

frontend_venv = os.path.join(source_root, "build", "frontend-venv")
frontend_python = os.path.join(frontend_venv, "bin", "python")
site_packages = glob.glob(os.path.join(frontend_venv, "lib", "python3*", "site-packages"))
if (
    os.path.exists(frontend_python)
    and site_packages
    and os.path.exists(
        os.path.join(site_packages[0], "torch_mlir", "_mlir_libs", "torch-mlir-opt")
    )
    and os.path.isdir(os.path.join(site_packages[0], "onnx", "backend", "test", "data"))
):
    config.available_features.add("onnx-frontend")
config.substitutions.append(("%frontend_python", frontend_python))
