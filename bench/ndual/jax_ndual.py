# bench/ndual/jax_ndual.py: JAX (jit, CPU, x64) on bench/ndual's workloads.
"""Times JAX's jitted primal and `jax.value_and_grad` of the bench/ndual
workloads and checks them against `moonc grad`. Usage: jax_ndual.py
ENTRY:ARGS.json:MOONC_GRAD.json ...; prints one JSON object per entry;
timing as bench/reverse/jax_bench.py's.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "reverse"))
from jax_bench import jax, median_ns, rel_err  # noqa: E402

import jax.numpy as jnp  # noqa: E402


def lse(x):
    m = jnp.max(x)
    return jnp.log(jnp.sum(jnp.exp(x - m))) + m


def llsq(x, n):
    t = -1.0 + jnp.arange(n) * 2.0 / (n - 1)
    powers = t[:, None] ** jnp.arange(x.shape[0])[None, :]
    return 0.5 * jnp.sum((jnp.sign(t) - powers @ x) ** 2)


def sum_sin_cos_exp(x):
    return jnp.sum(jnp.sin(jnp.cos(jnp.exp(x))))


WORKLOADS = {
    "broadcast_sin_cos_exp": (sum_sin_cos_exp, 1),
    "map_sin_cos_exp": (sum_sin_cos_exp, 1),
    "sum_sin_1000": (lambda x: jnp.sum(jnp.sin(x)), 1),
    "lse": (lse, 1),
    "llsq": (llsq, 2),
}


def main():
    for spec in sys.argv[1:]:
        entry, args_path, moonc_path = spec.split(":")
        f, arity = WORKLOADS[entry]
        args = json.load(open(args_path))
        x = jnp.asarray(args[0], dtype=jnp.float64)
        if arity == 2:
            n = args[1]
            g = lambda x, f=f, n=n: f(x, n)  # noqa: E731
        else:
            g = f
        primal, grad = jax.jit(g), jax.jit(jax.value_and_grad(g))
        value, gradient = jax.block_until_ready(grad(x))
        moonc = json.load(open(moonc_path))
        err = max(rel_err(value, moonc["value"]), rel_err(gradient, moonc["gradient"][0]))
        primal_ns, _, _ = median_ns(primal, x)
        grad_ns, _, _ = median_ns(grad, x)
        print(json.dumps({"entry": entry, "primal_ns": round(primal_ns, 3),
                          "grad_ns": round(grad_ns, 3), "ratio": round(grad_ns / primal_ns, 3),
                          "rel_err": err, "jax": jax.__version__}), flush=True)


if __name__ == "__main__":
    main()
