"""Runs Inputs/sincos.mlir through `moonc run` and compares its sines and
cosines with Python's (libm's): within 2 ulp where the inline kernel of
--moon-share-sincos computes them (the kernel is within 1.27 ulp of the
true values, libm within about 0.5), within 4 ulp (libmvec's bound) where
an argument beyond 2^20 sends the loop to libm. Exits 1 on a larger error.

usage: accuracy.py MOONC SINCOS_MLIR
"""
import json
import math
import random
import subprocess
import sys

moonc, program = sys.argv[1], sys.argv[2]
rng = random.Random(5)


def ulps(got, want):
    if math.isnan(want):
        return 0.0 if math.isnan(got) else math.inf
    return abs(got - want) / math.ulp(max(abs(want), 2.0**-1022))


def encode(x):
    """A float as `moonc run --args` takes it (non-finite ones as strings)."""
    return x if math.isfinite(x) else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(x, "NaN")


def decode(x):
    return float(x.replace("Infinity", "inf")) if isinstance(x, str) else x


def near_multiples(count, limit):
    """Doubles close to k * pi/2, where the reduction loses most bits."""
    xs = []
    for _ in range(count):
        k = rng.randint(1, int(limit / (math.pi / 2)))
        x = k * (math.pi / 2)
        xs += [x, -x, math.nextafter(x, 0.0)]
    return xs


kernel_sets = {
    "|x| < 1": [rng.uniform(-1, 1) for _ in range(2000)],
    "|x| < 20": [rng.uniform(-20, 20) for _ in range(2000)],
    "|x| < 2^20": [rng.uniform(-(2.0**20), 2.0**20) for _ in range(2000)],
    "tiny": [rng.uniform(-1, 1) * 2.0 ** rng.randint(-1074, -30) for _ in range(500)] + [0.0],
    "near k pi/2": near_multiples(700, 2.0**20),
}
# One argument out of the kernel's range sends the whole loop to libm.
libm_sets = {
    "with 1e300": [rng.uniform(-4, 4) for _ in range(500)] + [1e300, -1e22, 2.0**20 + 1],
    "with inf, nan": [rng.uniform(-4, 4) for _ in range(500)] + [math.inf, -math.inf, math.nan],
}

failed = False
for sets, bound in ((kernel_sets, 2.0), (libm_sets, 4.0)):
    for name, xs in sets.items():
        zeros = [0.0] * len(xs)
        run = subprocess.run(
            [moonc, "run", program, "--entry", "sin_cos", "--args", json.dumps([[encode(x) for x in xs], zeros, zeros])],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            sys.exit(f"moonc run failed on {name}:\n{run.stderr}")
        _, sines, cosines = json.loads(run.stdout)["args"]
        worst = 0.0
        for x, s, c in zip(xs, map(decode, sines), map(decode, cosines)):
            want_s = math.sin(x) if math.isfinite(x) else math.nan
            want_c = math.cos(x) if math.isfinite(x) else math.nan
            worst = max(worst, ulps(s, want_s), ulps(c, want_c))
        verdict = "ok" if worst <= bound else "FAIL"
        failed |= worst > bound
        print(f"{name:14} max {worst:.2f} ulp from libm (bound {bound}): {verdict}")
sys.exit(1 if failed else 0)
