// CPU reference of DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (spec §7.2): exact integer accumulation of the
// zero-point-shifted operands, then requantization in double with round-half-to-even. Two accumulation forms
// (ReferencePath in the header): the naive loop nest per output element, and a channel-vector form that is the
// same sum in another order (integers, so the order cannot matter) with int16 operands and int32 sums, used only
// where no int32 sum can overflow. Both end in the same requantize().
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/quantized_linear_convolution.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

// Slot positions of tensors() / Op::run_reference inputs.
enum InputSlot { kInput, kInputScale, kInputZeroPoint, kFilter, kFilterScale, kFilterZeroPoint, kBias,
                 kOutputScale, kOutputZeroPoint, kInputSlotCount };

// Scale values are data, not desc: zero, infinite or NaN scales make the case invalid (DirectML: undefined).
Result<double> read_scale(const HostTensor& t, uint64_t index, const char* member) {
    const double v = t.get_as_double(index);
    if (std::isfinite(v) && v != 0) return v;
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    std::string where = member;
    if (t.element_count() > 1) where += '[' + std::to_string(index) + ']';
    return invalid_input(where + ": expected a finite non-zero scale, found " + text);
}

int64_t zero_point(const HostTensor* t, uint64_t index) { return t ? t->get_as_int64(index) : 0; }

// Everything both accumulation forms share: the geometry, the operands with their zero points subtracted (a
// padded position then simply contributes 0, the real value zero) and the per-channel requantization.
struct Prepared {
    ConvGeometry g;
    uint64_t taps_per_channel = 0;          // (C/G) * KH * KW
    const HostTensor* input = nullptr;      // [N][C][H][W]
    int64_t input_zero = 0;
    std::vector<int32_t> shifted_filter;    // [M][C/G][KH][KW]
    std::vector<double> multiplier;         // xs * ws[m] / ys
    std::vector<int64_t> channel_bias;      // 0 when absent
    int64_t output_zero = 0;
    double lowest = 0, highest = 0;
    int64_t largest_filter = 0;             // max |shifted filter value|

    // The input with its zero point subtracted, as `Value`s (8-bit inputs read directly: the hot case).
    template <typename Value>
    std::vector<Value> shifted_input(ThreadPool& pool) const {
        std::vector<Value> shifted(input->element_count());
        const DataType type = input->data_type();
        const auto* bytes = reinterpret_cast<const uint8_t*>(input->bytes().data());
        pool.parallel_for(shifted.size(), [&](uint64_t begin, uint64_t end) {
            if (type == DataType::kUint8)
                for (uint64_t i = begin; i < end; ++i) shifted[i] = Value(int64_t(bytes[i]) - input_zero);
            else if (type == DataType::kInt8)
                for (uint64_t i = begin; i < end; ++i) shifted[i] = Value(int64_t(int8_t(bytes[i])) - input_zero);
            else
                for (uint64_t i = begin; i < end; ++i) shifted[i] = Value(input->get_as_int64(i) - input_zero);
        }, 1u << 16);
        return shifted;
    }

    // Output element `o` from its exact sum.
    void requantize(HostTensor& output, uint64_t o, uint64_t m, int64_t acc) const {
        acc += channel_bias[m];
        // std::nearbyint under the default rounding mode rounds half to even (spec §7.2).
        const double q = std::nearbyint(double(acc) * multiplier[m]) + double(output_zero);
        output.set_from_double(o, std::clamp(q, lowest, highest));
    }
};

Result<Prepared> prepare(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                         const HostTensor& output) {
    Prepared p;
    const HostTensor& input = *inputs[kInput];
    const HostTensor& filter = *inputs[kFilter];
    const HostTensor* bias = inputs[kBias];
    p.g = conv_geometry(desc);
    const ConvGeometry& g = p.g;
    DMLTOOL_ASSIGN_OR_RETURN(const double input_scale, read_scale(*inputs[kInputScale], 0, "InputScaleTensor"));
    DMLTOOL_ASSIGN_OR_RETURN(const double output_scale, read_scale(*inputs[kOutputScale], 0, "OutputScaleTensor"));
    p.input = &input;
    p.input_zero = zero_point(inputs[kInputZeroPoint], 0);
    p.output_zero = zero_point(inputs[kOutputZeroPoint], 0);
    p.multiplier.resize(g.out_channels);
    p.channel_bias.assign(g.out_channels, 0);
    const HostTensor& filter_scale = *inputs[kFilterScale];
    const HostTensor* filter_zp = inputs[kFilterZeroPoint];
    p.taps_per_channel = filter.element_count() / g.out_channels;
    p.shifted_filter.resize(filter.element_count());
    for (uint64_t m = 0; m < g.out_channels; ++m) {
        DMLTOOL_ASSIGN_OR_RETURN(
            const double filter_scale_m,
            read_scale(filter_scale, filter_quant_index(filter_scale.element_count(), m), "FilterScaleTensor"));
        p.multiplier[m] = input_scale * filter_scale_m / output_scale;
        if (bias) p.channel_bias[m] = bias->get_as_int64(m);
        const int64_t wz = filter_zp ? zero_point(filter_zp, filter_quant_index(filter_zp->element_count(), m)) : 0;
        for (uint64_t i = m * p.taps_per_channel; i < (m + 1) * p.taps_per_channel; ++i) {
            const int64_t w = filter.get_as_int64(i) - wz;
            p.shifted_filter[i] = int32_t(w);
            p.largest_filter = std::max(p.largest_filter, w < 0 ? -w : w);
        }
    }
    p.lowest = double(integer_min(output.data_type()));
    p.highest = double(integer_max(output.data_type()));
    return p;
}

