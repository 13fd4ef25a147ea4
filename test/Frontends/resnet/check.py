"""Converts a ResNet (make_resnet.py) from ONNX with torch-mlir, runs it with
moonc, checks its input gradient and times its compilation.

  check.py BUILD_DIR [--depth 50] [--size 32] [--width 16] [--batch 1]
           [--classes 1000] [--dtype float32] [--check-dtype float64] [--moonc PATH] [--max-compile-s 30]
           [--bench-ms 500] [--primal-bench] [--ort] [--skip-check]
           [--json FILE]

Runs with the frontend virtualenv's Python (`make frontend-venv`: onnx,
torch-mlir, numpy). In BUILD_DIR it writes:

  model.onnx        make_resnet.py's model with these options
  inputs.json       a fixed input image, `[image]`
  model.torch.mlir  torch-mlir's ONNX import
  model.mlir        after torch-mlir-opt's ONNX-to-torch and
                    torch-to-linalg-on-tensors pipelines
  model.loss.mlir   the model's function made private and a public
                    `@__loss(image) -> tensor<f32>` (f64 for a
                    double model) appended: the sum of the
                    logits times fixed pseudo-random weights in [-1, 1]

and then:

  run    `moonc run model.mlir` on the image, compared with the ONNX
         package's own reference interpreter (onnx.reference
         .ReferenceEvaluator, independent of torch-mlir and moonc):
         |got - want| <= 1e-4 (1 + |want|) for every logit.
  check  `moonc check model.loss.mlir --entry __loss --wrt 0` on the image:
         the JVP and the VJP of the loss with respect to the image against
         finite differences, and the dot-product test between them. By
         default on the same network in float64 (--check-dtype), converted
         the same way into BUILD_DIR/float64/: in float32 the rounding of 50
         layers (about 1e-6 relative) divided by a step small enough not to
         cross ReLU and max-pool kinks exceeds moonc check's 1e-2 tolerance
         (a direction failed at 3e-1 in float32, 2e-10 in float64).
  bench  `moonc bench model.loss.mlir --entry __loss`: compile_ms (from the
         file to a callable loss, which is the model plus one weighted sum)
         and grad_compile_ms (to a callable value and gradient), the loss's
         primal and value-and-gradient times; both compile times must stay
         under --max-compile-s. With --primal-bench also `moonc bench
         model.mlir --entry <model> --primal-only` (the model alone).
  ort    with --ort, onnxruntime's time for the model (median of as many
         runs as fit in --bench-ms, after a warm-up), for comparison only:
         the tests do not need onnxruntime.

Prints a short report (and with --json writes it as JSON); exit status 1
when a step fails or a compile takes --max-compile-s or longer.
"""

import argparse
import json
import math
import os
import re
import resource
import subprocess
import sys
import time

import numpy as np
import onnx
from onnx.reference import ReferenceEvaluator

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_resnet  # noqa: E402


def torch_mlir_opt():
    import torch_mlir  # a namespace package: no __file__

    root = list(torch_mlir.__path__)[0]
    path = os.path.join(root, "_mlir_libs", "torch-mlir-opt")
    if not os.path.exists(path):
        raise SystemExit(f"torch-mlir-opt not found in {root}/_mlir_libs")
    return path


