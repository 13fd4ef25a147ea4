# bench/ml/models.py: the ML models of bench/ml, each as ONNX, in JAX and with fixed inputs.
"""The models `run.py` benchmarks. Each is three things that must agree:

- `onnx()`: an ONNX model (onnx.helper) whose single output is the scalar
  loss (shape [], so torch-mlir's function returns `tensor<f32>`); the
  trained parameters are graph INPUTS, so the converted `func.func` takes
  them as tensor arguments (ResNet alone keeps its weights as initializers:
  it is differentiated with respect to its image);
- `jax(*args)`: the same loss written in JAX, a function of the same
  positional arguments;
- `inputs()`: the arguments, float32 numpy arrays from a fixed seed, in the
  order of the ONNX graph's inputs.

`wrt` lists the arguments differentiated (moonc `--wrt`, JAX `argnums`).
Everything is float32.
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RESNET_DIR = os.path.join(ROOT, "test", "Frontends", "resnet")

# The opset of the hand-built models: 20 has Gelu (and LayerNormalization,
# from 17); ReduceMean/ReduceSum take their axes as an input since 18.
OPSET = 20


@dataclass
class Model:
    """One model of the benchmark."""

    name: str
    # One line for the README and the table's notes.
    description: str
    # Builds the ONNX model (an onnx.ModelProto).
    onnx: Callable[[], Any]
    # The loss in JAX, a function of `inputs()`'s arrays.
    jax: Callable[..., Any]
    # The arguments (float32 arrays), in the ONNX graph's input order.
    inputs: Callable[[], list]
    # The arguments differentiated.
    wrt: list[int]
    # Other source files the ONNX model depends on (for the cache key).
    sources: list[str] = field(default_factory=list)
    # Arguments of `wrt` whose gradient is zero in exact arithmetic: both
    # moonc's and JAX's are rounding noise, so run.py compares them to the
    # model's largest gradient entry instead of their own.
    zero_gradients: list[int] = field(default_factory=list)

    def source_hash(self) -> str:
        """A hash of what the converted model depends on: this file and the
        builder's other sources."""
        h = hashlib.sha256()
        for path in [os.path.abspath(__file__), *self.sources]:
            with open(path, "rb") as f:
                h.update(f.read())
        h.update(inspect.getsource(self.onnx).encode())
        return h.hexdigest()[:16]


# ----------------------------------------------------------------------------
# ONNX helpers


class Graph:
    """Accumulates ONNX nodes, float32 graph inputs and constants."""

    def __init__(self, name):
        self.name = name
        self.nodes = []
        self.inputs = []
        self.count = 0

    def input(self, name, shape):
        from onnx import TensorProto, helper

        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))
        return name

    def op(self, op_type, *inputs, **attrs):
        """Adds a node with one output; returns the output's name."""
        from onnx import helper

        self.count += 1
        out = f"{op_type.lower()}_{self.count}"
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out

    def const(self, array):
        """A Constant node (int64 shapes and axes, float32 scalars)."""
        from onnx import numpy_helper

        array = np.asarray(array)
        self.count += 1
        return self.op("Constant", value=numpy_helper.from_array(array, f"const_{self.count}"))

    def model(self, loss):
        """The model with `loss` (a scalar) as its only output."""
        import onnx
        from onnx import TensorProto, helper

        self.nodes.append(helper.make_node("Identity", [loss], ["loss"]))
        graph = helper.make_graph(self.nodes, self.name, self.inputs,
                                  [helper.make_tensor_value_info("loss", TensorProto.FLOAT, [])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="bench/ml/models.py")
        model.ir_version = 9
        onnx.checker.check_model(model, full_check=True)
        return model

    def cross_entropy(self, logits, onehot):
        """mean over the batch of -sum(onehot * log_softmax(logits))."""
        logp = self.op("LogSoftmax", logits, axis=-1)
        picked = self.op("ReduceSum", self.op("Mul", onehot, logp), self.const(np.array([1], np.int64)), keepdims=0)
        return self.op("Neg", self.op("ReduceMean", picked, keepdims=0))


def jax_cross_entropy(logits, onehot):
    import jax
    import jax.numpy as jnp

    return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits, axis=-1), axis=1))


