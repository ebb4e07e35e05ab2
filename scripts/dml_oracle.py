"""Independent numpy reference implementations of the four DirectML operators dmltool covers.

These are the oracle for the bundled cases (cases/*.json). They follow docs/spec operators.md §4-7 and the
arithmetic contract the C++ reference documents (float32 coordinate math for RESAMPLE, float64 requantization
for QUANTIZED_LINEAR_CONVOLUTION). They are written from the spec text only, never from the C++ sources, so
that a shared misreading would have to be made twice to go unnoticed.
"""

import itertools

import numpy as np

# ----------------------------------------------------------------------------------------------------------------
# DEPTH_TO_SPACE1 (spec §4.4)
# ----------------------------------------------------------------------------------------------------------------

DCR = "DEPTH_COLUMN_ROW"
CRD = "COLUMN_ROW_DEPTH"


def depth_to_space1(x, block, order):
    """Gather form of §4.4: Output[n, c', oh, ow] = Input[n, ci, oh // B, ow // B]."""
    n, c, h, w = x.shape
    b = block
    assert c % (b * b) == 0, "C must be a multiple of BlockSize^2"
    cp = c // (b * b)
    oc, oh, ow = np.meshgrid(np.arange(cp), np.arange(h * b), np.arange(w * b), indexing="ij")
    bh, bw = oh % b, ow % b
    if order == DCR:
        ci = (bh * b + bw) * cp + oc
    elif order == CRD:
        ci = oc * b * b + bh * b + bw
    else:
        raise ValueError(order)
    # Fancy indexing copies elements bit for bit (no arithmetic on the values), as the operator must.
    return x[:, ci, oh // b, ow // b]


# ----------------------------------------------------------------------------------------------------------------
# SPLIT (spec §5.3)
# ----------------------------------------------------------------------------------------------------------------


def split(x, axis, part_sizes):
    assert sum(part_sizes) == x.shape[axis]
    outs, start = [], 0
    for size in part_sizes:
        index = [slice(None)] * x.ndim
        index[axis] = slice(start, start + size)
        outs.append(x[tuple(index)].copy())
        start += size
    return outs


# ----------------------------------------------------------------------------------------------------------------
# JOIN (the DML_JOIN_OPERATOR_DESC page): the inverse of SPLIT
# ----------------------------------------------------------------------------------------------------------------


def join(xs, axis):
    """Output = the inputs one after another along `axis`; every other dimension must match."""
    for x in xs:
        assert x.ndim == xs[0].ndim and x.dtype == xs[0].dtype
        assert all(x.shape[d] == xs[0].shape[d] for d in range(x.ndim) if d != axis)
    return np.concatenate(xs, axis=axis)  # copies elements bit for bit


# ----------------------------------------------------------------------------------------------------------------
# RESAMPLE v1 (spec §6.4-6.7): half-pixel offsets, every coordinate operation rounded to float32 separately.
# ----------------------------------------------------------------------------------------------------------------

F32 = np.float32


def _inv_scale(scale):
    return F32(1) / F32(scale)


def nearest_indices(n_in, n_out, scale, rule="B"):
    """Input index per output index along one dimension.

    Rule B (the default, spec §6.6 "round half up"): floor((o + 0.5) / s), what DirectML 1.15.4 computes for
    FLOAT32/FLOAT16. Rules A and C, the other readings of "nearest to the pixel centre", let the generator tell
    which cases discriminate between them; "floor" (floor((o + 0.5) / s - 0.5), DirectML 1.15.4's INT8/UINT8
    deviation from its documentation) is a deviation model, never an expectation of the bundled cases.
    """
    inv = _inv_scale(scale)
    idx = []
    for o in range(n_out):
        if rule == "A":
            v = np.floor(F32(F32(o + 1) * inv) - F32(0.5))
        elif rule == "B":
            v = np.floor(F32(F32(o + 0.5) * inv))
        elif rule == "C":
            v = np.ceil(F32(F32(o + 0.5) * inv) - F32(1.0))
        elif rule == "floor":
            v = np.floor(F32(F32(o + 0.5) * inv) - F32(0.5))
        else:
            raise ValueError(rule)
        idx.append(min(max(int(v), 0), n_in - 1))
    return np.array(idx, dtype=np.int64)


def linear_taps(n_in, n_out, scale):
    """(x0, x1, w0, w1) per output index along one dimension; weights are float32 values."""
    inv = _inv_scale(scale)
    x0s, x1s, w0s, w1s = [], [], [], []
    for o in range(n_out):
        x = F32(F32(F32(o + 0.5) * inv) - F32(0.5))
        x = min(max(x, F32(0)), F32(n_in - 1))
        x0 = int(np.floor(x))
        t = F32(x - F32(x0))
        x0s.append(x0)
        x1s.append(min(x0 + 1, n_in - 1))
        w0s.append(F32(F32(1) - t))
        w1s.append(t)
    return (np.array(x0s), np.array(x1s), np.array(w0s, dtype=np.float32), np.array(w1s, dtype=np.float32))


def _to_output_type(v64, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return v64.astype(dtype)  # round to nearest even from float64
    # 8-bit: truncation toward zero, what DirectML 1.15.4 and ONNX Runtime do (the docs name no conversion), of the
    # value rounded to a multiple of 2^-10 first, so that a blend equal to an integer up to the float32 weights'
    # rounding (a constant region) stays that integer.
    info = np.iinfo(dtype)
    on_grid = np.round(np.clip(v64, info.min, info.max) * 1024.0) / 1024.0  # np.round: ties to even
    return np.trunc(on_grid).astype(dtype)


def resample(x, out_sizes, scales, mode, nn_rule="B"):
    k = x.ndim
    assert len(out_sizes) == k and len(scales) == k
    if mode == "NEAREST_NEIGHBOR":
        idx = [nearest_indices(x.shape[d], out_sizes[d], scales[d], nn_rule) for d in range(k)]
        return x[np.ix_(*idx)].copy()
    if mode != "LINEAR":
        raise ValueError(mode)
    taps = [linear_taps(x.shape[d], out_sizes[d], scales[d]) for d in range(k)]
    xf = x.astype(np.float64)  # exact for every supported input type (float16/32, int8, uint8)

    def along(d, arr):  # reshape a per-dimension vector so it broadcasts along axis d of the output
        shape = [1] * k
        shape[d] = out_sizes[d]
        return arr.reshape(shape)

    acc = np.zeros(out_sizes, dtype=np.float64)
    # Corners in a fixed order (dimension 0 most significant) so the float64 sum is reproducible.
    for corner in itertools.product((0, 1), repeat=k):
        index = []
        weight = np.ones([1] * k, dtype=np.float64)
        for d, side in enumerate(corner):
            x0, x1, w0, w1 = taps[d]
            index.append(x1 if side else x0)
            weight = weight * along(d, (w1 if side else w0).astype(np.float64))
        acc = acc + xf[np.ix_(*index)] * weight
    return _to_output_type(acc, x.dtype)


# ----------------------------------------------------------------------------------------------------------------
# QUANTIZED_LINEAR_CONVOLUTION (spec §7.2/7.3)
# ----------------------------------------------------------------------------------------------------------------


def conv_output_sizes(in_spatial, kernel, strides, dilations, start_pad, end_pad):
    out = []
    for i, k, s, d, p0, p1 in zip(in_spatial, kernel, strides, dilations, start_pad, end_pad):
        span = (k - 1) * d + 1
        assert i + p0 + p1 >= span, "kernel does not fit"
        out.append((i + p0 + p1 - span) // s + 1)
    return out


def qlinear_conv_accumulator(x, xz, w, wz, bias, strides, dilations, start_pad, end_pad, groups):
    """int64 accumulator: sum of (x - xz) * (w - wz[m]) (+ bias[m]); padding contributes 0.

    x: (N, C, *spatial); w: (M, C/G, *kernel); wz: scalar or length-M vector; bias: None or length-M vector.
    """
    n, c = x.shape[:2]
    m = w.shape[0]
    cg = w.shape[1]
    assert cg * groups == c and m % groups == 0
    mg = m // groups
    sp = x.ndim - 2
    xd = x.astype(np.int64) - np.int64(xz)
    wd = w.astype(np.int64) - np.asarray(wz, dtype=np.int64).reshape((-1,) + (1,) * (sp + 1))
    # Subtract the zero point first, then pad with 0: padded positions contribute nothing (spec §7.2).
    xp = np.pad(xd, [(0, 0), (0, 0)] + [(p0, p1) for p0, p1 in zip(start_pad, end_pad)])
    out_sp = conv_output_sizes(x.shape[2:], w.shape[2:], strides, dilations, start_pad, end_pad)
    acc = np.zeros([n, m] + out_sp, dtype=np.int64)
    for kpos in itertools.product(*[range(k) for k in w.shape[2:]]):
        window = tuple(slice(kp * dl, kp * dl + (o - 1) * st + 1, st)
                       for kp, dl, o, st in zip(kpos, dilations, out_sp, strides))
        patch = xp[(slice(None), slice(None)) + window]  # (N, C, *out_sp)
        for g in range(groups):
            wg = wd[(slice(g * mg, (g + 1) * mg), slice(None)) + kpos]  # (Mg, Cg)
            xg = patch[:, g * cg:(g + 1) * cg]
            acc[:, g * mg:(g + 1) * mg] += np.einsum("mc,nc...->nm...", wg, xg)
    if bias is not None:
        acc += np.asarray(bias, dtype=np.int64).reshape((1, m) + (1,) * sp)
    return acc


def requantize_real(acc, xs, ws, ys):
    """acc * xs * ws[m] / ys in float64, before rounding (exposed so the generator can check for ties)."""
    sp = acc.ndim - 2
    ws = np.asarray(ws, dtype=np.float32).astype(np.float64).reshape(-1)
    mult = np.float64(np.float32(xs)) * ws / np.float64(np.float32(ys))
    return acc.astype(np.float64) * mult.reshape((1, -1) + (1,) * sp)


def qlinear_conv(x, xs, xz, w, ws, wz, bias, ys, yz, out_dtype, strides, dilations, start_pad, end_pad, groups):
    acc = qlinear_conv_accumulator(x, xz, w, wz, bias, strides, dilations, start_pad, end_pad, groups)
    real = requantize_real(acc, xs, ws, ys)
    info = np.iinfo(out_dtype)
    return np.clip(np.rint(real) + int(yz), info.min, info.max).astype(out_dtype)


# ----------------------------------------------------------------------------------------------------------------
# Pooling (MAX_POOLING2, AVERAGE_POOLING, AVERAGE_POOLING1, QUANTIZED_LINEAR_AVERAGE_POOLING)
#
# Vectorised over the output: the input is padded (validity mask False in the padding) and each window tap
# (k_1, ..., k_s), in row-major order, is one strided slice of the padded arrays, combined elementwise into the
# running result. The C++ reference instead loops per output element over its taps.
# ----------------------------------------------------------------------------------------------------------------

def pooled_sizes(in_spatial, window, strides, dilations, start_pad, end_pad):
    out = []
    for n, k, s, d, a, b in zip(in_spatial, window, strides, dilations, start_pad, end_pad):
        extent = (k - 1) * d + 1
        assert n + a + b >= extent, "dilated window longer than the padded input"
        out.append((n + a + b - extent) // s + 1)
    return out


def _pool_taps(x, window, strides, dilations, start_pad, end_pad):
    """Yields (values, valid, packed_index) of every window tap, each shaped like the output, in row-major tap
    order. packed_index: the position of the tapped element in x seen as a packed 1-D array (-1 in padding)."""
    sp = len(window)
    out = pooled_sizes(x.shape[2:], window, strides, dilations, start_pad, end_pad)
    pads = [(0, 0), (0, 0)] + [(a, b) for a, b in zip(start_pad, end_pad)]
    xp = np.pad(x, pads, mode="constant")
    valid = np.pad(np.ones(x.shape, dtype=bool), pads, mode="constant", constant_values=False)
    index = np.pad(np.arange(x.size, dtype=np.int64).reshape(x.shape), pads, mode="constant", constant_values=-1)
    for taps in itertools.product(*[range(k) for k in window]):
        sl = (slice(None), slice(None)) + tuple(
            slice(t * d, t * d + s * (o - 1) + 1, s) for t, d, s, o in zip(taps, dilations, strides, out))
        yield xp[sl], valid[sl], index[sl]
    assert sp in (2, 3)


def max_pooling(x, window, strides, dilations, start_pad, end_pad):
    """(output, indices): the first strictly-greatest in-input tap of each window, and its packed input index."""
    best = None
    for v, ok, idx in _pool_taps(x, window, strides, dilations, start_pad, end_pad):
        if best is None:
            best, best_idx, have = np.zeros_like(v), np.full(v.shape, -1, dtype=np.int64), np.zeros(v.shape, bool)
        take = ok & (~have | (v > best))
        best = np.where(take, v, best)
        best_idx = np.where(take, idx, best_idx)
        have |= ok
    assert have.all(), "a window covers only padding"
    return best.astype(x.dtype), best_idx


def average_pooling(x, window, strides, dilations, start_pad, end_pad, include_padding):
    """Float64 mean of the in-input taps (count: the whole window with include_padding), rounded once."""
    total, count = None, None
    for v, ok, _ in _pool_taps(x.astype(np.float64), window, strides, dilations, start_pad, end_pad):
        if total is None:
            total, count = np.zeros(v.shape), np.zeros(v.shape, dtype=np.int64)
        total = total + np.where(ok, v, 0.0)
        count = count + ok
    assert (count > 0).all(), "a window covers only padding"
    divisor = np.prod(window) if include_padding else count
    return (total / divisor).astype(x.dtype)


def qlinear_average_pooling(x, xs, xz, ys, yz, out_dtype, window, strides, dilations, start_pad, end_pad,
                            include_padding):
    """Integer sum of (x - xz) over the in-input taps, then round_half_even(sum * xs / (count * ys)) + yz,
    saturated. xs, xz, ys, yz: scalars or per-channel vectors (axis 1)."""
    c = x.shape[1]
    per_channel = lambda v: np.broadcast_to(np.asarray(v, dtype=np.float64).reshape(-1), (c,)).reshape(
        (1, c) + (1,) * (x.ndim - 2))  # noqa: E731
    shifted = x.astype(np.int64) - per_channel(xz).astype(np.int64)
    total, count = None, None
    for v, ok, _ in _pool_taps(shifted, window, strides, dilations, start_pad, end_pad):
        if total is None:
            total, count = np.zeros(v.shape, dtype=np.int64), np.zeros(v.shape, dtype=np.int64)
        total = total + np.where(ok, v, 0)
        count = count + ok
    assert (count > 0).all(), "a window covers only padding"
    divisor = np.prod(window) if include_padding else count
    real = total.astype(np.float64) * per_channel(xs) / (divisor * per_channel(ys))
    info = np.iinfo(out_dtype)
    q = np.rint(real) + per_channel(yz)
    return np.clip(q, info.min, info.max).astype(out_dtype)


# ----------------------------------------------------------------------------------------------------------------
# GEMM (the DML_GEMM_OPERATOR_DESC page): Output = Alpha * TransA(A) x TransB(B) + Beta * C, per batch
# ----------------------------------------------------------------------------------------------------------------


def gemm(a, b, c, trans_a, trans_b, alpha, beta, out_dtype):
    """Exact (float64) result rounded once to the output type. a, b, c: arrays of the same rank (2-4), the
    leading dimensions batches; c may be None or have size-1 dimensions (broadcast)."""
    a64 = a.astype(np.float64)
    b64 = b.astype(np.float64)
    if trans_a:
        a64 = np.swapaxes(a64, -1, -2)
    if trans_b:
        b64 = np.swapaxes(b64, -1, -2)
    y = np.float64(np.float32(alpha)) * np.matmul(a64, b64)
    if c is not None:
        y = y + np.float64(np.float32(beta)) * c.astype(np.float64)
    return y.astype(out_dtype)


# ----------------------------------------------------------------------------------------------------------------
# QUANTIZED_LINEAR_MATRIX_MULTIPLY (the DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC page)
# ----------------------------------------------------------------------------------------------------------------


def qlinear_matmul_accumulator(a, az, b, bz):
    """int64 sums of (a - az[m]) * (b - bz[n]) over k, per batch. az: scalar or per-row (length M) values, bz:
    scalar or per-column (length N) values."""
    az = np.asarray(az, dtype=np.int64).reshape(-1)
    bz = np.asarray(bz, dtype=np.int64).reshape(-1)
    ad = a.astype(np.int64) - (az.reshape(-1, 1) if az.size > 1 else az[0])
    bd = b.astype(np.int64) - (bz.reshape(1, -1) if bz.size > 1 else bz[0])
    return np.matmul(ad, bd)


def qlinear_matmul(a, a_scale, az, b, b_scale, bz, y_scale, yz, out_dtype):
    """Requantization in float64 of the exact sum: round_half_to_even(acc * as[m] * bs[n] / ys[m]) + yz[m], saturated.
    Scales as float32 values; per-tensor (1 value), per-row (M) for A and the output, per-column (N) for B."""
    acc = qlinear_matmul_accumulator(a, az, b, bz)
    m, n = acc.shape[-2], acc.shape[-1]

    def shaped(v, rows):
        v = np.asarray(v, dtype=np.float32).astype(np.float64).reshape(-1)
        if v.size == 1:
            return v[0]
        return v.reshape(-1, 1) if rows else v.reshape(1, -1)

    real = acc.astype(np.float64) * shaped(a_scale, True) * shaped(b_scale, False) / shaped(y_scale, True)
    yzv = np.asarray(yz, dtype=np.int64).reshape(-1)
    yzv = yzv[0] if yzv.size == 1 else yzv.reshape(-1, 1)
    info = np.iinfo(out_dtype)
    return np.clip(np.rint(real) + yzv, info.min, info.max).astype(out_dtype)
