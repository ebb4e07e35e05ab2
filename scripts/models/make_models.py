#!/usr/bin/env python3
"""Builds the ONNX models that `dmltool import` is developed and tested on, since no model zoo can be reached
from here: two int8 CNNs in ONNX's QOperator form, with their real architectures and layer shapes and random
weights, and the neck of a float detector.

  resnet50_v1.5_int8.onnx   ResNet-50 v1.5 (stride on the 3x3 convolution of each bottleneck), 224x224, 1000
                            classes; int8 weights quantized per output channel (symmetric, zero point 0), uint8
                            activations (asymmetric); residual adds as com.microsoft QLinearAdd, the pooled features
                            as com.microsoft QLinearGlobalAveragePool, the classifier dequantized to a float Gemm.
  mobilenetv2_int8.onnx     MobileNetV2 1.0, 224x224, 1000 classes; int8 weights quantized per tensor (symmetric),
                            uint8 activations; inverted residual blocks (1x1 expand, 3x3 depthwise, 1x1 project),
                            residual QLinearAdd, QLinearGlobalAveragePool, a QLinearMatMul classifier whose output
                            is dequantized and gets its float bias from an Add.
  detector_neck_fp32.onnx   a float detector's neck in the style of a YOLO path-aggregation neck over three feature
                            maps (1x128x80x80, 1x256x40x40, 1x512x20x20): Conv, Sigmoid, Mul (SiLU), Resize
                            (nearest, 2x), Concat, Split, Add.

Batch-norm layers are folded into the convolutions, as quantizers do before quantizing. ReLU and ReLU6 are folded
into the quantization of the convolution's output (an output range that starts at 0 clips as ReLU does; one that
ends at 6 as ReLU6 does), as ONNX Runtime's static quantizer produces QOperator models; --explicit-activations
keeps them as uint8 Relu/Clip nodes instead. The quantization parameters are realistic because they are
calibrated: the float model (random He-initialised weights, folded batch norm) runs on a random input here, in
numpy, and every activation's uint8 range is its observed range (for weights: the per-channel or per-tensor
maximum magnitude over 127). The batch dimension of each model's inputs is the symbolic 'N' (import needs
--batch). Everything is deterministic in --seed.

  /usr/bin/python3 scripts/models/make_models.py --out build/models [--seed 20261129] [--explicit-activations]

Needs Debian's python3-onnx and python3-numpy.
"""
import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ONNX_OPSET = 13       # per-axis QuantizeLinear/DequantizeLinear, Split with a 'split' input
MS_DOMAIN = "com.microsoft"  # QLinearAdd, QLinearGlobalAveragePool (ONNX Runtime's contrib operators)


# ---------------------------------------------------------------------------------------------------------------
# Float arithmetic for calibration (batch 1, NCHW, float64 for stable ranges).

def conv2d(x, w, b, stride, pad, group):
    """x: (C,H,W); w: (M, C/group, kh, kw); symmetric padding; returns (M, OH, OW)."""
    c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    out = np.empty((m, oh, ow))
    mg = m // group
    for g in range(group):
        xs = xp[g * cg:(g + 1) * cg]
        cols = np.empty((cg, kh, kw, oh, ow))
        for i in range(kh):
            for j in range(kw):
                cols[:, i, j] = xs[:, i:i + stride * oh:stride, j:j + stride * ow:stride]
        cols = cols.reshape(cg * kh * kw, oh * ow)
        wg = w[g * mg:(g + 1) * mg].reshape(mg, -1)
        out[g * mg:(g + 1) * mg] = (wg @ cols).reshape(mg, oh, ow)
    return out + b[:, None, None]


def depthwise3x3(x, w, b, stride):
    """Depthwise 3x3 convolution, padding 1: the grouped conv2d with group == C, done per tap for speed."""
    c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1)))
    oh = (h + 2 - 3) // stride + 1
    ow = (wd + 2 - 3) // stride + 1
    out = np.zeros((c, oh, ow))
    for i in range(3):
        for j in range(3):
            out += w[:, 0, i, j][:, None, None] * xp[:, i:i + stride * oh:stride, j:j + stride * ow:stride]
    return out + b[:, None, None]