def jax_conv(x, w, b, pad):
    """NCHW convolution with OIHW weights, stride 1, plus a bias."""
    import jax

    y = jax.lax.conv_general_dilated(x, w, (1, 1), [(pad, pad), (pad, pad)],
                                     dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                     precision=jax.lax.Precision.HIGHEST)
    return y if b is None else y + b[None, :, None, None]


def he(rng, shape, fan_in):
    return rng.normal(0.0, np.sqrt(2.0 / fan_in), shape).astype(np.float32)


def onehot_labels(rng, batch, classes):
    labels = rng.integers(0, classes, batch)
    return np.eye(classes, dtype=np.float32)[labels]


# ----------------------------------------------------------------------------
# cnn: CIFAR-sized CNN training loss

CNN_BATCH = 8


def cnn_onnx():
    g = Graph("cnn")
    x = g.input("images", [CNN_BATCH, 3, 32, 32])
    onehot = g.input("onehot", [CNN_BATCH, 10])
    w1, b1 = g.input("conv1_w", [16, 3, 3, 3]), g.input("conv1_b", [16])
    w2, b2 = g.input("conv2_w", [32, 16, 3, 3]), g.input("conv2_b", [32])
    fw, fb = g.input("fc_w", [10, 32]), g.input("fc_b", [10])
    h = g.op("Relu", g.op("Conv", x, w1, b1, kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
    h = g.op("MaxPool", h, kernel_shape=[2, 2], strides=[2, 2])
    h = g.op("Relu", g.op("Conv", h, w2, b2, kernel_shape=[3, 3], pads=[1, 1, 1, 1]))
    h = g.op("Flatten", g.op("GlobalAveragePool", h), axis=1)
    logits = g.op("Gemm", h, fw, fb, transB=1)
    return g.model(g.cross_entropy(logits, onehot))


def cnn_jax(images, onehot, w1, b1, w2, b2, fw, fb):
    import jax
    import jax.numpy as jnp

    h = jax.nn.relu(jax_conv(images, w1, b1, 1))
    h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
    h = jax.nn.relu(jax_conv(h, w2, b2, 1))
    h = jnp.mean(h, axis=(2, 3))
    logits = jnp.dot(h, fw.T, precision=jax.lax.Precision.HIGHEST) + fb
    return jax_cross_entropy(logits, onehot)


def cnn_inputs():
    rng = np.random.default_rng(1)
    return [
        rng.uniform(-1.0, 1.0, (CNN_BATCH, 3, 32, 32)).astype(np.float32),
        onehot_labels(rng, CNN_BATCH, 10),
        he(rng, (16, 3, 3, 3), 27), rng.uniform(-0.1, 0.1, 16).astype(np.float32),
        he(rng, (32, 16, 3, 3), 144), rng.uniform(-0.1, 0.1, 32).astype(np.float32),
        he(rng, (10, 32), 32), rng.uniform(-0.1, 0.1, 10).astype(np.float32),
    ]


# ----------------------------------------------------------------------------
# mlp: 784 -> 512 -> 512 -> 10 classifier training loss

MLP_BATCH = 64
MLP_SIZES = [784, 512, 512, 10]


def mlp_onnx():
    g = Graph("mlp")
    h = g.input("x", [MLP_BATCH, MLP_SIZES[0]])
    onehot = g.input("onehot", [MLP_BATCH, MLP_SIZES[-1]])
    layers = len(MLP_SIZES) - 1
    for i in range(layers):
        w = g.input(f"w{i + 1}", [MLP_SIZES[i], MLP_SIZES[i + 1]])
        b = g.input(f"b{i + 1}", [MLP_SIZES[i + 1]])
        h = g.op("Gemm", h, w, b)
        if i < layers - 1:
            h = g.op("Relu", h)
    return g.model(g.cross_entropy(h, onehot))


def mlp_jax(x, onehot, *params):
    import jax
    import jax.numpy as jnp

    h = x
    layers = len(params) // 2
    for i in range(layers):
        h = jnp.dot(h, params[2 * i], precision=jax.lax.Precision.HIGHEST) + params[2 * i + 1]
        if i < layers - 1:
            h = jax.nn.relu(h)
    return jax_cross_entropy(h, onehot)


def mlp_inputs():
    rng = np.random.default_rng(2)
    args = [rng.uniform(0.0, 1.0, (MLP_BATCH, MLP_SIZES[0])).astype(np.float32),
            onehot_labels(rng, MLP_BATCH, MLP_SIZES[-1])]
    for a, b in zip(MLP_SIZES, MLP_SIZES[1:]):
        args += [he(rng, (a, b), a), rng.uniform(-0.1, 0.1, b).astype(np.float32)]
    return args


# ----------------------------------------------------------------------------
# transformer: one pre-layer-norm encoder block

SEQ, WIDTH, HEADS, HIDDEN = 128, 256, 4, 1024
HEAD = WIDTH // HEADS
TRANSFORMER_PARAMS = [
    ("ln1_scale", [WIDTH]), ("ln1_bias", [WIDTH]),
    ("wq", [WIDTH, WIDTH]), ("bq", [WIDTH]),
    ("wk", [WIDTH, WIDTH]), ("bk", [WIDTH]),
    ("wv", [WIDTH, WIDTH]), ("bv", [WIDTH]),
    ("wo", [WIDTH, WIDTH]), ("bo", [WIDTH]),
    ("ln2_scale", [WIDTH]), ("ln2_bias", [WIDTH]),
    ("w1", [WIDTH, HIDDEN]), ("b1", [HIDDEN]),
    ("w2", [HIDDEN, WIDTH]), ("b2", [WIDTH]),
]


def transformer_onnx():
    g = Graph("transformer")
    x = g.input("x", [1, SEQ, WIDTH])
    r = g.input("r", [1, SEQ, WIDTH])
    p = {name: g.input(name, shape) for name, shape in TRANSFORMER_PARAMS}
    heads_shape = g.const(np.array([1, SEQ, HEADS, HEAD], np.int64))
    width_shape = g.const(np.array([1, SEQ, WIDTH], np.int64))

    def linear(h, w, b):
        return g.op("Add", g.op("MatMul", h, p[w]), p[b])

    def split(h):  # [1, SEQ, WIDTH] -> [1, HEADS, SEQ, HEAD]
        return g.op("Transpose", g.op("Reshape", h, heads_shape), perm=[0, 2, 1, 3])

    h = g.op("LayerNormalization", x, p["ln1_scale"], p["ln1_bias"], axis=-1, epsilon=1e-5)
    q, k, v = (split(linear(h, f"w{n}", f"b{n}")) for n in "qkv")
    scores = g.op("Mul", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])),
                  g.const(np.array(1.0 / np.sqrt(HEAD), np.float32)))
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), width_shape)
    x1 = g.op("Add", x, linear(context, "wo", "bo"))
    h = g.op("LayerNormalization", x1, p["ln2_scale"], p["ln2_bias"], axis=-1, epsilon=1e-5)
    # ONNX Gelu (opset 20), exact (erf) form; torch-mlir converts it.
    h = linear(g.op("Gelu", linear(h, "w1", "b1")), "w2", "b2")
    y = g.op("Add", x1, h)
    return g.model(g.op("ReduceSum", g.op("Mul", y, r), keepdims=0))


