"""Builds a ResNet as an ONNX model (opset 17) with onnx.helper and numpy.

  make_resnet.py OUT.onnx [--depth 50] [--size 32] [--batch 1] [--width 16]
                          [--classes 1000] [--seed 0]

--depth 50 (the default) is ResNet-50's architecture, depth and op mix: a
stem (7x7 convolution with stride 2, batch norm, ReLU, 3x3 max pool with
stride 2), then bottleneck blocks in four stages of [3, 4, 6, 3] (1x1, 3x3
and 1x1 convolutions, each followed by batch norm, ReLU after the first two
and after the residual Add; the first block of each stage has a 1x1
projection shortcut with batch norm, with stride 2 from the second stage
on, carried by the 3x3 convolution as in torchvision), global average
pooling, Flatten and a Gemm to --classes logits. That is 50 weighted layers
(1 stem convolution, 48 block convolutions, the Gemm) plus 4 projection
convolutions. --depth 101 and 152 are the deeper bottleneck ResNets
([3, 4, 23, 3], [3, 8, 36, 3]); --depth 18 and 34 the ResNets of basic
blocks (two 3x3 convolutions; [2, 2, 2, 2] and [3, 4, 6, 3]), the cheap
VGG/ResNet-18-class variant.

What is scaled: --width is the stem's channel count and the first stage's
(64 in ResNet-50; the stages have width, 2 width, 4 width, 8 width
channels inside a bottleneck and 4 times that out of it) and --size the
input's height and width (224 in ResNet-50). `--width 64 --size 224` is the
full-size network (25.6 million parameters, 4.1 G multiply-adds at batch
1); the tests use --width 16 and a 32x32 or 64x64 image, which keeps the
architecture, depth and op mix while the work drops by 16 (width) times 49
or 12 (resolution).

Weights are He-initialized (normal, std sqrt(2 / fan_in)) from a fixed
seed; batch norm is in inference mode (BatchNormalization with
training_mode 0) with non-trivial parameters: scale in [0.5, 1.5] (in
[0.1, 0.3] for the last batch norm of each residual branch, so that the
sum over 16 blocks stays of moderate size), bias in [-0.2, 0.2], running
mean in [-0.2, 0.2] and running variance in [0.5, 2]. The input is named
`input`, shape [batch, 3, size, size]; the output `logits`, shape
[batch, classes]. With --inputs FILE, also writes a fixed input image
(uniform in [-1, 1], from the seed) as JSON: `[image]`, the argument list
`moonc run --args @FILE` takes. --dtype float64 makes every tensor double
(the same weights, rounded to float32 first only for the input): finite
differences of a 50-layer float32 network are too noisy to check a
derivative to 1e-2.
"""

import argparse
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

STAGES = {
    18: ("basic", [2, 2, 2, 2]),
    34: ("basic", [3, 4, 6, 3]),
    50: ("bottleneck", [3, 4, 6, 3]),
    101: ("bottleneck", [3, 4, 23, 3]),
    152: ("bottleneck", [3, 8, 36, 3]),
}


class Builder:
    """Accumulates nodes and initializers; counts weighted layers."""

    def __init__(self, seed, dtype=np.float32):
        self.dtype = dtype
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.initializers = []
        self.names = 0
        self.convs = 0
        self.projections = 0
        self.batch_norms = 0
        self.gemms = 0
        self.parameters = 0
        self.macs = 0

    def fresh(self, stem):
        self.names += 1
        return f"{stem}_{self.names}"

    def constant(self, stem, array):
        name = self.fresh(stem)
        array = np.ascontiguousarray(array, dtype=self.dtype)
        self.initializers.append(numpy_helper.from_array(array, name))
        self.parameters += array.size
        return name

    def conv(self, x, cin, cout, kernel, stride, hw, projection=False):
        """A convolution without bias (batch norm follows); returns the
        output's name and spatial size."""
        fan_in = cin * kernel * kernel
        weight = self.rng.normal(0.0, np.sqrt(2.0 / fan_in), (cout, cin, kernel, kernel))
        w = self.constant("w", weight)
        y = self.fresh("conv")
        pad = kernel // 2
        self.nodes.append(
            helper.make_node(
                "Conv",
                [x, w],
                [y],
                kernel_shape=[kernel, kernel],
                strides=[stride, stride],
                pads=[pad, pad, pad, pad],
            )
        )
        out = (hw + 2 * pad - kernel) // stride + 1
        self.macs += out * out * cout * fan_in
        if projection:
            self.projections += 1
        else:
            self.convs += 1
        return y, out

    def batch_norm(self, x, channels, residual_end=False):
        rng = self.rng
        if residual_end:
            scale = rng.uniform(0.1, 0.3, channels)
        else:
            scale = rng.uniform(0.5, 1.5, channels)
        bias = rng.uniform(-0.2, 0.2, channels)
        mean = rng.uniform(-0.2, 0.2, channels)
        var = rng.uniform(0.5, 2.0, channels)
        names = [self.constant(s, a) for s, a in (("gamma", scale), ("beta", bias), ("mean", mean), ("var", var))]
        y = self.fresh("bn")
        self.nodes.append(helper.make_node("BatchNormalization", [x, *names], [y], epsilon=1e-5))
        self.batch_norms += 1
        return y

    def relu(self, x):
        y = self.fresh("relu")
        self.nodes.append(helper.make_node("Relu", [x], [y]))
        return y

    def add(self, a, b):
        y = self.fresh("add")
        self.nodes.append(helper.make_node("Add", [a, b], [y]))
        return y

    def conv_bn(self, x, cin, cout, kernel, stride, hw, relu=True, residual_end=False, projection=False):
        y, hw = self.conv(x, cin, cout, kernel, stride, hw, projection)
        y = self.batch_norm(y, cout, residual_end)
        return (self.relu(y) if relu else y), hw

    def block(self, kind, x, cin, mid, stride, hw):
        """One residual block; returns (output, channels, spatial size)."""
        cout = mid * 4 if kind == "bottleneck" else mid
        if kind == "bottleneck":
            y, h = self.conv_bn(x, cin, mid, 1, 1, hw)
            y, h = self.conv_bn(y, mid, mid, 3, stride, h)
            y, h = self.conv_bn(y, mid, cout, 1, 1, h, relu=False, residual_end=True)
        else:
            y, h = self.conv_bn(x, cin, mid, 3, stride, hw)
            y, h = self.conv_bn(y, mid, cout, 3, 1, h, relu=False, residual_end=True)
        if stride != 1 or cin != cout:
            shortcut, _ = self.conv_bn(x, cin, cout, 1, stride, hw, relu=False, projection=True)
        else:
            shortcut = x
        return self.relu(self.add(y, shortcut)), cout, h


