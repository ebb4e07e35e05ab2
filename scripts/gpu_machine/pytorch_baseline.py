#!/usr/bin/env python3
"""PyTorch (CUDA) timings of exactly the workloads of the perf suite, under the same names, for compare.py.

    pytorch_baseline.py [--cases cases/perf/perf.json] [--dmltool bin/dmltool] [--filter REGEX] [--out pytorch.json]

Runs on the GPU machine (its python3 has PyTorch with CUDA), in the same session as `dmltool bench`. The shapes,
data types and parameters come from the case file itself, so both sides always time the same thing: the case
file's sweeps are expanded by `dmltool list --json` (the packaged binary beside this script, as run.sh calls it;
--dmltool names another), so the names and descs are exactly the ones dmltool benchmarks.

- DEPTH_TO_SPACE1: F.pixel_shuffle. Its order is CRD (DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH) exactly; DCR cases
  are timed with pixel_shuffle too (the same bytes moved with another permutation; PyTorch has no DCR op).
- SPLIT: torch.split, then every output cloned into contiguous memory (a split view alone moves nothing).
- RESAMPLE: F.interpolate with half-pixel centres: 'bilinear' with align_corners=False for LINEAR, and
  'nearest-exact' for NEAREST_NEIGHBOR, i.e. floor((o + 0.5) * in / out) (model B of the spec's §6.6).
  dmltool's default nearest rule is model A, floor((o + 1) * in / out - 0.5); the two pick the same pixels for
  the perf suite's scales 2 and 0.5. PyTorch's CUDA nearest has no int8 kernel: int8 tensors are viewed as
  uint8 (a gather copies bits); its CUDA bilinear has no 8-bit kernel at all, recorded as not measured.
- QUANTIZED_LINEAR_CONVOLUTION: the float32 cuDNN convolution of the same shape (TF32 off, cudnn.benchmark on so
  cuDNN picks its fastest algorithm), with bias: the like-for-like MAC count, without quantize/dequantize.
  cuDNN's pick is itself a timing, made once per process: on an H100 the 256x14x14 layer ran 186 us in two
  processes and 255 us in a third. So each convolution is timed in --cudnn-picks processes (default 3: this one
  and fresh ones) and the fastest counts; every pick's median is kept (cudnn_picks_ms).
- GEMM, QUANTIZED_LINEAR_MATRIX_MULTIPLY, JOIN, pooling, ELEMENT_WISE_QUANTIZED_LINEAR_ADD (imported models'
  layers): pytorch_layers.py beside this script, float32 layers of the same shapes.
- ELEMENT_WISE_* and ACTIVATION_*: PyTorch's own out-of-place operation on tensors with the case's sizes and strides
  (pytorch_element_wise.py beside this script says how each is mirrored and which are not).
- copy: a plain device-to-device copy of 1 GiB, for reference against dmltool's copy probe.

Timing: after warm-up, the median over 15 samples of the mean of 20 back-to-back calls between two CUDA events
(as `dmltool bench --gpu-batch 20`), so idle gaps and the clock drops they cause stay out of both sides.
Throttle probes, as dmltool's: before and after every case, a 64 MiB device-to-device copy, warmed up for 50 ms of
back-to-back copies, then the fastest of 5 (probe_before/after_bytes_per_second): compare.py marks a ratio whose
PyTorch side ran more than 10% below PyTorch's best probe of the run.
Bytes are dmltool's logical bytes (inputs read once, outputs written once); ops count a MAC as 2.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

import torch
import torch.nn.functional as F

import pytorch_element_wise  # beside this script: the element-wise and activation families
import pytorch_layers  # beside this script: the other layers of imported int8 CNNs (GEMM, QLMM, JOIN, pooling, QL add)

TORCH_DTYPES = {"FLOAT32": torch.float32, "FLOAT16": torch.float16, "INT8": torch.int8, "UINT8": torch.uint8,
                "INT32": torch.int32}
ELEMENT_BYTES = {"FLOAT32": 4, "FLOAT16": 2, "INT8": 1, "UINT8": 1, "INT32": 4}
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASES = [os.path.join(HERE, *p) for p in (("cases", "perf", "perf.json"), ("..", "..", "cases", "perf", "perf.json"))]
# The packaged layout (dist/dmltool-gpu: bin/dmltool beside this script), then a build of the repository.
DEFAULT_DMLTOOL = [os.path.join(HERE, *p) for p in (("bin", "dmltool"), ("..", "..", "build", "app", "dmltool"))]


def expanded_cases(dmltool, cases_path):
    """The case file's cases with every sweep expanded and derived outputs filled in: `dmltool list --json`."""
    listed = subprocess.run([dmltool, "list", "--json", cases_path], capture_output=True, text=True)
    if listed.returncode != 0:
        sys.exit(f"pytorch_baseline: {dmltool} list --json {cases_path} failed (exit {listed.returncode}):\n"
                 f"{listed.stderr}")
    return json.loads(listed.stdout)["cases"]


