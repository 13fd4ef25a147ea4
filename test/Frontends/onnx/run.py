"""Runs and differentiates the ONNX backend models convert.py converted.

For every model that convert.py converted (OUT/summary.json, status "ok")
and that carries stored outputs:

  run   `moonc run model.mlir --args @inputs.json`, every result compared
        with outputs.json: |got - want| <= 1e-5 + 1e-4 |want| for floats
        (NaN and infinities must match), integers and booleans exactly, the
        shapes exactly.
  grad  for a model with a float input and a float output: model.loss.mlir,
        the module with its function made private and a public `@__loss`
        appended (the model's arguments; calls the model and returns the sum
        over its float outputs of their elementwise product with fixed
        pseudo-random weights, a rank-0 tensor, by linalg.generic
        reductions), checked by `moonc check model.loss.mlir --entry __loss
        --args @inputs.json` (with `--wrt` the float arguments when there are
        others): the JVP and the VJP against finite differences and the
        dot-product test.

Prints one line per model and step (`PASS run`, `FAIL run: reason`,
`PASS grad`, `FAIL grad: first line of the error`), then the pass rates, and
writes a markdown table of every failure to REPORT. The run rate counts the
models converted with stored outputs, the grad rate those of them with a
float input and a float output. Exit status 1 when a rate is below
--min-run or --min-grad (percent). Each moonc call has --timeout seconds;
one that takes longer fails its step.

Usage: run.py OUT --report FILE [--min-run P] [--min-grad P] [--jobs N]
              [--timeout S] [--moonc PATH] [--only SUBSTRING]
"""

import argparse
import concurrent.futures
import json
import math
import os
import re
import subprocess
import sys
import time
import zlib

FLOAT_DTYPES = ("float16", "float32", "float64", "bfloat16")
ELEMENT_TYPES = {"float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16"}


def split_top_level(text, separator=","):
    """Splits at separators outside <>, (), [] and {}."""
    parts, depth, current = [], 0, []
    for char in text:
        if char in "<([{":
            depth += 1
        elif char in ">)]}":
            depth -= 1
        if char == separator and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


FUNC_RE = re.compile(r'^\s*func\.func (?:public )?@("[^"]+"|[\w.$-]+)\(')


def model_function(text):
    """(symbol as written, argument types, result types, the signature line)
    of the module's one public function."""
    for line in text.splitlines():
        match = FUNC_RE.match(line)
        if not match:
            continue
        symbol = match.group(1)
        # The argument list ends at the parenthesis matching the one after
        # the name (tensor types hold none).
        start = match.end()
        depth, end = 1, start
        while depth and end < len(line):
            depth += {"(": 1, ")": -1}.get(line[end], 0)
            end += 1
        args, rest = line[start : end - 1], line[end:]
        rest = rest.rstrip().removesuffix("{")
        arg_types = [a.split(":", 1)[1].strip() for a in split_top_level(args)]
        arg_types = [re.sub(r"\s*\{.*\}$", "", t) for t in arg_types]
        rest = re.sub(r"\s*attributes\s*\{.*\}\s*$", "", rest).strip()
        result_types = []
        if rest.startswith("->"):
            rest = rest[2:].strip()
            if rest.startswith("("):
                rest = rest[1:-1]
            result_types = [re.sub(r"\s*\{.*\}$", "", t) for t in split_top_level(rest)]
        return symbol, arg_types, result_types, line
    return None


def tensor_shape(type_text):
    """Shape and element type of `tensor<2x3xf32>` (a shape of () for
    tensor<f32>); None for what is not a ranked tensor."""
    match = re.fullmatch(r"tensor<(.*)>", type_text)
    if not match:
        return None
    dims = match.group(1).split("x")
    return [None if d == "?" else int(d) for d in dims[:-1]], dims[-1]


class Lcg:
    """A small deterministic generator: the loss weights depend only on the
    model's name."""

    def __init__(self, seed):
        self.state = seed or 1

    def weight(self):
        """The next weight, in [-1, 1] with two decimals."""
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % 2**64
        return round((self.state >> 11) / 2**53 * 2 - 1, 2)


