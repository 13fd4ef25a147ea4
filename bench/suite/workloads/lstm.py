# bench/suite/workloads/lstm.py: GradBench's `lstm` eval (ADBench's LSTM with
# diagonal weight matrices), moonc (tools/moonc-gradbench/workloads/lstm.mlir)
# against JAX.
"""GradBench `lstm`: the average cross-entropy of a 2-layer diagonal LSTM
predicting the next character of a text from the current one.

GradBench builds its inputs from a text file (evals/lstm/data/lstm_full.txt):
the first `c` characters, each as a row of `b` bits (b = ceil(log2 of the
largest code point), 14 for that text), and uniform [0, 1) parameters and
state from numpy's global generator. The suite must run without GradBench's
checkout, so `make_input` draws a text of the same shape instead, from a
fixed seed: mostly ASCII characters (letters, digits, punctuation, spaces,
newlines) with a few code points of 14 bits (as the typographic quotes and
dashes of the real text), so that the bit rows look like the real ones
(high bits mostly 0). The parameters and the state are uniform [0, 1), of
GradBench's shapes. The timed case is GradBench's smallest, l = 2, c = 1024.
"""

from __future__ import annotations

import numpy as np

from common import Case, shaped

SEED = 20240617


def text_bits(codes: np.ndarray, bits: int) -> np.ndarray:
    """Each code point as a row of `bits` binary digits, most significant
    first (GradBench's `text_to_matrix`)."""
    shifts = np.arange(bits - 1, -1, -1)
    return ((codes[:, None] >> shifts[None, :]) & 1).astype(np.float64)


def make_input(l: int, c: int, seed: int = SEED):
    """(main_params, extra_params, state, sequence) of GradBench's shapes:
    (2l, 4b), (3, b), (2l, b), (c, b), with b = 14."""
    rng = np.random.default_rng(seed)
    ascii_pool = np.array(
        [ord(ch) for ch in "abcdefghijklmnopqrstuvwxyz" * 3
         + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" + " " * 20 + ".,;:'\"()-!?\n"]
    )
    wide_pool = np.array([0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2026])
    codes = rng.choice(ascii_pool, size=c)
    wide = rng.random(c) < 0.02
    codes[wide] = rng.choice(wide_pool, size=int(wide.sum()))
    codes[0] = wide_pool[0]  # so that ceil(log2(max code)) = 14 always
    bits = int(np.ceil(np.log2(codes.max())))
    sequence = text_bits(codes, bits)
    b = bits
    state = rng.random((2 * l, b))
    main_params = rng.random((2 * l, 4 * b))
    extra_params = rng.random((3, b))
    return main_params, extra_params, state, sequence


def lstm_objective(main_params, extra_params, state, sequence):
    """GradBench's objective in JAX, as its JAX tool would write it: a
    `lax.scan` over the characters, the layers unrolled (their count is
    static: the shape of `main_params`)."""
    import jax
    import jax.numpy as jnp

    l = main_params.shape[0] // 2
    b = state.shape[1]

    def predict(carry, x):
        hidden, cell = carry  # (l, b) each
        x = x * extra_params[0]
        new_h, new_c = [], []
        for j in range(l):
            w, bias = main_params[2 * j], main_params[2 * j + 1]
            h, c = hidden[j], cell[j]
            gates = jnp.concatenate([x, h, x, h]) * w + bias
            forget = jax.nn.sigmoid(gates[:b])
            ingate = jax.nn.sigmoid(gates[b : 2 * b])
            outgate = jax.nn.sigmoid(gates[2 * b : 3 * b])
            change = jnp.tanh(gates[3 * b :])
            c = c * forget + ingate * change
            h = outgate * jnp.tanh(c)
            new_h.append(h)
            new_c.append(c)
            x = h
        return (jnp.stack(new_h), jnp.stack(new_c)), x * extra_params[1] + extra_params[2]

    def step(carry, xs):
        x, ygold = xs
        carry, ypred = predict(carry, x)
        # GradBench's logsumexp adds 2 to the sum (`sum(exp(y), 2)`).
        ynorm = ypred - jnp.log(jnp.sum(jnp.exp(ypred)) + 2.0)
        return carry, jnp.sum(ygold * ynorm)

    carry0 = (state[0::2], state[1::2])
    _, totals = jax.lax.scan(step, carry0, (sequence[:-1], sequence[1:]))
    count = (sequence.shape[0] - 1) * b
    return -jnp.sum(totals) / count


def cases() -> list[Case]:
    out = []
    # GradBench's smallest and largest default sizes (l in {2, 4}, c in
    # {1024, 4096}); the hand-shaped variant at the first.
    for l, c in [(2, 1024), (4, 4096)]:
        main_params, extra_params, state, sequence = make_input(l, c)
        out.append(
            Case(
                name=f"lstm_l{l}_c{c}",
                group="gradbench",
                mlir="lstm.mlir",
                entry="lstm",
                args=[main_params.tolist(), extra_params.tolist(),
                      state.tolist(), sequence.tolist()],
                jax=lstm_objective,
                wrt=[0, 1],
                target=3.0,
                note="lax.scan over the characters, layers unrolled",
            )
        )
    out.insert(1, shaped(out[0]))
    return out
