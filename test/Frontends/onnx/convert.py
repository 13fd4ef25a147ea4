"""Converts the ONNX package's backend test models to linalg-on-tensors MLIR.

Runs with the frontend virtualenv's Python (`make frontend-venv`: onnx,
torch-mlir, numpy). For every `model.onnx` under the onnx wheel's
`backend/test/data/{pytorch-converted,pytorch-operator,simple}/test_*/`, it
writes into OUT/<suite>/<test>/:

  model.onnx        the model, upgraded to opset 17 when it was older
  model.torch.mlir  torch-mlir's ONNX import
  model.mlir        after torch-mlir-opt's ONNX-to-torch and
                    torch-to-linalg-on-tensors pipelines
  inputs.json       test_data_set_0's inputs: a JSON array with one value per
                    argument (a number for a rank-0 tensor, a nested list
                    otherwise), as `moonc run --args @inputs.json` takes it
  outputs.json      test_data_set_0's outputs, in the same form
  meta.json         what happened: "status" ("ok" or "failed"), the stage
                    and first line of the error, the original opset, whether
                    it was upgraded (or why not), and the dtype and shape of
                    every input and output

meta.json is written last; a model whose meta.json is newer than this script
and than every file of the model's directory is skipped (the cache).
OUT/summary.json lists every model with its status. Exit status 0 unless the
script itself fails: a model torch-mlir cannot convert is a recorded result.

Usage: convert.py OUT [--jobs N] [--timeout S] [--only SUBSTRING]
"""

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import time

SUITES = ("pytorch-converted", "pytorch-operator", "simple")
TARGET_OPSET = 17
SCRIPT = os.path.abspath(__file__)


def first_line(text):
    """The first non-empty line of an error message (trimmed), or a stand-in."""
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("Traceback", "warnings.warn")):
            if "DeprecationWarning" in line or line == "import onnx.version":
                continue
            return line[:300]
    return "(no message)"


def error_line(text):
    """The line of a tool's stderr that says what failed: the first `error:`
    line when there is one, else the last line of a Python traceback, else
    the first line."""
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    for line in lines:
        if "error:" in line:
            return line[:300]
    if any(l.startswith("Traceback") for l in lines):
        return lines[-1][:300]
    return first_line(text)


def model_dirs(data_root, only):
    """(suite, test name, directory) of every backend test model."""
    found = []
    for suite in SUITES:
        suite_dir = os.path.join(data_root, suite)
        for name in sorted(os.listdir(suite_dir)):
            directory = os.path.join(suite_dir, name)
            if not name.startswith("test_"):
                continue
            if not os.path.exists(os.path.join(directory, "model.onnx")):
                continue
            if only and only not in f"{suite}/{name}":
                continue
            found.append((suite, name, directory))
    return found


def newest_mtime(directory):
    """The newest modification time of the files of a model's directory."""
    newest = 0.0
    for root, _, files in os.walk(directory):
        for file in files:
            newest = max(newest, os.path.getmtime(os.path.join(root, file)))
    return newest


def to_json_value(array, non_finite_as_strings=False):
    """A numpy array as the JSON value moonc takes: a number for rank 0, a
    nested list otherwise. NaN and infinities have no JSON number: in stored
    outputs they become the strings "nan", "inf" and "-inf" (run.py compares
    them); in inputs they make the model unusable (None)."""
    import numpy as np

    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        if not non_finite_as_strings:
            return None
        as_objects = array.astype(object)
        for index, value in np.ndenumerate(array):
            if not math.isfinite(value):
                as_objects[index] = "nan" if math.isnan(value) else (
                    "inf" if value > 0 else "-inf")
            else:
                as_objects[index] = float(value)
        return as_objects.tolist()
    if array.dtype.kind == "b":
        return array.astype(np.int64).tolist()
    return array.tolist()


def load_tensors(directory, prefix):
    """The tensors `<prefix>_<i>.pb` of test_data_set_0 in index order, as
    (numpy array, description) pairs; raises ValueError for what is not a
    plain numeric tensor (sequences, optionals, strings)."""
    import onnx
    from onnx import numpy_helper

    data_dir = os.path.join(directory, "test_data_set_0")
    files = []
    if os.path.isdir(data_dir):
        for file in os.listdir(data_dir):
            if file.startswith(prefix + "_") and file.endswith(".pb"):
                files.append((int(file[len(prefix) + 1 : -3]), file))
    arrays = []
    for _, file in sorted(files):
        with open(os.path.join(data_dir, file), "rb") as f:
            data = f.read()
        tensor = onnx.TensorProto()
        tensor.ParseFromString(data)
        if tensor.data_type == onnx.TensorProto.UNDEFINED:
            raise ValueError(f"{prefix} {file} is not a tensor (a sequence or optional)")
        if tensor.data_type == onnx.TensorProto.STRING:
            raise ValueError(f"{prefix} {file} is a string tensor")
        array = numpy_helper.to_array(tensor)
        arrays.append(array)
    return arrays


def describe(arrays):
    """dtype and shape of each array, for meta.json."""
    return [{"dtype": str(a.dtype), "shape": list(a.shape)} for a in arrays]


