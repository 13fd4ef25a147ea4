# bench/suite/common.py: what a workload of the suite declares, and how JAX is timed.
"""The interface between the suite's runner (`run.py`) and its workloads.

Each `workloads/<family>.py` defines `cases() -> list[Case]`; each case
names a function of `<family>.mlir` (written once, in MLIR; `mlir_path`
says where), the arguments it is timed on, and the same computation in
JAX. `run.py` times
the moonc side with `moonc bench`, computes its value and gradient with
`moonc grad`, and times and checks JAX against them.
"""

from __future__ import annotations

import dataclasses
import gc
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent
# The MLIR of the suite's own families (seed, mooncake).
SUITE_WORKLOADS = ROOT / "bench/suite/workloads"
# The MLIR of the GradBench evals, written as GradBench's reference writes
# them: built into moonc (`moonc gradbench`), so it lives with the crate
# that builds it in.
GRADBENCH_WORKLOADS = ROOT / "tools/moonc-gradbench/workloads"
# Hand-shaped variants of some evals (restructured so that reverse mode runs
# faster): separate rows named `<row>_shaped`, never the reported ones.
SHAPED_WORKLOADS = SUITE_WORKLOADS / "shaped"


@dataclass
class Derivative:
    """A derivative that is not a gradient (a Jacobian): an MLIR function
    that computes it into one of its memref arguments, timed like a primal
    (`moonc bench --primal-only`), and checked against `jax` (a function of
    the case's arguments returning the same array)."""

    entry: str
    # The `--args` of `entry`: the case's arguments and the output buffer.
    args: list
    # Which of `entry`'s arguments receives the derivative.
    out: int
    jax: Callable[..., Any]


@dataclass
class Case:
    """One row of the suite's table."""

    # The row's name, e.g. "gmm_d2_k5".
    name: str
    # Which part of the suite: "seed", "mooncake" or "gradbench".
    group: str
    # The MLIR file's name, in the folder `mlir_path` gives the group.
    mlir: str
    # The primal: a function of `mlir` with one f64 result.
    entry: str
    # Its `--args` (JSON values: nested lists of floats for memrefs, ints
    # for index or integer arguments, floats for f64 scalars).
    args: list
    # The same computation in JAX: a function of the same positional
    # arguments (np.ndarray of float64 for memrefs, Python int for index
    # arguments, which are static under jit, float for f64 scalars)
    # returning a scalar. None: no JAX column for this row.
    jax: Callable[..., Any] | None
    # The arguments differentiated (`moonc --wrt`, JAX argnums); None: all
    # float arguments.
    wrt: list[int] | None = None
    # Arguments for the correctness check when the timed ones give
    # degenerate values (e.g. `ode`); None: the timed ones.
    check_args: list | None = None
    # For a Jacobian workload (`ba`): how it is computed and checked; the
    # row's "gradient" time is then this derivative's.
    derivative: Derivative | None = None
    # How the JAX side is written, when it is not plain (shown under the table).
    note: str = ""
    # The target for value-and-gradient ÷ primal, if it sets one.
    target: float | None = None
    # Extra `moonc` options (e.g. ["--parallel"]); none by default.
    moonc_options: list[str] = field(default_factory=list)
    # Whether `mlir` is a hand-shaped variant (in SHAPED_WORKLOADS).
    shaped: bool = False
    # The agreement with JAX required, when not RTOL (and why, in `note`).
    rtol: float | None = None


def mlir_path(case: Case) -> Path:
    """Where `case.mlir` is: among the hand-shaped variants for a shaped
    case, the GradBench workloads for the "gradbench" group, the suite's
    own otherwise."""
    if case.shaped:
        return SHAPED_WORKLOADS / case.mlir
    return (GRADBENCH_WORKLOADS if case.group == "gradbench" else SUITE_WORKLOADS) / case.mlir


def shaped(case: Case) -> Case:
    """The row of `case` with its hand-shaped MLIR (same inputs and JAX
    side; no target: the reported row is the plain one)."""
    return dataclasses.replace(case, name=f"{case.name}_shaped", shaped=True, target=None, rtol=None)


# Relative error (in the max norm, over each result) within which moonc
# and JAX agree.
RTOL = 1e-10


def rel_err(a, b) -> float:
    """max |a - b| / max |b| over the elements (0 when both are zero)."""
    a = np.asarray(a, dtype=np.float64).ravel()
    b = np.asarray(b, dtype=np.float64).ravel()
    if a.shape != b.shape:
        return float("inf")
    scale = np.max(np.abs(b)) if b.size else 0.0
    diff = np.max(np.abs(a - b)) if a.size else 0.0
    return float(diff / scale) if scale > 0 else float(diff)


def median_ns(f, args, time_ms=500.0):
    """Median ns per call of `f(*args)`, with the number of samples and of
    calls per sample, sampled as `moonc bench` samples: a warm-up of at
    least 50 ms, then samples of enough calls to last about 1 ms each for
    `time_ms`. Every call ends in `block_until_ready`."""
    import jax

    def run(calls):
        start = time.perf_counter_ns()
        for _ in range(calls):
            jax.block_until_ready(f(*args))
        return time.perf_counter_ns() - start

    calls, spent = 0, 0
    while spent < 50e6:
        spent += run(1)
        calls += 1
    per_sample = max(1, round(1e6 * calls / spent))
    samples, sampled = [], 0
    gc.disable()
    try:
        while sampled < time_ms * 1e6 or len(samples) < 5:
            samples.append(run(per_sample))
            sampled += samples[-1]
    finally:
        gc.enable()
    return float(np.median(samples)) / per_sample, len(samples), per_sample
