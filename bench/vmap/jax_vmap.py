# bench/vmap/jax_vmap.py: JAX (jit, CPU, x64) on bench/vmap's workload.
"""Times `jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))` (the
per-example gradients of bench/vmap's model) and checks them against
moonc's. Usage: jax_vmap.py ARGS.json MOONC_RUN.json, where ARGS.json is
the `--args` of `@per_example_vmap` and MOONC_RUN.json what `moonc run`
printed for it. Prints one JSON object; timing as bench/reverse's.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "reverse"))
from jax_bench import jax, median_ns, rel_err  # noqa: E402

import jax.numpy as jnp  # noqa: E402


def loss(p, x, y):
    return (jnp.tanh(jnp.dot(p[:9], x) + p[9]) - y) ** 2


def main():
    args, moonc = (json.load(open(path)) for path in sys.argv[1:3])
    p, _, xs, ys = (jnp.asarray(a, dtype=jnp.float64) for a in args)
    per_example = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    err = rel_err(jax.block_until_ready(per_example(p, xs, ys)), moonc["args"][1])
    ns, _, _ = median_ns(lambda a: per_example(*a), (p, xs, ys))
    print(json.dumps({"ns": round(ns, 3), "rel_err": err, "jax": jax.__version__}))


if __name__ == "__main__":
    main()