def time_ms(fn, samples, batch, warmup=3):
    """Median over `samples` of the mean time of `batch` back-to-back calls between two CUDA events."""
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


def random_tensor(shape, dtype_name):
    dtype = TORCH_DTYPES[dtype_name]
    if dtype.is_floating_point:
        return torch.rand(shape, device="cuda", dtype=dtype) * 2 - 1
    low, high = (0, 256) if dtype == torch.uint8 else (-128, 128)
    return torch.randint(low, high, shape, device="cuda", dtype=dtype)


def tensor_bytes(t):
    return math.prod(t["Sizes"]) * ELEMENT_BYTES[t["DataType"]]


def depth_to_space(desc):
    x = random_tensor(desc["InputTensor"]["Sizes"], desc["InputTensor"]["DataType"])
    block = desc["BlockSize"]
    order = desc["Order"].removeprefix("DML_DEPTH_SPACE_ORDER_")
    note = "" if order == "COLUMN_ROW_DEPTH" else "DCR timed with pixel_shuffle (CRD): same bytes, other permutation"
    return (lambda: F.pixel_shuffle(x, block)), "F.pixel_shuffle", 2 * tensor_bytes(desc["InputTensor"]), 0, note


def split(desc):
    x = random_tensor(desc["InputTensor"]["Sizes"], desc["InputTensor"]["DataType"])
    axis = desc["Axis"]
    sizes = [t["Sizes"][axis] for t in desc["OutputTensors"]]

    def run():
        return [p.clone(memory_format=torch.contiguous_format) for p in torch.split(x, sizes, dim=axis)]

    return run, "torch.split + clone", 2 * tensor_bytes(desc["InputTensor"]), 0, ""


def resample(desc):
    source, target = desc["InputTensor"], desc["OutputTensor"]
    mode = desc["InterpolationMode"].removeprefix("DML_INTERPOLATION_MODE_")
    if source["Sizes"][:2] != target["Sizes"][:2] or len(source["Sizes"]) != 4:
        raise NotImplementedError("only NCHW resampling of H and W has an F.interpolate equivalent")
    x = random_tensor(source["Sizes"], source["DataType"])
    size = target["Sizes"][2:]
    moved = tensor_bytes(source) + tensor_bytes(target)
    out_count = math.prod(target["Sizes"])
    if mode == "NEAREST_NEIGHBOR":
        note = ""
        if x.dtype == torch.int8:
            x = x.view(torch.uint8)
            note = "int8 viewed as uint8 (PyTorch CUDA nearest has no int8 kernel; a gather copies bits)"
        return (lambda: F.interpolate(x, size=size, mode="nearest-exact")), "F.interpolate nearest-exact", moved, 0, note
    blended = sum(1 for a, b in zip(source["Sizes"][2:], size) if a != b)
    ops = out_count * (1 << blended) * 2
    if not x.dtype.is_floating_point:
        raise NotImplementedError("PyTorch's CUDA bilinear interpolation has no 8-bit kernel")
    return ((lambda: F.interpolate(x, size=size, mode="bilinear", align_corners=False)),
            "F.interpolate bilinear, align_corners=False", moved, ops, "")


