#!/usr/bin/env python3
"""PyTorch timings of the workloads in cases/perf/perf.json, for comparison with `dmltool bench`.

Runs on the GPU machine (its python3 has PyTorch with CUDA). Each workload is the closest PyTorch expression of
the DirectML operator that materialises its outputs like the operator does; times are medians of batched
hot iterations, and GB/s uses the same logical byte counts as dmltool's work estimates (inputs read once,
outputs written once). Writes one JSON line per workload to stdout (and to $OUT/pytorch.json if OUT is set).
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

DT = {"float32": torch.float32, "float16": torch.float16, "uint8": torch.uint8, "int8": torch.int8}


def time_ms(fn, samples=15, batch=20, warmup=3):
    """Median over samples of the mean time of `batch` back-to-back calls between two CUDA events.

    Batching as `dmltool bench` does (--gpu-batch 20) keeps idle gaps, and the clock drops they cause, out of
    both sides' figures.
    """
    for _ in range(warmup * batch):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(samples):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(batch):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / batch)
    times.sort()
    return times[len(times) // 2]


def rand(shape, dtype):
    if dtype.is_floating_point:
        return torch.rand(shape, device="cuda", dtype=dtype) * 2 - 1
    lo, hi = (0, 256) if dtype == torch.uint8 else (-128, 128)
    return torch.randint(lo, hi, shape, device="cuda", dtype=dtype)


def workloads():
    n, c, h, w, b = 8, 128, 128, 256, 2
    for name in ("float32", "float16", "uint8"):
        dt = DT[name]
        x = rand((n, c, h, w), dt)
        size = x.element_size()
        # DCR: depth = (bh, bw, c'); CRD (= pixel_shuffle): depth = (c', bh, bw).
        dcr = lambda x=x: x.view(n, b, b, c // 4, h, w).permute(0, 3, 4, 1, 5, 2).reshape(n, c // 4, h * b, w * b)
        crd = lambda x=x: x.view(n, c // 4, b, b, h, w).permute(0, 1, 4, 2, 5, 3).reshape(n, c // 4, h * b, w * b)
        yield f"d2s/depth_column_row/{name}", dcr, 2 * x.numel() * size
        yield f"d2s/column_row_depth/{name}", crd, 2 * x.numel() * size
    for name in ("float32", "float16", "int8"):
        x = rand((8, 256, 128, 128), DT[name])
        size = x.element_size()
        yield (f"split/channels/{name}", lambda x=x: [p.clone() for p in torch.split(x, [64, 96, 32, 64], dim=1)],
               2 * x.numel() * size)
        yield (f"split/last_axis/{name}", lambda x=x: [p.contiguous() for p in torch.split(x, [64, 64], dim=3)],
               2 * x.numel() * size)
    for name in ("float32", "float16", "uint8"):
        x = rand((8, 64, 128, 128), DT[name])
        size = x.element_size()
        moved = (x.numel() + 4 * x.numel()) * size
        yield f"resample/nearest_neighbor/{name}", lambda x=x: F.interpolate(x, scale_factor=2, mode="nearest"), moved
        if x.dtype.is_floating_point:
            yield (f"resample/linear/{name}",
                   lambda x=x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False), moved)
    for n, c, hw, m in [(8, 64, 56, 64), (8, 128, 28, 128)]:
        x = rand((n, c, hw, hw), torch.uint8)
        wq = rand((m, c, 3, 3), torch.int8)
        ws = torch.rand((m,), device="cuda") * 0.003 + 0.001
        bias = torch.randint(-2000, 2000, (m,), device="cuda", dtype=torch.int32)
        w16 = (wq.to(torch.float16) * ws.view(m, 1, 1, 1).to(torch.float16))
        b16 = (bias.float() * 0.02 * ws).to(torch.float16)

        def qconv(x=x, w16=w16, b16=b16):
            # dequantize -> fp16 cuDNN convolution -> requantize: PyTorch's CUDA path for a quantized conv.
            real = F.conv2d((x.to(torch.float16) - 128) * 0.02, w16, b16, padding=1)
            return torch.clamp(torch.round(real / 0.5) + 120, 0, 255).to(torch.uint8)

        ops = 2 * n * m * hw * hw * c * 9
        moved = x.numel() + wq.numel() + 4 * m + n * m * hw * hw
        yield f"qlconv/u8s8u8/{n}x{c}x{hw}x{hw}_k3_m{m}", qconv, moved, ops


def main():
    # The strongest PyTorch baseline: let cuDNN pick its fastest convolution algorithm for these shapes.
    torch.backends.cudnn.benchmark = True
    out = []
    print(f"# torch {torch.__version__}, {torch.cuda.get_device_name()}", file=sys.stderr)
    for item in workloads():
        name, fn, moved = item[:3]
        ms = time_ms(fn)
        record = {"name": name, "median_ms": ms, "GBps": moved / ms / 1e6}
        if len(item) > 3:
            record["TOPS"] = item[3] / ms / 1e9
        out.append(record)
        print(json.dumps(record))
    if os.environ.get("OUT"):
        with open(os.path.join(os.environ["OUT"], "pytorch.json"), "w") as f:
            json.dump({"torch": torch.__version__, "device": torch.cuda.get_device_name(), "results": out}, f, indent=1)


if __name__ == "__main__":
    main()
