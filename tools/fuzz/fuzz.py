"""A mutation fuzzer for moonc-opt and moonc (`make fuzz`; docs/fuzzing.md).

It mutates the project's own lit inputs (test/**/*.mlir) a few tokens or
lines at a time, runs each mutant through the tools, and keeps those that
crash (a signal, a Rust panic, LLVM's crash report, moonc's status 70) or
hang (over the timeout) under OUT/crashes/, with the command and the end of
its stderr. Bad input must give an error, never a crash: every kept mutant
is a bug.

Usage: python3 fuzz.py --bin DIR [--mutants N] [--seed S] [--jobs J]
                       [--timeout SEC] [--out OUT] [--tools opt,run]
"""

import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import random
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What moonc-opt runs each mutant through.
OPT_PASSES = [[], ["--moon-autodiff"], ["--moon-autodiff", "--moon-cpu-pipeline"]]
# Replacements for numbers, types and keywords.
NUMBERS = ["0", "-1", "1", "2147483648", "-9223372036854775808", "1.0e308",
           "0x7FF8000000000000", "65536", "3"]
TYPES = ["f32", "f64", "i1", "i32", "i64", "index", "f16", "bf16", "memref<?xf64>",
         "tensor<3xf32>", "vector<4xf32>", "memref<f64>", "()"]
WORDS = ["scf.for", "scf.if", "scf.while", "linalg.generic", "memref.load",
         "memref.store", "arith.addf", "moon.grad", "moon.vjp", "moon.jvp",
         "func.call", "return", "yield", "}", "{", "(", ")", ",", ":", "%0"]


def seeds():
    """The lit inputs that parse as MLIR (the RUN and CHECK lines stay: they
    are comments)."""
    return sorted(p for p in (ROOT / "test").rglob("*.mlir") if p.stat().st_size < 20000)


def mutate(text, rng):
    """One to three random edits of `text`."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        i = rng.randrange(len(lines))
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1:
            lines.insert(rng.randrange(len(lines)), lines[i])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:
            lines[i] = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b",
                              lambda m: rng.choice(NUMBERS), lines[i], count=1)
        elif kind == 4:
            lines[i] = re.sub(r"\b(f32|f64|i1|i32|i64|index)\b",
                              lambda m: rng.choice(TYPES), lines[i], count=1)
        elif kind == 5:
            names = re.findall(r"%[\w.]+", text)
            if names:
                lines[i] = re.sub(r"%[\w.]+", lambda m: rng.choice(names), lines[i], count=1)
        elif kind == 6:
            words = lines[i].split(" ")
            k = rng.randrange(len(words))
            words[k] = rng.choice(WORDS)
            lines[i] = " ".join(words)
        else:
            cut = rng.randrange(len(text) + 1)
            return text[:cut]
    return "\n".join(lines)


def crashed(result):
    """Why `result` (a CompletedProcess, or None for a timeout) is a crash,
    or None when it is not one."""
    if result is None:
        return "hang"
    err = result.stderr
    if result.returncode < 0:
        return f"signal {-result.returncode}"
    for mark in ("panicked at", "PLEASE submit a bug report", "internal compiler error",
                 "Stack dump:", "stack overflow", "Assertion"):
        if mark in err:
            return mark
    if result.returncode in (70, 134, 139):
        return f"status {result.returncode}"
    return None


def run(command, timeout):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                              errors="replace")
    except subprocess.TimeoutExpired:
        return None


def call_arguments(text):
    """The `--entry` and `--args` of the first RUN line of `text` that has
    `--args` (what the seed is called with), or none."""
    for line in text.split("\n"):
        if "RUN:" in line and "--args" in line:
            found = re.search(r"--args[ =](?:'([^']*)'|\"([^\"]*)\")", line)
            entry = re.search(r"--entry[ =](\w+)", line)
            call = []
            if entry:
                call += ["--entry", entry.group(1)]
            if found:
                call += ["--args", found.group(1) if found.group(1) is not None else found.group(2)]
            return call
    return []


def check(args, index, source, text, work):
    """Runs mutant `index` through the tools; the crashes it finds."""
    path = work / f"m{index}.mlir"
    path.write_text(text)
    found = []
    commands = []
    if "opt" in args.tools:
        for passes in OPT_PASSES:
            commands.append([str(args.bin / "moonc-opt"), str(path), *passes, "-o", os.devnull])
    if "run" in args.tools:
        call = call_arguments(source.read_text())
        for verb in ("run", "grad", "check"):
            commands.append([str(args.bin / "moonc"), verb, str(path), *call])
    for command in commands:
        why = crashed(run(command, args.timeout))
        if why:
            found.append((why, command, source))
            break
    if not found:
        path.unlink()
    return index, text, found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", type=pathlib.Path, default=ROOT / "target/release")
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "build/fuzz")
    parser.add_argument("--tools", default="opt,run")
    args = parser.parse_args()
    args.tools = args.tools.split(",")
    rng = random.Random(args.seed)
    inputs = seeds()
    work = args.out / "work"
    crashes = args.out / "crashes"
    work.mkdir(parents=True, exist_ok=True)
    crashes.mkdir(parents=True, exist_ok=True)
    jobs = []
    for index in range(args.mutants):
        source = rng.choice(inputs)
        jobs.append((index, source, mutate(source.read_text(), rng)))
    kept = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check, args, i, s, t, work) for i, s, t in jobs]
        for future in concurrent.futures.as_completed(futures):
            index, text, found = future.result()
            for why, command, source in found:
                digest = hashlib.sha1(text.encode()).hexdigest()[:12]
                (crashes / f"{digest}.mlir").write_text(text)
                (crashes / f"{digest}.txt").write_text(
                    f"{why}\nfrom {source.relative_to(ROOT)}\n{' '.join(command)}\n")
                (work / f"m{index}.mlir").unlink(missing_ok=True)
                kept += 1
                print(f"crash ({why}): {crashes / digest}.mlir from {source.relative_to(ROOT)}",
                      flush=True)
    print(f"fuzz: {args.mutants} mutants (seed {args.seed}), {kept} crashes kept in {crashes}")
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())
