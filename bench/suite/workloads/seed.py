# bench/suite/workloads/seed.py: the seed workloads (seed.mlir).
"""The first benchmark's two functions, n = 1024, f64: `sum(cos(exp(x)))`
(target ratio 1.3) and `sum(5x)` (target 2)."""

from __future__ import annotations

import numpy as np

from common import Case

N = 1024


def _sum_cos_exp(x):
    import jax.numpy as jnp

    return jnp.sum(jnp.cos(jnp.exp(x)))


def _sum_5x(x):
    import jax.numpy as jnp

    return jnp.sum(5.0 * x)


def cases() -> list[Case]:
    rng = np.random.RandomState(1)
    x = rng.uniform(-1.0, 1.0, N).tolist()
    return [
        Case(
            name="sum_cos_exp",
            group="seed",
            mlir="seed.mlir",
            entry="sum_cos_exp",
            args=[x],
            jax=_sum_cos_exp,
            target=1.3,
        ),
        Case(
            name="sum_5x",
            group="seed",
            mlir="seed.mlir",
            entry="sum_5x",
            args=[x],
            jax=_sum_5x,
            target=2.0,
        ),
    ]