def maxpool3x3s2(x):
    c, h, wd = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    oh, ow = (h + 2 - 3) // 2 + 1, (wd + 2 - 3) // 2 + 1
    out = np.full((c, oh, ow), -np.inf)
    for i in range(3):
        for j in range(3):
            out = np.maximum(out, xp[:, i:i + 2 * oh:2, j:j + 2 * ow:2])
    return out


# ---------------------------------------------------------------------------------------------------------------
# Quantization parameters.

def activation_qparams(values, low=None, high=None):
    """uint8 asymmetric scale and zero point covering the observed range (widened to include 0, as ONNX Runtime's
    quantizer does; `low`/`high` clip it, which is how a folded ReLU or ReLU6 shows)."""
    lo = min(float(values.min()), 0.0)
    hi = max(float(values.max()), 0.0)
    if low is not None:
        lo = max(lo, low)
    if high is not None:
        hi = min(hi, high)
    if hi - lo < 1e-8:
        hi = lo + 1e-8
    scale = (hi - lo) / 255.0
    zero_point = int(np.clip(round(-lo / scale), 0, 255))
    return np.float32(scale), np.uint8(zero_point)


def quantize_weights(w, per_channel):
    """int8 symmetric (zero point 0): per output channel (axis 0) or per tensor."""
    if per_channel:
        scale = np.abs(w).reshape(w.shape[0], -1).max(axis=1) / 127.0
        scale = np.maximum(scale, 1e-8).astype(np.float32)
        q = np.round(w / scale.reshape((-1,) + (1,) * (w.ndim - 1)))
    else:
        scale = np.float32(max(float(np.abs(w).max()) / 127.0, 1e-8))
        q = np.round(w / scale)
    return np.clip(q, -127, 127).astype(np.int8), scale


class Graph:
    """Collects nodes and initializers; names are stable and readable (they tag the imported cases)."""

    def __init__(self, name, seed, explicit_activations):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.initializers = []
        self.explicit = explicit_activations
        self.count = {}

    def unique(self, stem):
        n = self.count.get(stem, 0)
        self.count[stem] = n + 1
        return stem if n == 0 else f"{stem}_{n}"

    def const(self, name, array):
        name = self.unique(name)
        self.initializers.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def add(self, op, inputs, name, domain=None, outputs=1, **attrs):
        name = self.unique(name)
        outs = [name] if outputs == 1 else [f"{name}_out{i}" for i in range(outputs)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=name, domain=domain, **attrs))
        return outs[0] if outputs == 1 else outs

    def model(self, inputs, outputs, opsets):
        graph = helper.make_graph(self.nodes, self.name, inputs, outputs, self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets],
                                  producer_name="dmltool scripts/models/make_models.py")
        model.ir_version = 8
        return model


class QTensor:
    """A uint8 activation in the graph beside its float calibration values."""

    def __init__(self, name, values, scale_name, zp_name, scale, zp):
        self.name, self.values = name, values
        self.scale_name, self.zp_name, self.scale, self.zp = scale_name, zp_name, scale, zp


def qparams(g, stem, values, low=None, high=None):
    scale, zp = activation_qparams(values, low, high)
    return g.const(stem + "_scale", scale), g.const(stem + "_zero_point", zp), scale, zp


def fake_quantize(values, scale, zp):
    return (np.clip(np.round(values / scale) + zp, 0, 255) - zp) * scale