def transformer_jax(x, r, *params):
    import jax
    import jax.numpy as jnp

    p = dict(zip((name for name, _ in TRANSFORMER_PARAMS), params))
    hi = jax.lax.Precision.HIGHEST

    def layer_norm(h, scale, bias):
        mean = jnp.mean(h, axis=-1, keepdims=True)
        var = jnp.mean(jnp.square(h - mean), axis=-1, keepdims=True)
        return (h - mean) / jnp.sqrt(var + 1e-5) * scale + bias

    def linear(h, w, b):
        return jnp.matmul(h, p[w], precision=hi) + p[b]

    def split(h):
        return h.reshape(1, SEQ, HEADS, HEAD).transpose(0, 2, 1, 3)

    h = layer_norm(x, p["ln1_scale"], p["ln1_bias"])
    q, k, v = (split(linear(h, f"w{n}", f"b{n}")) for n in "qkv")
    scores = jnp.matmul(q, k.transpose(0, 1, 3, 2), precision=hi) * np.float32(1.0 / np.sqrt(HEAD))
    context = jnp.matmul(jax.nn.softmax(scores, axis=-1), v, precision=hi)
    context = context.transpose(0, 2, 1, 3).reshape(1, SEQ, WIDTH)
    x1 = x + linear(context, "wo", "bo")
    h = layer_norm(x1, p["ln2_scale"], p["ln2_bias"])
    y = x1 + linear(jax.nn.gelu(linear(h, "w1", "b1"), approximate=False), "w2", "b2")
    return jnp.sum(y * r)


