# GradBench `ba` (bundle adjustment): the objective and its sparse Jacobian.
"""GradBench's `ba` eval at the size of its `ba1` input.

GradBench's ba inputs hold one camera, one point, one weight and one
feature; the tool replicates them: n cameras, m points, p observations,
observation i seeing camera i mod n and point i mod m (GradBench's
cpp/gradbench/evals/ba.hpp, `from_json`). `inputs()` builds the same arrays.
The MLIR side is `tools/moonc-gradbench/workloads/ba.mlir` (its header
documents the signatures and the Jacobian's layout); the JAX side is below.
"""

from __future__ import annotations

import numpy as np

from common import Case, Derivative, shaped

# The first camera, point, weight and feature of GradBench's
# evals/ba/data/ba1_n49_m7776_p31843.txt (lines 2-5), and its sizes (line 1).
BA1_N, BA1_M, BA1_P = 49, 7776, 31843
BA1_CAM = [
    -0.758453, -1.109613, -0.845551,  # Rodrigues rotation
    34.556073, 39.676747, 53.881673,  # camera centre
    419.194514,  # focal length
    5.864426, -8.518870,  # principal point
    0.087812, 0.002739,  # radial distortion
]
BA1_X = [7.203245, 0.001144, 3.023326]
BA1_W = 0.417022
BA1_FEAT = [271.760969, 834.209256]


def inputs(n=BA1_N, m=BA1_M, p=BA1_P, cam=BA1_CAM, x=BA1_X, w=BA1_W, feat=BA1_FEAT):
    """GradBench's expansion of one ba input: (cams n x 11, x m x 3, w p,
    obs p x 2 (int32), feats p x 2)."""
    cams = np.tile(np.asarray(cam, dtype=np.float64), (n, 1))
    xs = np.tile(np.asarray(x, dtype=np.float64), (m, 1))
    ws = np.full(p, float(w))
    i = np.arange(p)
    obs = np.stack([i % n, i % m], axis=1).astype(np.int32)
    feats = np.tile(np.asarray(feat, dtype=np.float64), (p, 1))
    return cams, xs, ws, obs, feats


# --- JAX -------------------------------------------------------------------


def _jax():
    import jax
    import jax.numpy as jnp

    jax.config.update("jax_enable_x64", True)

    def rodrigues(rot, pt):
        sqtheta = jnp.sum(rot * rot)
        nz = sqtheta != 0
        theta = jnp.sqrt(jnp.where(nz, sqtheta, 1.0))
        w = rot / theta
        cos, sin = jnp.cos(theta), jnp.sin(theta)
        rotated = (
            pt * cos + jnp.cross(w, pt) * sin + w * (jnp.dot(w, pt) * (1.0 - cos))
        )
        return jnp.where(nz, rotated, pt + jnp.cross(rot, pt))

    def residuals(cam, X, w, feat):
        """One observation: (reproj_err[2], w_err)."""
        xcam = rodrigues(cam[0:3], X - cam[3:6])
        h = xcam[0:2] / xcam[2]
        rsq = jnp.sum(h * h)
        L = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq
        proj = h * L * cam[6] + cam[7:9]
        return w * (proj - feat), 1.0 - w * w

    def block(params, feat):
        """The 2 reprojection residuals of one observation as a function of
        its 15 parameters (11 camera, 3 point, 1 weight)."""
        return residuals(params[0:11], params[11:14], params[14], feat)[0]

    def gather(cams, x, w, obs):
        obs = jnp.asarray(obs).astype(jnp.int32)
        return jnp.concatenate([cams[obs[:, 0]], x[obs[:, 1]], w[:, None]], axis=1)

    @jax.jit
    def objective(cams, x, w, obs, feats):
        params = gather(cams, x, w, obs)
        r, we = jax.vmap(lambda q, f: residuals(q[0:11], q[11:14], q[14], f))(
            params, feats
        )
        return jnp.sum(r * r) + jnp.sum(we * we)

    @jax.jit
    def jacobian(cams, x, w, obs, feats):
        """p x 2 x 15: the layout of @ba_jacobian's `jac`."""
        params = gather(cams, x, w, obs)
        return jax.vmap(jax.jacfwd(block))(params, feats)

    @jax.jit
    def weight_jacobian(w):
        """p: the layout of @ba_jacobian's `wjac`."""
        return jax.vmap(jax.grad(lambda v: 1.0 - v * v))(w)

    return objective, jacobian, weight_jacobian


_JAX = None


def jax_functions():
    global _JAX
    if _JAX is None:
        _JAX = _jax()
    return _JAX


# The MLIR functions' output buffers (arguments 5 and 6) are not passed to
# JAX (not even transferred): JAX returns its results.


def jax_objective(cams, x, w, obs, feats, *_outputs):
    return jax_functions()[0](cams, x, w, obs, feats)


def jax_jacobian(cams, x, w, obs, feats, *_outputs):
    return jax_functions()[1](cams, x, w, obs, feats)


def jax_weight_jacobian(w):
    return jax_functions()[2](w)


def cases() -> list[Case]:
    cams, xs, ws, obs, feats = inputs()
    p = BA1_P
    common = [cams.tolist(), xs.tolist(), ws.tolist(), obs.tolist(), feats.tolist()]
    objective_args = common + [np.zeros((p, 2)).tolist(), np.zeros(p).tolist()]
    jacobian_args = common + [np.zeros((p, 2, 15)).tolist(), np.zeros(p).tolist()]
    plain = Case(
        name=f"ba1_n{BA1_N}_m{BA1_M}_p{BA1_P}",
        group="gradbench",
        mlir="ba.mlir",
        entry="ba_objective",
        args=objective_args,
        jax=jax_objective,
        derivative=Derivative(
            entry="ba_jacobian",
            args=jacobian_args,
            out=5,
            jax=jax_jacobian,
        ),
        note=(
            "primal: sum of squares of the 3p residuals (also written out); "
            "derivative: the p 2x15 Jacobian blocks, moonc by moon.jvp width 15 "
            "per observation, JAX by vmap(jacfwd) per observation"
        ),
        target=8.0,
    )
    return [plain, shaped(plain)]
