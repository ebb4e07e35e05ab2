#!/usr/bin/python3
"""Generate dmltool's bundled test cases (cases/*.json + cases/data/*.h5).

Expected outputs come from the independent numpy oracle in dml_oracle.py, never from the C++ code.
The spec's worked examples (operators.md §9) are transcribed here and the oracle must reproduce them exactly
before anything is written.

    gen_cases.py               regenerate into the repository's cases/
    gen_cases.py --out DIR     regenerate into DIR (e.g. a temporary directory)
    gen_cases.py --check       regenerate into a temporary directory and compare with cases/ (exit 1 on any
                               difference in JSON text or in any dataset's dtype, shape or bytes)

Only Debian's python3-numpy and python3-h5py are needed (run it with /usr/bin/python3).
"""

import argparse
import itertools
import json
import math
import os
import sys
import tempfile
import zlib

import h5py
import numpy as np

sys.dont_write_bytecode = True  # keep scripts/ free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dml_oracle as oracle  # noqa: E402

REPO_CASES = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cases"))

# ================================================================================================================
# Data types, feature levels, tensor descriptors
# ================================================================================================================

DTYPES = {
    "FLOAT64": np.float64, "FLOAT32": np.float32, "FLOAT16": np.float16,
    "INT64": np.int64, "INT32": np.int32, "INT16": np.int16, "INT8": np.int8,
    "UINT64": np.uint64, "UINT32": np.uint32, "UINT16": np.uint16, "UINT8": np.uint8,
}
SIXTY_FOUR_BIT = {"FLOAT64", "INT64", "UINT64"}
EIGHT_BIT = {"INT8", "UINT8"}

FEATURE_LEVELS = ["1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0", "5_1", "5_2",
                  "6_0", "6_1", "6_2", "6_3", "6_4"]


def fl_max(*levels):
    return max(levels, key=FEATURE_LEVELS.index)


def packed_strides(sizes):
    strides = [1] * len(sizes)
    for d in range(len(sizes) - 2, -1, -1):
        strides[d] = strides[d + 1] * sizes[d + 1]
    return strides


def calc_buffer_tensor_size(dt, sizes, strides=None):
    """DMLCalcBufferTensorSize (spec §2.4)."""
    bits = np.dtype(DTYPES[dt]).itemsize * 8
    if strides is None:
        implied_bits = math.prod(sizes) * bits
    else:
        implied_bits = (sum((s - 1) * st for s, st in zip(sizes, strides)) + 1) * bits
    nbytes = (implied_bits + 7) // 8
    return (nbytes + 3) & ~3


class Layout:
    """Physical layout of one tensor. Logical data never depends on it, except broadcast (stride 0) inputs,
    whose data must repeat along the broadcast dimensions because only one physical copy exists."""

    def __init__(self, pad=None, perm=None, bcast=None, extra_bytes=0, explicit_total=False):
        self.pad, self.perm, self.bcast = pad, perm, bcast or []
        self.extra_bytes, self.explicit_total = extra_bytes, explicit_total

    def strides(self, sizes):
        k = len(sizes)
        if self.pad is not None:  # a gap of pad[d] elements after each run along dimension d
            strides, step = [0] * k, 1
            for d in range(k - 1, -1, -1):
                strides[d] = step
                step *= sizes[d] + self.pad[d]
            return strides
        if self.perm is not None:  # perm lists logical dimensions from outermost to innermost in memory
            strides, step = [0] * k, 1
            for d in reversed(self.perm):
                strides[d] = step
                step *= sizes[d]
            return strides
        if self.bcast:
            strides, step = [0] * k, 1
            for d in range(k - 1, -1, -1):
                if d not in self.bcast:
                    strides[d] = step
                    step *= sizes[d]
            return strides
        return None


PACKED = Layout()


def tensor_desc(dt, sizes, layout=PACKED, is_output=False):
    assert dt in DTYPES and all(int(s) >= 1 for s in sizes), (dt, sizes)
    sizes = [int(s) for s in sizes]
    desc = {"DataType": dt, "Sizes": sizes}
    strides = layout.strides(sizes)
    if strides is not None:
        assert not (is_output and 0 in strides), "outputs may not broadcast"
        desc["Strides"] = strides
    if layout.extra_bytes or layout.explicit_total:
        total = calc_buffer_tensor_size(dt, sizes, strides) + layout.extra_bytes
        assert total >= calc_buffer_tensor_size(dt, sizes, strides)
        desc["TotalTensorSizeInBytes"] = total
    return desc


def random_tensor(rng, dt, shape, bcast=()):
    """Random logical data; values repeat along broadcast dimensions."""
    base_shape = [1 if d in bcast else s for d, s in enumerate(shape)]
    dtype = np.dtype(DTYPES[dt])
    if dt == "FLOAT16":
        base = (rng.standard_normal(base_shape) * 8).astype(np.float16)
    elif dt == "FLOAT32":
        base = (rng.standard_normal(base_shape) * 100).astype(np.float32)
    elif dt == "FLOAT64":
        base = rng.standard_normal(base_shape) * 1000  # full double mantissas: catches float32 round trips
    else:
        info = np.iinfo(dtype)
        base = rng.integers(info.min, info.max, size=base_shape, dtype=dtype, endpoint=True)
    return np.ascontiguousarray(np.broadcast_to(base, shape)).astype(dtype)


def special_values(dt, shape, rng):
    """Values a movement op must copy bit for bit (a float round trip through another precision, a denormal
    flush or a sign-dropping move would change them). No NaN: its comparison is not the point here."""
    dtype = np.dtype(DTYPES[dt])
    finfo = np.finfo(dtype)
    specials = np.array([0.0, -0.0, np.inf, -np.inf, finfo.max, -finfo.max, finfo.tiny, -finfo.tiny,
                         finfo.smallest_subnormal, -finfo.smallest_subnormal, finfo.eps, 1.0, -1.0],
                        dtype=dtype)
    data = random_tensor(rng, dt, shape).reshape(-1)
    pos = rng.permutation(data.size)[:specials.size]
    data[pos] = specials[:pos.size]
    return data.reshape(shape)


def case_rng(name):
    # Seeded by the case name, so adding or reordering cases never changes the data of the others.
    return np.random.default_rng(zlib.crc32(name.encode()))


def check_nondegenerate(arr, what):
    """The tool marks all-zero or constant expectations MISTRUSTED; a generated case must never be one."""
    flat = np.asarray(arr).reshape(-1)
    if flat.size < 2 or np.all(flat == flat[0]) or not np.any(flat != 0):
        raise AssertionError(f"{what}: degenerate expected output (all zeros or constant)")


# ================================================================================================================
# Case files
# ================================================================================================================


class CaseFile:
    def __init__(self, stem):
        self.stem = stem
        self.h5_rel = f"data/{stem}.h5"
        self.cases = []
        self.datasets = {}  # dataset path -> array, in insertion order

    def h5(self, path, arr):
        assert path.startswith("/") and path not in self.datasets, path
        self.datasets[path] = np.ascontiguousarray(arr)
        return {"hdf5": self.h5_rel, "dataset": path}

    def add(self, case, expected_arrays):
        assert all(c["name"] != case["name"] for c in self.cases), f"duplicate case name {case['name']}"
        for label, arr in expected_arrays:
            check_nondegenerate(arr, f"{case['name']} {label}")
        self.cases.append(case)

    def write(self, out_dir):
        os.makedirs(os.path.join(out_dir, "data"), exist_ok=True)
        with open(os.path.join(out_dir, f"{self.stem}.json"), "w", encoding="utf-8") as f:
            f.write(to_json({"cases": self.cases}) + "\n")
        write_h5(os.path.join(out_dir, self.h5_rel), self.datasets)


def write_h5(path, datasets):
    """Byte-reproducible HDF5: no timestamps on datasets or groups, objects created in a fixed order."""
    if os.path.exists(path):
        os.remove(path)
    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
    gcpl.set_obj_track_times(False)
    with h5py.File(path, "w") as f:
        groups = {"": f}
        for ds_path, arr in datasets.items():
            parts = ds_path.strip("/").split("/")
            parent = ""
            for part in parts[:-1]:
                key = parent + "/" + part
                if key not in groups:
                    gid = h5py.h5g.create(groups[parent].id, part.encode(), gcpl=gcpl)
                    groups[key] = h5py.Group(gid)
                parent = key
            groups[parent].create_dataset(parts[-1], data=arr, track_times=False)


def to_json(obj, indent=0):
    """Indented JSON with scalar arrays kept on one line (Sizes, Strides, Scales, inline values)."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if all(not isinstance(v, dict) and not (isinstance(v, list) and v and isinstance(v[0], (dict, list)))
               for v in obj.values()):
            flat = "{" + ", ".join(f"{json.dumps(k)}: {to_json(v)}" for k, v in obj.items()) + "}"
            if len(flat) + len(pad) <= 110:
                return flat
        items = [f"{inner}{json.dumps(k)}: {to_json(v, indent + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(v, (dict, list)) for v in obj):
            return "[" + ", ".join(json.dumps(v, allow_nan=False) for v in obj) + "]"
        return "[\n" + ",\n".join(inner + to_json(v, indent + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj, allow_nan=False)  # numpy scalars raise here on purpose: convert them explicitly


def inline(arr):
    """An inline `values` source holding exactly the array's values (floats as the shortest exact decimal)."""
    arr = np.asarray(arr)
    if arr.dtype.kind == "f":
        assert np.all(np.isfinite(arr))
        return {"values": [float(v) for v in arr.reshape(-1)]}
    return {"values": [int(v) for v in arr.reshape(-1)]}


def make_case(name, description, fl, op_type, desc, inputs, expected, tags, tolerance=None):
    case = {"name": name, "description": description, "featureLevel": fl,
            "operator": {"type": op_type, "desc": desc}, "inputs": inputs, "expected": expected}
    if tolerance is not None:
        case["tolerance"] = tolerance
    case["tags"] = list(tags)
    return case


def enum_value(prefix, suffix, full):
    return f"{prefix}_{suffix}" if full else suffix


# ================================================================================================================
# DEPTH_TO_SPACE1
# ================================================================================================================


def d2s_fl(dt):
    return "5_0" if dt in SIXTY_FOUR_BIT else "2_1"


def add_d2s_case(cf, name, description, dt, order, block, x, in_layout=PACKED, out_layout=PACKED,
                 full_enum=True, tags=(), expected_override=None, tolerance=None):
    y = oracle.depth_to_space1(x, block, order)
    if expected_override is not None:
        y = expected_override
    desc = {
        "InputTensor": tensor_desc(dt, x.shape, in_layout),
        "OutputTensor": tensor_desc(dt, y.shape, out_layout, is_output=True),
        "BlockSize": block,
        "Order": enum_value("DML_DEPTH_SPACE_ORDER", order, full_enum),
    }
    inputs = {"InputTensor": cf.h5(f"/{name}/InputTensor", x)}
    expected = {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}
    cf.add(make_case(name, description, d2s_fl(dt), "DML_OPERATOR_DEPTH_TO_SPACE1", desc, inputs, expected,
                     tags, tolerance), [("OutputTensor", y)])