def build(depth=50, size=32, batch=1, width=16, classes=1000, seed=0, dtype="float32"):
    """The model (an onnx.ModelProto) and a summary dict."""
    if depth not in STAGES:
        raise ValueError(f"--depth must be one of {sorted(STAGES)}")
    kind, counts = STAGES[depth]
    b = Builder(seed, np.dtype(dtype).type)
    element = {"float32": TensorProto.FLOAT, "float64": TensorProto.DOUBLE}[dtype]
    x, hw = b.conv_bn("input", 3, width, 7, 2, size)
    pooled = b.fresh("maxpool")
    b.nodes.append(
        helper.make_node("MaxPool", [x], [pooled], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
    )
    hw = (hw + 2 - 3) // 2 + 1
    x, channels = pooled, width
    for stage, count in enumerate(counts):
        mid = width * 2**stage
        for index in range(count):
            stride = 2 if stage > 0 and index == 0 else 1
            x, channels, hw = b.block(kind, x, channels, mid, stride, hw)
    gap = b.fresh("gap")
    b.nodes.append(helper.make_node("GlobalAveragePool", [x], [gap]))
    flat = b.fresh("flatten")
    b.nodes.append(helper.make_node("Flatten", [gap], [flat], axis=1))
    fc_w = b.constant("fc_w", b.rng.normal(0.0, np.sqrt(1.0 / channels), (classes, channels)))
    fc_b = b.constant("fc_b", b.rng.uniform(-0.1, 0.1, classes))
    b.nodes.append(helper.make_node("Gemm", [flat, fc_w, fc_b], ["logits"], transB=1))
    b.gemms += 1
    b.macs += channels * classes
    graph = helper.make_graph(
        b.nodes,
        f"resnet{depth}",
        [helper.make_tensor_value_info("input", element, [batch, 3, size, size])],
        [helper.make_tensor_value_info("logits", element, [batch, classes])],
        b.initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_resnet.py")
    model.ir_version = 8
    onnx.checker.check_model(model)
    summary = {
        "depth": depth,
        "block": kind,
        "stages": counts,
        "size": size,
        "batch": batch,
        "width": width,
        "classes": classes,
        "dtype": dtype,
        # Weighted layers as ResNet counts them: convolutions on the main
        # path and the fully connected layer (projection shortcuts apart).
        "layers": b.convs + b.gemms,
        "convolutions": b.convs + b.projections,
        "projections": b.projections,
        "batch_norms": b.batch_norms,
        "onnx_nodes": len(b.nodes),
        "parameters": b.parameters,
        "macs": b.macs * batch,
        "final_spatial": hw,
    }
    return model, summary


def input_image(size, batch, seed, dtype="float32"):
    rng = np.random.default_rng(seed + 1000)
    return rng.uniform(-1.0, 1.0, (batch, 3, size, size)).astype(np.float32).astype(dtype)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--depth", type=int, default=50, choices=sorted(STAGES))
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--classes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    parser.add_argument("--inputs", help="also write a fixed input image as JSON `[image]`")
    args = parser.parse_args(argv)
    model, summary = build(args.depth, args.size, args.batch, args.width, args.classes, args.seed, args.dtype)
    onnx.save(model, args.out)
    if args.inputs:
        with open(args.inputs, "w") as f:
            json.dump([input_image(args.size, args.batch, args.seed, args.dtype).tolist()], f)
    json.dump(summary, sys.stdout)
    print()


if __name__ == "__main__":
    main()