def transformer_inputs():
    rng = np.random.default_rng(3)
    args = [rng.normal(0.0, 1.0, (1, SEQ, WIDTH)).astype(np.float32),
            rng.uniform(-1.0, 1.0, (1, SEQ, WIDTH)).astype(np.float32)]
    for name, shape in TRANSFORMER_PARAMS:
        if name.endswith("_scale"):
            a = rng.uniform(0.5, 1.5, shape)
        elif len(shape) == 1:
            a = rng.uniform(-0.1, 0.1, shape)
        else:
            a = rng.normal(0.0, np.sqrt(1.0 / shape[0]), shape)
        args.append(a.astype(np.float32))
    return args


# ----------------------------------------------------------------------------
# resnet: test/Frontends/resnet/make_resnet.py's ResNet-50 at width 16, one
# 32x32 image (as test/Frontends/resnet/check.py benchmarks it); the loss is
# the sum of the logits times fixed pseudo-random weights (check.py's
# loss_module, here as ONNX nodes), differentiated with respect to the image.

RESNET = dict(depth=50, size=32, batch=1, width=16, classes=1000, seed=0)


def make_resnet():
    if RESNET_DIR not in sys.path:
        sys.path.insert(0, RESNET_DIR)
    import make_resnet as module

    return module


def resnet_loss_weights():
    """check.py's loss weights: uniform in [-1, 1] from seed 12345, to 2
    decimals."""
    rng = np.random.default_rng(12345)
    return np.round(rng.uniform(-1.0, 1.0, (RESNET["batch"], RESNET["classes"])), 2).astype(np.float32)


def resnet_onnx():
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model, _ = make_resnet().build(**RESNET)
    graph = model.graph
    graph.initializer.append(numpy_helper.from_array(resnet_loss_weights(), "loss_weights"))
    graph.node.append(helper.make_node("Mul", ["logits", "loss_weights"], ["weighted"]))
    graph.node.append(helper.make_node("ReduceSum", ["weighted"], ["loss"], keepdims=0))
    del graph.output[:]
    graph.output.append(helper.make_tensor_value_info("loss", TensorProto.FLOAT, []))
    onnx.checker.check_model(model, full_check=True)
    return model


def resnet_jax_params():
    """The initializers of the ResNet's ONNX graph, by name, and its nodes."""
    from onnx import numpy_helper

    model, _ = make_resnet().build(**RESNET)
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    return weights, list(model.graph.node)


_RESNET_CACHE = {}


