# bench/suite/workloads/ode.py: GradBench's `ode` eval (cmpad's an_ode),
# moonc (ode.mlir) against JAX.
"""GradBench `ode`: RK4 with s steps over [0, 2] of y_0' = x_0,
y_i' = x_i * y_{i-1} (i > 0) from y(0) = 0; the differentiated function is
the last element of the final state, with respect to x.

GradBench draws x uniform in [0, 1) with numpy's legacy generator (seeded
31337, shared across its sizes); here each size draws from its own
`RandomState(31337)`. At the timed size (n = 10000, s = 100) the last
element underflows to 0 (it is about x_0 ... x_{n-1} 2^n / n!), and so does
its gradient, so values are checked at n = 20, s = 1000 instead, where they
are about 1e-21 and nonzero.
"""

from __future__ import annotations

import numpy as np

from common import Case

SEED = 31337


def make_x(n: int, seed: int = SEED) -> np.ndarray:
    return np.random.RandomState(seed).rand(n)


def ode_final(x, s):
    """The final state, as GradBench's JAX tool computes it: a `lax.scan`
    over the steps, the right-hand side from `jnp.roll` and `jnp.where` on
    the index."""
    import jax
    import jax.numpy as jnp

    h = 2.0 / s
    iota = jnp.arange(x.shape[0])

    def f(y):
        return jnp.where(iota == 0, x, x * jnp.roll(y, 1))

    def step(y, _):
        k1 = f(y)
        k2 = f(y + h / 2 * k1)
        k3 = f(y + h / 2 * k2)
        k4 = f(y + h * k3)
        y = y + h / 6 * (k1 + (2 * k2 + 2 * k3 + k4))
        return y, y

    _, trajectory = jax.lax.scan(step, jnp.zeros_like(x), None, length=s)
    return trajectory[-1]


def ode_last(x, s):
    """GradBench's differentiated function: the last element of the final
    state (`s` is static)."""
    return ode_final(x, s)[-1]


def cases() -> list[Case]:
    out = []
    for n, s in [(10000, 100)]:
        out.append(
            Case(
                name=f"ode_n{n}_s{s}",
                group="gradbench",
                mlir="ode.mlir",
                entry="ode",
                args=[make_x(n).tolist(), s],
                jax=ode_last,
                wrt=[0],
                check_args=[make_x(20).tolist(), 1000],
                note="lax.scan over the steps (GradBench's JAX tool)",
                target=3.0,
            )
        )
    return out