// The obviously right form: one loop nest per output element, int64 sums.
void accumulate_naive(const Prepared& p, HostTensor& output, ThreadPool& pool) {
    const ConvGeometry& g = p.g;
    const uint64_t in_h = g.in_size[0], in_w = g.in_size[1], k_h = g.kernel[0], k_w = g.kernel[1];
    const uint64_t out_h = g.out_size[0], out_w = g.out_size[1];
    const std::vector<int32_t> shifted_input = p.shifted_input<int32_t>(pool);
    pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t o = begin; o < end; ++o) {
            const uint64_t ow = o % out_w, oh = (o / out_w) % out_h;
            const uint64_t m = (o / (out_w * out_h)) % g.out_channels, n = o / (out_w * out_h * g.out_channels);
            const uint64_t group = m / g.out_channels_per_group;
            const ConvGeometry::TapRange rows = g.valid_taps(0, oh), cols = g.valid_taps(1, ow);
            int64_t acc = 0;
            for (uint64_t c = 0; c < g.in_channels_per_group; ++c) {
                const int32_t* x =
                    &shifted_input[(n * g.in_channels + group * g.in_channels_per_group + c) * in_h * in_w];
                const int32_t* w = &p.shifted_filter[m * p.taps_per_channel + c * k_h * k_w];
                for (uint64_t kh = rows.begin; kh < rows.end; ++kh) {
                    const int32_t* x_row = x + uint64_t(g.input_position(0, oh, kh)) * in_w;
                    for (uint64_t kw = cols.begin; kw < cols.end; ++kw)
                        acc += int64_t(x_row[g.input_position(1, ow, kw)]) * w[kh * k_w + kw];
                }
            }
            p.requantize(output, o, m, acc);
        }
    }, 256);
}

// ---- channel-vector form ------------------------------------------------------------------------------------

constexpr uint64_t kChannelBlock = 64;  // output channels one work item sums at once

struct ChannelVectorOperands {
    std::vector<int16_t> input;   // [N][C][H][W]
    // Transposed to [G][block][C/G][KH][KW][kChannelBlock] (zero-padded): output channels innermost, and the
    // filter values one work item reads are one contiguous stretch.
    std::vector<int16_t> filter;
};

// sums[ow][j] += x(ow) * w[j] for the `valid` output columns listed in `columns` (with their input values `xs`),
// four columns at a time so that each filter value is loaded once per four products. kCount: the block's channel
// count when it is the full kChannelBlock (a constant trip count), else 0 and `count` is used.
template <uint64_t kCount>
[[gnu::always_inline]] inline void multiply_add_columns(int32_t* __restrict sums, uint64_t count,
                                                        const uint32_t* columns, const int16_t* xs, uint64_t valid,
                                                        const int16_t* __restrict w) {
    const uint64_t n = kCount ? kCount : count;
    uint64_t i = 0;
    for (; i + 4 <= valid; i += 4) {
        int32_t* __restrict r0 = sums + columns[i] * n;
        int32_t* __restrict r1 = sums + columns[i + 1] * n;
        int32_t* __restrict r2 = sums + columns[i + 2] * n;
        int32_t* __restrict r3 = sums + columns[i + 3] * n;
        const int16_t x0 = xs[i], x1 = xs[i + 1], x2 = xs[i + 2], x3 = xs[i + 3];
        for (uint64_t j = 0; j < n; ++j) {
            const int16_t wj = w[j];
            r0[j] += x0 * wj;
            r1[j] += x1 * wj;
            r2[j] += x2 * wj;
            r3[j] += x3 * wj;
        }
    }
    for (; i < valid; ++i) {
        int32_t* __restrict row = sums + columns[i] * n;
        const int16_t x = xs[i];
        for (uint64_t j = 0; j < n; ++j) row[j] += x * w[j];
    }
}