def resnet_jax(image):
    """make_resnet.py's network in JAX, node by node from its ONNX graph
    (the ops it uses: Conv, BatchNormalization, Relu, Add, MaxPool,
    GlobalAveragePool, Flatten, Gemm), then the weighted sum."""
    import jax
    import jax.numpy as jnp

    if "graph" not in _RESNET_CACHE:
        _RESNET_CACHE["graph"] = resnet_jax_params()
    weights, nodes = _RESNET_CACHE["graph"]
    hi = jax.lax.Precision.HIGHEST
    env = {"input": image, **{k: jnp.asarray(v) for k, v in weights.items()}}

    def attr(node, name, default=None):
        for a in node.attribute:
            if a.name == name:
                return list(a.ints) if a.ints else (a.i if a.type == a.INT else a.f)
        return default

    for node in nodes:
        ins = [env[i] for i in node.input]
        op = node.op_type
        if op == "Conv":
            s, pads = attr(node, "strides"), attr(node, "pads")
            y = jax.lax.conv_general_dilated(ins[0], ins[1], tuple(s), [(pads[0], pads[2]), (pads[1], pads[3])],
                                             dimension_numbers=("NCHW", "OIHW", "NCHW"), precision=hi)
        elif op == "BatchNormalization":
            x, scale, bias, mean, var = ins
            eps = attr(node, "epsilon", 1e-5)
            c = lambda a: a[None, :, None, None]  # noqa: E731
            y = (x - c(mean)) / jnp.sqrt(c(var) + eps) * c(scale) + c(bias)
        elif op == "Relu":
            y = jax.nn.relu(ins[0])
        elif op == "Add":
            y = ins[0] + ins[1]
        elif op == "MaxPool":
            k, s, pads = attr(node, "kernel_shape"), attr(node, "strides"), attr(node, "pads")
            y = jax.lax.reduce_window(ins[0], -jnp.inf, jax.lax.max, (1, 1, *k), (1, 1, *s),
                                      [(0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])])
        elif op == "GlobalAveragePool":
            y = jnp.mean(ins[0], axis=(2, 3), keepdims=True)
        elif op == "Flatten":
            y = ins[0].reshape(ins[0].shape[0], -1)
        elif op == "Gemm":
            y = jnp.dot(ins[0], ins[1].T, precision=hi) + ins[2]
        else:
            raise NotImplementedError(f"resnet_jax: ONNX op {op}")
        env[node.output[0]] = y
    return jnp.sum(env["logits"] * resnet_loss_weights())


def resnet_inputs():
    return [make_resnet().input_image(RESNET["size"], RESNET["batch"], RESNET["seed"])]


# ----------------------------------------------------------------------------

MODELS = [
    Model("cnn", "CIFAR-sized CNN training loss: batch 8 of 3x32x32, conv 3->16 (3x3, pad 1) + bias, ReLU, "
          "max pool 2x2, conv 16->32 (3x3, pad 1) + bias, ReLU, global average pool, linear 32->10, "
          "log-softmax cross-entropy; gradient w.r.t. the 6 weight tensors",
          cnn_onnx, cnn_jax, cnn_inputs, wrt=list(range(2, 8))),
    Model("mlp", "MLP training loss: batch 64, 784->512->512->10, ReLU, log-softmax cross-entropy; "
          "gradient w.r.t. the 6 weight tensors",
          mlp_onnx, mlp_jax, mlp_inputs, wrt=list(range(2, 8))),
    Model("transformer", "one pre-layer-norm transformer encoder block: sequence 128, width 256, 4 heads of 64, "
          "softmax attention scaled by 1/8, GELU (erf) MLP 256->1024->256, residuals; loss = sum(output * r) "
          "for a fixed pseudo-random r; gradient w.r.t. the 16 parameter tensors",
          transformer_onnx, transformer_jax, transformer_inputs, wrt=list(range(2, 2 + len(TRANSFORMER_PARAMS))),
          # The key bias bk adds q . bk to every score of a query's row,
          # which the softmax cancels: its gradient is exactly zero (moonc
          # and JAX both give about 1e-6, against entries up to 24).
          zero_gradients=[2 + [name for name, _ in TRANSFORMER_PARAMS].index("bk")]),
    Model("resnet", "ResNet-50 (make_resnet.py, width 16) on one 1x3x32x32 image, 1000 logits; loss = "
          "sum(logits * fixed pseudo-random weights); gradient w.r.t. the image",
          resnet_onnx, resnet_jax, resnet_inputs, wrt=[0],
          sources=[os.path.join(RESNET_DIR, "make_resnet.py")]),
]
