"""GradBench's `lse` (evals/lse): log-sum-exp of n = 1e6 numbers drawn as
GradBench's eval draws them (np.random.seed(31337), x ~ U(0, 1))."""

from __future__ import annotations

import numpy as np

from common import Case, shaped

N = 1_000_000
SEED = 31337


def generate(n=N, seed=SEED):
    np.random.seed(seed)
    return np.random.rand(n)


def jax_lse(x):
    """jax.scipy's logsumexp (the max shifted out, under stop_gradient).
    GradBench's JAX tool shifts by a differentiated max instead; its
    gradient at the argmax is then 1 - sum(softmax) off, about 1e-10 of
    the largest element at n = 1e6 under jit, beyond the suite's tolerance."""
    from jax.scipy.special import logsumexp

    return logsumexp(x)


def cases() -> list[Case]:
    x = generate().tolist()
    common = dict(group="gradbench", mlir="lse.mlir", entry="lse", args=[x], jax=jax_lse, wrt=[0])
    # The reference differentiates through its max (GradBench's C++ and JAX
    # tools do too); JAX's logsumexp stops its gradient. The max's adjoint,
    # 1 - sum(softmax) with the sum in the program's order (1e-10 at
    # n = 1e6), then lands on the argmax: agreement to 1e-7 of the largest
    # element, not 1e-10. (The hand-shaped form sums in the same order both
    # ways, so its adjoint is 0.)
    plain = Case(name="lse", target=2.0, rtol=1e-7, **common)
    return [
        plain,
        # XLA runs a reduction this large on every core; so does moonc with
        # --parallel (docs/parallel.md).
        Case(name="lse_parallel", moonc_options=["--parallel"], rtol=1e-7,
             note="moonc with --parallel (XLA uses every core here too)", **common),
        # The plain program, its in-order sum reassociated as XLA's are.
        Case(name="lse_reassoc_parallel", moonc_options=["--moon-reassociate-sums", "--parallel"],
             rtol=1e-7, note="moonc with --moon-reassociate-sums --parallel (XLA reassociates its sums "
             "and uses every core)", **common),
        shaped(plain),
    ]