def dense_literal(shape, rng):
    """A nested dense<...> literal of weights for the shape."""
    if not shape:
        return repr(rng.weight())

    def nest(level):
        if level == len(shape) - 1:
            return "[" + ", ".join(repr(rng.weight()) for _ in range(shape[level])) + "]"
        return "[" + ", ".join(nest(level + 1) for _ in range(shape[level])) + "]"

    return nest(0)


def loss_function(name, symbol, arg_types, result_types):
    """The text of `@__loss`: calls the model and sums its float outputs
    weighted elementwise, each by a linalg.generic reducing into a rank-0
    accumulator. None when no output qualifies."""
    rng = Lcg(zlib.crc32(name.encode()))
    float_outputs = []
    for index, type_text in enumerate(result_types):
        parsed = tensor_shape(type_text)
        if parsed and parsed[1] in ("f16", "bf16", "f32", "f64") and None not in parsed[0]:
            if 0 not in parsed[0]:
                float_outputs.append((index, type_text, parsed[0], parsed[1]))
    if not float_outputs:
        return None
    acc = "f64" if all(o[3] == "f64" for o in float_outputs) else "f32"
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(arg_types))
    arg_names = ", ".join(f"%arg{i}" for i in range(len(arg_types)))
    results = "(" + ", ".join(result_types) + ")"
    result_type = f"tensor<{acc}>"
    lines = [
        f"  func.func @__loss({args}) -> {result_type} {{",
        f"    %r{':' + str(len(result_types)) if len(result_types) > 1 else ''} = "
        f"func.call @{symbol}({arg_names}) : ({', '.join(arg_types)}) -> {results}",
        f"    %zero = arith.constant 0.0 : {acc}",
        f"    %empty = tensor.empty() : tensor<{acc}>",
        f"    %s0 = linalg.fill ins(%zero : {acc}) outs(%empty : tensor<{acc}>) -> tensor<{acc}>",
    ]
    for k, (index, type_text, shape, element) in enumerate(float_outputs):
        value = f"%r#{index}" if len(result_types) > 1 else "%r"
        lines.append(f"    %w{k} = arith.constant dense<{dense_literal(shape, rng)}> : {type_text}")
        # Two stages, each summing about sqrt(n) terms: a sequential f32 sum
        # of 10^5 terms rounds by more than a finite difference's step
        # changes it. The first stage keeps the leading dimensions whose
        # size is nearest sqrt(n) and sums the others.
        size = math.prod(shape)
        keep, best = 0, size
        for count in range(len(shape)):
            leading = math.prod(shape[:count])
            if abs(math.log(max(leading, 1)) - math.log(max(size, 1)) / 2) < abs(
                math.log(max(best, 1)) - math.log(max(size, 1)) / 2):
                keep, best = count, leading
        dims = ", ".join(f"d{i}" for i in range(len(shape)))
        identity = f"affine_map<({dims}) -> ({dims})>"
        kept = ", ".join(f"d{i}" for i in range(keep))
        partial_map = f"affine_map<({dims}) -> ({kept})>"
        iterators = ", ".join(['"parallel"'] * keep + ['"reduction"'] * (len(shape) - keep))
        if keep:
            partial_type = f"tensor<{'x'.join(str(d) for d in shape[:keep])}x{acc}>"
            lines.append(f"    %e{k} = tensor.empty() : {partial_type}")
            lines.append(f"    %z{k} = linalg.fill ins(%zero : {acc}) outs(%e{k} : {partial_type}) -> {partial_type}")
            target, target_type = f"%z{k}", partial_type
        else:
            target, target_type = f"%s{k}", f"tensor<{acc}>"
        name = f"%p{k}" if keep else f"%s{k + 1}"
        lines.append(
            f"    {name} = linalg.generic {{indexing_maps = [{identity}, {identity}, {partial_map}], "
            f"iterator_types = [{iterators}]}} ins({value}, %w{k} : {type_text}, {type_text}) "
            f"outs({target} : {target_type}) {{"
        )
        lines.append(f"    ^bb0(%x: {element}, %w: {element}, %a: {acc}):")
        lines.append(f"      %p = arith.mulf %x, %w : {element}")
        product = "%p"
        if element != acc:
            widths = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
            cast = "arith.extf" if widths[element] < widths[acc] else "arith.truncf"
            lines.append(f"      %pc = {cast} %p : {element} to {acc}")
            product = "%pc"
        lines.append(f"      %t = arith.addf %a, {product} : {acc}")
        lines.append(f"      linalg.yield %t : {acc}")
        lines.append(f"    }} -> {target_type}")
        if keep:
            kdims = ", ".join(f"d{i}" for i in range(keep))
            reductions = ", ".join(['"reduction"'] * keep)
            lines.append(
                f"    %s{k + 1} = linalg.generic {{indexing_maps = [affine_map<({kdims}) -> ({kdims})>, "
                f"affine_map<({kdims}) -> ()>], iterator_types = [{reductions}]}} "
                f"ins(%p{k} : {partial_type}) outs(%s{k} : tensor<{acc}>) {{"
            )
            lines.append(f"    ^bb0(%x: {acc}, %a: {acc}):")
            lines.append(f"      %t = arith.addf %a, %x : {acc}")
            lines.append(f"      linalg.yield %t : {acc}")
            lines.append(f"    }} -> tensor<{acc}>")
    total = f"%s{len(float_outputs)}"
    lines.append(f"    return {total} : tensor<{acc}>")
    lines.append("  }")
    return "\n".join(lines)