// One work item: output row `oh` of image `n`, output channels [m0, m0 + count) of `group`; sums[ow][j] for
// channel m0 + j. For each input channel and kernel tap, the output columns whose input position is inside the
// input (the others read padding, i.e. zero) add their input value times `count` consecutive filter values.
// `columns` and `xs` are scratch of out_w entries.
[[gnu::always_inline]] inline void sum_channel_block(const Prepared& p, const ChannelVectorOperands& v, uint64_t n,
                                                     uint64_t oh, uint64_t group, uint64_t block, uint64_t count,
                                                     int32_t* __restrict sums, uint32_t* columns, int16_t* xs) {
    const ConvGeometry& g = p.g;
    const uint64_t in_h = g.in_size[0], in_w = g.in_size[1], k_h = g.kernel[0], k_w = g.kernel[1];
    const uint64_t out_w = g.out_size[1];
    const uint64_t blocks = (g.out_channels_per_group + kChannelBlock - 1) / kChannelBlock;
    const int16_t* block_filter = &v.filter[(group * blocks + block) * p.taps_per_channel * kChannelBlock];
    std::fill(sums, sums + out_w * count, 0);
    const ConvGeometry::TapRange rows = g.valid_taps(0, oh);
    for (uint64_t c = 0; c < g.in_channels_per_group; ++c) {
        const int16_t* plane = &v.input[(n * g.in_channels + group * g.in_channels_per_group + c) * in_h * in_w];
        for (uint64_t kh = rows.begin; kh < rows.end; ++kh) {
            const int16_t* x_row = plane + uint64_t(g.input_position(0, oh, kh)) * in_w;
            for (uint64_t kw = 0; kw < k_w; ++kw) {
                const int16_t* w = block_filter + ((c * k_h + kh) * k_w + kw) * kChannelBlock;
                uint64_t valid = 0;
                for (uint64_t ow = 0; ow < out_w; ++ow) {
                    const int64_t iw = g.input_position(1, ow, kw);
                    if (iw < 0 || iw >= int64_t(in_w)) continue;
                    columns[valid] = uint32_t(ow);
                    xs[valid++] = x_row[iw];
                }
                if (count == kChannelBlock)
                    multiply_add_columns<kChannelBlock>(sums, count, columns, xs, valid, w);
                else
                    multiply_add_columns<0>(sums, count, columns, xs, valid, w);
            }
        }
    }
}

void sum_channel_block_plain(const Prepared& p, const ChannelVectorOperands& v, uint64_t n, uint64_t oh,
                             uint64_t group, uint64_t block, uint64_t count, int32_t* sums, uint32_t* columns,
                             int16_t* xs) {
    sum_channel_block(p, v, n, oh, group, block, count, sums, columns, xs);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DMLTOOL_HAVE_AVX2_PATH 1
[[gnu::target("avx2")]] void sum_channel_block_avx2(const Prepared& p, const ChannelVectorOperands& v, uint64_t n,
                                                    uint64_t oh, uint64_t group, uint64_t block, uint64_t count,
                                                    int32_t* sums, uint32_t* columns, int16_t* xs) {
    sum_channel_block(p, v, n, oh, group, block, count, sums, columns, xs);
}
#endif

void accumulate_channel_vector(const Prepared& p, HostTensor& output, ThreadPool& pool, bool avx2) {
    const ConvGeometry& g = p.g;
    ChannelVectorOperands v;
    v.input = p.shifted_input<int16_t>(pool);
    const uint64_t group_channels = g.out_channels_per_group, taps = p.taps_per_channel;
    const uint64_t blocks = (group_channels + kChannelBlock - 1) / kChannelBlock;
    v.filter.assign(g.groups * blocks * taps * kChannelBlock, 0);
    for (uint64_t m = 0; m < g.out_channels; ++m) {
        const uint64_t group = m / group_channels, block = (m % group_channels) / kChannelBlock;
        const uint64_t j = (m % group_channels) % kChannelBlock;
        for (uint64_t t = 0; t < taps; ++t)
            v.filter[((group * blocks + block) * taps + t) * kChannelBlock + j] = int16_t(p.shifted_filter[m * taps + t]);
    }
    const uint64_t out_h = g.out_size[0], out_w = g.out_size[1];
    const uint64_t items = g.batch * out_h * g.groups * blocks;  // (n, oh, group, block), block fastest
    auto sum = sum_channel_block_plain;
#ifdef DMLTOOL_HAVE_AVX2_PATH
    if (avx2) sum = sum_channel_block_avx2;
#else
    (void)avx2;
#endif
    pool.parallel_for(items, [&](uint64_t begin, uint64_t end) {
        std::vector<int32_t> sums(out_w * kChannelBlock);
        std::vector<uint32_t> columns(out_w);
        std::vector<int16_t> xs(out_w);
        for (uint64_t item = begin; item < end; ++item) {
            const uint64_t block = item % blocks, group = (item / blocks) % g.groups;
            const uint64_t oh = (item / (blocks * g.groups)) % out_h, n = item / (blocks * g.groups * out_h);
            const uint64_t m0 = block * kChannelBlock, count = std::min(kChannelBlock, group_channels - m0);
            sum(p, v, n, oh, group, block, count, sums.data(), columns.data(), xs.data());
            for (uint64_t j = 0; j < count; ++j) {
                const uint64_t m = group * group_channels + m0 + j;
                const uint64_t first = ((n * g.out_channels + m) * out_h + oh) * out_w;
                for (uint64_t ow = 0; ow < out_w; ++ow) p.requantize(output, first + ow, m, sums[ow * count + j]);
            }
        }
    }, 1);
}

}  // namespace