def run(command, timeout=None):
    """Runs a command; returns (status, stdout, stderr, wall seconds, CPU
    seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        status, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        status, out, err = 124, e.stdout or "", (e.stderr or "") + f"\ntimed out after {timeout} s"
        out = out.decode() if isinstance(out, bytes) else out
        err = err.decode() if isinstance(err, bytes) else err
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, out, err, wall, cpu


def error_line(stderr, stdout="", status=None):
    if status is not None and status < 0:
        import signal

        return f"killed by {signal.Signals(-status).name}" + (f" ({stderr.strip()[:200]})" if stderr.strip() else "")
    for line in (stderr + "\n" + stdout).splitlines():
        if "error" in line.lower() or "FAIL" in line:
            return line.strip()[:400]
    lines = [l.strip() for l in (stderr or stdout).splitlines() if l.strip()]
    return lines[-1][:400] if lines else "(no message)"


FUNC_RE = re.compile(r'^(\s*)func\.func (?:public )?@([\w.$-]+)\((.*)\) -> (tensor<[^>]*>)')


def loss_module(text, classes_weights_seed=12345):
    """(model function name, input type, the module with the model private
    and @__loss appended)."""
    for line in text.splitlines():
        match = FUNC_RE.match(line)
        if match:
            break
    else:
        raise ValueError("no public func.func returning one tensor in model.mlir")
    indent, name, args, result = match.groups()
    if args.count("%") != 1:
        raise ValueError(f"the model takes {args.count('%')} arguments, not one: {args}")
    arg_type = args.split(":", 1)[1].strip()
    shape = [int(d) for d in result[len("tensor<") : -1].split("x")[:-1]]
    rng = np.random.default_rng(classes_weights_seed)
    weights = np.round(rng.uniform(-1.0, 1.0, shape), 2)
    literal = json.dumps(weights.tolist())
    dims = ", ".join(f"d{i}" for i in range(len(shape)))
    identity = f"affine_map<({dims}) -> ({dims})>"
    scalar = f"affine_map<({dims}) -> ()>"
    reductions = ", ".join(['"reduction"'] * len(shape))
    el = result[len("tensor<") : -1].split("x")[-1]
    loss = f"""  func.func @__loss(%x: {arg_type}) -> tensor<{el}> {{
    %y = func.call @{name}(%x) : ({arg_type}) -> {result}
    %w = arith.constant dense<{literal}> : {result}
    %zero = arith.constant 0.0 : {el}
    %empty = tensor.empty() : tensor<{el}>
    %acc = linalg.fill ins(%zero : {el}) outs(%empty : tensor<{el}>) -> tensor<{el}>
    %s = linalg.generic {{indexing_maps = [{identity}, {identity}, {scalar}], iterator_types = [{reductions}]}} ins(%y, %w : {result}, {result}) outs(%acc : tensor<{el}>) {{
    ^bb0(%a: {el}, %b: {el}, %c: {el}):
      %p = arith.mulf %a, %b : {el}
      %t = arith.addf %c, %p : {el}
      linalg.yield %t : {el}
    }} -> tensor<{el}>
    return %s : tensor<{el}>
  }}"""
    private = line.replace("func.func ", "func.func private ", 1).replace("private public ", "private ")
    text = text.replace(line, private, 1)
    end = text.rfind("\n}")
    if end < 0:
        raise ValueError("cannot find the end of the module")
    return name, arg_type, text[:end] + "\n" + loss + text[end:]


def count_ops(text):
    counts = {}
    for op in re.findall(r"\b(linalg\.[a-z_0-9]+|tensor\.pad|math\.[a-z]+)\b", text):
        if op != "linalg.yield":
            counts[op] = counts.get(op, 0) + 1
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build")
    parser.add_argument("--depth", type=int, default=50)
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"],
                        help="the model's element type for run and bench")
    parser.add_argument("--check-dtype", default="float64", choices=["float32", "float64"],
                        help="the element type of the model `moonc check` checks (a float32 network of 50 layers "
                        "is too noisy for finite differences)")
    parser.add_argument("--moonc", default=None, help="moonc binary (default: target/release/moonc of the checkout)")
    parser.add_argument("--max-compile-s", type=float, default=30.0)
    parser.add_argument("--bench-ms", type=int, default=500)
    parser.add_argument("--primal-bench", action="store_true", help="also time the model function alone")
    parser.add_argument("--ort", action="store_true", help="also time onnxruntime (for comparison only)")
    parser.add_argument("--skip-check", action="store_true", help="leave out `moonc check` (for the full size)")
    parser.add_argument("--skip-bench", action="store_true",
                        help="leave out `moonc bench` and its compile-time limit (tests are not timed: "
                             "bench/frontends/run.sh records the times)")
    parser.add_argument("--skip-reference", action="store_true", help="compare with onnxruntime instead of onnx.reference")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--json", help="write the report as JSON here")
    args = parser.parse_args(argv)

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    moonc = args.moonc or os.path.join(root, "target", "release", "moonc")
    os.makedirs(args.build, exist_ok=True)
    path = lambda name: os.path.join(args.build, name)  # noqa: E731
    report = {"failures": []}
    ok = True

    def fail(step, message):
        nonlocal ok
        ok = False
        report["failures"].append(f"{step}: {message}")
        print(f"FAIL {step}: {message}", flush=True)

    def prepare(directory, dtype):
        """Writes the model in dtype, its input, its conversion and its loss
        module into directory; returns (model, image, summary, entry,
        seconds to convert) or None after a failure."""
        os.makedirs(directory, exist_ok=True)
        here = lambda name: os.path.join(directory, name)  # noqa: E731
        model, summary = make_resnet.build(args.depth, args.size, args.batch, args.width, args.classes, dtype=dtype)
        onnx.save(model, here("model.onnx"))
        image = make_resnet.input_image(args.size, args.batch, 0, dtype)
        with open(here("inputs.json"), "w") as f:
            json.dump([image.tolist()], f)
        # torch-mlir: ONNX -> torch -> linalg on tensors.
        status, out, err, wall, _ = run(
            [sys.executable, "-m", "torch_mlir.tools.import_onnx", here("model.onnx"), "-o", here("model.torch.mlir")],
            args.timeout,
        )
        if status:
            fail(f"import ({dtype})", error_line(err, out, status))
            return None
        status, out, err, wall2, _ = run(
            [
                torch_mlir_opt(),
                here("model.torch.mlir"),
                "--torch-onnx-to-torch-backend-pipeline",
                "--torch-backend-to-linalg-on-tensors-backend-pipeline",
                "-o",
                here("model.mlir"),
            ],
            args.timeout,
        )
        if status:
            fail(f"convert ({dtype})", error_line(err, out, status))
            return None
        with open(here("model.mlir")) as f:
            text = f.read()
        try:
            entry, _, loss_text = loss_module(text)
        except ValueError as e:
            fail(f"loss ({dtype})", str(e))
            return None
        with open(here("model.loss.mlir"), "w") as f:
            f.write(loss_text)
        return model, image, summary, entry, round(wall + wall2, 2), count_ops(text)

    prepared = prepare(args.build, args.dtype)
    if prepared is None:
        return finish(report, args, ok)
    model, image, summary, entry, report["convert_s"], report["linalg_ops"] = prepared
    report["model"] = summary
    report["entry"] = entry
    print(
        f"model: ResNet-{args.depth} ({summary['block']} blocks {summary['stages']}), "
        f"{summary['layers']} layers ({summary['convolutions']} convolutions, {summary['batch_norms']} batch norms), "
        f"width {args.width}, input {args.batch}x3x{args.size}x{args.size}, {args.classes} classes, {args.dtype}, "
        f"{summary['parameters']} parameters, {summary['macs'] / 1e6:.1f} M multiply-adds",
        flush=True,
    )
    ops = report["linalg_ops"]
    print(
        f"converted in {report['convert_s']} s: @{entry}, "
        + ", ".join(f"{n} {op}" for op, n in sorted(ops.items(), key=lambda kv: -kv[1])),
        flush=True,
    )

    # The reference.
    start = time.perf_counter()
    if args.skip_reference:
        import onnxruntime

        session = onnxruntime.InferenceSession(path("model.onnx"), providers=["CPUExecutionProvider"])
        want = session.run(None, {"input": image})[0]
        report["reference"] = "onnxruntime"
    else:
        want = ReferenceEvaluator(model).run(None, {"input": image})[0]
        report["reference"] = "onnx.reference.ReferenceEvaluator"
    report["reference_s"] = round(time.perf_counter() - start, 2)

    # run
    status, out, err, wall, cpu = run(
        [moonc, "run", path("model.mlir"), "--entry", entry, "--args", "@" + path("inputs.json")], args.timeout
    )
    report["run_s"] = round(wall, 2)
    if status:
        fail("run", error_line(err, out, status))
    else:
        got = np.array(json.loads(out)["results"][0], dtype=np.float64)
        if got.shape != want.shape:
            fail("run", f"shape {list(got.shape)}, expected {list(want.shape)}")
        else:
            error = np.abs(got - want) / (1.0 + np.abs(want))
            report["run_max_rel_error"] = float(error.max())
            if not error.max() <= 1e-4:
                worst = np.unravel_index(np.argmax(error), error.shape)
                fail("run", f"logit {list(worst)} is {got[worst]}, {report['reference']} says {want[worst]}")
            else:
                print(
                    f"PASS run ({wall:.1f} s): {want.size} logits agree with {report['reference']} "
                    f"(max |d| / (1 + |want|) = {error.max():.1e})",
                    flush=True,
                )

    # check
    if not args.skip_check:
        check_dir = args.build if args.check_dtype == args.dtype else os.path.join(args.build, args.check_dtype)
        if check_dir == args.build or prepare(check_dir, args.check_dtype) is not None:
            here = lambda name: os.path.join(check_dir, name)  # noqa: E731
            status, out, err, wall, cpu = run(
                [moonc, "check", here("model.loss.mlir"), "--entry", "__loss", "--wrt", "0", "--args",
                 "@" + here("inputs.json")],
                args.timeout,
            )
            report["check_s"] = round(wall, 2)
            report["check_cpu_s"] = round(cpu, 2)
            with open(here("check.txt"), "w") as f:
                f.write(out + err)
            if status or "check: PASS" not in out:
                fail(f"check ({args.check_dtype})", error_line(err, out, status) + f" (the report is in {here('check.txt')})")
            else:
                print(
                    f"PASS check ({args.check_dtype}, {wall:.1f} s, {cpu:.1f} s of CPU): the input gradient's JVP "
                    "and VJP against finite differences, and the dot-product test",
                    flush=True,
                )

    # bench: compile times and run times.
    if args.skip_bench:
        status, out, err, wall, cpu = 0, None, "", 0.0, 0.0
    else:
        status, out, err, wall, cpu = run(
            [moonc, "bench", path("model.loss.mlir"), "--entry", "__loss", "--args", "@" + path("inputs.json"),
             "--time-ms", str(args.bench_ms)],
            args.timeout,
        )
    if status:
        fail("bench", error_line(err, out, status))
    elif out is not None:
        bench = json.loads(out)
        report["bench"] = bench
        report["bench_cpu_s"] = round(cpu, 2)
        compile_s, grad_compile_s = bench["compile_ms"] / 1e3, bench.get("grad_compile_ms", math.nan) / 1e3
        print(
            f"bench: compile {compile_s:.1f} s, gradient compile {grad_compile_s:.1f} s (wall, in-process; "
            f"the whole bench took {cpu:.1f} s of CPU in {wall:.1f} s), loss {bench['primal_ns'] / 1e6:.2f} ms, "
            f"value and gradient {bench.get('grad_ns', math.nan) / 1e6:.2f} ms "
            f"(ratio {bench.get('ratio', math.nan):.2f})",
            flush=True,
        )
        for field, seconds in (("compile", compile_s), ("gradient compile", grad_compile_s)):
            if not seconds < args.max_compile_s:
                fail("compile-time", f"{field} took {seconds:.1f} s, the limit is {args.max_compile_s:g} s")

    if args.primal_bench:
        status, out, err, wall, cpu = run(
            [moonc, "bench", path("model.mlir"), "--entry", entry, "--args", "@" + path("inputs.json"),
             "--primal-only", "--time-ms", str(args.bench_ms)],
            args.timeout,
        )
        if status:
            fail("primal-bench", error_line(err, out, status))
        else:
            bench = json.loads(out)
            report["primal_bench"] = bench
            print(
                f"primal bench: @{entry} {bench['primal_ns'] / 1e6:.2f} ms (min {bench['primal_min_ns'] / 1e6:.2f}), "
                f"compile {bench['compile_ms'] / 1e3:.1f} s",
                flush=True,
            )

    if args.ort:
        import onnxruntime

        options = onnxruntime.SessionOptions()
        session = onnxruntime.InferenceSession(path("model.onnx"), options, providers=["CPUExecutionProvider"])
        session.run(None, {"input": image})
        times = []
        deadline = time.perf_counter() + args.bench_ms / 1e3
        while time.perf_counter() < deadline or len(times) < 3:
            start = time.perf_counter_ns()
            session.run(None, {"input": image})
            times.append(time.perf_counter_ns() - start)
        report["ort_ns"] = float(np.median(times))
        report["ort_min_ns"] = float(min(times))
        report["ort_threads"] = options.intra_op_num_threads
        print(
            f"onnxruntime {onnxruntime.__version__}: {np.median(times) / 1e6:.2f} ms (min {min(times) / 1e6:.2f}, "
            f"{len(times)} runs, default threads)",
            flush=True,
        )
    return finish(report, args, ok)


def finish(report, args, ok):
    report["pass"] = ok
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print("resnet: PASS" if ok else "resnet: FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