def run_tool(command, timeout):
    """Runs a command; returns (ok, stderr text)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"timed out after {timeout} s"
    return done.returncode == 0, done.stderr + done.stdout


def convert_one(job):
    """Converts one model (in a worker process); returns its meta record."""
    suite, name, source, out, torch_mlir_opt, timeout = job
    import onnx
    import onnx.version_converter

    meta = {"model": f"{suite}/{name}", "status": "failed"}
    started = time.time()
    os.makedirs(out, exist_ok=True)
    for stale in ("model.torch.mlir", "model.mlir", "inputs.json", "outputs.json"):
        if os.path.exists(os.path.join(out, stale)):
            os.remove(os.path.join(out, stale))

    def finish(**fields):
        if "error" in fields:
            fields["error"] = fields["error"].replace(out + os.sep, "")
        meta.update(fields)
        meta["seconds"] = round(time.time() - started, 2)
        with open(os.path.join(out, "meta.json.tmp"), "w") as f:
            json.dump(meta, f, indent=1)
        os.replace(os.path.join(out, "meta.json.tmp"), os.path.join(out, "meta.json"))
        return meta

    # The stored inputs and outputs first: a model without plain tensors
    # cannot be compared whatever torch-mlir does with it.
    try:
        inputs = load_tensors(source, "input")
        outputs = load_tensors(source, "output")
    except Exception as e:  # noqa: BLE001 (any parse failure is a result)
        return finish(stage="data", error=first_line(str(e)))
    meta["inputs"] = describe(inputs)
    meta["outputs"] = describe(outputs)

    try:
        model = onnx.load(os.path.join(source, "model.onnx"))
    except Exception as e:  # noqa: BLE001
        return finish(stage="load", error=first_line(str(e)))
    opset = next(
        (o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), None
    )
    meta["opset"] = opset
    if opset is not None and opset < TARGET_OPSET:
        try:
            model = onnx.version_converter.convert_version(model, TARGET_OPSET)
            meta["upgraded"] = f"{opset} -> {TARGET_OPSET}"
            # The converter leaves the IR version alone; opset 17 comes with
            # IR version 8, whose checker no longer demands that every
            # initializer (such as Pad's pads, an attribute before opset 11)
            # also be a graph input.
            if model.ir_version < 8:
                meta["upgraded"] += f", IR version {model.ir_version} -> 8"
                model.ir_version = 8
        except Exception as e:  # noqa: BLE001
            meta["upgraded"] = f"kept opset {opset}: conversion failed: {first_line(str(e))}"
    else:
        meta["upgraded"] = "no (already >= 17)"
    onnx_path = os.path.join(out, "model.onnx")
    onnx.save(model, onnx_path)

    torch_path = os.path.join(out, "model.torch.mlir")
    ok, err = run_tool(
        [sys.executable, "-W", "ignore", "-m", "torch_mlir.tools.import_onnx",
         onnx_path, "-o", torch_path, "--temp-dir", out],
        timeout,
    )
    if not ok:
        return finish(stage="import_onnx", error=error_line(err))

    mlir_path = os.path.join(out, "model.mlir")
    ok, err = run_tool(
        [torch_mlir_opt, torch_path,
         "--torch-onnx-to-torch-backend-pipeline",
         "--torch-backend-to-linalg-on-tensors-backend-pipeline",
         "-o", mlir_path],
        timeout,
    )
    if not ok:
        if os.path.exists(mlir_path):
            os.remove(mlir_path)
        return finish(stage="torch-mlir-opt", error=error_line(err))

    values_in = [to_json_value(a) for a in inputs]
    values_out = [to_json_value(a, non_finite_as_strings=True) for a in outputs]
    if any(v is None for v in values_in):
        return finish(stage="data", error="NaN or infinity in the stored inputs")
    with open(os.path.join(out, "inputs.json"), "w") as f:
        json.dump(values_in, f)
    with open(os.path.join(out, "outputs.json"), "w") as f:
        json.dump(values_out, f)
    return finish(status="ok")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="build directory, e.g. build/frontends/onnx")
    parser.add_argument("--jobs", type=int, default=2, help="models converted at once")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tool call")
    parser.add_argument("--only", help="convert only models whose suite/name contains this")
    args = parser.parse_args()

    import onnx
    import torch_mlir

    data_root = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data")
    torch_mlir_opt = os.path.join(
        list(torch_mlir.__path__)[0], "_mlir_libs", "torch-mlir-opt"
    )
    if not os.access(torch_mlir_opt, os.X_OK):
        sys.exit(f"convert.py: {torch_mlir_opt} is missing")
    out_root = os.path.abspath(args.out)
    os.makedirs(out_root, exist_ok=True)
    script_mtime = os.path.getmtime(SCRIPT)

    jobs, records = [], []
    for suite, name, source in model_dirs(data_root, args.only):
        out = os.path.join(out_root, suite, name)
        meta_path = os.path.join(out, "meta.json")
        if os.path.exists(meta_path):
            mtime = os.path.getmtime(meta_path)
            if mtime > script_mtime and mtime > newest_mtime(source):
                with open(meta_path) as f:
                    records.append(json.load(f))
                continue
        jobs.append((suite, name, source, out, torch_mlir_opt, args.timeout))

    cached = len(records)
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for meta in pool.map(convert_one, jobs):
            records.append(meta)
            line = "converted" if meta["status"] == "ok" else (
                f"FAILED at {meta['stage']}: {meta['error']}")
            print(f"{meta['model']}: {line}", flush=True)

    records.sort(key=lambda m: m["model"])
    with open(os.path.join(out_root, "summary.json"), "w") as f:
        json.dump(records, f, indent=1)
    ok = sum(1 for m in records if m["status"] == "ok")
    print(f"convert.py: {ok} of {len(records)} models converted "
          f"({len(jobs)} converted now, {cached} cached) into {out_root}")


if __name__ == "__main__":
    main()