def loss_module(name, text):
    """The model's module with its function private and @__loss appended;
    (None, reason) when it cannot be made."""
    function = model_function(text)
    if function is None:
        return None, "no public func.func in model.mlir"
    symbol, arg_types, result_types, line = function
    loss = loss_function(name, symbol, arg_types, result_types)
    if loss is None:
        return None, "no float output of static shape"
    private = line.replace("func.func ", "func.func private ", 1).replace(
        "private public ", "private ")
    text = text.replace(line, private, 1)
    # The module's closing brace: the last line that is a lone "}".
    module_end = text.rfind("\n}\n")
    if module_end < 0:
        return None, "cannot find the end of the module"
    return text[:module_end] + "\n" + loss + text[module_end:], None


def run_command(command, timeout):
    """(exit status or None on timeout, stdout, stderr, seconds)."""
    started = time.time()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "", time.time() - started
    return done.returncode, done.stdout, done.stderr, time.time() - started


def error_line(stderr, stdout="", status=None):
    """The first line that says what failed."""
    if status is not None and status < 0:
        return f"killed by signal {-status}: {error_line(stderr, stdout)}"
    for text in (stderr, stdout):
        for line in text.splitlines():
            if "error" in line.lower() or "FAIL" in line or "panicked" in line:
                # Drop the file and position before "error:": the table
                # names the model.
                line = re.sub(r"^\S*\.mlir:\d+:\d+: ", "", line.strip())
                return line[:300]
    for text in (stderr, stdout):
        for line in text.splitlines():
            if line.strip():
                return line.strip()[:300]
    return "(no message)"


def shape_of(value):
    """Shape of a nested list (a number: ())."""
    shape = []
    while isinstance(value, list):
        shape.append(len(value))
        value = value[0] if value else None
    return tuple(shape)


def flatten(value):
    """The leaves of a nested list in row-major order."""
    if isinstance(value, list):
        for item in value:
            yield from flatten(item)
    else:
        yield value


def as_float(value):
    """A JSON leaf as a float: numbers, the strings convert.py writes for
    non-finite outputs, and null or strings moonc may print for them."""
    if value is None:
        return math.nan
    if isinstance(value, str):
        return float(value.lower().replace("infinity", "inf"))
    return float(value)


def compare(got, want, meta_outputs):
    """None when the results match the stored outputs, else the reason."""
    if len(got) != len(want):
        return f"{len(got)} results, {len(want)} stored outputs"
    for index, (g, w, info) in enumerate(zip(got, want, meta_outputs)):
        if shape_of(g) != shape_of(w):
            return f"output #{index}: shape {list(shape_of(g))}, want {list(shape_of(w))}"
        is_float = info["dtype"] in FLOAT_DTYPES
        worst = None
        for position, (x, y) in enumerate(zip(flatten(g), flatten(w))):
            if is_float:
                x, y = as_float(x), as_float(y)
                if math.isnan(y) or math.isinf(y):
                    ok = (math.isnan(x) and math.isnan(y)) or x == y
                else:
                    ok = abs(x - y) <= 1e-5 + 1e-4 * abs(y)
            else:
                ok = int(x) == int(y)
            if not ok and worst is None:
                worst = (position, x, y)
        if worst is not None:
            return (f"output #{index} ({info['dtype']}): element {worst[0]} is "
                    f"{worst[1]!r}, want {worst[2]!r}")
    return None