def qconv(g, x, name, out_channels, kernel, stride, per_channel, group=1, activation=None, fan_in_gain=2.0):
    """A batch-norm-folded convolution as QLinearConv. activation: None, 'relu' or 'relu6' (folded into the output
    range, or explicit uint8 Relu/Clip nodes with --explicit-activations)."""
    cin = x.values.shape[0]
    fan_in = cin // group * kernel * kernel
    w = g.rng.normal(0.0, np.sqrt(fan_in_gain / fan_in), (out_channels, cin // group, kernel, kernel))
    b = g.rng.normal(0.0, 0.05, out_channels)
    pad = kernel // 2
    if group == cin and group == out_channels and kernel == 3:
        y = depthwise3x3(x.values, w, b, stride)
    else:
        y = conv2d(x.values, w, b, stride, pad, group)
    clipped = {None: y, "relu": np.maximum(y, 0), "relu6": np.clip(y, 0, 6)}[activation]
    low, high = {None: (None, None), "relu": (0.0, None), "relu6": (0.0, 6.0)}[activation]
    folded = activation is not None and not g.explicit
    y_scale_name, y_zp_name, y_scale, y_zp = qparams(g, name + "_output", clipped if folded else y,
                                                     *((low, high) if folded else (None, None)))
    wq, w_scale = quantize_weights(w, per_channel)
    w_name = g.const(name + "_weight", wq)
    ws_name = g.const(name + "_weight_scale", w_scale)
    wzp_name = g.const(name + "_weight_zero_point",
                       np.zeros(out_channels if per_channel else (), dtype=np.int8))
    bias_scale = x.scale * (w_scale if per_channel else np.full(out_channels, w_scale))
    bq = np.round(b / bias_scale).astype(np.int32)
    b_name = g.const(name + "_bias", bq)
    out = g.add("QLinearConv", [x.name, x.scale_name, x.zp_name, w_name, ws_name, wzp_name, y_scale_name, y_zp_name,
                                b_name], name, kernel_shape=[kernel, kernel], strides=[stride, stride],
                pads=[pad] * 4, group=group, dilations=[1, 1])
    result = QTensor(out, clipped, y_scale_name, y_zp_name, y_scale, y_zp)
    if activation is not None and g.explicit:
        if activation == "relu":
            out = g.add("Relu", [out], name + "_relu")
        else:  # ReLU6 on the uint8 tensor: clip to the codes of 0 and 6
            lo = np.uint8(y_zp)
            hi = np.uint8(np.clip(round(6.0 / y_scale) + int(y_zp), 0, 255))
            out = g.add("Clip", [out, g.const(name + "_clip_min", lo), g.const(name + "_clip_max", hi)],
                        name + "_relu6")
        result = QTensor(out, clipped, y_scale_name, y_zp_name, y_scale, y_zp)
    return result


def qadd(g, a, b, name, relu):
    s = a.values + b.values
    if relu:
        s = np.maximum(s, 0)
    c_scale_name, c_zp_name, c_scale, c_zp = qparams(g, name + "_output", s, 0.0 if relu else None)
    out = g.add("QLinearAdd", [a.name, a.scale_name, a.zp_name, b.name, b.scale_name, b.zp_name, c_scale_name,
                               c_zp_name], name, domain=MS_DOMAIN)
    return QTensor(out, s, c_scale_name, c_zp_name, c_scale, c_zp)


def qinput(g, image):
    x_name = "input"
    s_name, zp_name, scale, zp = qparams(g, "input_quantize", image)
    q = g.add("QuantizeLinear", [x_name, s_name, zp_name], "input_quantize")
    return QTensor(q, image, s_name, zp_name, scale, zp)


def qglobal_average_pool(g, x, name):
    pooled = x.values.mean(axis=(1, 2), keepdims=True)
    s_name, zp_name, scale, zp = qparams(g, name + "_output", pooled)
    out = g.add("QLinearGlobalAveragePool", [x.name, x.scale_name, x.zp_name, s_name, zp_name], name,
                domain=MS_DOMAIN, channels_last=0)
    return QTensor(out, pooled, s_name, zp_name, scale, zp)


# ---------------------------------------------------------------------------------------------------------------
# The models.

def resnet50(seed, explicit):
    g = Graph("resnet50_v1.5_int8", seed, explicit)
    image = g.rng.normal(0.0, 1.0, (3, 224, 224))  # a normalised image's statistics
    x = qinput(g, image)
    x = qconv(g, x, "conv1", 64, 7, 2, per_channel=True, activation="relu")
    pooled = maxpool3x3s2(x.values)
    x = QTensor(g.add("MaxPool", [x.name], "pool1", kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
                pooled, x.scale_name, x.zp_name, x.scale, x.zp)
    for stage, (width, blocks, stride) in enumerate([(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)], start=2):
        for block in range(blocks):
            s = stride if block == 0 else 1
            stem = f"res{stage}{chr(ord('a') + block)}"
            shortcut = x
            if block == 0:
                shortcut = qconv(g, x, stem + "_branch1", width * 4, 1, s, per_channel=True)
            y = qconv(g, x, stem + "_branch2a", width, 1, 1, per_channel=True, activation="relu")
            y = qconv(g, y, stem + "_branch2b", width, 3, s, per_channel=True, activation="relu")  # v1.5: stride here
            y = qconv(g, y, stem + "_branch2c", width * 4, 1, 1, per_channel=True, fan_in_gain=0.5)
            x = qadd(g, y, shortcut, stem + "_add", relu=not explicit)
            if explicit:
                x = QTensor(g.add("Relu", [x.name], stem + "_relu"), np.maximum(x.values, 0), x.scale_name,
                            x.zp_name, x.scale, x.zp)
    x = qglobal_average_pool(g, x, "pool5")
    deq = g.add("DequantizeLinear", [x.name, x.scale_name, x.zp_name], "pool5_dequantize")
    flat = g.add("Flatten", [deq], "flatten", axis=1)
    w = g.rng.normal(0.0, np.sqrt(1.0 / 2048), (1000, 2048)).astype(np.float32)
    b = g.rng.normal(0.0, 0.01, 1000).astype(np.float32)
    logits = g.add("Gemm", [flat, g.const("fc1000_weight", w), g.const("fc1000_bias", b)], "fc1000", transB=1)
    inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224])]
    outputs = [helper.make_tensor_value_info(logits, TensorProto.FLOAT, ["N", 1000])]
    return g.model(inputs, outputs, [("", ONNX_OPSET), (MS_DOMAIN, 1)])