def gen_depth_to_space1():
    cf = CaseFile("depth_to_space1")
    short = {oracle.DCR: "dcr", oracle.CRD: "crd"}
    # Every data type x both orders x block sizes 1, 2, 3.
    for i, (dt, order, block) in enumerate(itertools.product(DTYPES, (oracle.DCR, oracle.CRD), (1, 2, 3))):
        name = f"d2s/{short[order]}/{dt.lower()}/b{block}"
        rng = case_rng(name)
        n, cp = int(rng.integers(1, 3)), int(rng.integers(1, 4))
        h, w = int(rng.integers(1, 4)), int(rng.integers(2, 5))
        x = random_tensor(rng, dt, [n, cp * block * block, h, w])
        add_d2s_case(cf, name, f"{dt} {order} BlockSize {block}, packed tensors", dt, order, block, x,
                     full_enum=(i % 2 == 0), tags=["conformance", "dtype-coverage"])

    def layout_case(name, description, dt, order, block, shape, in_layout=PACKED, out_layout=PACKED,
                    tags=("conformance", "layout"), full_enum=True, data=None):
        rng = case_rng(name)
        x = data(rng) if data else random_tensor(rng, dt, shape, in_layout.bcast)
        add_d2s_case(cf, name, description, dt, order, block, x, in_layout, out_layout, full_enum, tags)

    layout_case("d2s/dcr/uint16/strided_input", "input rows and planes padded (non-packed strides)",
                "UINT16", oracle.DCR, 2, [2, 8, 3, 5], in_layout=Layout(pad=[0, 1, 2, 3]))
    layout_case("d2s/crd/float32/nhwc_input", "input stored channels-last (permuted strides)",
                "FLOAT32", oracle.CRD, 2, [1, 12, 3, 4], in_layout=Layout(perm=[0, 2, 3, 1]), full_enum=False)
    layout_case("d2s/dcr/float32/broadcast_input", "input broadcast (stride 0) along N and H",
                "FLOAT32", oracle.DCR, 2, [2, 8, 3, 4], in_layout=Layout(bcast=[0, 2]))
    layout_case("d2s/crd/int8/padded_output", "output with padded strides and a larger buffer",
                "INT8", oracle.CRD, 3, [1, 18, 2, 3], out_layout=Layout(pad=[1, 0, 2, 5], extra_bytes=64))
    layout_case("d2s/dcr/float16/oversized_buffers", "TotalTensorSizeInBytes larger than needed on both tensors",
                "FLOAT16", oracle.DCR, 2, [1, 4, 3, 3], in_layout=Layout(extra_bytes=36),
                out_layout=Layout(extra_bytes=128), full_enum=False)
    layout_case("d2s/crd/int64/strided_input_padded_output", "64-bit, padded input strides and padded output",
                "INT64", oracle.CRD, 2, [2, 8, 2, 3], in_layout=Layout(pad=[3, 0, 1, 1], explicit_total=True),
                out_layout=Layout(pad=[0, 2, 0, 4]))
    layout_case("d2s/dcr/uint32/broadcast_channels_padded_output", "input broadcast along W, output padded",
                "UINT32", oracle.DCR, 2, [1, 8, 2, 4], in_layout=Layout(bcast=[3]),
                out_layout=Layout(pad=[0, 0, 0, 2], explicit_total=True))
    layout_case("d2s/dcr/float16/special_values", "signed zeros, infinities, denormals, extremes copied bit-exactly",
                "FLOAT16", oracle.DCR, 2, [1, 8, 3, 3], tags=("conformance", "special-values"),
                data=lambda rng: special_values("FLOAT16", [1, 8, 3, 3], rng))
    layout_case("d2s/crd/float32/special_values", "signed zeros, infinities, denormals, extremes copied bit-exactly",
                "FLOAT32", oracle.CRD, 2, [2, 4, 2, 3], tags=("conformance", "special-values"), full_enum=False,
                data=lambda rng: special_values("FLOAT32", [2, 4, 2, 3], rng))
    layout_case("d2s/crd/float64/special_values", "signed zeros, infinities, denormals, extremes copied bit-exactly",
                "FLOAT64", oracle.CRD, 1, [1, 3, 3, 2], tags=("conformance", "special-values"),
                data=lambda rng: special_values("FLOAT64", [1, 3, 3, 2], rng))
    layout_case("d2s/dcr/uint8/large", "larger tensor (98304 elements)", "UINT8", oracle.DCR, 2, [2, 32, 32, 48],
                tags=("conformance", "large"))
    layout_case("d2s/crd/float32/large", "larger tensor (16384 elements), BlockSize 4", "FLOAT32", oracle.CRD, 4,
                [1, 64, 16, 16], tags=("conformance", "large"), full_enum=False)
    return cf


# ================================================================================================================
# SPLIT
# ================================================================================================================


def split_fl(dt, rank):
    fl = "1_0"
    if dt in EIGHT_BIT:
        fl = fl_max(fl, "2_1")
    if rank != 4:
        fl = fl_max(fl, "3_0")
    if dt in SIXTY_FOUR_BIT:
        fl = fl_max(fl, "4_1")
    return fl


def add_split_case(cf, name, description, dt, x, axis, parts, in_layout=PACKED, out_layouts=None,
                   with_count=False, tags=("conformance",), inline_data=False, expected_override=None):
    outs = oracle.split(x, axis, parts)
    if expected_override is not None:
        outs = expected_override
    out_layouts = out_layouts or [PACKED] * len(parts)
    desc = {"InputTensor": tensor_desc(dt, x.shape, in_layout)}
    if with_count:
        desc["OutputCount"] = len(parts)
    desc["OutputTensors"] = [tensor_desc(dt, o.shape, lay, is_output=True) for o, lay in zip(outs, out_layouts)]
    desc["Axis"] = axis
    if inline_data:
        inputs = {"InputTensor": inline(x)}
        expected = {"OutputTensors": [inline(o) for o in outs]}
    else:
        inputs = {"InputTensor": cf.h5(f"/{name}/InputTensor", x)}
        expected = {"OutputTensors": [cf.h5(f"/{name}/expected/OutputTensors/{i}", o) for i, o in enumerate(outs)]}
    cf.add(make_case(name, description, split_fl(dt, x.ndim), "DML_OPERATOR_SPLIT", desc, inputs, expected, tags),
           [(f"OutputTensors[{i}]", o) for i, o in enumerate(outs)])


