"""GradBench's `llsq` (evals/llsq): m = 128 coefficients drawn as GradBench's
eval draws them (np.random.seed(31337), x ~ U(0, 1)), n = 4096 points."""

from __future__ import annotations

import numpy as np

from common import Case, shaped

M = 128
N = 4096
SEED = 31337


def generate(m=M, seed=SEED):
    np.random.seed(seed)
    return np.random.rand(m)


def jax_llsq(x, n):
    """GradBench's JAX tool's formulation: per point, the powers t_i^j as a
    cumulative product, then the residual; summed over the points."""
    import jax.numpy as jnp

    m = x.shape[0]
    t = -1.0 + (jnp.arange(n, dtype=jnp.float64) * 2.0) / (n - 1.0)
    muls = jnp.cumprod(
        jnp.concatenate([jnp.ones((n, 1)), jnp.broadcast_to(t[:, None], (n, m - 1))], axis=1),
        axis=1,
    )
    r = jnp.sign(t) - muls @ x
    return jnp.sum(r * r) / 2.0


def cases() -> list[Case]:
    plain = Case(
        name="llsq",
        group="gradbench",
        mlir="llsq.mlir",
        entry="llsq",
        args=[generate().tolist(), N],
        jax=jax_llsq,
        wrt=[0],
        target=1.5,
    )
    return [plain, shaped(plain)]