def mobilenetv2(seed, explicit):
    g = Graph("mobilenetv2_int8", seed, explicit)
    image = g.rng.normal(0.0, 1.0, (3, 224, 224))
    x = qinput(g, image)
    x = qconv(g, x, "conv_stem", 32, 3, 2, per_channel=False, activation="relu6")
    cin = 32
    settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                (6, 320, 1, 1)]
    index = 0
    for t, c, n, s in settings:
        for i in range(n):
            stride = s if i == 0 else 1
            stem = f"block{index}"
            y = x
            hidden = cin * t
            if t != 1:
                y = qconv(g, y, stem + "_expand", hidden, 1, 1, per_channel=False, activation="relu6")
            y = qconv(g, y, stem + "_depthwise", hidden, 3, stride, per_channel=False, group=hidden,
                      activation="relu6")
            y = qconv(g, y, stem + "_project", c, 1, 1, per_channel=False, fan_in_gain=0.5)
            x = qadd(g, y, x, stem + "_add", relu=False) if stride == 1 and cin == c else y
            cin = c
            index += 1
    x = qconv(g, x, "conv_head", 1280, 1, 1, per_channel=False, activation="relu6")
    x = qglobal_average_pool(g, x, "pool")
    flat = g.add("Flatten", [x.name], "flatten", axis=1)
    w = g.rng.normal(0.0, np.sqrt(1.0 / 1280), (1280, 1000))
    b = g.rng.normal(0.0, 0.01, 1000).astype(np.float32)
    wq, w_scale = quantize_weights(w.T, per_channel=False)
    logits_float = x.values.reshape(1, -1) @ w
    y_s, y_zp, _, _ = qparams(g, "classifier_output", logits_float)
    mm = g.add("QLinearMatMul", [flat, x.scale_name, x.zp_name, g.const("classifier_weight", wq.T.copy()),
                                 g.const("classifier_weight_scale", w_scale),
                                 g.const("classifier_weight_zero_point", np.int8(0)), y_s, y_zp], "classifier")
    deq = g.add("DequantizeLinear", [mm, y_s, y_zp], "classifier_dequantize")
    logits = g.add("Add", [deq, g.const("classifier_bias", b)], "classifier_bias_add")
    inputs = [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 224, 224])]
    outputs = [helper.make_tensor_value_info(logits, TensorProto.FLOAT, ["N", 1000])]
    return g.model(inputs, outputs, [("", ONNX_OPSET), (MS_DOMAIN, 1)])


