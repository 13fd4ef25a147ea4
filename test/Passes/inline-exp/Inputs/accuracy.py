"""Runs Inputs/exp.mlir through `moonc run` and compares its exps with
Python's (libm's, within about 0.5 ulp of the true value): within 1.5 ulp
(the kernel of --moon-inline-exp is within 1 ulp of the true value), the
same infinities, zeros and NaNs, and subnormal results within 1.5 ulp of
the smallest subnormal. Exits 1 on a larger error.

usage: accuracy.py MOONC EXP_MLIR
"""
import json
import math
import random
import subprocess
import sys

moonc, program = sys.argv[1], sys.argv[2]
rng = random.Random(7)
BOUND = 1.5


def ulps(got, want):
    if math.isnan(want):
        return 0.0 if math.isnan(got) else math.inf
    if math.isinf(want) or math.isinf(got):
        return 0.0 if got == want else math.inf
    return abs(got - want) / math.ulp(max(abs(want), 2.0**-1074))


def encode(x):
    """A float as `moonc run --args` takes it (non-finite ones as strings)."""
    return x if math.isfinite(x) else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(x, "NaN")


def decode(x):
    return float(x.replace("Infinity", "inf")) if isinstance(x, str) else x


def libm_exp(x):
    try:
        return math.exp(x) if not math.isnan(x) else math.nan
    except OverflowError:
        return math.inf


sets = {
    "|x| < 1": [rng.uniform(-1, 1) for _ in range(3000)],
    "|x| < 0.35 * 2^-k": [rng.uniform(-0.35, 0.35) * 2.0 ** -rng.randint(0, 60) for _ in range(1000)],
    "normal range": [rng.uniform(-708, 709.7) for _ in range(3000)],
    "near k ln 2": [k * math.log(2) + d for k in range(-1000, 1000, 7) for d in (0.0, 1e-12, -0.3465)],
    "subnormal results": [rng.uniform(-745.2, -708.4) for _ in range(1000)],
    "edges": [709.78, 709.79, 710.0, 711.0, 1e300, -745.13, -745.14, -746.0, -1e300, 0.0, -0.0, 1e-300],
    "inf, nan": [math.inf, -math.inf, math.nan],
}

failed = False
for name, xs in sets.items():
    run = subprocess.run(
        [moonc, "run", program, "--entry", "exp", "--args", json.dumps([[encode(x) for x in xs], [0.0] * len(xs)])],
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"moonc run failed on {name}:\n{run.stderr}")
    _, ys = json.loads(run.stdout)["args"]
    worst = max(ulps(y, libm_exp(x)) for x, y in zip(xs, map(decode, ys)))
    verdict = "ok" if worst <= BOUND else "FAIL"
    failed |= worst > BOUND
    print(f"{name:18} max {worst:.2f} ulp from libm (bound {BOUND}): {verdict}")
sys.exit(1 if failed else 0)
