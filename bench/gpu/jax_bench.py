"""JAX `jit` on the GPU benchmark's programs (bench/gpu/README.md), written
plainly: `jax.value_and_grad` of sum(cos(exp(x))) over 2^LOG2_N f32 and of
sum(cos(exp(x)[None, :] * w)) over a ROWS x COLS w, the same shapes and
inputs' ranges as bench/gpu/driver.c. Prints one line per program,
`jax NAME: key=value ...` (the median of REPS timed calls after two
untimed, each waited for with block_until_ready), or `jax: SKIP (why)` and
exit status 0 when JAX or its GPU backend is missing.

Usage: python3 jax_bench.py [LOG2_N [REPS]]
"""

import statistics
import sys
import time


def median_seconds(f, args, reps):
    times = []
    for r in range(reps + 2):
        start = time.perf_counter()
        out = f(*args)
        for leaf in out if isinstance(out, tuple) else (out,):
            if isinstance(leaf, tuple):
                for x in leaf:
                    x.block_until_ready()
            else:
                leaf.block_until_ready()
        if r >= 2:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    log2n = int(sys.argv[1]) if len(sys.argv) > 1 else 26
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    try:
        import jax
        import jax.numpy as jnp
    except Exception as e:  # noqa: BLE001 - any import failure means skip
        print(f"jax: SKIP (cannot import jax: {e})")
        return 0
    try:
        gpu = jax.devices("gpu")[0]
    except Exception as e:  # noqa: BLE001
        print(f"jax: SKIP (no GPU backend: {e})")
        return 0
    print(f"jax: version={jax.__version__} device={gpu.device_kind}")
    n = 1 << log2n
    cols = 1 << (log2n // 2)
    rows = n // cols
    key = jax.random.PRNGKey(0)
    kx, kw = jax.random.split(key)
    x = jax.device_put(jax.random.uniform(kx, (n,), jnp.float32, -1.0, 1.0), gpu)
    w = jax.device_put(jax.random.uniform(kw, (rows, cols), jnp.float32, -2.0, 2.0), gpu)
    xb = x[:cols]

    def sce(x):
        return jnp.sum(jnp.cos(jnp.exp(x)))

    def bcast(x, w):
        return jnp.sum(jnp.cos(jnp.exp(x)[None, :] * w))

    programs = [
        ("sce", jax.jit(sce), (x,)),
        ("sce_vg", jax.jit(jax.value_and_grad(sce)), (x,)),
        ("bcast", jax.jit(bcast), (xb, w)),
        ("bcast_vg", jax.jit(jax.value_and_grad(bcast, argnums=(0, 1))), (xb, w)),
    ]
    for name, f, args in programs:
        seconds = median_seconds(f, args, reps)
        print(f"jax {name}: ms={seconds * 1e3:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
