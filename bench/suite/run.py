# bench/suite/run.py: the suite, moonc and JAX side by side (`make bench`).
"""Runs every workload of bench/suite/workloads/ through moonc and JAX in
one run (the GradBench evals' MLIR is moonc's own, in
tools/moonc-gradbench/workloads/), checks that both compute the same value
and gradient, and prints a table; writes bench/results/results.json,
results.md and ratios.png, and the table into README.md. See
bench/suite/README.md.

Usage: run.py [--only NAME[,NAME...]] [--processes N] [--time-ms MS]
              [--no-jax] [--out DIR] [--no-readme]

Run it with the bench virtualenv's Python (`make bench-venv`: JAX for CPU,
numpy, matplotlib); `MOONC` picks the moonc binary.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SUITE = Path(__file__).resolve().parent
ROOT = SUITE.parent.parent
sys.path.insert(0, str(SUITE))

from common import RTOL, Case, median_ns, mlir_path, rel_err  # noqa: E402

MOONC = os.environ.get("MOONC", str(ROOT / "target/release/moonc"))
# The order of the table's groups, then each family's own order.
GROUPS = ["seed", "mooncake", "gradbench"]
FAMILIES = ["seed", "mooncake", "lse", "llsq", "gmm", "lstm", "ode", "ba"]
# Time-to-first-gradient targets of the issue, in seconds.
FIRST_GRADIENT_TARGETS = {"seed": 0.2, "gmm": 2.0}


def load_cases(only: set[str] | None) -> list[Case]:
    """Every family's cases, in table order; `only` keeps those named."""
    cases = []
    names = sorted(p.stem for p in (SUITE / "workloads").glob("*.py"))
    for family in sorted(names, key=lambda f: (FAMILIES + [f]).index(f)):
        spec = importlib.util.spec_from_file_location(family, SUITE / "workloads" / f"{family}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for case in module.cases():
            case.family = family
            if not only or case.name in only:
                cases.append(case)
    return sorted(cases, key=lambda c: GROUPS.index(c.group))


def moonc(*args: str) -> dict:
    """Runs moonc and parses its JSON output; a failure stops the run."""
    out = subprocess.run([MOONC, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"moonc {' '.join(args)}:\n{out.stderr.strip()}")
    return json.loads(out.stdout)


def write_args(work: Path, name: str, args: list) -> str:
    path = work / f"{name}.json"
    path.write_text(json.dumps(args))
    return f"@{path}"


def wrt_options(case: Case) -> list[str]:
    return ["--wrt", ",".join(map(str, case.wrt))] if case.wrt is not None else []


def run_moonc(case: Case, work: Path, processes: int, time_ms: int) -> dict:
    """Times the case in `processes` moonc processes (the one with the
    median ratio is kept, with the range) and computes its value and
    derivative on the check arguments."""
    mlir = str(mlir_path(case))
    timing = ["--time-ms", str(time_ms), *case.moonc_options]
    args = write_args(work, case.name, case.args)
    runs = []
    for _ in range(processes):
        if case.derivative:
            d = case.derivative
            primal = moonc("bench", mlir, "--entry", case.entry, "--args", args, "--primal-only", *timing)
            deriv = moonc("bench", mlir, "--entry", d.entry, "--args", write_args(work, f"{case.name}.d", d.args),
                          "--primal-only", *timing)
            run = {"primal_ns": primal["primal_ns"], "grad_ns": deriv["primal_ns"],
                   "compile_ms": primal["compile_ms"], "grad_compile_ms": deriv["compile_ms"]}
            run["ratio"] = run["grad_ns"] / run["primal_ns"]
        else:
            run = moonc("bench", mlir, "--entry", case.entry, "--args", args, *wrt_options(case), *timing)
        runs.append(run)
    runs.sort(key=lambda r: r["ratio"])
    result = dict(runs[len(runs) // 2])
    result["ratio_range"] = [runs[0]["ratio"], runs[-1]["ratio"]]

    check_args = case.check_args if case.check_args is not None else case.args
    if case.derivative:
        d = case.derivative
        value = moonc("run", mlir, "--entry", case.entry, "--args", write_args(work, f"{case.name}.c", check_args))
        out = moonc("run", mlir, "--entry", d.entry, "--args", write_args(work, f"{case.name}.dc", d.args))
        result["check"] = {"value": value["results"][0], "derivative": out["args"][d.out]}
    else:
        grad = moonc("grad", mlir, "--entry", case.entry, "--args",
                     write_args(work, f"{case.name}.c", check_args), *wrt_options(case))
        result["check"] = {"value": grad["value"], "derivative": grad["gradient"]}
    return result


def run_jax(case: Case, moonc_result: dict, time_ms: int) -> dict:
    """Times JAX's jitted primal and derivative on the case's arguments,
    the time to its first derivative, and compares its value and
    derivative with moonc's on the check arguments."""
    import jax
    import numpy as np

    def convert(args):
        return [a if isinstance(a, int) else np.asarray(a, dtype=np.float64) for a in args]

    args = convert(case.args)
    static = [i for i, a in enumerate(case.args) if isinstance(a, int)]
    floats = [i for i in range(len(args)) if i not in static]
    argnums = tuple(case.wrt if case.wrt is not None else floats)
    primal = jax.jit(case.jax, static_argnums=static)
    if case.derivative:
        derivative = jax.jit(case.derivative.jax, static_argnums=static)
    else:
        derivative = jax.jit(jax.value_and_grad(case.jax, argnums=argnums), static_argnums=static)

    start = time.perf_counter()
    jax.block_until_ready(derivative(*args))
    first = time.perf_counter() - start
    jax.block_until_ready(primal(*args))
    result = {
        "primal_ns": median_ns(primal, args, time_ms)[0],
        "grad_ns": median_ns(derivative, args, time_ms)[0],
        "first_gradient_s": first,
    }
    result["ratio"] = result["grad_ns"] / result["primal_ns"]

    check_args = convert(case.check_args) if case.check_args is not None else args
    check = moonc_result["check"]
    value = primal(*check_args)
    result["value_rel_err"] = rel_err(check["value"], value)
    if case.derivative:
        result["derivative_rel_err"] = rel_err(check["derivative"], derivative(*check_args))
    else:
        _, grads = derivative(*check_args)
        result["derivative_rel_err"] = max(rel_err(check["derivative"][i], g) for i, g in zip(argnums, grads))
    result["agrees"] = max(result["value_rel_err"], result["derivative_rel_err"]) <= (case.rtol or RTOL)
    return result


def machine() -> dict:
    """The machine and the versions the run used."""
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor())
    info = {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    info["moonc"] = rev.stdout.strip() or "unknown"
    llvm = subprocess.run(["llvm-config-22", "--version"], capture_output=True, text=True)
    info["llvm"] = llvm.stdout.strip() or "19"
    try:
        import jax
        import jaxlib
        info["jax"] = f"{jax.__version__} (jaxlib {jaxlib.__version__}, CPU, x64)"
    except ImportError:
        pass
    return info


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def table(rows: list[dict]) -> list[str]:
    """The results as a Markdown table."""
    lines = [
        "| workload | moonc primal | moonc value+grad | ratio (range) | target | JAX primal | JAX value+grad | JAX ratio "
        "| speed-up over JAX | first gradient (moonc / JAX) | agree |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        m, j = r["moonc"], r.get("jax")
        lo, hi = m["ratio_range"]
        target = r["target"]
        mark = "" if target is None or m["ratio"] <= target else " **missed**"
        speedup = f"{j['grad_ns'] / m['grad_ns']:.2f}×" if j else "-"
        first = f"{m['grad_compile_ms'] / 1e3:.3f} s / " + (f"{j['first_gradient_s']:.3f} s" if j else "-")
        agree = "-" if not j else ("yes" if j["agrees"] else f"**NO** ({max(j['value_rel_err'], j['derivative_rel_err']):.1e})")
        target_text = "-" if target is None else f"≤ {target:g}"
        jax_cols = [fmt_ns(j["primal_ns"]), fmt_ns(j["grad_ns"]), f"{j['ratio']:.2f}"] if j else ["-"] * 3
        lines.append(
            f"| {r['name']} | {fmt_ns(m['primal_ns'])} | {fmt_ns(m['grad_ns'])} | {m['ratio']:.2f} ({lo:.2f}–{hi:.2f}) "
            f"| {target_text}{mark} | {' | '.join(jax_cols)} | {speedup} | {first} | {agree} |"
        )
    return lines


def chart(rows: list[dict], info: dict, path: Path) -> None:
    """Bars of the ratio (value+grad ÷ own primal) per workload, moonc next
    to JAX, and moonc's speed-up over JAX (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    names = [r["name"] for r in rows]
    x = np.arange(len(rows))
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(max(8, 0.6 * len(rows)), 8), sharex=True)
    top.bar(x - 0.2, [r["moonc"]["ratio"] for r in rows], 0.4, label="moonc")
    top.bar(x + 0.2, [r["jax"]["ratio"] if r.get("jax") else 0 for r in rows], 0.4, label="JAX")
    for i, r in enumerate(rows):
        if r["target"] is not None:
            top.plot([i - 0.4, i + 0.4], [r["target"]] * 2, color="black", linewidth=1)
    top.set_ylabel("value+gradient ÷ own primal")
    top.set_yscale("log")
    top.legend()
    top.set_title(f"moonc vs JAX ({info['cpu']}, {info['cores']} cores); black: target")
    speedups = [r["jax"]["grad_ns"] / r["moonc"]["grad_ns"] if r.get("jax") else 0 for r in rows]
    bottom.bar(x, speedups, 0.6, color="tab:green")
    bottom.axhline(1, color="black", linewidth=1)
    bottom.set_yscale("log")
    bottom.set_ylabel("moonc speed-up over JAX\n(value+gradient time)")
    bottom.set_xticks(x, names, rotation=60, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def update_readme(lines: list[str], info: dict) -> None:
    """Replaces the table between README.md's bench markers."""
    readme = ROOT / "README.md"
    text = readme.read_text()
    begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
    if begin not in text or end not in text:
        return
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = "\n".join([begin, "", f"From `make bench` on {info['cpu']} ({info['cores']} cores), moonc {info['moonc']}, "
                      f"JAX {info.get('jax', 'not run')}:", "", *lines, "",
                      "![ratios](bench/results/ratios.png)", "", end])
    readme.write_text(head + body + tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--processes", type=int, default=3, help="moonc bench processes per workload")
    parser.add_argument("--time-ms", type=int, default=500, help="sampling time per timing")
    parser.add_argument("--no-jax", action="store_true")
    parser.add_argument("--out", default=str(ROOT / "bench/results"))
    parser.add_argument("--no-readme", action="store_true", help="leave README.md as it is")
    opts = parser.parse_args()

    jax_ok = False
    if not opts.no_jax:
        try:
            import jax

            jax.config.update("jax_enable_x64", True)
            jax_ok = True
        except ImportError:
            print(f"JAX skipped: {sys.executable} cannot import jax (`make bench-venv`)", file=sys.stderr)

    cases = load_cases(set(opts.only.split(",")) if opts.only else None)
    info = machine()
    rows = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for case in cases:
            print(f"bench/suite: {case.name} ...", file=sys.stderr, flush=True)
            row = {"name": case.name, "group": case.group, "family": case.family, "mlir": case.mlir,
                   "entry": case.entry, "target": case.target, "note": case.note,
                   "moonc": run_moonc(case, Path(tmp), opts.processes, opts.time_ms)}
            if jax_ok and case.jax is not None:
                row["jax"] = run_jax(case, row["moonc"], opts.time_ms)
            # The value and derivative were for the check; results.json
            # keeps the timings and the errors.
            del row["moonc"]["check"]
            rows.append(row)
    info["seconds"] = round(time.perf_counter() - started, 1)

    lines = table(rows)
    print(f"bench/suite on {info['cpu']}, {info['cores']} cores; moonc {info['moonc']}, LLVM {info['llvm']}, "
          f"JAX {info.get('jax', 'not run')}; {info['seconds']} s")
    print("\n".join(lines))
    notes = [f"- {r['name']}: {r['note']}" for r in rows if r["note"]]
    if notes:
        print("JAX formulations:\n" + "\n".join(notes))
    for r in rows:
        first = FIRST_GRADIENT_TARGETS.get(r["group"], FIRST_GRADIENT_TARGETS.get(r["family"]))
        if first is not None and r["moonc"]["grad_compile_ms"] / 1e3 > first:
            print(f"- {r['name']}: first gradient {r['moonc']['grad_compile_ms'] / 1e3:.3f} s, target {first} s: missed")

    out = Path(opts.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.json").write_text(json.dumps({"machine": info, "rtol": RTOL, "rows": rows}, indent=1) + "\n")
    (out / "results.md").write_text("\n".join(lines) + "\n")
    chart(rows, info, out / "ratios.png")
    if not opts.no_readme and not opts.only:
        update_readme(lines, info)
    if jax_ok and not all(r["jax"]["agrees"] for r in rows if "jax" in r):
        sys.exit("bench/suite: moonc and JAX disagree (see the table's last column)")


if __name__ == "__main__":
    main()
