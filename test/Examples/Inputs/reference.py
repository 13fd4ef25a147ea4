#!/usr/bin/env python3
"""Independent reference values for the tensor examples' tests.

Recomputes, with numpy in float64, what examples/tensors/*.mlir compute on
the argument files gen_inputs.py wrote (each input first rounded to f32, as
moonc reads it): each loss, and each gradient by central finite differences
(h = 1e-6, no moonc involved), and the 8 losses of sgd.mlir's gradient
descent. Prints the FileCheck lines that test/Examples/tensors-*.test use:
each number as a prefix of 4 significant digits followed by {{[0-9]*}}
(3 digits when the f64 value lies within 1e-5 relative of a 4-digit
boundary, so that the f32 result's rounding cannot cross it).

  build/frontend-venv/bin/python test/Examples/Inputs/reference.py [NAME]
"""

import json
import os
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    """The arguments of Inputs/<name>.json as float64 arrays of f32 values."""
    with open(os.path.join(HERE, name + ".json")) as f:
        return [np.asarray(a, dtype=np.float32).astype(np.float64) for a in json.load(f)]


def fd_grad(f, args, wrt, h=1e-6):
    """Central finite differences of the scalar f(*args) w.r.t. args[i], i in wrt."""
    grads = []
    for i in wrt:
        g = np.zeros_like(args[i])
        flat = g.reshape(-1)
        for k in range(flat.size):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[i].reshape(-1)[k] += h
            minus[i].reshape(-1)[k] -= h
            flat[k] = (f(*plus) - f(*minus)) / (2 * h)
        grads.append(g)
    return grads


def log_softmax(z):
    """Row-wise log-softmax with the row max subtracted first."""
    m = z.max(axis=1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=1, keepdims=True))


def mlp_loss(x, w1, b1, w2, b2, y):
    """mlp.mlir @loss: mean softmax cross-entropy of a 2-layer relu MLP."""
    h = np.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    return -(y * log_softmax(logits)).sum() / x.shape[0]


def conv2d(x, w):
    """NCHW x FCHW convolution, stride 1, no padding."""
    kh, kw = w.shape[2], w.shape[3]
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))  # n c oh ow kh kw
    return np.einsum("ncijkl,fckl->nfij", win, w)


def cnn_loss(x, w1, b1, w2, b2, wfc, bfc, y):
    """cnn.mlir @loss: conv-relu-maxpool-conv-relu-avgpool-linear, mean NLL."""
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    a = np.maximum(conv2d(xp, w1) + b1[None, :, None, None], 0.0)
    n, c, hh, ww = a.shape
    p = a.reshape(n, c, hh // 2, 2, ww // 2, 2).max(axis=(3, 5))
    a2 = np.maximum(conv2d(p, w2) + b2[None, :, None, None], 0.0)
    feats = a2.mean(axis=(2, 3))
    logits = feats @ wfc.T + bfc
    return -(y * log_softmax(logits)).sum() / x.shape[0]


def layernorm_loss(x, gamma, beta):
    """layernorm.mlir @loss: sum of squares of layer norm over the last dim."""
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    yy = (x - mean) / np.sqrt(var + np.float64(np.float32(1e-5))) * gamma + beta
    return (yy**2).sum()


def attention_loss(x, wq, wk, wv, c):
    """attention.mlir @loss: sum(softmax(Q K^T / 2) V * c)."""
    q, k, v = x @ wq, x @ wk, x @ wv
    s = q @ k.T / np.sqrt(wq.shape[1])
    p = np.exp(log_softmax(s))
    return ((p @ v) * c).sum()


def sgd_losses(args, steps=8, lr=0.5):
    """sgd.mlir @train: the loss of each gradient descent step, before its update."""
    args = [a.copy() for a in args]
    losses = []
    for _ in range(steps):
        losses.append(mlp_loss(*args))
        grads = fd_grad(mlp_loss, args, [1, 2, 3, 4])
        for i, g in zip([1, 2, 3, 4], grads):
            args[i] = args[i] - lr * g
    return losses


def pattern(v, digits=4):
    """A FileCheck pattern for a printed f32 close to v (see the module doc)."""
    if v == 0.0:
        return "{{-?}}0.0"
    exp = int(np.floor(np.log10(abs(v))))
    for d in (digits, digits - 1):
        scale = 10.0 ** (d - 1 - exp)
        t = np.trunc(abs(v) * scale)
        lo, hi = t / scale, (t + 1) / scale
        if min(abs(v) - lo, hi - abs(v)) > 1e-5 * abs(v):
            break
    decimals = max(d - 1 - exp, 1)
    text = f"{t / scale:.{decimals}f}".rstrip("0")
    if text.endswith("."):
        text += "0"
    if abs(v) < 1e-4:
        return "{{[-0-9.e]+}}"
    return ("-" if v < 0 else "") + text + "{{[0-9]*}}"


def nested(a):
    """The JSON shape of array a with each number replaced by its pattern."""
    if a.ndim == 0:
        return pattern(float(a))
    return "[" + ", ".join(nested(x) for x in a) + "]"


def check_lines(prefix, text, width=400):
    """Text as a CHECK line followed by CHECK-SAME lines of about width chars."""
    text = text.replace("[[", "{{\\[\\[}}")
    parts, cur = [], ""
    for piece in text.split(", "):
        if cur and len(cur) + len(piece) > width and "{{" not in cur[-2:]:
            parts.append(cur + ",")
            cur = piece
        else:
            cur = cur + ", " + piece if cur else piece
    parts.append(cur)
    out = [f"// {prefix}: {parts[0]}"]
    out += [f"// {prefix}-SAME: {p}" for p in parts[1:]]
    return "\n".join(out)


def report(name, f, wrt, entry):
    """Prints the CHECK lines of example `name`: its loss (VALUE: `moonc run
    --entry loss`), `moonc grad --entry loss --wrt ...` (GRAD) and its entry
    @value_and_grad or @grad (ENTRY: `moonc run --entry <entry>`)."""
    args = load(name)
    value = f(*args)
    grads = fd_grad(f, args, wrt)
    by_arg = ["null"] * len(args)
    for i, g in zip(wrt, grads):
        by_arg[i] = nested(g)
    results = [nested(g) for g in grads]
    if entry == "value_and_grad":
        results = [pattern(value)] + results
    print(f"== {name}: loss {value!r}")
    print(check_lines("VALUE", '{"results": [' + pattern(value) + "]"))
    print(check_lines("GRAD", '{"value": ' + pattern(value) + ', "gradient": [' + ", ".join(by_arg) + "]}"))
    print(check_lines("ENTRY", '{"results": [' + ", ".join(results) + "]"))


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else None
    if which in (None, "mlp"):
        report("mlp", mlp_loss, [1, 2, 3, 4], "value_and_grad")
    if which in (None, "cnn"):
        report("cnn", cnn_loss, [1, 2, 3, 4, 5, 6], "grad")
    if which in (None, "layernorm"):
        report("layernorm", layernorm_loss, [0, 1, 2], "value_and_grad")
    if which in (None, "attention"):
        report("attention", attention_loss, [1, 2, 3], "grad")
    if which in (None, "sgd"):
        losses = sgd_losses(load("mlp"))
        print(f"== sgd: losses {losses!r}")
        print(check_lines("TRAIN", '{"results": [[' + ", ".join(pattern(v) for v in losses) + "]]"))


if __name__ == "__main__":
    main()
