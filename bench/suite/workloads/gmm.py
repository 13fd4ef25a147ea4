"""GradBench's `gmm` (evals/gmm): the log posterior of a Gaussian mixture
model, n = 1000 points, (d, k) in {(2, 5), (10, 25), (64, 10)}; inputs as
GradBench's eval generates them (numpy default_rng, seed 31337, m = 0,
gamma = 1). The gradient is taken with respect to alpha, mu, q and l."""

from __future__ import annotations

import math

import numpy as np

from common import Case, shaped

SEED = 31337


def generate(d, k, n, seed=SEED):
    """GradBench's generator: x ~ N(0,1) (n x d), alpha ~ N(0,1) (k),
    mu ~ U(0,1) (k x d), q ~ N(0,1) (k x d), l ~ N(0,1) (k x d(d-1)/2),
    drawn in that order from one default_rng(seed)."""
    rng = np.random.default_rng(seed=seed)
    x = np.array([rng.normal(size=d) for _ in range(n)]).reshape(n, d)
    alpha = rng.normal(size=k)
    mu = np.array([rng.uniform(size=d) for _ in range(k)]).reshape(k, d)
    q = np.array([rng.normal(size=d) for _ in range(k)]).reshape(k, d)
    l = np.array([rng.normal(size=d * (d - 1) // 2) for _ in range(k)]).reshape(
        k, d * (d - 1) // 2
    )
    return dict(alpha=alpha, mu=mu, q=q, l=l, x=x, gamma=1.0, m=0)


def args_of(inp):
    """@gmm's arguments (alpha, mu, q, l, x, gamma, m) as JSON values."""
    return [
        inp["alpha"].tolist(),
        inp["mu"].tolist(),
        inp["q"].tolist(),
        inp["l"].tolist(),
        inp["x"].tolist(),
        float(inp["gamma"]),
        int(inp["m"]),
    ]


def jax_gmm(alpha, mu, q, l, x, gamma, m):
    """The objective as GradBench's JAX tool writes it (dense Q_k built by
    a scatter of l, an einsum over all points and components)."""
    import jax.numpy as jnp
    from jax.scipy.special import logsumexp, multigammaln

    k, d = mu.shape
    n = x.shape[0]
    Qdiags = jnp.exp(q)
    sum_qs = jnp.sum(q, axis=1)
    cols = np.repeat(np.arange(d - 1), np.arange(d - 1, 0, -1))
    rows = np.concatenate([np.arange(c + 1, d) for c in range(d - 1)] or [[]]).astype(int)
    Ls = jnp.zeros((k, d, d), dtype=l.dtype).at[:, rows, cols].set(l)
    xc = x[:, None, :] - mu[None, ...]
    Lxc = Qdiags * xc + jnp.einsum("ijk,mik->mij", Ls, xc)
    inner = alpha + sum_qs - 0.5 * jnp.sum(Lxc**2, axis=2)
    slse = jnp.sum(logsumexp(inner, axis=1))
    nw = d + m + 1
    frob = jnp.sum(Qdiags**2, axis=1) + jnp.sum(l**2, axis=1)
    prior = -jnp.sum(0.5 * gamma * gamma * frob - m * sum_qs) + k * (
        nw * d * jnp.log(gamma / math.sqrt(2)) - multigammaln(0.5 * nw, d)
    )
    return (
        -n * d * 0.5 * math.log(2 * math.pi)
        + slse
        - n * logsumexp(alpha, axis=0)
        + prior
    )


def cases() -> list[Case]:
    out = []
    for d, k in [(2, 5), (10, 25), (64, 10), (64, 100)]:
        out.append(
            Case(
                name=f"gmm_d{d}_k{k}",
                group="gradbench",
                mlir="gmm.mlir",
                entry="gmm",
                args=args_of(generate(d, k, 1000)),
                jax=jax_gmm,
                wrt=[0, 1, 2, 3],
                note="GradBench's JAX tool's formulation (dense Q_k, einsum)",
                target=3.0,
            )
        )
    # The hand-shaped form, as separate rows (not at GradBench's largest
    # size, d = 64, k = 100, which the suite adds for the plain form).
    out += [shaped(c) for c in out[:3]]
    return out