def gen_split():
    cf = CaseFile("split")

    def case(name, description, dt, shape, axis, parts, in_layout=PACKED, out_layouts=None, with_count=False,
             tags=("conformance",), data=None):
        rng = case_rng(name)
        x = data(rng) if data else random_tensor(rng, dt, shape, in_layout.bcast)
        add_split_case(cf, name, description, dt, x, axis, parts, in_layout, out_layouts, with_count, tags)

    # Every data type, 4-D (the FL 1_0 / 2_1 / 4_1 rows).
    shapes = [[2, 3, 4, 5], [1, 6, 3, 4], [3, 2, 5, 2], [2, 4, 2, 6]]
    for i, dt in enumerate(DTYPES):
        axis = i % 4
        shape = shapes[i % 4]
        n = shape[axis]
        parts = [1, n - 1] if i % 3 == 0 else ([n // 2, n - n // 2] if n > 1 else [1])
        if n >= 3 and i % 3 == 2:
            parts = [1] * n
        case(f"split/4d/{dt.lower()}/axis{axis}", f"{dt}, 4-D, axis {axis}, parts {parts}", dt, shape, axis, parts,
             with_count=(i % 2 == 1), tags=("conformance", "dtype-coverage"))

    # Every dimension count 1..8 (FL 3_0+), axis first / middle / last, uneven parts.
    rank_types = {1: "FLOAT32", 2: "INT16", 3: "UINT8", 4: "FLOAT16", 5: "INT32", 6: "UINT16", 7: "INT8",
                  8: "UINT32"}
    for rank in range(1, 9):
        dt = rank_types[rank]
        axes = sorted({0, rank // 2, rank - 1})
        for axis in axes:
            name = f"split/rank{rank}/{dt.lower()}/axis{axis}"
            rng = case_rng(name)
            shape = [int(s) for s in rng.integers(1, 4, size=rank)]
            shape[axis] = int(rng.integers(4, 8))
            if rank == 1:
                shape[axis] = 11
            if math.prod(shape) // shape[axis] < 2 and rank > 1:
                shape[(axis + 1) % rank] = 2  # every part must hold at least two distinct values
            n = shape[axis]
            min_part = 1 if math.prod(shape) // n >= 2 else 2  # every part needs two distinct values
            while True:
                cut = sorted(int(c) for c in rng.choice(np.arange(1, n), size=min(2, n - 1), replace=False))
                parts = [b - a for a, b in zip([0] + cut, cut + [n])]
                if min(parts) >= min_part:
                    break
            case(name, f"{dt}, {rank}-D, axis {axis}, uneven parts {parts}", dt, shape, axis, parts,
                 with_count=(axis == 0), tags=("conformance", "rank-coverage"))

    case("split/4d/float32/single_output_copy", "OutputCount 1 is a plain copy", "FLOAT32", [2, 3, 4, 5], 1, [3],
         with_count=True)
    case("split/rank8/float16/single_output_copy", "OutputCount 1 on an 8-D tensor", "FLOAT16",
         [2, 1, 2, 3, 1, 2, 2, 3], 7, [3])
    case("split/4d/int32/five_outputs", "five outputs of sizes 1,2,1,3,1 along H", "INT32", [1, 2, 8, 3], 2,
         [1, 2, 1, 3, 1], with_count=True)
    case("split/rank3/uint16/eight_outputs", "eight outputs of size 1 along the last axis", "UINT16", [2, 3, 8], 2,
         [1] * 8)
    case("split/rank5/float64/six_outputs", "64-bit, six outputs along axis 4", "FLOAT64", [2, 1, 3, 2, 9], 4,
         [2, 1, 1, 3, 1, 1])
    case("split/rank7/int64/axis3", "64-bit signed, 7-D", "INT64", [1, 2, 1, 5, 2, 1, 3], 3, [2, 3])
    case("split/rank2/uint64/axis0", "64-bit unsigned, 2-D", "UINT64", [7, 3], 0, [3, 4], with_count=True)
    case("split/4d/uint16/strided_input", "input with padded strides", "UINT16", [2, 3, 4, 5], 3, [2, 3],
         in_layout=Layout(pad=[1, 0, 2, 3], explicit_total=True))
    case("split/4d/float32/nhwc_input", "input stored channels-last, split along C", "FLOAT32", [2, 6, 3, 4], 1,
         [2, 4], in_layout=Layout(perm=[0, 2, 3, 1]))
    case("split/4d/float16/broadcast_input", "input broadcast (stride 0) along C and W, split along H", "FLOAT16",
         [2, 3, 6, 4], 2, [2, 1, 3], in_layout=Layout(bcast=[1, 3]))
    case("split/rank3/int8/broadcast_split_axis", "split along an axis that is itself broadcast", "INT8",
         [4, 6, 3], 0, [1, 3], in_layout=Layout(bcast=[0]))
    case("split/4d/int16/padded_outputs", "outputs with padded strides and larger buffers", "INT16", [1, 4, 5, 6],
         1, [1, 2, 1], out_layouts=[Layout(pad=[0, 0, 1, 2]), PACKED, Layout(pad=[2, 0, 0, 1], extra_bytes=40)])
    case("split/rank6/uint8/oversized_buffers", "TotalTensorSizeInBytes larger than needed", "UINT8",
         [2, 3, 1, 2, 5, 2], 4, [3, 2], in_layout=Layout(extra_bytes=100),
         out_layouts=[Layout(extra_bytes=12), Layout(pad=[0, 0, 0, 0, 1, 1], extra_bytes=4)])
    case("split/4d/float32/special_values", "signed zeros, infinities, denormals, extremes copied bit-exactly",
         "FLOAT32", [1, 2, 4, 4], 2, [1, 3], tags=("conformance", "special-values"),
         data=lambda rng: special_values("FLOAT32", [1, 2, 4, 4], rng))
    case("split/rank1/float16/special_values", "float16 specials, 1-D", "FLOAT16", [16], 0, [5, 11],
         tags=("conformance", "special-values"), data=lambda rng: special_values("FLOAT16", [16], rng))
    case("split/4d/float16/large", "larger tensor (65536 elements) split along C", "FLOAT16", [1, 64, 32, 32], 1,
         [16, 40, 8], tags=("conformance", "large"))
    case("split/rank8/int32/large", "larger 8-D tensor (11520 elements)", "INT32", [2, 3, 2, 4, 3, 2, 5, 4], 5,
         [1, 1], tags=("conformance", "large"))
    return cf


# ================================================================================================================
# JOIN
# ================================================================================================================


def join_fl(dt, rank):
    fl = "1_0"
    if dt in EIGHT_BIT:
        fl = fl_max(fl, "2_1")
    if rank == 5:
        fl = fl_max(fl, "3_0")
    if rank not in (4, 5) or dt in SIXTY_FOUR_BIT:
        fl = fl_max(fl, "4_1")
    return fl


def add_join_case(cf, name, description, dt, xs, axis, in_layouts=None, out_layout=PACKED, with_count=False,
                  tags=("conformance",), inline_data=False, expected_override=None):
    y = oracle.join(xs, axis)
    if expected_override is not None:
        y = expected_override
    in_layouts = in_layouts or [PACKED] * len(xs)
    desc = {}
    if with_count:
        desc["InputCount"] = len(xs)
    desc["InputTensors"] = [tensor_desc(dt, x.shape, lay) for x, lay in zip(xs, in_layouts)]
    desc["OutputTensor"] = tensor_desc(dt, y.shape, out_layout, is_output=True)
    desc["Axis"] = axis
    if inline_data:
        inputs = {"InputTensors": [inline(x) for x in xs]}
        expected = {"OutputTensor": inline(y)}
    else:
        inputs = {"InputTensors": [cf.h5(f"/{name}/InputTensors/{i}", x) for i, x in enumerate(xs)]}
        expected = {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}
    cf.add(make_case(name, description, join_fl(dt, y.ndim), "DML_OPERATOR_JOIN", desc, inputs, expected, tags),
           [("OutputTensor", y)])


def gen_join():
    cf = CaseFile("join")

    def case(name, description, dt, base, axis, parts, in_layouts=None, out_layout=PACKED, with_count=False,
             tags=("conformance",), specials=False):
        rng = case_rng(name)
        xs = []
        for i, p in enumerate(parts):
            shape = list(base)
            shape[axis] = p
            bcast = in_layouts[i].bcast if in_layouts else ()
            xs.append(special_values(dt, shape, rng) if specials else random_tensor(rng, dt, shape, bcast))
        add_join_case(cf, name, description, dt, xs, axis, in_layouts, out_layout, with_count, tags)

    # The page's worked examples, transcribed and checked against the oracle.
    a = np.arange(1, 7, dtype=np.float32).reshape(1, 1, 2, 3)
    b = np.arange(7, 15, dtype=np.float32).reshape(1, 1, 2, 4)
    want = np.array([1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14], dtype=np.float32).reshape(1, 1, 2, 7)
    assert np.array_equal(oracle.join([a, b], 3), want), "JOIN example 1"
    add_join_case(cf, "join/doc/example1_axis3", "the page's example 1: {1,1,2,3} + {1,1,2,4} along axis 3",
                  "FLOAT32", [a, b], 3, inline_data=True, with_count=True, tags=("doc-example",))
    three = [np.arange(1 + 4 * i, 5 + 4 * i, dtype=np.float32).reshape(1, 1, 2, 2) for i in range(3)]
    wants = {1: list(range(1, 13)), 2: list(range(1, 13)), 3: [1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12]}
    for axis, values in wants.items():
        assert oracle.join(three, axis).ravel().tolist() == values, f"JOIN example 2 axis {axis}"
        add_join_case(cf, f"join/doc/example2_axis{axis}", f"the page's example 2: three {{1,1,2,2}} along axis {axis}",
                      "FLOAT32", three, axis, inline_data=True, tags=("doc-example",))

    # Every data type, 4-D, a different axis each.
    shapes = [[2, 3, 4, 5], [1, 6, 3, 4], [3, 2, 5, 2], [2, 4, 2, 6]]
    for i, dt in enumerate(DTYPES):
        axis = i % 4
        parts = [[1, 2], [3, 1, 2], [2, 2], [1, 4, 1, 2]][i % 4]
        case(f"join/4d/{dt.lower()}/axis{axis}", f"{dt}, 4-D, axis {axis}, parts {parts}", dt, shapes[i % 4], axis,
             parts, with_count=(i % 2 == 1), tags=("conformance", "dtype-coverage"))

    # Every dimension count 1..8, axis first / middle / last.
    rank_types = {1: "FLOAT32", 2: "INT16", 3: "UINT8", 4: "FLOAT16", 5: "INT32", 6: "UINT16", 7: "INT8",
                  8: "UINT32"}
    for rank in range(1, 9):
        dt = rank_types[rank]
        for axis in sorted({0, rank // 2, rank - 1}):
            name = f"join/rank{rank}/{dt.lower()}/axis{axis}"
            rng = case_rng(name)
            base = [int(s) for s in rng.integers(1, 4, size=rank)]
            if math.prod(base) < 2 and rank > 1:
                base[(axis + 1) % rank] = 2
            parts = [int(p) for p in rng.integers(1, 4, size=int(rng.integers(2, 4)))]
            if rank == 1:
                parts = [3, 5, 2]
            case(name, f"{dt}, {rank}-D, axis {axis}, parts {parts}", dt, base, axis, parts,
                 tags=("conformance", "rank-coverage"))

    case("join/4d/float32/single_input_copy", "InputCount 1 is a plain copy", "FLOAT32", [2, 3, 4, 5], 1, [3],
         with_count=True)
    case("join/4d/int8/odd_parts_innermost", "INT8 along the innermost axis at odd offsets (shared words)", "INT8",
         [2, 3, 4, 1], 3, [1, 3, 2, 5, 1])
    case("join/4d/uint16/strided_inputs", "inputs with padded strides", "UINT16", [2, 3, 4, 5], 3, [2, 3],
         in_layouts=[Layout(pad=[1, 0, 2, 3], explicit_total=True), Layout(pad=[0, 1, 0, 1])])
    case("join/4d/float32/nhwc_inputs", "inputs stored channels-last, joined along C", "FLOAT32", [2, 6, 3, 4], 1,
         [2, 4], in_layouts=[Layout(perm=[0, 2, 3, 1]), PACKED])
    case("join/4d/float16/broadcast_input", "an input broadcast (stride 0) along C and W, joined along H",
         "FLOAT16", [2, 3, 6, 4], 2, [2, 1], in_layouts=[Layout(bcast=[1, 3]), PACKED])
    case("join/4d/int16/padded_output", "output with padded strides and a larger buffer", "INT16", [1, 4, 5, 6],
         1, [1, 2, 1], out_layout=Layout(pad=[2, 0, 0, 1], extra_bytes=40))
    case("join/4d/float32/special_values", "signed zeros, infinities, denormals, extremes copied bit-exactly",
         "FLOAT32", [1, 2, 4, 4], 2, [1, 3], tags=("conformance", "special-values"), specials=True)
    case("join/rank5/float64/special_values", "64-bit specials, 5-D", "FLOAT64", [1, 2, 3, 2, 2], 4, [1, 2],
         tags=("conformance", "special-values"), specials=True)
    case("join/4d/float16/large", "larger tensor (65536 elements) joined along C", "FLOAT16", [1, 64, 32, 32], 1,
         [16, 40, 8], tags=("conformance", "large"))
    return cf


# ================================================================================================================
# GEMM
# ================================================================================================================

TRANSFORM = {False: "DML_MATRIX_TRANSFORM_NONE", True: "DML_MATRIX_TRANSFORM_TRANSPOSE"}


def gemm_operand(rng, dt, shape):
    """Values with few significant bits (multiples of 1/8 in [-8, 8]): products and short sums stay exact in
    float32, so the expected values do not hinge on the summation order; large K cases use full-precision data."""
    return (rng.integers(-64, 65, size=shape) / 8.0).astype(DTYPES[dt])


def add_gemm_case(cf, name, description, dt, batch, m, n, k, trans_a=False, trans_b=False, alpha=1.0, beta=1.0,
                  c_shape="full", layouts=None, full_precision=False, tags=("conformance",)):
    rng = case_rng(name)
    a_shape = list(batch) + ([k, m] if trans_a else [m, k])
    b_shape = list(batch) + ([n, k] if trans_b else [k, n])
    out_shape = list(batch) + [m, n]
    draw = (lambda sh: random_tensor(rng, dt, sh) if dt != "FLOAT32" else
            (rng.standard_normal(sh)).astype(np.float32)) if full_precision else (lambda sh: gemm_operand(rng, dt, sh))
    a, b = draw(a_shape), draw(b_shape)
    c = None
    layouts = dict(layouts or {})
    if c_shape is not None:
        # C has the output's sizes (DirectML: "CTensor and OutputTensor must have the same Sizes"); a C that
        # broadcasts (an ONNX bias) does so through Strides of 0.
        r = len(out_shape)
        bcast = {"row": [r - 2], "column": [r - 1], "scalar": list(range(r))}.get(c_shape)
        if bcast:
            layouts["C"] = Layout(bcast=bcast)
        c = draw(list(out_shape))
        bcast = layouts.get("C", PACKED).bcast
        if bcast:  # one physical copy along broadcast dimensions: the logical data repeats
            first = tuple(slice(0, 1) if d in bcast else slice(None) for d in range(c.ndim))
            c = np.ascontiguousarray(np.broadcast_to(c[first], c.shape))
    y = oracle.gemm(a, b, c, trans_a, trans_b, alpha, beta, DTYPES[dt])
    desc = {"ATensor": tensor_desc(dt, a.shape, layouts.get("A", PACKED)),
            "BTensor": tensor_desc(dt, b.shape, layouts.get("B", PACKED))}
    if c is not None:
        desc["CTensor"] = tensor_desc(dt, c.shape, layouts.get("C", PACKED))
    desc["OutputTensor"] = tensor_desc(dt, y.shape, layouts.get("Output", PACKED), is_output=True)
    desc["TransA"] = TRANSFORM[trans_a]
    desc["TransB"] = TRANSFORM[trans_b]
    desc["Alpha"] = float(alpha)
    desc["Beta"] = float(beta)
    inputs = {"ATensor": cf.h5(f"/{name}/ATensor", a), "BTensor": cf.h5(f"/{name}/BTensor", b)}
    if c is not None:
        inputs["CTensor"] = cf.h5(f"/{name}/CTensor", c)
    fl = "1_0" if len(out_shape) == 4 else "4_0"
    cf.add(make_case(name, description, fl, "DML_OPERATOR_GEMM", desc, inputs,
                     {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}, tags), [("OutputTensor", y)])


def gen_gemm():
    cf = CaseFile("gemm")
    g = lambda name, desc, *a, **k: add_gemm_case(cf, "gemm/" + name, desc, *a, **k)  # noqa: E731

    # Both types x the four transform combinations, 4-D (FL 1_0), Alpha/Beta other than 1.
    for dt in ("FLOAT32", "FLOAT16"):
        for ta, tb in itertools.product((False, True), repeat=2):
            t = ("t" if ta else "n") + ("t" if tb else "n")
            g(f"{dt.lower()}/4d/{t}", f"{dt} {{2,3,M,K}} x {{2,3,K,N}}, TransA {ta}, TransB {tb}, Alpha 0.5, Beta -1.5",
              dt, [2, 3], 5, 7, 6, ta, tb, 0.5, -1.5)
    # Ranks 2 and 3 (FL 4_0), C broadcast along rows, columns, everywhere, and absent.
    g("float32/2d/c_row", "2-D, C broadcast over the rows with a stride of 0 (an ONNX Gemm bias)", "FLOAT32", [], 4,
      9, 5, c_shape="row")
    g("float32/2d/c_column", "2-D, C broadcast over the columns (stride 0)", "FLOAT32", [], 6, 3, 8,
      c_shape="column")
    g("float16/3d/c_scalar", "3-D, C one value broadcast everywhere (strides 0), Beta 2", "FLOAT16", [3], 4, 4, 4,
      beta=2.0, c_shape="scalar")
    g("float32/3d/no_c", "3-D without C (Beta ignored)", "FLOAT32", [2], 5, 6, 3, beta=3.0, c_shape=None)
    g("float32/2d/beta_zero", "Beta 0: C does not contribute", "FLOAT32", [], 3, 5, 4, beta=0.0)
    g("float32/2d/alpha_negative", "Alpha -2, TransB", "FLOAT32", [], 5, 5, 5, False, True, -2.0, 1.0)
    g("float32/2d/vector", "M = 1: a row vector times a matrix", "FLOAT32", [], 1, 16, 12)
    g("float32/3d/dots", "M = N = 1 in 4 batches with C: dot products", "FLOAT32", [4], 1, 1, 33)
    # Layouts.
    g("float32/4d/strided", "padded A and output, permuted B", "FLOAT32", [1, 2], 4, 5, 6,
      layouts={"A": Layout(pad=[0, 1, 1, 2]), "B": Layout(perm=[0, 1, 3, 2]), "Output": Layout(pad=[0, 0, 1, 3])})
    g("float16/2d/broadcast_c_strides", "FLOAT16, C broadcast over the rows through its Strides", "FLOAT16", [], 3, 4, 5,
      layouts={"C": Layout(bcast=[0])}, c_shape="full")
    # Full-precision data and long dot products: the verdict rests on the error bound, not on exact sums.
    g("float32/2d/k512", "K = 512, full-precision normal data", "FLOAT32", [], 8, 8, 512, full_precision=True,
      tags=("conformance", "large"))
    g("float16/4d/k256", "FLOAT16, K = 256, full-precision data", "FLOAT16", [1, 2], 6, 5, 256, trans_a=True,
      full_precision=True, tags=("conformance", "large"))
    return cf


# ================================================================================================================
# RESAMPLE
# ================================================================================================================

NN, LINEAR = "NEAREST_NEIGHBOR", "LINEAR"


def resample_fl(dt, rank):
    fl = "2_0"
    if rank != 4:
        fl = fl_max(fl, "5_1")
    if dt in EIGHT_BIT:
        fl = fl_max(fl, "6_2")
    return fl


def nn_is_discriminating(in_sizes, out_sizes, scales):
    """True when the readings of "nearest" in spec §6.6 (models A, B, C) pick different pixels for this case.

    The expected output follows model B, what DirectML 1.15.4 computes for FLOAT32/FLOAT16; such cases are
    tagged nn-rule-sensitive, since another implementation may validly follow A or C."""
    for n_in, n_out, s in zip(in_sizes, out_sizes, scales):
        b = oracle.nearest_indices(n_in, n_out, s, "B")
        if any(not np.array_equal(b, oracle.nearest_indices(n_in, n_out, s, r)) for r in ("A", "C")):
            return True
    return False


def add_resample_case(cf, name, description, dt, mode, x, out_sizes, scales, in_layout=PACKED,
                      out_layout=PACKED, full_enum=True, with_count=False, tags=("conformance",),
                      expected_override=None):
    # Written as given (0.4, not 0.4000000059604645): the oracle and the tool both round the decimal to the same
    # float32, which is what DML_RESAMPLE_OPERATOR_DESC.Scales holds.
    scales = [float(s) for s in scales]
    y = oracle.resample(x, out_sizes, scales, mode)
    if expected_override is not None:
        y = expected_override
    tags = list(tags)
    if mode == NN and nn_is_discriminating(x.shape, out_sizes, scales) and "nn-rule-sensitive" not in tags:
        tags.append("nn-rule-sensitive")
    desc = {
        "InputTensor": tensor_desc(dt, x.shape, in_layout),
        "OutputTensor": tensor_desc(dt, out_sizes, out_layout, is_output=True),
        "InterpolationMode": enum_value("DML_INTERPOLATION_MODE", mode, full_enum),
    }
    if with_count:
        desc["ScaleCount"] = len(scales)
    desc["Scales"] = scales
    inputs = {"InputTensor": cf.h5(f"/{name}/InputTensor", x)}
    expected = {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}
    cf.add(make_case(name, description, resample_fl(dt, x.ndim), "DML_OPERATOR_RESAMPLE", desc, inputs, expected,
                     tags), [("OutputTensor", y)])


def resample_out_size(n_in, scale):
    return max(1, int(math.floor(n_in * float(np.float32(scale)) + 1e-9)))


def gen_resample():
    cf = CaseFile("resample")

    def case(name, description, dt, mode, in_sizes, scales, out_sizes=None, in_layout=PACKED, out_layout=PACKED,
             full_enum=True, with_count=False, tags=("conformance",)):
        rng = case_rng(name)
        x = random_tensor(rng, dt, in_sizes, in_layout.bcast)
        if out_sizes is None:
            out_sizes = [resample_out_size(n, s) for n, s in zip(in_sizes, scales)]
        add_resample_case(cf, name, description, dt, mode, x, out_sizes, scales, in_layout, out_layout,
                          full_enum, with_count, tags)

    # Both modes x 4 data types x ranks 1..4, cycling through the scale factors of interest.
    scale_cycle = [2.0, 0.5, 3.0, 1.5, 0.75, 2.5, 0.4]
    i = 0
    for mode in (NN, LINEAR):
        for dt in ("FLOAT32", "FLOAT16", "INT8", "UINT8"):
            for rank in (1, 2, 3, 4):
                s1, s2 = scale_cycle[i % 7], scale_cycle[(i + 3) % 7]
                name = f"resample/{mode.split('_')[0].lower()}/{dt.lower()}/rank{rank}"
                rng = case_rng(name)

                def size_for(s):  # big enough that a downsample still leaves at least two outputs
                    return max(int(rng.integers(2, 6)), math.ceil(2.0 / s))

                if rank == 1:
                    scales = [s1]
                elif rank == 2:
                    scales = [s1, s2]
                elif rank == 3:
                    scales = [1.0, s1, s2] if i % 2 == 0 else [s1, 1.0, s2]
                else:
                    scales = [1.0, 1.0, s1, s2] if i % 3 else [1.0, s2, 1.0, s1]
                in_sizes = [size_for(s) if s != 1.0 else int(rng.integers(1, 4)) for s in scales]
                if math.prod(in_sizes) < 4:
                    in_sizes[-1] += 2
                case(name, f"{dt} {mode}, {rank}-D, scales {scales}", dt, mode, in_sizes, scales,
                     full_enum=(i % 2 == 0), with_count=(i % 4 == 1), tags=("conformance", "dtype-rank-coverage"))
                i += 1

    # Each scale factor in both modes on a 2-D FLOAT32 tensor, plus the 4-D form at FL 2_0.
    for mode in (NN, LINEAR):
        m = mode.split("_")[0].lower()
        for s in (2.0, 3.0, 0.5, 1.5, 0.75, 2.5, 0.4, 4.0, 1.0):
            tag = str(s).replace(".", "p")
            n_in = max(3, math.ceil(3.0 / s))
            case(f"resample/{m}/float32/scale_{tag}", f"{mode}, scale {s} on H and W", "FLOAT32", mode,
                 [1, 2, n_in, n_in + 1], [1.0, 1.0, s, s], full_enum=(s >= 1), tags=("conformance", "scales"))

    # Resampling along N and C, not only H/W.
    case("resample/linear/float32/scale_n_c", "LINEAR along N (x2) and C (x1.5), H/W unchanged", "FLOAT32", LINEAR,
         [2, 4, 3, 3], [2.0, 1.5, 1.0, 1.0], tags=("conformance", "non-spatial"))
    case("resample/nearest/float16/scale_c", "NEAREST_NEIGHBOR along C only (x2)", "FLOAT16", NN, [1, 3, 2, 4],
         [1.0, 2.0, 1.0, 1.0], full_enum=False, tags=("conformance", "non-spatial"))
    case("resample/linear/float16/all_dims", "LINEAR along all four dimensions", "FLOAT16", LINEAR, [2, 3, 4, 5],
         [1.5, 0.75, 2.0, 0.5], tags=("conformance", "non-spatial"))
    case("resample/nearest/float32/downsample_n", "NEAREST_NEIGHBOR downsampling N by 0.5", "FLOAT32", NN,
         [4, 2, 3, 3], [0.5, 1.0, 1.0, 1.0], tags=("conformance", "non-spatial"))

    # Output sizes that differ from in * scale: larger scaled input is cropped, smaller one is edge-clamped.
    for mode in (NN, LINEAR):
        m = mode.split("_")[0].lower()
        case(f"resample/{m}/float32/crop", "output smaller than in*scale (6*2=12 -> 9, 5*2=10 -> 7): cropped",
             "FLOAT32", mode, [1, 1, 6, 5], [1.0, 1.0, 2.0, 2.0], out_sizes=[1, 1, 9, 7],
             tags=("conformance", "crop-clamp"))
        case(f"resample/{m}/float32/clamp", "output larger than in*scale (4*2=8 -> 11, 3*0.5 -> 4): edges clamped",
             "FLOAT32", mode, [1, 2, 4, 3], [1.0, 1.0, 2.0, 0.5], out_sizes=[1, 2, 11, 4],
             tags=("conformance", "crop-clamp"))
    case("resample/linear/float16/mismatched_scale", "scale 1.5 with an output twice the input (rank 2)",
         "FLOAT16", LINEAR, [4, 5], [1.5, 1.0], out_sizes=[8, 5], tags=("conformance", "crop-clamp"))
    case("resample/linear/uint8/crop_rank1", "UINT8 LINEAR, scale 2.5, output 7 instead of 10", "UINT8", LINEAR,
         [4], [2.5], out_sizes=[7], tags=("conformance", "crop-clamp"))

    case("resample/nearest/uint8/scale_2_0p5", "UINT8 NN with model-independent scales 2 and 0.5 (rank 2)",
         "UINT8", NN, [5, 8], [2.0, 0.5], tags=("conformance", "scales"))

    # The rows of the spec §6.6 comparison table not covered by the doc examples.
    case("resample/nearest/float32/models_3to4_4to3", "NN 3->4 (1.5) on H and 4->3 (0.75) on W", "FLOAT32", NN,
         [1, 1, 3, 4], [1.0, 1.0, 1.5, 0.75], tags=("conformance", "nn-rounding"))
    case("resample/nearest/float32/models_2to8", "NN 2->8 (4)", "FLOAT32", NN, [1, 2, 3, 2], [1.0, 1.0, 1.0, 4.0],
         tags=("conformance", "nn-rounding"))

    # Layouts.
    case("resample/linear/float32/strided_input", "input with padded strides", "FLOAT32", LINEAR, [1, 2, 4, 5],
         [1.0, 1.0, 1.5, 2.0], in_layout=Layout(pad=[0, 1, 2, 3], explicit_total=True),
         tags=("conformance", "layout"))
    case("resample/nearest/float16/broadcast_input", "input broadcast (stride 0) along C and W", "FLOAT16", NN,
         [1, 3, 4, 4], [1.0, 1.0, 2.0, 2.0], in_layout=Layout(bcast=[1, 3]), full_enum=False,
         tags=("conformance", "layout"))
    case("resample/linear/uint8/broadcast_input", "UINT8 rank 2, input broadcast along rows", "UINT8", LINEAR,
         [3, 6], [2.0, 0.5], in_layout=Layout(bcast=[0]), tags=("conformance", "layout"))
    case("resample/linear/float16/padded_output", "output with padded strides and a larger buffer", "FLOAT16",
         LINEAR, [1, 2, 3, 3], [1.0, 1.0, 2.0, 3.0], out_layout=Layout(pad=[0, 1, 1, 3], extra_bytes=32),
         tags=("conformance", "layout"))
    case("resample/nearest/int8/nhwc_input_oversized", "INT8 rank 3, permuted input strides, oversized buffers",
         "INT8", NN, [3, 4, 5], [1.0, 2.0, 0.5], in_layout=Layout(perm=[1, 2, 0], extra_bytes=20),
         out_layout=Layout(extra_bytes=8), tags=("conformance", "layout"))

    # A few bigger ones.
    case("resample/linear/float32/large", "1x3x64x64 -> 1x3x128x128", "FLOAT32", LINEAR, [1, 3, 64, 64],
         [1.0, 1.0, 2.0, 2.0], tags=("conformance", "large"))
    case("resample/nearest/float16/large", "1x8x32x32 -> 1x8x64x64", "FLOAT16", NN, [1, 8, 32, 32],
         [1.0, 1.0, 2.0, 2.0], tags=("conformance", "large"))
    case("resample/linear/uint8/large", "UINT8 4x48x48 -> 4x36x36 (0.75)", "UINT8", LINEAR, [4, 48, 48],
         [1.0, 0.75, 0.75], tags=("conformance", "large"))
    return cf


# ================================================================================================================
# QUANTIZED_LINEAR_CONVOLUTION
# ================================================================================================================

QRANGE = {"INT8": (-128, 127), "UINT8": (0, 255)}


def odd_fraction(target):
    """p/q close to target with q odd: acc * p/q then never lands on (or near) a .5 rounding tie."""
    for q in range(1, 4001, 2):
        p = round(target * q)
        if p >= 1 and abs(p / q - target) <= 0.03 * target:
            return p, q
    raise AssertionError(f"no odd-denominator fraction near {target}")


def scale_shape(count, dims, conv_rank):
    """Shape of a scale/zero-point tensor with `dims` dimensions holding 1 or M (= count) values; the M values
    sit on the axis aligned with the output channel axis (axis 1) whenever the tensor has one."""
    if dims == 1:
        return [count]
    shape = [1] * dims
    shape[1] = count
    return shape


def qlconv_fl(conv_rank, shapes):
    fl = "2_1" if conv_rank == 4 else "4_0"
    for field, shape in shapes.items():
        if field in ("InputTensor", "FilterTensor", "OutputTensor", "BiasTensor"):
            assert len(shape) == conv_rank
        elif field == "FilterScaleTensor":
            if len(shape) == 3:
                fl = fl_max(fl, "4_0")
            elif len(shape) < 3:
                fl = fl_max(fl, "5_2")
        elif len(shape) != 4:
            fl = fl_max(fl, "4_0")
    return fl


def qlconv_desc_and_sources(cf, name, tensors, dts, shapes, geometry, inline_fields=(), with_dimcount=False):
    desc, inputs = {}, {}
    order = ["InputTensor", "InputScaleTensor", "InputZeroPointTensor", "FilterTensor", "FilterScaleTensor",
             "FilterZeroPointTensor", "BiasTensor", "OutputScaleTensor", "OutputZeroPointTensor", "OutputTensor"]
    for field in order:
        if field not in tensors:
            continue  # optional tensor absent
        arr = np.asarray(tensors[field], dtype=DTYPES[dts[field]]).reshape(shapes[field])
        desc[field] = tensor_desc(dts[field], shapes[field], is_output=(field == "OutputTensor"))
        if field == "OutputTensor":
            continue
        inputs[field] = inline(arr) if field in inline_fields else cf.h5(f"/{name}/{field}", arr)
    if with_dimcount:
        desc["DimensionCount"] = len(geometry["Strides"])
    for key in ("Strides", "Dilations", "StartPadding", "EndPadding", "GroupCount"):
        desc[key] = geometry[key]
    return desc, inputs


def add_qlconv_doc_case(cf, name, description, tags, x, xs, xz, w, ws, wz, bias, ys, yz, dts, expected,
                        geometry):
    """Doc cases: all data given; the expected output is the transcribed one, checked against the oracle."""
    g = geometry
    y = oracle.qlinear_conv(x, xs, xz if xz is not None else 0, w, ws, wz if wz is not None else 0, bias, ys,
                            yz if yz is not None else 0, DTYPES[dts["OutputTensor"]], g["Strides"], g["Dilations"],
                            g["StartPadding"], g["EndPadding"], g["GroupCount"])
    expected = np.asarray(expected, dtype=y.dtype).reshape(y.shape)
    if not np.array_equal(y, expected):
        raise AssertionError(f"{name}: oracle does not reproduce the spec vector\n oracle {y.ravel().tolist()}\n"
                             f"   spec {expected.ravel().tolist()}")
    m = w.shape[0]
    r = x.ndim
    tensors = {"InputTensor": x, "InputScaleTensor": xs, "FilterTensor": w, "FilterScaleTensor": ws,
               "OutputScaleTensor": ys, "OutputTensor": expected}
    shapes = {"InputTensor": list(x.shape), "FilterTensor": list(w.shape), "OutputTensor": list(expected.shape),
              "InputScaleTensor": [1] * r, "OutputScaleTensor": [1] * r,
              "FilterScaleTensor": scale_shape(np.size(ws), r, r)}
    for field, val, shape in (("InputZeroPointTensor", xz, [1] * r), ("OutputZeroPointTensor", yz, [1] * r),
                              ("FilterZeroPointTensor", wz, scale_shape(np.size(wz), r, r)),
                              ("BiasTensor", bias, scale_shape(m, r, r))):
        if val is not None:
            tensors[field], shapes[field] = val, shape
    desc, inputs = qlconv_desc_and_sources(cf, name, tensors, dts, shapes, geometry)
    case = make_case(name, description, qlconv_fl(r, shapes), "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", desc,
                     inputs, {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", expected)}, tags)
    cf.add(case, [("OutputTensor", expected)])
    return y


def add_qlconv_case(cf, name, description, in_dt, f_dt, out_dt, n, c, spatial, m, kernel, strides=None,
                    dilations=None, start_pad=None, end_pad=None, groups=1, per_channel_scale=False,
                    per_channel_zp=None, has_xz=True, has_wz=True, has_bias=False, has_yz=True, scale_dims=None,
                    filter_scale_dims=None, filter_zp_dims=None, inline_fields=(), with_dimcount=False,
                    tags=("conformance",)):
    """A generated QLConv case. Data is random over the full 8-bit ranges; the scales are then chosen so the
    outputs spread over the output type's range and so that acc * multiplier is never close to a .5 tie (the
    multiplier is made ~p/q with q odd), keeping the expected values free of rounding-mode ambiguity."""
    rng = case_rng(name)
    sp = len(spatial)
    r = sp + 2
    ones = [1] * sp
    strides, dilations = strides or ones, dilations or ones
    start_pad, end_pad = start_pad or [0] * sp, end_pad or [0] * sp
    per_channel_zp = per_channel_scale if per_channel_zp is None else per_channel_zp
    ilo, ihi = QRANGE[in_dt]
    flo, fhi = QRANGE[f_dt]
    olo, ohi = QRANGE[out_dt]

    xz = int(rng.integers(ilo + 96, ihi - 95)) if has_xz else 0
    n_wz = m if per_channel_zp else 1
    wz = rng.integers(flo + 112, fhi - 111, size=n_wz) if has_wz else np.zeros(1, dtype=np.int64)
    x = rng.integers(ilo, ihi, size=[n, c] + list(spatial), endpoint=True)
    w = rng.integers(flo, fhi, size=[m, c // groups] + list(kernel), endpoint=True)
    if not has_yz and not has_bias and olo == 0:
        # No way to shift the result into [0, 255]: make the accumulator mostly positive instead, by folding
        # most inputs and weights onto the positive side of their zero points.
        x = np.where(rng.random(x.shape) < 0.9, np.clip(xz + np.abs(x - xz), ilo, ihi), x)
        wzb = wz.reshape((-1,) + (1,) * (r - 1))
        w = np.where(rng.random(w.shape) < 0.9, np.clip(wzb + np.abs(w - wzb), flo, fhi), w)
    geometry = {"Strides": list(strides), "Dilations": list(dilations), "StartPadding": list(start_pad),
                "EndPadding": list(end_pad), "GroupCount": groups}
    acc = oracle.qlinear_conv_accumulator(x, xz, w, wz, None, strides, dilations, start_pad, end_pad, groups)
    per_m = np.moveaxis(acc, 1, 0).reshape(m, -1)
    med = np.median(per_m, axis=1)
    spread = max(float(np.percentile(np.abs(per_m - med[:, None]), 98)), 1.0)
    mid = (olo + ohi) / 2
    yz = int(rng.integers(olo + 100, ohi - 99)) if has_yz else 0
    bias = None
    if has_bias:
        # Bias recentres each channel around the middle of the output range, with some jitter.
        mult_guess = 0.9 * 127.5 / spread
        bias = np.round((mid - yz) / mult_guess - med + rng.uniform(-0.3, 0.3, size=m) * spread).astype(np.int64)
        acc = acc + bias.reshape((1, m) + (1,) * sp)
    elif has_yz:
        yz = int(np.clip(round(mid - float(np.median(acc)) * 0.9 * 127.5 / spread), olo, ohi))

    def fit_multiplier(a):
        # Largest multiplier keeping the 1st..99th percentiles of a * mult + yz inside the output range; a side
        # with no room (uint8, zero point 0) is ignored when at most 1% of the values lie on it.
        hi_room, lo_room = ohi - yz, yz - olo
        p_hi = float(np.percentile(np.maximum(a, 0), 99))
        p_lo = float(np.percentile(np.maximum(-a, 0), 99))
        cands = [0.95 * room / p for room, p in ((hi_room, p_hi), (lo_room, p_lo)) if p > 0 and room > 0]
        return min(cands) if cands else 1.0

    if per_channel_scale:
        targets = [fit_multiplier(np.moveaxis(acc, 1, 0)[k]) for k in range(m)]
    else:
        targets = [fit_multiplier(acc)]
    fractions = [odd_fraction(t) for t in targets]

    xs = np.float32(np.exp(rng.uniform(np.log(0.004), np.log(0.05))))
    ys = np.float32(np.exp(rng.uniform(np.log(0.01), np.log(0.2))))
    ws = np.array([np.float32(float(ys) * p / q / float(xs)) for p, q in fractions], dtype=np.float32)
    assert np.all(np.isfinite(ws)) and np.all(ws > np.finfo(np.float32).tiny)

    y = oracle.qlinear_conv(x, xs, xz, w, ws, wz, bias if has_bias else None, ys, yz, DTYPES[out_dt], strides,
                            dilations, start_pad, end_pad, groups)
    # Cleanliness checks on what actually gets written.
    real = oracle.requantize_real(acc, xs, ws, ys)
    relevant = (real + yz >= olo - 1) & (real + yz <= ohi + 1)
    tie_distance = np.abs(np.abs(real - np.floor(real)) - 0.5)[relevant]
    assert tie_distance.size == 0 or tie_distance.min() > 1e-4, f"{name}: near-tie {tie_distance.min()}"
    saturated = np.mean((y == olo) | (y == ohi))
    assert saturated <= 0.35, f"{name}: {saturated:.0%} of outputs saturated"
    assert np.unique(y).size >= min(8, y.size // 2), f"{name}: too few distinct outputs"

    scale_dims = scale_dims or r
    filter_scale_dims = filter_scale_dims or r
    filter_zp_dims = filter_zp_dims or r
    dts = {"InputTensor": in_dt, "InputScaleTensor": "FLOAT32", "InputZeroPointTensor": in_dt,
           "FilterTensor": f_dt, "FilterScaleTensor": "FLOAT32", "FilterZeroPointTensor": f_dt,
           "BiasTensor": "INT32", "OutputScaleTensor": "FLOAT32", "OutputZeroPointTensor": out_dt,
           "OutputTensor": out_dt}
    tensors = {"InputTensor": x, "InputScaleTensor": xs, "FilterTensor": w, "FilterScaleTensor": ws,
               "OutputScaleTensor": ys, "OutputTensor": y}
    shapes = {"InputTensor": list(x.shape), "FilterTensor": list(w.shape), "OutputTensor": list(y.shape),
              "InputScaleTensor": [1] * scale_dims, "OutputScaleTensor": [1] * scale_dims,
              "FilterScaleTensor": scale_shape(ws.size, filter_scale_dims, r)}
    if has_xz:
        tensors["InputZeroPointTensor"], shapes["InputZeroPointTensor"] = xz, [1] * scale_dims
    if has_wz:
        tensors["FilterZeroPointTensor"] = wz
        shapes["FilterZeroPointTensor"] = scale_shape(wz.size, filter_zp_dims, r)
    if has_bias:
        assert np.all(np.abs(bias) < 2 ** 31)
        tensors["BiasTensor"], shapes["BiasTensor"] = bias, scale_shape(m, r, r)
    if has_yz:
        tensors["OutputZeroPointTensor"], shapes["OutputZeroPointTensor"] = yz, [1] * scale_dims
    desc, inputs = qlconv_desc_and_sources(cf, name, tensors, dts, shapes, geometry, inline_fields, with_dimcount)
    tags = list(tags)
    if r == 3:
        tags.append("doc-conflict")  # spec §7.6: the page says only DimensionCount 2 is supported
    if (filter_scale_dims < 3 and ws.size > 1) or (has_wz and filter_zp_dims < 2 and wz.size > 1):
        tags.append("inferred-layout")  # per-channel values in a 1-D tensor: axis alignment undocumented
    fl = qlconv_fl(r, shapes)
    cf.add(make_case(name, description, fl, "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION", desc, inputs,
                     {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}, tags), [("OutputTensor", y)])


def gen_qlconv():
    cf = CaseFile("quantized_linear_convolution")
    q = lambda name, desc, *a, **k: add_qlconv_case(cf, "qlconv/" + name, desc, *a, **k)  # noqa: E731
    short = {"INT8": "s8", "UINT8": "u8"}

    # All eight Input/Filter/Output type combinations (FL 2_1, 4-D), each with a different mix of optional
    # tensors, quantization granularity and geometry.
    combos = list(itertools.product(("UINT8", "INT8"), repeat=3))
    variants = [
        dict(per_channel_scale=False, has_xz=True, has_wz=True, has_bias=False, has_yz=True,
             spatial=[8, 8], kernel=[3, 3], start_pad=[1, 1], end_pad=[1, 1], inline_fields=(
                 "InputScaleTensor", "InputZeroPointTensor", "FilterScaleTensor", "FilterZeroPointTensor",
                 "OutputScaleTensor", "OutputZeroPointTensor")),
        dict(per_channel_scale=True, has_xz=True, has_wz=False, has_bias=True, has_yz=True,
             spatial=[7, 9], kernel=[3, 3], strides=[2, 2], start_pad=[1, 1], end_pad=[1, 1]),
        dict(per_channel_scale=True, has_xz=False, has_wz=True, has_bias=True, has_yz=False,
             spatial=[6, 6], kernel=[2, 2]),
        dict(per_channel_scale=False, has_xz=False, has_wz=False, has_bias=False, has_yz=False,
             spatial=[5, 7], kernel=[3, 1]),
        dict(per_channel_scale=True, has_xz=True, has_wz=True, has_bias=True, has_yz=True,
             spatial=[6, 5], kernel=[1, 3], start_pad=[0, 1], end_pad=[0, 1], with_dimcount=True),
        dict(per_channel_scale=False, has_xz=True, has_wz=False, has_bias=True, has_yz=False,
             spatial=[9, 9], kernel=[3, 3], strides=[2, 2]),
        dict(per_channel_scale=True, per_channel_zp=False, has_xz=False, has_wz=True, has_bias=False,
             has_yz=True, spatial=[8, 6], kernel=[2, 3], start_pad=[1, 0], end_pad=[0, 2]),
        dict(per_channel_scale=False, has_xz=True, has_wz=True, has_bias=True, has_yz=True,
             spatial=[4, 10], kernel=[3, 3], start_pad=[1, 1], end_pad=[1, 1], inline_fields=(
                 "InputScaleTensor", "FilterScaleTensor", "OutputScaleTensor", "BiasTensor")),
    ]
    for (in_dt, f_dt, out_dt), v in zip(combos, variants):
        v = dict(v)
        spatial, kernel = v.pop("spatial"), v.pop("kernel")
        opts = [label for k, label in (("has_xz", "InputZeroPoint"), ("has_wz", "FilterZeroPoint"),
                                       ("has_bias", "Bias"), ("has_yz", "OutputZeroPoint")) if v[k]]
        gran = "per-channel" if v["per_channel_scale"] else "per-tensor"
        q(f"types/{short[in_dt]}_{short[f_dt]}_{short[out_dt]}",
          f"input {in_dt}, filter {f_dt}, output {out_dt}; {gran} filter scale; present: "
          f"{', '.join(opts) or 'no optional tensors'}",
          in_dt, f_dt, out_dt, 1, 3, spatial, 4, kernel, tags=("conformance", "type-coverage"), **v)

    # Geometry and grouping (FL 2_1, 4-D).
    q("groups2", "GroupCount 2 (C=6, M=4)", "UINT8", "INT8", "UINT8", 1, 6, [6, 6], 4, [3, 3], groups=2,
      per_channel_scale=True, has_bias=True)
    q("depthwise", "depthwise: GroupCount = C = M = 8, padding 1", "INT8", "INT8", "INT8", 1, 8, [7, 7], 8, [3, 3],
      groups=8, start_pad=[1, 1], end_pad=[1, 1], per_channel_scale=True, has_bias=True)
    q("depthwise_multiplier2", "depthwise with channel multiplier 2 (C=G=4, M=8)", "UINT8", "UINT8", "INT8", 1, 4,
      [6, 5], 8, [3, 3], groups=4, per_channel_scale=True, has_wz=True)
    q("strides_dilations", "strides (2,3), dilations (2,1)", "INT8", "UINT8", "UINT8", 1, 3, [11, 13], 5, [3, 3],
      strides=[2, 3], dilations=[2, 1], has_bias=True)
    q("asymmetric_padding", "StartPadding (2,0), EndPadding (0,3)", "UINT8", "INT8", "INT8", 1, 2, [6, 7], 3,
      [3, 3], start_pad=[2, 0], end_pad=[0, 3], per_channel_scale=True)
    q("batch3", "batch of 3", "INT8", "INT8", "UINT8", 3, 4, [5, 6], 6, [3, 3], start_pad=[1, 1], end_pad=[1, 1],
      has_bias=True)
    q("kernel5x5", "5x5 kernel, padding 2, dilation 1", "UINT8", "UINT8", "UINT8", 1, 2, [9, 8], 4, [5, 5],
      start_pad=[2, 2], end_pad=[2, 2], per_channel_scale=True, has_bias=True)
    q("kernel_larger_than_input", "5x5 kernel over a 3x4 input with padding 2", "INT8", "INT8", "INT8", 1, 3,
      [3, 4], 4, [5, 5], start_pad=[2, 2], end_pad=[2, 2], has_bias=True)
    q("pointwise", "1x1 kernel, 8 -> 16 channels", "UINT8", "INT8", "UINT8", 1, 8, [12, 12], 16, [1, 1],
      per_channel_scale=True, has_bias=True)
    q("stride_exceeds_kernel", "stride 3 with a 2x2 kernel, end padding trimmed", "INT8", "UINT8", "INT8", 2, 3,
      [8, 10], 4, [2, 2], strides=[3, 3], end_pad=[1, 2], has_xz=False)
    q("dilated_grouped", "GroupCount 3, dilation 2, stride 2, padding 2", "UINT8", "INT8", "INT8", 2, 6, [10, 9],
      6, [3, 3], strides=[2, 2], dilations=[2, 2], start_pad=[2, 2], end_pad=[2, 2], groups=3,
      per_channel_scale=True, has_bias=True)
    q("large", "1x16x32x32 input, 32x16x3x3 filter, padding 1", "UINT8", "INT8", "UINT8", 1, 16, [32, 32], 32,
      [3, 3], start_pad=[1, 1], end_pad=[1, 1], per_channel_scale=True, has_bias=True,
      tags=("conformance", "large"))
    q("large_grouped", "1x32x24x24 input, GroupCount 4, 3x3, stride 1", "INT8", "INT8", "INT8", 1, 32, [24, 24],
      32, [3, 3], start_pad=[1, 1], end_pad=[1, 1], groups=4, has_bias=True, tags=("conformance", "large"))

    # 3-D tensors, one spatial dimension (FL 4_0+).
    q("conv1d/basic", "3-D tensors {N,C,W}, per-tensor, padding 1", "UINT8", "UINT8", "UINT8", 1, 4, [16], 6, [3],
      start_pad=[1], end_pad=[1], with_dimcount=True,
      inline_fields=("InputScaleTensor", "InputZeroPointTensor", "FilterScaleTensor", "OutputScaleTensor"))
    q("conv1d/per_channel_grouped", "3-D, per-channel {1,M,1}, bias, stride 2, dilation 2, groups 2, batch 2",
      "INT8", "INT8", "INT8", 2, 4, [20], 6, [3], strides=[2], dilations=[2], start_pad=[2], end_pad=[1], groups=2,
      per_channel_scale=True, has_bias=True)
    q("conv1d/depthwise", "3-D depthwise (G = C = M = 5)", "UINT8", "INT8", "UINT8", 1, 5, [12], 5, [5],
      start_pad=[2], end_pad=[2], groups=5, per_channel_scale=True, has_bias=True, has_xz=False)
    q("conv1d/four_dim_scales", "3-D convolution with 4-D scale/zero-point tensors", "INT8", "UINT8", "UINT8", 1, 3,
      [10], 4, [2], scale_dims=4, filter_scale_dims=4, filter_zp_dims=4, per_channel_scale=True)
    q("conv1d/one_dim_scales", "3-D convolution, 1-D per-tensor scales/zero points, filter scale {1,M,1}",
      "UINT8", "UINT8", "INT8", 1, 4, [9], 3, [3], scale_dims=1, filter_scale_dims=3, filter_zp_dims=3,
      per_channel_scale=True, has_bias=True)

    # 4-D convolution with lower-rank quantization tensors (FL 4_0, and FL 5_2 for a filter scale below 3-D).
    q("low_rank_scales", "4-D conv; 2-D input/output scales and zero points, 3-D filter scale {1,M,1}", "UINT8",
      "INT8", "UINT8", 1, 3, [6, 6], 4, [3, 3], scale_dims=2, filter_scale_dims=3, filter_zp_dims=3,
      per_channel_scale=True, has_bias=True)
    q("filter_zp_1d", "4-D conv; filter zero point as a 1-D {M} tensor (FL 4_0 allows 1-4 dims)", "INT8", "UINT8",
      "INT8", 1, 2, [7, 5], 3, [2, 2], filter_scale_dims=3, filter_zp_dims=1, per_channel_scale=True)
    q("filter_scale_1d_per_channel", "4-D conv; per-channel filter scale as a 1-D {M} tensor (FL 5_2)", "UINT8",
      "UINT8", "UINT8", 1, 3, [6, 7], 5, [3, 3], filter_scale_dims=1, per_channel_scale=True, has_bias=True,
      has_wz=False)
    q("filter_scale_1d_per_tensor", "4-D conv; per-tensor filter scale as a 1-D {1} tensor (FL 5_2); UINT8 "
      "output without zero point or bias", "INT8", "INT8", "UINT8", 1, 2, [7, 7], 3, [3, 3], scale_dims=1,
      filter_scale_dims=1, filter_zp_dims=1, has_yz=False)
    q("conv1d/filter_scale_2d", "3-D conv; per-channel filter scale {1,M} (FL 5_2)", "INT8", "UINT8", "UINT8", 1,
      4, [14], 4, [3], start_pad=[1], end_pad=[0], filter_scale_dims=2, filter_zp_dims=2, per_channel_scale=True)
    return cf


# ================================================================================================================
# Spec §9 worked examples (expected values transcribed from the spec text)
# ================================================================================================================


def nums(text):
    return [float(t) if "." in t else int(t) for t in text.replace("/", " ").replace("|", " ").split()]


def require_equal(name, got, want):
    got, want = np.asarray(got), np.asarray(want, dtype=np.asarray(got).dtype).reshape(np.shape(got))
    if not np.array_equal(got, want):
        raise AssertionError(f"{name}: the oracle does not reproduce the spec vector\n oracle {got.ravel().tolist()}"
                             f"\n   spec {want.ravel().tolist()}")
    return want


def gen_doc_examples():
    cf = CaseFile("doc_examples")
    tags = ["doc-example"]

    # §9.1 DEPTH_TO_SPACE1
    d2s_in = np.array(nums("0 1 2 3 4 5 | 9 10 11 12 13 14 | 18 19 20 21 22 23 | 27 28 29 30 31 32 | "
                           "36 37 38 39 40 41 | 45 46 47 48 49 50 | 54 55 56 57 58 59 | 63 64 65 66 67 68"),
                      dtype=np.uint32).reshape(1, 8, 2, 3)
    d2s_1 = nums("0 18  1 19  2 20 / 36 54 37 55 38 56 /  3 21  4 22  5 23 / 39 57 40 58 41 59 "
                 "9 27 10 28 11 29 / 45 63 46 64 47 65 / 12 30 13 31 14 32 / 48 66 49 67 50 68")
    d2s_2 = nums("0  9  1 10  2 11 / 18 27 19 28 20 29 /  3 12  4 13  5 14 / 21 30 22 31 23 32 "
                 "36 45 37 46 38 47 / 54 63 55 64 56 65 / 39 48 40 49 41 50 / 57 66 58 67 59 68")
    exact = {"OutputTensor": {"ulp": 0, "abs": 0}, "reason": "pure data movement"}
    for label, order, want, full in (("D2S-1", oracle.DCR, d2s_1, True), ("D2S-2", oracle.CRD, d2s_2, False)):
        got = oracle.depth_to_space1(d2s_in, 2, order)
        add_d2s_case(cf, f"doc/{label}", f"spec 9.1 {label}: BlockSize 2, {order}, UINT32 {{1,8,2,3}}", "UINT32",
                     order, 2, d2s_in, full_enum=full, tags=tags, expected_override=require_equal(label, got, want),
                     tolerance=exact)

    # §9.2 SPLIT (inline values on purpose: exercises the `values` source kind)
    s_in = np.array(nums("1 2 3 4 5 6 7 8 9 10 11 12"), dtype=np.float32).reshape(1, 1, 6, 2)
    for label, axis, parts, wants in (
            ("SPLIT-1", 2, [2, 1, 3], ["1 2 3 4", "5 6", "7 8 9 10 11 12"]),
            ("SPLIT-2", 3, [1, 1], ["1 3 5 7 9 11", "2 4 6 8 10 12"])):
        got = oracle.split(s_in, axis, parts)
        want = [require_equal(label, g, nums(t)) for g, t in zip(got, wants)]
        add_split_case(cf, f"doc/{label}", f"spec 9.2 {label}: FLOAT32 {{1,1,6,2}}, Axis {axis}", "FLOAT32", s_in,
                       axis, parts, with_count=(label == "SPLIT-1"), tags=tags, inline_data=True,
                       expected_override=want)
    dx_in = np.array(nums("1 2 3 4 5 6"), dtype=np.float32)
    got = oracle.split(dx_in, 0, [2, 2, 2])
    want = [require_equal("DxDispatch split", g, nums(t)) for g, t in zip(got, ["1 2", "3 4", "5 6"])]
    add_split_case(cf, "doc/SPLIT-DXDISPATCH-1D", "spec 9.2 DxDispatch sample: 1-D {6}, Axis 0, three outputs",
                   "FLOAT32", dx_in, 0, [2, 2, 2], tags=tags, inline_data=True, expected_override=want)

    # §9.3 RESAMPLE (FLOAT32, 4-D, FL 2_0)
    seq = lambda text: np.array(nums(text), dtype=np.float32)  # noqa: E731
    rs = [
        ("RS-LIN-1", LINEAR, seq("1 2 3 4").reshape(1, 1, 1, 4), [1, 1, 1, 2], [1, 1, 1, 8],
         "1 1.25 1.75 2.25 2.75 3.25 3.75 4", []),
        ("RS-LIN-2", LINEAR, seq("1 2 3 4").reshape(1, 1, 1, 4), [1, 1, 1, 0.5], [1, 1, 1, 2], "1.5 3.5", []),
        ("RS-LIN-3", LINEAR, seq("1 2 3 4").reshape(1, 1, 2, 2), [1, 1, 2, 2], [1, 1, 4, 4],
         "1 1.25 1.75 2  1.5 1.75 2.25 2.5  2.5 2.75 3.25 3.5  3 3.25 3.75 4", []),
        ("RS-NN-1", NN, seq("10 20 30 40").reshape(1, 1, 1, 4), [1, 1, 1, 2], [1, 1, 1, 8],
         "10 10 20 20 30 30 40 40", []),
        # "picks rows {1,3} x cols {1,3,5}" of the values 0..23 laid out 4x6
        ("RS-NN-2", NN, np.arange(24, dtype=np.float32).reshape(1, 1, 4, 6), [1, 1, 0.5, 0.5], [1, 1, 2, 3],
         " ".join(str(r * 6 + c) for r in (1, 3) for c in (1, 3, 5)), []),
        # The spec's model B vectors (the default; model A's are "10 10 20", "10 10 10 10 20 20", "30 50").
        ("RS-NN-3", NN, seq("10 20").reshape(1, 1, 1, 2), [1, 1, 1, 1.5], [1, 1, 1, 3], "10 20 20", []),
        ("RS-NN-4", NN, seq("10 20").reshape(1, 1, 1, 2), [1, 1, 1, 3], [1, 1, 1, 6], "10 10 10 20 20 20", []),
        ("RS-NN-5", NN, seq("10 20 30 40 50").reshape(1, 1, 1, 5), [1, 1, 1, 0.4], [1, 1, 1, 2], "20 40", []),
    ]
    for i, (label, mode, x, scales, out_sizes, want_text, extra) in enumerate(rs):
        got = oracle.resample(x, out_sizes, scales, mode)
        want = require_equal(label, got, nums(want_text))
        add_resample_case(cf, f"doc/{label}", f"spec 9.3 {label}: {mode}, scales {scales}", "FLOAT32", mode, x,
                          out_sizes, scales, full_enum=(i % 2 == 0), with_count=(i == 0), tags=tags + extra,
                          expected_override=want)

    # §9.4 QUANTIZED_LINEAR_CONVOLUTION
    geo = lambda s, d, p0, p1, g: {"Strides": s, "Dilations": d, "StartPadding": p0, "EndPadding": p1,  # noqa
                                   "GroupCount": g}
    u8 = {"InputTensor": "UINT8", "InputScaleTensor": "FLOAT32", "InputZeroPointTensor": "UINT8",
          "FilterTensor": "UINT8", "FilterScaleTensor": "FLOAT32", "FilterZeroPointTensor": "UINT8",
          "BiasTensor": "INT32", "OutputScaleTensor": "FLOAT32", "OutputZeroPointTensor": "UINT8",
          "OutputTensor": "UINT8"}
    s8 = {k: ("INT8" if v == "UINT8" else v) for k, v in u8.items()}
    onnx_x = np.array(nums("""
        255 174 162  25 203 168  58
         15  59 237  95 129   0  64
         56 242 153 221 168  12 166
        232 178 186 195 237 162 237
        188  39 124  77  80 102  43
        127 230  21  83  41  40 134
        255 154  92 141  42 148 247"""), dtype=np.uint8).reshape(1, 1, 7, 7)
    onnx_y = nums("""
          0  81  93 230  52  87 197
        240 196  18 160 126 255 191
        199  13 102  34  87 243  89
         23  77  69  60  18  93  18
         67 216 131 178 175 153 212
        128  25 234 172 214 215 121
          0 101 163 114 213 107   8""")
    add_qlconv_doc_case(cf, "doc/QLC-ONNX", "spec 9.4 ONNX test_qlinearconv mapped to DML (1x1 uint8 kernel)",
                        tags, onnx_x, np.float32(0.00369204697), 132, np.zeros((1, 1, 1, 1), np.uint8),
                        np.float32(0.00172794575), 255, None, np.float32(0.00162681262), 123, u8, onnx_y,
                        geo([1, 1], [1, 1], [0, 0], [0, 0], 1))
    qa_x = np.array(nums("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16  -1 -2 -3 -4 0 0 0 0 4 3 2 1 8 7 6 5"),
                    dtype=np.int8).reshape(1, 2, 4, 4)
    qa_w = np.array(nums("1 0 0 -1  2 2 2 2  1 1 1 1  0 0 0 0"), dtype=np.int8).reshape(2, 2, 2, 2)
    add_qlconv_doc_case(cf, "doc/QLC-A", "spec 9.4 QLC-A: INT8, per-channel filter scale, bias, padding 1, "
                        "stride 2", tags, qa_x, np.float32(0.5), None, qa_w, np.array([0.25, 0.5], np.float32),
                        None, np.array([10, -4]), np.float32(1.0), 5, s8, nums("6 5 6 7  4 5 7 13"),
                        geo([2, 2], [1, 1], [1, 1], [0, 0], 1))
    qb_w = np.array(nums("1 1 1 1  1 -1 -1 1"), dtype=np.int8).reshape(2, 1, 2, 2)
    add_qlconv_doc_case(cf, "doc/QLC-B", "spec 9.4 QLC-B: grouped/depthwise, dilation 2", tags, qa_x,
                        np.float32(0.5), None, qb_w, np.array([0.5, 0.5], np.float32), None, None,
                        np.float32(0.25), 0, s8, nums("24 28 40 44  0 0 -2 -2"),
                        geo([1, 1], [2, 2], [0, 0], [0, 0], 2))
    return cf


# ================================================================================================================
# QUANTIZED_LINEAR_MATRIX_MULTIPLY
# ================================================================================================================


def add_qlmm_case(cf, name, description, a_dt, b_dt, y_dt, batch, m, n, k, per_row=False, per_column=False,
                  zero_points=(True, True, True), quant_rank=None, tags=("conformance",)):
    """Random full-range 8-bit data; scales drawn until every output that is not saturated lies at least 1e-3
    away from a .5 rounding tie (so the expected values do not depend on how the multiplier is evaluated), the
    outputs spread over the output range and at most a third saturate."""
    rng = case_rng(name)
    rank = len(batch) + 2
    q = quant_rank or rank
    alo, ahi = QRANGE[a_dt]
    blo, bhi = QRANGE[b_dt]
    ylo, yhi = QRANGE[y_dt]
    a = rng.integers(alo, ahi, size=list(batch) + [m, k], endpoint=True).astype(DTYPES[a_dt])
    b = rng.integers(blo, bhi, size=list(batch) + [k, n], endpoint=True).astype(DTYPES[b_dt])
    az = rng.integers(alo + 64, ahi - 63, size=m if per_row else 1) if zero_points[0] else np.zeros(1, np.int64)
    bz = rng.integers(blo + 64, bhi - 63, size=n if per_column else 1) if zero_points[1] else np.zeros(1, np.int64)
    yz = rng.integers(ylo + 100, yhi - 99, size=m if per_row else 1) if zero_points[2] else np.zeros(1, np.int64)
    acc = oracle.qlinear_matmul_accumulator(a, az, b, bz)
    spread = max(float(np.percentile(np.abs(acc), 90)), 1.0)
    for _ in range(200):
        a_scale = np.exp(rng.uniform(np.log(0.004), np.log(0.05), size=m if per_row else 1)).astype(np.float32)
        b_scale = np.exp(rng.uniform(np.log(0.004), np.log(0.05), size=n if per_column else 1)).astype(np.float32)
        target = float(np.median(a_scale)) * float(np.median(b_scale)) * spread / 90.0
        y_scale = (target * np.exp(rng.uniform(-0.3, 0.3, size=m if per_row else 1))).astype(np.float32)
        mult = (a_scale.astype(np.float64).reshape(-1, 1) * b_scale.astype(np.float64).reshape(1, -1) /
                y_scale.astype(np.float64).reshape(-1, 1))
        real = acc.astype(np.float64) * mult
        shifted = real + (yz.reshape(-1, 1) if yz.size > 1 else yz[0])
        inside = (shifted >= ylo - 1) & (shifted <= yhi + 1)
        tie = np.abs(np.abs(real - np.floor(real)) - 0.5)[inside]
        y = oracle.qlinear_matmul(a, a_scale, az, b, b_scale, bz, y_scale, yz, DTYPES[y_dt])
        saturated = np.mean((y == ylo) | (y == yhi))
        if (tie.size == 0 or tie.min() > 1e-3) and saturated <= 0.34 and np.unique(y).size >= min(6, y.size // 2):
            break
    else:
        raise AssertionError(f"{name}: no clean scales found")

    def qshape(count, column):
        shape = [1] * q
        if count > 1:
            shape[q - (1 if column else 2)] = count
        return shape

    fields = [("ATensor", a_dt, a, list(a.shape)), ("AScaleTensor", "FLOAT32", a_scale, qshape(a_scale.size, False))]
    if zero_points[0]:
        fields.append(("AZeroPointTensor", a_dt, az, qshape(az.size, False)))
    fields += [("BTensor", b_dt, b, list(b.shape)), ("BScaleTensor", "FLOAT32", b_scale, qshape(b_scale.size, True))]
    if zero_points[1]:
        fields.append(("BZeroPointTensor", b_dt, bz, qshape(bz.size, True)))
    fields.append(("OutputScaleTensor", "FLOAT32", y_scale, qshape(y_scale.size, False)))
    if zero_points[2]:
        fields.append(("OutputZeroPointTensor", y_dt, yz, qshape(yz.size, False)))
    desc, inputs = {}, {}
    for field, dt, arr, shape in fields:
        arr = np.asarray(arr).astype(DTYPES[dt]).reshape(shape)
        desc[field] = tensor_desc(dt, shape)
        inputs[field] = cf.h5(f"/{name}/{field}", arr)
    desc["OutputTensor"] = tensor_desc(y_dt, y.shape, is_output=True)
    fl = "2_1" if rank == 4 and q == 4 else "4_0"
    # Exact: no unsaturated output lies near a tie, so every correct evaluation of the multiplier rounds alike; the
    # operator's ±1 would also accept a kernel that truncates instead of rounding.
    tolerance = {"OutputTensor": {"ulp": 0, "abs": 0},
                 "reason": "no unsaturated output lies within 1e-3 of a rounding tie: every correct evaluation rounds alike"}
    cf.add(make_case(name, description, fl, "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY", desc, inputs,
                     {"OutputTensor": cf.h5(f"/{name}/expected/OutputTensor", y)}, tags, tolerance),
           [("OutputTensor", y)])


def gen_qlmm():
    cf = CaseFile("quantized_linear_matrix_multiply")
    q = lambda name, desc, *a, **k: add_qlmm_case(cf, "qlmm/" + name, desc, *a, **k)  # noqa: E731
    short = {"INT8": "s8", "UINT8": "u8"}
    # All eight A/B/Output type combinations, 4-D (FL 2_1), per tensor.
    for i, (at, bt, yt) in enumerate(itertools.product(("UINT8", "INT8"), repeat=3)):
        q(f"{short[at]}{short[bt]}_{short[yt]}/4d", f"{at} x {bt} -> {yt}, {{2,2,M,K}}, per-tensor quantization",
          at, bt, yt, [2, 2], 5 + i % 3, 6 + i % 2, 9 + 3 * i)
    q("u8s8_u8/2d/per_row_per_column", "2-D (ONNX MatMul shape), A and output per row, B per column", "UINT8", "INT8",
      "UINT8", [], 7, 6, 24, per_row=True, per_column=True)
    q("s8s8_s8/3d/per_column", "3-D, B per column", "INT8", "INT8", "INT8", [3], 4, 9, 16, per_column=True)
    q("u8u8_u8/4d/no_zero_points", "no zero points (all 0)", "UINT8", "UINT8", "UINT8", [1, 1], 6, 6, 12,
      zero_points=(False, False, False))
    q("u8s8_s8/4d/rank1_quant", "per-tensor scales and zero points as 1-D {1} tensors (FL 4_0)", "UINT8", "INT8",
      "INT8", [1, 2], 5, 5, 20, quant_rank=1)
    q("s8u8_u8/2d/k1024", "K = 1024: long exact integer sums", "INT8", "UINT8", "UINT8", [], 4, 5, 1024,
      tags=("conformance", "large"))
    return cf


# ================================================================================================================
# Driver
# ================================================================================================================

GENERATORS = [gen_doc_examples, gen_depth_to_space1, gen_split, gen_join, gen_gemm, gen_resample, gen_qlconv, gen_qlmm]


def family_generators():
    """The element-wise, activation and pooling families live in their own modules (they import this one's helpers)."""
    import gen_cases_activation
    import gen_cases_element_wise
    import gen_cases_pooling
    return [gen_cases_element_wise.gen_element_wise, gen_cases_activation.gen_activation, gen_cases_pooling.gen_pooling]


def generate(out_dir):
    files = [gen() for gen in GENERATORS + family_generators()]
    for cf in files:
        cf.write(out_dir)
    return files


def read_h5(path):
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset):
                out["/" + name] = obj[()]
        f.visititems(visit)
    return out


def compare(fresh_dir, committed_dir, files):
    problems = []
    for cf in files:
        rel = f"{cf.stem}.json"
        a, b = os.path.join(fresh_dir, rel), os.path.join(committed_dir, rel)
        if not os.path.exists(b):
            problems.append(f"{rel}: missing under {committed_dir}")
        else:
            with open(a, encoding="utf-8") as fa, open(b, encoding="utf-8") as fb:
                la, lb = fa.read().splitlines(), fb.read().splitlines()
            if la != lb:
                line = next((i for i, (x, y) in enumerate(zip(la, lb)) if x != y), min(len(la), len(lb)))
                problems.append(f"{rel}: JSON text differs from line {line + 1}")
        rel = cf.h5_rel
        a, b = os.path.join(fresh_dir, rel), os.path.join(committed_dir, rel)
        if not os.path.exists(b):
            problems.append(f"{rel}: missing under {committed_dir}")
            continue
        da, db = read_h5(a), read_h5(b)
        for name in sorted(set(da) | set(db)):
            if name not in db:
                problems.append(f"{rel}:{name}: missing in the committed file")
            elif name not in da:
                problems.append(f"{rel}:{name}: not produced by the generator (stale dataset)")
            elif da[name].dtype != db[name].dtype or da[name].shape != db[name].shape:
                problems.append(f"{rel}:{name}: {db[name].dtype}{list(db[name].shape)} committed, "
                                f"{da[name].dtype}{list(da[name].shape)} generated")
            elif da[name].tobytes() != db[name].tobytes():
                problems.append(f"{rel}:{name}: values differ")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=REPO_CASES, help="output directory (default: the repository's cases/)")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary directory and compare with --out (default cases/)")
    args = ap.parse_args()
    try:
        if args.check:
            with tempfile.TemporaryDirectory() as tmp:
                files = generate(tmp)
                problems = compare(tmp, args.out, files)
            if problems:
                print(f"gen_cases --check: {args.out} is out of date with the generator:", file=sys.stderr)
                for p in problems:
                    print("  " + p, file=sys.stderr)
                print("regenerate with: python3 scripts/gen_cases.py", file=sys.stderr)
                return 1
            print(f"gen_cases --check: {sum(len(cf.cases) for cf in files)} cases in {len(files)} files match")
            return 0
        files = generate(args.out)
    except AssertionError as e:
        print(f"gen_cases: FAILED: {e}", file=sys.stderr)
        return 2
    for cf in files:
        size = sum(os.path.getsize(os.path.join(args.out, p)) for p in (f"{cf.stem}.json", cf.h5_rel))
        print(f"{cf.stem}.json: {len(cf.cases)} cases, {len(cf.datasets)} datasets, {size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