def convolution(desc):
    x_desc, w_desc, y_desc = desc["InputTensor"], desc["FilterTensor"], desc["OutputTensor"]
    if len(x_desc["Sizes"]) != 4:
        raise NotImplementedError("only 2-D convolutions are mirrored")
    x = torch.rand(x_desc["Sizes"], device="cuda", dtype=torch.float32)
    w = torch.rand(w_desc["Sizes"], device="cuda", dtype=torch.float32) - 0.5
    bias = torch.rand((w_desc["Sizes"][0],), device="cuda", dtype=torch.float32)
    start, end = desc.get("StartPadding", [0, 0]), desc.get("EndPadding", [0, 0])
    # Asymmetric padding (ONNX SAME_UPPER, strided layers of imported models): an F.pad before an unpadded
    # F.conv2d, as PyTorch runs such a layer: one more kernel, counted in PyTorch's time.
    pad = [] if start == end else [start[1], end[1], start[0], end[0]]
    stride, dilation, groups = desc.get("Strides", [1, 1]), desc.get("Dilations", [1, 1]), desc.get("GroupCount", 1)
    macs = math.prod(y_desc["Sizes"]) * math.prod(w_desc["Sizes"][1:])
    moved = sum(tensor_bytes(desc[k]) for k in ("InputTensor", "FilterTensor", "OutputTensor"))
    if "BiasTensor" in desc:
        moved += tensor_bytes(desc["BiasTensor"])

    if pad:
        def run():
            return F.conv2d(F.pad(x, pad), w, bias, stride=stride, padding=0, dilation=dilation, groups=groups)

        return (run, "F.pad + F.conv2d float32 (cuDNN, TF32 off)", moved, 2 * macs,
                "float32 operands; dmltool's are 8-bit; asymmetric padding as F.pad")

    def run():
        return F.conv2d(x, w, bias, stride=stride, padding=start, dilation=dilation, groups=groups)

    return run, "F.conv2d float32 (cuDNN, TF32 off)", moved, 2 * macs, "float32 operands; dmltool's are 8-bit"


WORKLOADS = {"DML_OPERATOR_DEPTH_TO_SPACE1": depth_to_space, "DML_OPERATOR_SPLIT": split,
             "DML_OPERATOR_RESAMPLE": resample, "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION": convolution,
             **pytorch_layers.WORKLOADS}


def measure(name, build, samples, batch):
    """Times one workload; a workload PyTorch cannot express or run is recorded as not measured, with why."""
    record = {"name": name}
    try:
        fn, torch_op, moved, ops, note = build()
    except NotImplementedError as e:
        record["not_measured"] = str(e)
        return record
    record["torch_op"] = torch_op
    try:
        ms = time_ms(fn, samples, batch)
    except RuntimeError as e:  # e.g. "... not implemented for 'Char'"
        record["not_measured"] = str(e).splitlines()[0]
        return record
    finally:
        del fn  # the workload's tensors, before the next one allocates
        torch.cuda.empty_cache()
    record.update({"median_ms": ms, "bytes": moved, "bytes_per_second": moved / ms * 1e3})
    if ops:
        record.update({"ops": ops, "ops_per_second": ops / ms * 1e3})
    if note:
        record["note"] = note
    return record


class CopyProbe:
    """The throttle probe: the bandwidth of a 64 MiB device-to-device copy, fastest of 5 after 50 ms of warm-up
    (the same size, count and warm-up as dmltool's probe), in bytes read + written per second."""

    def __init__(self, nbytes=64 << 20, executions=5, warmup_seconds=0.05):
        self.nbytes, self.executions, self.warmup_seconds = nbytes, executions, warmup_seconds
        self.source = torch.empty(nbytes, device="cuda", dtype=torch.uint8).random_(0, 256)
        self.target = torch.empty_like(self.source)

    def _timed(self, count):
        """Device seconds of each of `count` back-to-back copies."""
        events = [torch.cuda.Event(enable_timing=True) for _ in range(count + 1)]
        events[0].record()
        for i in range(count):
            self.target.copy_(self.source)
            events[i + 1].record()
        events[-1].synchronize()
        return [events[i].elapsed_time(events[i + 1]) / 1e3 for i in range(count)]

    def measure(self):
        warmed, batch = 0.0, 4
        while warmed < self.warmup_seconds:
            spent = sum(self._timed(batch))
            if spent <= 0:
                break
            warmed += spent
            batch = min(2 * batch, 256)
        fastest = min(self._timed(self.executions))
        return 2 * self.nbytes / fastest if fastest > 0 else 0.0


def copy_workload(nbytes):
    source = torch.empty(nbytes, device="cuda", dtype=torch.uint8).random_(0, 256)
    target = torch.empty_like(source)
    return (lambda: target.copy_(source)), "Tensor.copy_ (device to device)", 2 * nbytes, 0, ""