def grad_inputs(name, directory, meta):
    """Where moonc check evaluates the derivatives: (the --args file, a note
    or None). Usually the stored inputs; two kinds of stored data say
    nothing about derivatives there, and get other points (the note says
    which):
    - inputs that are uninitialized memory (subnormals or magnitudes above
      1e30: some pytorch-operator models' f64 data), replaced by
      pseudo-random values in [-1, 1];
    - stored outputs that are not finite (the inputs lie outside the
      model's domain: Sqrt or Pow of negative numbers): the absolute values
      of the float inputs."""
    with open(os.path.join(directory, "inputs.json")) as f:
        values = json.load(f)
    with open(os.path.join(directory, "outputs.json")) as f:
        outputs = json.load(f)
    float_args = [d["dtype"] in FLOAT_DTYPES for d in meta["inputs"]]
    rng = Lcg(zlib.crc32(name.encode()) + 1)

    def garbage(x):
        return isinstance(x, float) and (abs(x) > 1e30 or (x != 0 and abs(x) < 1e-30))

    def remap(value, leaf):
        if isinstance(value, list):
            return [remap(v, leaf) for v in value]
        return leaf(value)

    note = None
    if any(garbage(x) for v, f in zip(values, float_args) if f for x in flatten(v)):
        values = [remap(v, lambda x: rng.weight()) if f else v
                  for v, f in zip(values, float_args)]
        note = "stored inputs are uninitialized memory: checked at pseudo-random inputs"
    elif any(isinstance(x, str) for x in flatten(outputs)):
        values = [remap(v, abs) if f else v for v, f in zip(values, float_args)]
        note = "stored outputs are not finite: checked at the inputs' absolute values"
    if note is None:
        return os.path.join(directory, "inputs.json"), None
    path = os.path.join(directory, "inputs.grad.json")
    with open(path, "w") as f:
        json.dump(values, f)
    return path, note


def check_in_f64(command, loss_text, loss_path, timeout, reason, note):
    """The issue checks gradients "in f64 where the model allows": when the
    f32 checks fail, the same model with every f32 made f64 is checked
    (f32 finite differences cannot resolve a derivative next to a kink,
    such as max pooling's). Returns the new (reason, note)."""
    text = loss_text.replace("f32", "f64")
    text = text.replace("0xFF800000", "0xFFF0000000000000").replace("0x7F800000", "0x7FF0000000000000")
    if "extf" in text or "truncf" in text or re.search(r"0x[0-9A-Fa-f]{8}\b", text):
        return reason, note
    path = loss_path.replace(".mlir", ".f64.mlir")
    with open(path, "w") as f:
        f.write(text)
    command = [path if c == loss_path else c for c in command]
    status, stdout, stderr, _ = run_command(command, timeout)
    if status != 0:
        return reason, note
    f32 = f"checked in f64; in f32: {reason}"
    return None, f"{note}; {f32}" if note else f32


