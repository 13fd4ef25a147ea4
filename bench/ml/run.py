# bench/ml/run.py: ML models from ONNX through moonc, against JAX jit and onnxruntime (`make bench`).
"""Builds each model of bench/ml/models.py as ONNX, converts it with
torch-mlir to linalg on tensors, and in one run: checks moonc's loss and
gradient against JAX's `value_and_grad` (relative error at most 1e-4 in
the max norm, per array, in float32; a mismatch fails the run), times
moonc single-threaded and with `--parallel`, JAX `jit` (loss, and value and
gradient) single-threaded and with its default threads, and onnxruntime's
primal with one intra-op thread and with its default threads. Prints a
table and writes bench/results/ml.json, ml.md and ml.png. See
bench/ml/README.md.

Usage: run.py [--only NAME[,NAME...]] [--time-ms MS] [--out DIR]
              [--no-jax-1-thread] [--timeout S]

Run it with the bench virtualenv's Python (`make bench-venv`: JAX, onnx,
onnxruntime, matplotlib); the conversion runs torch-mlir from the frontend
virtualenv (`make frontend-venv`) in subprocesses. `MOONC` picks the moonc
binary. Converted models are cached in build/ml/<model>/ (model.onnx,
model.torch.mlir, model.mlir: the loss function, inputs.json: its
arguments), keyed by the hash of the model's builder sources.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "bench/suite"))
sys.path.insert(0, str(ROOT / "test/Frontends/resnet"))

import models  # noqa: E402
from common import median_ns, rel_err  # noqa: E402

MOONC = os.environ.get("MOONC", str(ROOT / "target/release/moonc"))
FRONTEND_PYTHON = ROOT / "build/frontend-venv/bin/python"
BUILD = ROOT / "build/ml"
# moonc and JAX agree when every array (the value, each gradient) is within
# this relative error, max |a - b| / max |b|, in float32.
RTOL = 1e-4
# XLA's flags for a single-threaded JAX (the worker process of --jax-worker).
XLA_ONE_THREAD = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"


class StepFailed(Exception):
    """A step of a model failed: which, the command and its error."""

    def __init__(self, step, command, error):
        super().__init__(f"{step}: {error}")
        self.step, self.command, self.error = step, command, error


def run(step, command, timeout, env=None):
    """Runs a command and returns its stdout; raises StepFailed when it
    fails. Waits for moonc when the binary is being rebuilt (missing)."""
    for _ in range(10):
        if command[0] != MOONC or os.path.exists(MOONC):
            break
        print(f"bench/ml: {MOONC} is missing (being rebuilt?); waiting 60 s", file=sys.stderr, flush=True)
        time.sleep(60)
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise StepFailed(step, command, f"timed out after {timeout} s")
    if proc.returncode != 0:
        text = (proc.stderr.strip() or proc.stdout.strip())
        if proc.returncode < 0:
            text = f"killed by signal {-proc.returncode}\n{text}"
        raise StepFailed(step, command, text[-4000:])
    return proc.stdout


def torch_mlir_opt():
    out = run("torch-mlir", [str(FRONTEND_PYTHON), "-c", "import torch_mlir; print(list(torch_mlir.__path__)[0])"], 60)
    return str(Path(out.strip()) / "_mlir_libs" / "torch-mlir-opt")


def prepare(model, timeout):
    """Builds and converts the model into build/ml/<name>/ (unless the cache
    there has the same key) and writes its inputs; returns a dict with the
    paths, the entry and the conversion time."""
    import onnx
    from check import FUNC_RE

    d = BUILD / model.name
    d.mkdir(parents=True, exist_ok=True)
    onnx_path, torch_path, mlir_path = d / "model.onnx", d / "model.torch.mlir", d / "model.mlir"
    key = model.source_hash()
    key_path = d / "key"
    cached = mlir_path.exists() and onnx_path.exists() and key_path.exists() and key_path.read_text().strip() == key
    convert_s = None
    if not cached:
        key_path.unlink(missing_ok=True)
        onnx.save(model.onnx(), str(onnx_path))
        start = time.perf_counter()
        run("import", [str(FRONTEND_PYTHON), "-m", "torch_mlir.tools.import_onnx", str(onnx_path), "-o", str(torch_path)],
            timeout)
        run("convert", [torch_mlir_opt(), str(torch_path), "--torch-onnx-to-torch-backend-pipeline",
                        "--torch-backend-to-linalg-on-tensors-backend-pipeline", "-o", str(mlir_path)], timeout)
        convert_s = round(time.perf_counter() - start, 2)
        key_path.write_text(key + "\n")
    text = mlir_path.read_text()
    entry = next((m.group(2) for m in map(FUNC_RE.match, text.splitlines()) if m), None)
    if entry is None or "-> tensor<f32>" not in text:
        raise StepFailed("convert", [str(mlir_path)], "no public func.func returning tensor<f32> in the converted module")
    inputs_path = d / "inputs.json"
    inputs_path.write_text(json.dumps([a.tolist() for a in model.inputs()]))
    return {"dir": str(d.relative_to(ROOT)), "mlir": str(mlir_path), "inputs": str(inputs_path), "entry": entry,
            "key": key, "cached": cached, "convert_s": convert_s}


def failure(e):
    """A StepFailed as a JSON record, also printed."""
    command = " ".join(map(str, e.command))
    print(f"bench/ml: FAILED at {e.step}: {command}\n{e.error}", file=sys.stderr, flush=True)
    return {"step": e.step, "command": command, "error": e.error}


def moonc_side(model, prep, time_ms, timeout, failures):
    """moonc's value and gradient (a failure raises StepFailed), and its
    times single-threaded and with --parallel (None for one that fails,
    recorded in `failures`)."""
    common = [prep["mlir"], "--entry", prep["entry"], "--args", "@" + prep["inputs"],
              "--wrt", ",".join(map(str, model.wrt))]
    grad = json.loads(run("moonc grad", [MOONC, "grad", *common], timeout))
    result = {"value": grad["value"], "gradient": grad["gradient"]}
    # moonc runs large products on OpenBLAS's threads unless
    # $OPENBLAS_NUM_THREADS says otherwise: the single-threaded row says 1.
    one_thread = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    for label, extra, env in (("1", [], one_thread), ("parallel", ["--parallel"], None)):
        try:
            out = run(f"moonc bench{' --parallel' if extra else ''}",
                      [MOONC, "bench", *common, "--time-ms", str(time_ms), *extra], timeout, env)
            result[label] = json.loads(out)
        except StepFailed as e:
            failures.append(failure(e))
            result[label] = None
    return result


def jax_times(model, time_ms):
    """JAX jit's loss and value-and-gradient times on the model's inputs,
    the time to the first value and gradient, and their results."""
    import jax

    args = [jax.numpy.asarray(a) for a in model.inputs()]
    primal = jax.jit(model.jax)
    derivative = jax.jit(jax.value_and_grad(model.jax, argnums=tuple(model.wrt)))
    start = time.perf_counter()
    value, grads = jax.block_until_ready(derivative(*args))
    first = time.perf_counter() - start
    jax.block_until_ready(primal(*args))
    times = {"primal_ns": median_ns(primal, args, time_ms)[0], "grad_ns": median_ns(derivative, args, time_ms)[0],
             "first_gradient_s": first}
    times["ratio"] = times["grad_ns"] / times["primal_ns"]
    return times, float(primal(*args)), float(value), grads


def jax_worker(name, time_ms):
    """The --jax-worker mode: JAX's times for one model as JSON on stdout
    (run in a child with XLA_FLAGS set for one thread, pinned to one
    core)."""
    # XLA's CPU runtime does not keep to XLA_FLAGS' one thread (the
    # transformer ran as fast as with all cores): pin the process to one
    # core, as the single-threaded moonc row uses one.
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    model = next(m for m in models.MODELS if m.name == name)
    times, _, _, _ = jax_times(model, time_ms)
    print(json.dumps(times))


def ort_times(model, prep, time_ms):
    """onnxruntime's primal time with one intra-op thread and with its
    default threads, and its value."""
    import onnxruntime

    args = model.inputs()
    path = str(Path(prep["mlir"]).with_name("model.onnx"))
    result = {}
    for label, threads in (("1", 1), ("parallel", 0)):
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        if threads:
            options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        feed = {i.name: a for i, a in zip(session.get_inputs(), args)}
        result["value"] = float(session.run(None, feed)[0])
        result[label] = {"primal_ns": median_ns(lambda: session.run(None, feed), [], time_ms)[0]}
    return result


def bench_model(model, opts):
    """One model's row: conversion, moonc, JAX and onnxruntime, checked."""
    import numpy as np

    row = {"name": model.name, "description": model.description, "wrt": model.wrt, "failures": []}
    try:
        prep = prepare(model, opts.timeout)
        row["prepare"] = {k: prep[k] for k in ("dir", "entry", "key", "cached", "convert_s")}
        how = "cached" if prep["cached"] else f"converted in {prep['convert_s']} s"
        print(f"bench/ml: {model.name}: {prep['mlir']} @{prep['entry']} ({how})", file=sys.stderr, flush=True)
        m = moonc_side(model, prep, opts.time_ms, opts.timeout, row["failures"])
    except StepFailed as e:
        # Nothing to check without moonc's value and gradient.
        row["failures"].append(failure(e))
        return row
    row["moonc"] = {k: m[k] for k in ("1", "parallel")}

    print(f"bench/ml: {model.name}: JAX ...", file=sys.stderr, flush=True)
    times, primal_value, value, grads = jax_times(model, opts.time_ms)
    row["jax"] = {"parallel": times}
    if not opts.no_jax_1_thread:
        env = dict(os.environ, XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") + " " + XLA_ONE_THREAD).strip())
        try:
            out = run("jax 1 thread", [sys.executable, __file__, "--jax-worker", model.name,
                                       "--time-ms", str(opts.time_ms)], opts.timeout, env)
            row["jax"]["1"] = json.loads(out.strip().splitlines()[-1])
        except StepFailed as e:
            print(f"bench/ml: {model.name}: single-threaded JAX failed: {e.error}", file=sys.stderr, flush=True)

    print(f"bench/ml: {model.name}: onnxruntime ...", file=sys.stderr, flush=True)
    ort = ort_times(model, prep, opts.time_ms)
    row["ort"] = {k: ort[k] for k in ("1", "parallel")}

    # Each gradient array relative to its own largest entry; one that is
    # zero in exact arithmetic relative to the largest entry of them all.
    scale = max(float(np.max(np.abs(g))) for g in grads)
    grad_errs = {str(i): (float(np.max(np.abs(np.asarray(m["gradient"][i]) - g))) / scale
                          if i in model.zero_gradients else rel_err(m["gradient"][i], g))
                 for i, g in zip(model.wrt, grads)}
    row["check"] = {
        "moonc_value": m["value"], "jax_value": value, "ort_value": ort["value"],
        "value_rel_err": rel_err(m["value"], value),
        "grad_rel_err": max(grad_errs.values()),
        "grad_rel_err_per_arg": grad_errs,
        "jax_primal_rel_err": rel_err(primal_value, value),
        "ort_rel_err": rel_err(ort["value"], value),
    }
    c = row["check"]
    c["agrees"] = max(c["value_rel_err"], c["grad_rel_err"], c["ort_rel_err"], c["jax_primal_rel_err"]) <= RTOL
    return row


def binary_mtime():
    """When the moonc binary was built (it may be rebuilt during a run)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(os.path.getmtime(MOONC)))
    except OSError:
        return None


def versions() -> dict:
    """The machine and the versions the run used."""
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    info = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", "compiler", "dialects", "runtime",
                            "tools"]).returncode
    info["moonc"] = (rev.stdout.strip() or "unknown") + (" (with uncommitted compiler changes)" if dirty else "")
    info["moonc_binary_mtime"] = binary_mtime()
    import jax
    import jaxlib
    import numpy
    import onnx
    import onnxruntime

    info.update(jax=jax.__version__, jaxlib=jaxlib.__version__, onnx=onnx.__version__,
                onnxruntime=onnxruntime.__version__, numpy=numpy.__version__)
    tm = subprocess.run([str(FRONTEND_PYTHON), "-c", "import importlib.metadata as m; print(m.version('torch-mlir'))"],
                        capture_output=True, text=True)
    info["torch_mlir"] = tm.stdout.strip() or "unknown"
    return info


def first_line(text):
    lines = text.strip().splitlines()
    return lines[0][:160] if lines else ""


def fmt_ns(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def table(rows, cores):
    """The results as a Markdown table: per model a single-threaded row and
    an all-cores row (moonc --parallel, JAX's and onnxruntime's default
    threads)."""
    lines = [
        "| model | threads | moonc primal | moonc value+grad | ratio | JAX primal | JAX value+grad | JAX ratio "
        "| onnxruntime primal | moonc value+grad ÷ JAX | rel. error value / grad (moonc vs JAX) | agree |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "check" not in r:
            f = r["failures"][0]
            lines.append(f"| {r['name']} | - | **FAILED** at {f['step']}: `{first_line(f['error'])}` |" + " - |" * 9)
            continue
        c = r["check"]
        agree = "yes" if c["agrees"] else "**NO**"
        errors = f"{c['value_rel_err']:.1e} / {c['grad_rel_err']:.1e}"
        for label, threads in (("1", "1"), ("parallel", f"all ({cores})")):
            m, j, o = r["moonc"][label], r["jax"].get(label), r["ort"][label]
            jax_cols = [fmt_ns(j["primal_ns"]), fmt_ns(j["grad_ns"]), f"{j['ratio']:.2f}"] if j else ["-"] * 3
            if m:
                moonc_cols = [fmt_ns(m["primal_ns"]), fmt_ns(m["grad_ns"]), f"{m['ratio']:.2f}"]
            else:
                f = next(f for f in r["failures"] if f["step"].startswith("moonc bench") and
                         (label == "parallel") == f["step"].endswith("--parallel"))
                moonc_cols = [f"**FAILED**: `{first_line(f['error'])}`", "-", "-"]
            vs = f"{m['grad_ns'] / j['grad_ns']:.2f}" if m and j else "-"
            lines.append(
                f"| {r['name']} | {threads}{' (`--parallel`)' if label == 'parallel' else ''} "
                f"| {' | '.join(moonc_cols)} | {' | '.join(jax_cols)} | {fmt_ns(o['primal_ns'])} | {vs} "
                f"| {errors} | {agree} |"
            )
    return lines


def chart(rows, info, path):
    """Per model, bars of moonc's, JAX's and onnxruntime's times (log
    scale), single-threaded above, all cores below."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    rows = [r for r in rows if "check" in r]
    if not rows:
        return
    series = [("moonc primal", "moonc", "primal_ns"), ("moonc value+grad", "moonc", "grad_ns"),
              ("JAX primal", "jax", "primal_ns"), ("JAX value+grad", "jax", "grad_ns"),
              ("onnxruntime primal", "ort", "primal_ns")]
    x = np.arange(len(rows))
    width = 0.8 / len(series)
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 2.2 * len(rows)), 8), sharex=True)
    for ax, (label, title) in zip(axes, (("1", "1 thread"), ("parallel", f"all {info['cores']} cores (moonc --parallel)"))):
        for k, (name, side, field) in enumerate(series):
            values = [(r[side].get(label) or {}).get(field, np.nan) / 1e6 for r in rows]
            ax.bar(x + (k - (len(series) - 1) / 2) * width, values, width, label=name)
        ax.set_yscale("log")
        ax.set_ylabel("ms (log scale)")
        ax.set_title(f"bench/ml, {title}: {info['cpu']}")
        ax.legend(fontsize=8)
    axes[-1].set_xticks(x, [r["name"] for r in rows])
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated model names (" + ",".join(m.name for m in models.MODELS) + ")")
    parser.add_argument("--time-ms", type=int, default=500, help="sampling time per timing")
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per conversion or moonc command")
    parser.add_argument("--out", default=str(ROOT / "bench/results"))
    parser.add_argument("--no-jax-1-thread", action="store_true", help="leave out single-threaded JAX")
    parser.add_argument("--jax-worker", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    if opts.jax_worker:
        return jax_worker(opts.jax_worker, opts.time_ms)

    only = set(opts.only.split(",")) if opts.only else None
    chosen = [m for m in models.MODELS if not only or m.name in only]
    if only and len(chosen) != len(only):
        sys.exit(f"bench/ml: unknown model in --only {opts.only}")
    info = versions()
    started = time.perf_counter()
    rows = []
    for model in chosen:
        print(f"bench/ml: {model.name} ...", file=sys.stderr, flush=True)
        rows.append(bench_model(model, opts))
    info["seconds"] = round(time.perf_counter() - started, 1)
    if binary_mtime() != info["moonc_binary_mtime"]:
        info["moonc_binary_changed"] = binary_mtime()
        print(f"bench/ml: WARNING: {MOONC} was rebuilt during the run ({info['moonc_binary_mtime']} -> "
              f"{binary_mtime()}): the rows may come from different binaries", file=sys.stderr)

    lines = table(rows, info["cores"])
    header = (f"bench/ml on {info['cpu']}, {info['cores']} cores; moonc {info['moonc']} (binary of "
              f"{info['moonc_binary_mtime']}), JAX {info['jax']}, onnxruntime {info['onnxruntime']}, onnx {info['onnx']}, "
              f"torch-mlir {info['torch_mlir']}; {info['seconds']} s; agree: every array within relative {RTOL:g} of JAX")
    print(header)
    print("\n".join(lines))
    for r in rows:
        for f in r["failures"]:
            print(f"- {r['name']} FAILED at {f['step']}: `{f['command']}`:\n{f['error']}")
        if "check" in r and not r["check"]["agrees"]:
            print(f"- {r['name']} DISAGREES: {json.dumps(r['check'])}")

    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "ml.json").write_text(json.dumps({"machine": info, "rtol": RTOL, "rows": rows}, indent=1) + "\n")
    (out / "ml.md").write_text("\n".join([header, "", *lines]) + "\n")
    chart(rows, info, out / "ml.png")
    bad = [r["name"] for r in rows if r["failures"] or not r["check"]["agrees"]]
    if bad:
        sys.exit(f"bench/ml: failed or disagreeing with JAX: {', '.join(bad)}")


if __name__ == "__main__":
    main()
