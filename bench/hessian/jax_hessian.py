# bench/hessian/jax_hessian.py: JAX (jit, CPU, x64) on bench/hessian's workload.
"""Times JAX's jitted `jax.value_and_grad` and `jax.hessian` of the
extended Rosenbrock function and checks JAX's Hessian against moonc's.

Usage: jax_hessian.py ARGS.json MOONC_HESSIAN.json

ARGS.json holds `[x]`; MOONC_HESSIAN.json is what `moonc hessian` printed
for it. Prints one JSON object; timing as bench/reverse/jax_bench.py's.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "reverse"))
from jax_bench import jax, median_ns, rel_err  # noqa: E402

import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def main():
    args_path, moonc_path = sys.argv[1:3]
    x = jax.device_put(jnp.asarray(json.load(open(args_path))[0], dtype=jnp.float64))
    grad = jax.jit(jax.value_and_grad(rosenbrock))
    hessian = jax.jit(jax.hessian(rosenbrock))
    moonc = json.load(open(moonc_path))
    err = rel_err(jax.block_until_ready(hessian(x)), moonc["hessian"])
    grad_ns, _, _ = median_ns(grad, x)
    hessian_ns, _, _ = median_ns(hessian, x)
    print(json.dumps({
        "grad_ns": round(grad_ns, 3),
        "hessian_ns": round(hessian_ns, 3),
        "ratio": round(hessian_ns / grad_ns, 3),
        "hessian_rel_err": err,
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
    }))


if __name__ == "__main__":
    main()