Status check_scale_values(std::span<const HostTensor* const> inputs) {
    if (inputs.size() != kInputSlotCount) return internal_error("QUANTIZED_LINEAR_CONVOLUTION: expected 9 inputs");
    const std::pair<InputSlot, const char*> scales[] = {
        {kInputScale, "InputScaleTensor"}, {kFilterScale, "FilterScaleTensor"}, {kOutputScale, "OutputScaleTensor"}};
    for (const auto& [slot, member] : scales) {
        if (!inputs[slot]) continue;
        for (uint64_t i = 0; i < inputs[slot]->element_count(); ++i) {
            const Result<double> scale = read_scale(*inputs[slot], i, member);
            if (!scale.is_ok()) return scale.status();
        }
    }
    return Status::ok();
}

bool cpu_has_avx2() {
#ifdef DMLTOOL_HAVE_AVX2_PATH
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

Status run_reference(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                     std::span<HostTensor* const> outputs, const ReferenceContext& context) {
    return run_reference_path(desc, inputs, outputs, context, ReferencePath::kAuto);
}

Status run_reference_path(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                          std::span<HostTensor* const> outputs, const ReferenceContext& context, ReferencePath path) {
    if (inputs.size() != kInputSlotCount || outputs.size() != 1 || !outputs[0])
        return internal_error("QUANTIZED_LINEAR_CONVOLUTION: expected 9 inputs and 1 output");
    for (InputSlot required : {kInput, kInputScale, kFilter, kFilterScale, kOutputScale})
        if (!inputs[required]) return internal_error("QUANTIZED_LINEAR_CONVOLUTION: a required input is missing");
    HostTensor& output = *outputs[0];
    DMLTOOL_ASSIGN_OR_RETURN(const Prepared p, prepare(desc, inputs, output));
    // The channel-vector form needs int16 operands and int32 sums that cannot overflow: an 8-bit input minus
    // its 8-bit zero point is at most 255 in magnitude; the filter is checked on its values.
    const DataType input_type = inputs[kInput]->data_type();
    const double largest_input = 255;
    const bool fits = (input_type == DataType::kUint8 || input_type == DataType::kInt8) &&
                      p.largest_filter <= std::numeric_limits<int16_t>::max() &&
                      largest_input * double(p.largest_filter) * double(p.taps_per_channel) <=
                          double(std::numeric_limits<int32_t>::max());
    if (path == ReferencePath::kAuto)
        path = !fits ? ReferencePath::kNaive
                     : cpu_has_avx2() ? ReferencePath::kChannelVectorAvx2 : ReferencePath::kChannelVector;
    if (path != ReferencePath::kNaive && !fits)
        return internal_error("QUANTIZED_LINEAR_CONVOLUTION reference: int32 sums could overflow");
    if (path == ReferencePath::kChannelVectorAvx2 && !cpu_has_avx2())
        return internal_error("QUANTIZED_LINEAR_CONVOLUTION reference: this CPU has no AVX2");
    if (path == ReferencePath::kNaive)
        accumulate_naive(p, output, context.pool);
    else
        accumulate_channel_vector(p, output, context.pool, path == ReferencePath::kChannelVectorAvx2);
    return Status::ok();
}

}  // namespace dmltool::ops::quantized_linear_convolution