def detector_neck(seed):
    g = Graph("detector_neck_fp32", seed, False)

    def conv_silu(x, name, cin, cout, kernel):
        w = g.rng.normal(0.0, np.sqrt(2.0 / (cin * kernel * kernel)), (cout, cin, kernel, kernel)).astype(np.float32)
        b = g.rng.normal(0.0, 0.05, cout).astype(np.float32)
        y = g.add("Conv", [x, g.const(name + "_weight", w), g.const(name + "_bias", b)], name,
                  kernel_shape=[kernel, kernel], pads=[kernel // 2] * 4, strides=[1, 1])
        return g.add("Mul", [y, g.add("Sigmoid", [y], name + "_sigmoid")], name + "_silu")

    def upsample(x, name):
        return g.add("Resize", [x, "", g.const(name + "_scales", np.array([1, 1, 2, 2], np.float32))], name,
                     mode="nearest", coordinate_transformation_mode="asymmetric", nearest_mode="floor")

    p5 = conv_silu("p5", "lateral5", 512, 256, 1)
    merged4 = g.add("Concat", [upsample(p5, "up5"), "p4"], "concat4", axis=1)                # 512 channels
    a, b = g.add("Split", [merged4, g.const("split4_sizes", np.array([256, 256], np.int64))], "split4", axis=1,
                 outputs=2)
    x4 = g.add("Add", [conv_silu(a, "csp4_conv", 256, 256, 3), b], "csp4_add")
    lateral4 = conv_silu(x4, "lateral4", 256, 128, 1)
    merged3 = g.add("Concat", [upsample(lateral4, "up4"), "p3"], "concat3", axis=1)          # 256 channels
    out3 = conv_silu(merged3, "head3", 256, 128, 3)
    inputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", c, s, s])
              for n, c, s in [("p3", 128, 80), ("p4", 256, 40), ("p5", 512, 20)]]
    outputs = [helper.make_tensor_value_info(out3, TensorProto.FLOAT, ["N", 128, 80, 80]),
               helper.make_tensor_value_info(x4, TensorProto.FLOAT, ["N", 256, 40, 40])]
    return g.model(inputs, outputs, [("", ONNX_OPSET)])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for the .onnx files")
    parser.add_argument("--seed", type=int, default=20261129)
    parser.add_argument("--explicit-activations", action="store_true",
                        help="keep ReLU/ReLU6 as uint8 Relu/Clip nodes instead of folding them into quantization")
    parser.add_argument("--only", choices=["resnet50", "mobilenetv2", "neck"], action="append")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    suffix = "_explicit" if args.explicit_activations else ""
    builders = {
        "resnet50": (f"resnet50_v1.5_int8{suffix}.onnx", lambda: resnet50(args.seed, args.explicit_activations)),
        "mobilenetv2": (f"mobilenetv2_int8{suffix}.onnx", lambda: mobilenetv2(args.seed + 1, args.explicit_activations)),
        "neck": ("detector_neck_fp32.onnx", lambda: detector_neck(args.seed + 2)),
    }
    for key in args.only or list(builders):
        filename, build = builders[key]
        model = build()
        onnx.checker.check_model(model)  # the com.microsoft nodes are not checked: ONNX has no schema for them
        path = os.path.join(args.out, filename)
        onnx.save(model, path)
        ops = {}
        for node in model.graph.node:
            ops[node.op_type] = ops.get(node.op_type, 0) + 1
        summary = ", ".join(f"{k}x{v}" for k, v in sorted(ops.items()))
        print(f"{path}: {len(model.graph.node)} nodes ({summary}), {os.path.getsize(path) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
