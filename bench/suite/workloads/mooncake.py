# bench/suite/workloads/mooncake.py: Mooncake.jl's benchmarks (mooncake.mlir).
"""The inter-framework benchmarks of Mooncake.jl (its bench/run_benchmarks.jl),
at its sizes, with its inputs drawn as it draws them (standard normal; the
fixed vector [0.9, 0.99] for `large_single_block`), from a fixed seed.

Mooncake's `_sum(f, x)` is a `while` loop; JAX cannot reverse-differentiate
`lax.while_loop` (its trip count is dynamic), so the JAX side of those rows is
a `lax.fori_loop` with the static trip count `len(x)`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from common import Case, shaped


def _sum(x):
    import jax.numpy as jnp

    return jnp.sum(x)


def _sum_sin(x):
    import jax.numpy as jnp

    return jnp.sum(jnp.sin(x))


def _while_sum(f):
    def run(x):
        from jax import lax

        return lax.fori_loop(0, x.shape[0], lambda i, s: s + f(x[i]), 0.0 * x[0])

    return run


def _identity(v):
    return v


def _sin(v):
    import jax.numpy as jnp

    return jnp.sin(v)


def _kron_sum(x, y):
    import jax.numpy as jnp

    return jnp.sum(jnp.kron(x, y))


def _map_sin_cos_exp(x):
    import jax
    import jax.numpy as jnp

    f = lambda v: jnp.sin(jnp.cos(jnp.exp(v)))
    return jnp.sum(jax.vmap(f)(x.ravel()))


def _broadcast_sin_cos_exp(x):
    import jax.numpy as jnp

    return jnp.sum(jnp.sin(jnp.cos(jnp.exp(x))))


def _simple_mlp(w2, w1, y, x):
    import jax.numpy as jnp

    h = w1 @ x
    return jnp.sum(jnp.square(y - w2 @ (h * (0 <= h))))


def _large_single_block(x):
    v, a = x[0], x[1]
    for _ in range(400):
        v = v * a
    return v


def cases() -> list[Case]:
    rng = np.random.RandomState(1234)

    def randn(*shape):
        return rng.standard_normal(shape).tolist()

    fori = "lax.fori_loop(0, len(x), ...), static trip count (JAX cannot reverse a lax.while_loop)"
    rows = [
        ("sum_1000", "sum_1000", [randn(1000)], _sum, ""),
        ("_sum_1000", "while_sum_1000", [randn(1000)], _while_sum(_identity), fori),
        ("sum_sin_1000", "sum_sin_1000", [randn(1000)], _sum_sin, ""),
        ("_sum_sin_1000", "while_sum_sin_1000", [randn(1000)], _while_sum(_sin), fori),
        ("kron_sum", "kron_sum", [randn(20, 20), randn(40, 40)], _kron_sum, ""),
        ("map_sin_cos_exp", "map_sin_cos_exp", [randn(10, 10)], _map_sin_cos_exp,
         "jnp.sum(jax.vmap(sin . cos . exp)(x.ravel()))"),
        ("broadcast_sin_cos_exp", "map_sin_cos_exp", [randn(10, 10)], _broadcast_sin_cos_exp,
         ""),
        ("simple_mlp", "simple_mlp", [randn(128, 256), randn(256, 128), randn(128, 70), randn(128, 70)],
         _simple_mlp, "h = W1 @ X; jnp.sum(jnp.square(Y - W2 @ (h * (0 <= h))))"),
        ("large_single_block", "large_single_block", [[0.9, 0.99]], _large_single_block,
         "400 multiplications unrolled in Python under jit"),
    ]
    # Rows also kept in a hand-shaped form (shaped/mooncake.mlir), as
    # separate `<name>_shaped` rows.
    with_shaped = {"kron_sum", "broadcast_sin_cos_exp", "simple_mlp"}
    cases = []
    for name, entry, args, jax, note in rows:
        case = Case(name=name, group="mooncake", mlir="mooncake.mlir", entry=entry, args=args, jax=jax, note=note)
        cases.append(case)
        if name in with_shaped:
            cases.append(shaped(dataclasses.replace(case, entry=name)))
    return cases
