#!/usr/bin/env python3
"""Writes the argument files of the tensor examples' tests (examples/tensors/).

Run once from the checkout (`python3 test/Examples/Inputs/gen_inputs.py`);
the JSON files it writes are committed next to it. Values come from a fixed
linear congruential generator, rounded to two decimals, so the files are
reproducible without numpy and exact in f32 up to the decimal's rounding.
"""

import json
import os

STATE = [12345]


def uniform(lo, hi):
    """The next value of the generator, in [lo, hi), rounded to 2 decimals."""
    STATE[0] = (1103515245 * STATE[0] + 12345) % (1 << 31)
    return round(lo + (hi - lo) * STATE[0] / (1 << 31), 2)


def tensor(shape, lo=-1.0, hi=1.0):
    """A nested list of the given shape filled from the generator."""
    if not shape:
        return uniform(lo, hi)
    return [tensor(shape[1:], lo, hi) for _ in range(shape[0])]


def one_hot(labels, classes):
    """One-hot rows (floats) for the given class indices."""
    return [[1.0 if c == label else 0.0 for c in range(classes)] for label in labels]


def write(name, args):
    """Writes args as test/Examples/Inputs/<name>.json, one argument per line."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".json")
    with open(path, "w") as f:
        f.write("[\n" + ",\n".join(json.dumps(a) for a in args) + "\n]\n")


def main():
    # mlp.mlir @loss and sgd.mlir @train: x 4x3, w1 3x5, b1 5, w2 5x3, b2 3, y 4x3.
    STATE[0] = 1
    mlp = [
        tensor([4, 3]),
        tensor([3, 5]),
        tensor([5], -0.1, 0.1),
        tensor([5, 3]),
        tensor([3], -0.1, 0.1),
        one_hot([0, 2, 1, 2], 3),
    ]
    write("mlp", mlp)
    # cnn.mlir @loss: x 2x3x8x8, conv1 4x3x3x3 + 4, conv2 8x4x3x3 + 8,
    # linear 3x8 + 3, y 2x3.
    STATE[0] = 2
    write(
        "cnn",
        [
            tensor([2, 3, 8, 8]),
            tensor([4, 3, 3, 3], -0.5, 0.5),
            tensor([4], -0.1, 0.1),
            tensor([8, 4, 3, 3], -0.5, 0.5),
            tensor([8], -0.1, 0.1),
            tensor([3, 8]),
            tensor([3], -0.1, 0.1),
            one_hot([1, 2], 3),
        ],
    )
    # layernorm.mlir @loss: x 4x6, gamma 6, beta 6.
    STATE[0] = 3
    write("layernorm", [tensor([4, 6], -2.0, 2.0), tensor([6], 0.5, 1.5), tensor([6], -0.5, 0.5)])
    # attention.mlir @loss: x 4x6, wq/wk/wv 6x4, c 4x4.
    STATE[0] = 4
    write(
        "attention",
        [tensor([4, 6]), tensor([6, 4]), tensor([6, 4]), tensor([6, 4]), tensor([4, 4])],
    )


if __name__ == "__main__":
    main()