def more_cudnn_picks(results, cases, args):
    """Times the measured convolutions again in args.cudnn_picks - 1 fresh processes (each makes its own cuDNN
    algorithm pick) and keeps each one's fastest median; the probes stay this process's."""
    conv_names = {c["name"] for c in cases if c["operator"]["type"] == "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION"}
    measured = {r["name"]: r for r in results if r["name"] in conv_names and "median_ms" in r}
    if args.cudnn_picks <= 1 or not measured:
        return
    for r in measured.values():
        r["cudnn_picks_ms"] = [r["median_ms"]]
    only = "^(" + "|".join(re.escape(n) for n in sorted(measured)) + ")$"
    for _ in range(args.cudnn_picks - 1):
        command = [sys.executable, os.path.abspath(__file__), "--cases", args.cases, "--dmltool", args.dmltool,
                   "--filter", only, "--out", "", "--samples", str(args.samples), "--batch", str(args.batch),
                   "--no-probes", "--no-copy", "--cudnn-picks", "1"]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            print(f"# another cuDNN pick failed (exit {done.returncode}): {done.stderr.strip()[-300:]}",
                  file=sys.stderr)
            continue
        for line in done.stdout.splitlines():
            other = json.loads(line)
            mine = measured.get(other.get("name"))
            if mine is None or "median_ms" not in other:
                continue
            mine["cudnn_picks_ms"].append(other["median_ms"])
            if other["median_ms"] < mine["median_ms"]:
                ms = other["median_ms"]
                mine.update({"median_ms": ms, "bytes_per_second": mine["bytes"] / ms * 1e3})
                if "ops" in mine:
                    mine["ops_per_second"] = mine["ops"] / ms * 1e3
    for r in measured.values():
        print(json.dumps({"name": r["name"], "cudnn_picks_ms": r["cudnn_picks_ms"], "median_ms": r["median_ms"]}),
              file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", default=next((p for p in DEFAULT_CASES if os.path.exists(p)), DEFAULT_CASES[0]))
    ap.add_argument("--dmltool", default=next((p for p in DEFAULT_DMLTOOL if os.path.exists(p)), DEFAULT_DMLTOOL[0]),
                    help="the dmltool binary that expands the case file (default: bin/dmltool beside this script)")
    ap.add_argument("--filter", default="", help="only cases whose name matches this regular expression (searched)")
    ap.add_argument("--out", default=os.path.join(os.environ["OUT"], "pytorch.json") if os.environ.get("OUT") else "")
    ap.add_argument("--samples", type=int, default=15)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--no-probes", dest="probes", action="store_false",
                    help="skip the throttle probes before and after every case")
    ap.add_argument("--cudnn-picks", type=int, default=3,
                    help="processes (this one included) whose cuDNN algorithm picks time each convolution")
    ap.add_argument("--no-copy", dest="copy", action="store_false", help="skip the 1 GiB copy reference")
    args = ap.parse_args()

    # The strongest honest float32 baseline: cuDNN autotuning on, TF32 (10-bit mantissa products) off.
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    device = torch.cuda.get_device_name()
    print(f"# torch {torch.__version__}, CUDA {torch.version.cuda}, cuDNN {torch.backends.cudnn.version()}, {device}",
          file=sys.stderr)
    cases = expanded_cases(args.dmltool, args.cases)
    pattern = re.compile(args.filter) if args.filter else None
    results = []
    if args.copy:
        results.append(measure("copy/1GiB", lambda: copy_workload(1 << 30), args.samples, args.batch))
        print(json.dumps(results[-1]), flush=True)
    probe = CopyProbe() if args.probes else None
    for case in cases:
        if pattern and not pattern.search(case["name"]):
            continue
        op = case["operator"]
        build = WORKLOADS.get(op["type"])
        if build is None and op["type"].startswith(("DML_OPERATOR_ELEMENT_WISE_", "DML_OPERATOR_ACTIVATION_")):
            build = lambda desc, op_type=op["type"]: pytorch_element_wise.workload(op_type, desc)  # noqa: E731
        if build is None:
            results.append({"name": case["name"], "not_measured": f"no PyTorch equivalent for {op['type']}"})
        else:
            before = probe.measure() if probe else None
            results.append(measure(case["name"], lambda: build(op["desc"]), args.samples, args.batch))
            if probe and "median_ms" in results[-1]:
                results[-1].update({"probe_before_bytes_per_second": before,
                                    "probe_after_bytes_per_second": probe.measure()})
        print(json.dumps(results[-1]), flush=True)
    more_cudnn_picks(results, cases, args)
    if args.out:
        settings = {"samples": args.samples, "batch": args.batch, "cudnn_benchmark": True, "tf32": False,
                    "cudnn_picks": args.cudnn_picks,
                    "probe": {"bytes": probe.nbytes, "executions": probe.executions,
                              "warmup_seconds": probe.warmup_seconds} if probe else None,
                    "cases": args.cases, "filter": args.filter}
        with open(args.out, "w") as f:
            json.dump({"torch": torch.__version__, "cuda": torch.version.cuda,
                       "cudnn": torch.backends.cudnn.version(), "device": device, "settings": settings,
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
