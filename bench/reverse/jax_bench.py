# bench/reverse/jax_bench.py: JAX (jit, CPU, x64) on bench/reverse's workloads, timed like `moonc bench`.
"""Times JAX's jitted primal and `jax.value_and_grad` on the workloads of
bench/reverse and checks JAX's value and gradient against moonc's.

Usage: jax_bench.py ENTRY:ARGS.json:MOONC_GRAD.json ...

ARGS.json is the `--args` file given to `moonc bench` (a JSON list of the
arguments), MOONC_GRAD.json what `moonc grad --entry ENTRY` printed for it.
Prints one JSON object per entry on stdout; `run.sh` makes the table.
Timing follows `moonc bench` (docs/driver.md): a warm-up of at least 50 ms,
then samples of enough calls to last about 1 ms each for 500 ms; the
median time per call is reported. Every timed call ends in
`jax.block_until_ready`, so the time includes JAX's dispatch.
"""

import json
import sys
import time
from pathlib import Path

import jax

jax.config.update("jax_enable_x64", True)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "suite"))

import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from common import median_ns as suite_median_ns  # noqa: E402

# The largest relative difference from moonc's value and gradient (each
# gradient element on its own) that counts as agreement.
RTOL = 1e-10

# Each workload of reverse.mlir as JAX writes it, with how. JAX cannot
# reverse-differentiate a `lax.while_loop` (its trip count is dynamic), so
# the two while loops are `lax.fori_loop`s over x's static length (a scan),
# with the same body; `sin_loop` is one with static bounds too.
WORKLOADS = {
    "sum_cos_exp": (lambda x: jnp.sum(jnp.cos(jnp.exp(x))), "jnp.sum(jnp.cos(jnp.exp(x)))"),
    "sum_5x": (lambda x: jnp.sum(5.0 * x), "jnp.sum(5.0 * x)"),
    "while_sum": (
        lambda x: lax.fori_loop(0, x.shape[0], lambda i, s: s + x[i], 0.0),
        "lax.fori_loop(0, n, s + x[i]), static n (JAX cannot reverse a lax.while_loop)",
    ),
    "while_sum_sin": (
        lambda x: lax.fori_loop(0, x.shape[0], lambda i, s: s + jnp.sin(x[i]), 0.0),
        "lax.fori_loop(0, n, s + sin(x[i])), static n (JAX cannot reverse a lax.while_loop)",
    ),
    "sin_loop": (
        lambda x: lax.fori_loop(0, 500, lambda i, y: jnp.sin(y), x),
        "lax.fori_loop(0, 500, sin), static bounds",
    ),
}


def median_ns(f, x, time_ms=500.0):
    """Median ns per call of `f(x)` and the sampling used, as `moonc bench`
    samples (bench/suite/common.py)."""
    return suite_median_ns(f, (x,), time_ms)


def rel_err(a, b):
    """The largest elementwise |a - b| / max(|a|, |b|) (0 where both are 0)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    scale = np.maximum(np.abs(a), np.abs(b))
    return float(np.max(np.where(scale > 0, np.abs(a - b) / np.where(scale > 0, scale, 1), 0)))


def bench(entry, args_path, moonc_path):
    """One workload: JAX's times and its agreement with moonc's value and gradient."""
    f, form = WORKLOADS[entry]
    x = jax.device_put(jnp.asarray(json.load(open(args_path))[0], dtype=jnp.float64))
    primal, grad = jax.jit(f), jax.jit(jax.value_and_grad(f))
    start = time.perf_counter_ns()
    jax.block_until_ready(primal(x))
    compile_ms = (time.perf_counter_ns() - start) / 1e6
    value, gradient = jax.block_until_ready(grad(x))
    moonc = json.load(open(moonc_path))
    value_err = rel_err(value, moonc["value"])
    grad_err = rel_err(gradient, moonc["gradient"][0])
    agrees = max(value_err, grad_err) <= RTOL
    if not agrees:
        print(
            f"jax_bench: MISMATCH on {entry}: JAX and moonc differ (value rel err {value_err:.1e}, "
            f"gradient rel err {grad_err:.1e}, beyond {RTOL:.0e})",
            file=sys.stderr,
        )
    primal_ns, samples, per_sample = median_ns(primal, x)
    grad_ns, _, _ = median_ns(grad, x)
    return {
        "entry": entry,
        "form": form,
        "primal_ns": round(primal_ns, 3),
        "compile_ms": round(compile_ms, 3),
        "samples": samples,
        "calls_per_sample": per_sample,
        "grad_ns": round(grad_ns, 3),
        "ratio": round(grad_ns / primal_ns, 3),
        "value_rel_err": value_err,
        "gradient_rel_err": grad_err,
        "rtol": RTOL,
        "agrees": agrees,
    }


def main():
    for spec in sys.argv[1:]:
        entry, args_path, moonc_path = spec.split(":")
        record = bench(entry, args_path, moonc_path)
        record.update(jax=jax.__version__, jaxlib=jaxlib.__version__)
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
