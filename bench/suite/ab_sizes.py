#!/usr/bin/env python3
"""bench/suite/ab_sizes.py OLD_MOONC NEW_MOONC [REPS]: `moonc bench` of the
plain gmm and ode workloads at GradBench sizes the suite has no row for
(gmm d = 2 with K = 25, 50, 100; ode n = 10^5, s = 100; ode n = 10^4 as in
the suite), inputs made as the suite's workloads make them, the two
binaries alternating so that the machine's drift hits both alike. Prints
per case and repetition the primal, value+gradient and ratio of each.
Needs `make bench-venv`; run with build/bench-venv/bin/python. Not a test."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench/suite"))
sys.path.insert(0, str(ROOT / "bench/suite/workloads"))
import gmm  # noqa: E402
import ode  # noqa: E402

WORKLOADS = ROOT / "tools/moonc-gradbench/workloads"


def cases():
    for k in (25, 50, 100):
        yield f"gmm_d2_k{k}", "gmm.mlir", "gmm", gmm.args_of(gmm.generate(2, k, 1000))
    for n in (10_000, 100_000):
        yield f"ode_n{n}_s100", "ode.mlir", "ode", [ode.make_x(n).tolist(), 100]


def main():
    old, new = sys.argv[1], sys.argv[2]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    with tempfile.TemporaryDirectory() as work:
        for name, mlir, entry, args in cases():
            path = Path(work) / f"{name}.json"
            path.write_text(json.dumps(args))
            for rep in range(1, reps + 1):
                cells = []
                for binary in (old, new):
                    out = subprocess.run(
                        [binary, "bench", str(WORKLOADS / mlir), "--entry", entry, "--args", f"@{path}"],
                        check=True, capture_output=True, text=True,
                    ).stdout
                    r = json.loads(out)
                    cells.append((r["primal_ns"] / 1e3, r["grad_ns"] / 1e3, r["ratio"]))
                (p0, g0, r0), (p1, g1, r1) = cells
                print(f"{name:18s} rep {rep}: primal {p0:.1f} -> {p1:.1f} us; "
                      f"grad {g0:.1f} -> {g1:.1f} us ({g1 / g0:.2f}); ratio {r0:.2f} -> {r1:.2f}", flush=True)


if __name__ == "__main__":
    main()