def process(job):
    """Runs one model's steps; returns its name and [(step, ok, reason)]."""
    name, directory, meta, options = job
    steps = []
    model = os.path.join(directory, "model.mlir")
    inputs = "@" + os.path.join(directory, "inputs.json")
    moonc, timeout = options["moonc"], options["timeout"]

    # run
    reason = None
    status, stdout, stderr, _ = run_command([moonc, "run", model, "--args", inputs], timeout)
    if status is None:
        reason = f"timed out after {timeout} s"
    elif status != 0:
        reason = error_line(stderr, stdout, status)
    else:
        try:
            got = json.loads(stdout)["results"]
        except (ValueError, KeyError) as e:
            got, reason = None, f"unreadable moonc output: {e}"
        if got is not None:
            with open(os.path.join(directory, "outputs.json")) as f:
                want = json.load(f)
            reason = compare(got, want, meta["outputs"])
    steps.append(("run", reason is None, reason))

    # grad
    float_args = [i for i, d in enumerate(meta["inputs"]) if d["dtype"] in FLOAT_DTYPES]
    has_float_output = any(d["dtype"] in FLOAT_DTYPES for d in meta["outputs"])
    if float_args and has_float_output:
        with open(model) as f:
            text = f.read()
        loss_text, reason = loss_module(name, text)
        loss_path = os.path.join(directory, "model.loss.mlir")
        if loss_text is not None:
            with open(loss_path, "w") as f:
                f.write(loss_text)
        note = None
        if reason is None:
            args_path, note = grad_inputs(name, directory, meta)
            command = [moonc, "check", loss_path, "--entry", "__loss", "--args", "@" + args_path]
            if len(float_args) < len(meta["inputs"]):
                command += ["--wrt", ",".join(str(i) for i in float_args)]
            status, stdout, stderr, _ = run_command(command, timeout)
            if status is None:
                reason = f"timed out after {timeout} s"
            elif status != 0:
                reason = error_line(stderr, stdout, status)
                failed = [l.strip() for l in stdout.splitlines() if ": FAIL" in l]
                if failed and "checks failed" in reason:
                    count = re.search(r"\d+ of \d+ checks failed", reason)
                    reason = f"{count.group(0) if count else 'checks failed'}; first: {failed[0]}"
            with open(os.path.join(directory, "check.txt"), "w") as f:
                f.write(" ".join(command) + "\n" + stdout + stderr)
            if reason is not None and "checks failed" in reason:
                reason, note = check_in_f64(command, loss_text, loss_path, timeout, reason, note)
        if note and reason is not None:
            reason += f" ({note})"
        steps.append(("grad", reason is None, reason if reason else note))
    return name, steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="convert.py's build directory")
    parser.add_argument("--report", required=True, help="markdown table of the failures")
    parser.add_argument("--min-run", type=float, default=0.0, help="percent")
    parser.add_argument("--min-grad", type=float, default=0.0, help="percent")
    parser.add_argument("--jobs", type=int, default=2, help="models at once")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per moonc call")
    parser.add_argument("--moonc", default="moonc", help="the moonc binary")
    parser.add_argument("--only", help="models whose suite/name contains this")
    args = parser.parse_args()

    out = os.path.abspath(args.out)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    options = {"moonc": args.moonc, "timeout": args.timeout}
    jobs = []
    for meta in summary:
        if meta["status"] != "ok" or not meta.get("outputs"):
            continue
        if args.only and args.only not in meta["model"]:
            continue
        jobs.append((meta["model"], os.path.join(out, meta["model"]), meta, options))

    counts = {"run": [0, 0], "grad": [0, 0]}
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, steps in pool.map(process, jobs):
            for step, ok, reason in steps:
                counts[step][1] += 1
                if ok:
                    counts[step][0] += 1
                    print(f"{name}: PASS {step}" + (f" ({reason})" if reason else ""),
                          flush=True)
                else:
                    failures.append((name, step, reason))
                    print(f"{name}: FAIL {step}: {reason}", flush=True)

    def rate(step):
        passed, total = counts[step]
        return 100.0 * passed / total if total else 100.0

    converted = sum(1 for m in summary if m["status"] == "ok")
    print(f"run.py: {len(summary)} models, {converted} converted by torch-mlir, "
          f"{len(jobs)} run")
    for step in ("run", "grad"):
        passed, total = counts[step]
        print(f"run.py: {step}: {passed} of {total} passed ({rate(step):.1f}%)")

    with open(args.report, "w") as f:
        f.write("| model | step | reason |\n|---|---|---|\n")
        for name, step, reason in sorted(failures):
            reason = reason.replace("|", "\\|")
            f.write(f"| {name} | {step} | {reason} |\n")
        for meta in summary:
            if meta["status"] != "ok":
                reason = f"{meta['stage']}: {meta['error']}".replace("|", "\\|")
                f.write(f"| {meta['model']} | convert | {reason} |\n")

    below = [s for s, minimum in (("run", args.min_run), ("grad", args.min_grad))
             if rate(s) < minimum]
    if below:
        for step in below:
            minimum = args.min_run if step == "run" else args.min_grad
            print(f"run.py: the {step} pass rate {rate(step):.1f}% is below {minimum}%",
                  file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
