// CPU reference of DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION (spec §7.2): one loop nest per output element,
// exact integer accumulation, then requantization in double with round-half-to-even.
#include <algorithm>
#include <cmath>
#include <cstdio>
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

Status run_reference(const QuantizedLinearConvolutionDesc& desc, std::span<const HostTensor* const> inputs,
                     std::span<HostTensor* const> outputs, const ReferenceContext& context) {
    if (inputs.size() != kInputSlotCount || outputs.size() != 1 || !outputs[0])
        return internal_error("QUANTIZED_LINEAR_CONVOLUTION: expected 9 inputs and 1 output");
    for (InputSlot required : {kInput, kInputScale, kFilter, kFilterScale, kOutputScale})
        if (!inputs[required]) return internal_error("QUANTIZED_LINEAR_CONVOLUTION: a required input is missing");
    const HostTensor& input = *inputs[kInput];
    const HostTensor& filter = *inputs[kFilter];
    const HostTensor* bias = inputs[kBias];
    HostTensor& output = *outputs[0];
    const ConvGeometry g = conv_geometry(desc);

    DMLTOOL_ASSIGN_OR_RETURN(const double input_scale, read_scale(*inputs[kInputScale], 0, "InputScaleTensor"));
    DMLTOOL_ASSIGN_OR_RETURN(const double output_scale, read_scale(*inputs[kOutputScale], 0, "OutputScaleTensor"));
    const int64_t input_zero = zero_point(inputs[kInputZeroPoint], 0);
    const int64_t output_zero = zero_point(inputs[kOutputZeroPoint], 0);

    // Per output channel: multiplier = xs * ws[m] / ys (double), bias (0 when absent), filter zero point.
    std::vector<double> multiplier(g.out_channels);
    std::vector<int64_t> channel_bias(g.out_channels, 0);
    const HostTensor& filter_scale = *inputs[kFilterScale];
    const HostTensor* filter_zp = inputs[kFilterZeroPoint];
    const uint64_t taps_per_channel = filter.element_count() / g.out_channels;  // (C/G) * KH * KW
    // Zero points subtracted up front: a padded position then simply contributes 0 (the real value zero).
    std::vector<int32_t> shifted_filter(filter.element_count());
    for (uint64_t m = 0; m < g.out_channels; ++m) {
        DMLTOOL_ASSIGN_OR_RETURN(
            const double filter_scale_m,
            read_scale(filter_scale, filter_quant_index(filter_scale.element_count(), m), "FilterScaleTensor"));
        multiplier[m] = input_scale * filter_scale_m / output_scale;
        if (bias) channel_bias[m] = bias->get_as_int64(m);
        const int64_t wz = filter_zp ? zero_point(filter_zp, filter_quant_index(filter_zp->element_count(), m)) : 0;
        for (uint64_t i = m * taps_per_channel; i < (m + 1) * taps_per_channel; ++i)
            shifted_filter[i] = int32_t(filter.get_as_int64(i) - wz);
    }
    std::vector<int32_t> shifted_input(input.element_count());
    for (uint64_t i = 0; i < shifted_input.size(); ++i) shifted_input[i] = int32_t(input.get_as_int64(i) - input_zero);

    const double lowest = double(integer_min(output.data_type()));
    const double highest = double(integer_max(output.data_type()));
    const uint64_t in_h = g.in_size[0], in_w = g.in_size[1], k_h = g.kernel[0], k_w = g.kernel[1];
    const uint64_t out_h = g.out_size[0], out_w = g.out_size[1];

    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t o = begin; o < end; ++o) {
            const uint64_t ow = o % out_w, oh = (o / out_w) % out_h;
            const uint64_t m = (o / (out_w * out_h)) % g.out_channels, n = o / (out_w * out_h * g.out_channels);
            const uint64_t group = m / g.out_channels_per_group;
            const ConvGeometry::TapRange rows = g.valid_taps(0, oh), cols = g.valid_taps(1, ow);
            int64_t acc = 0;
            for (uint64_t c = 0; c < g.in_channels_per_group; ++c) {
                const int32_t* x = &shifted_input[(n * g.in_channels + group * g.in_channels_per_group + c) * in_h * in_w];
                const int32_t* w = &shifted_filter[m * taps_per_channel + c * k_h * k_w];
                for (uint64_t kh = rows.begin; kh < rows.end; ++kh) {
                    const int32_t* x_row = x + uint64_t(g.input_position(0, oh, kh)) * in_w;
                    for (uint64_t kw = cols.begin; kw < cols.end; ++kw)
                        acc += int64_t(x_row[g.input_position(1, ow, kw)]) * w[kh * k_w + kw];
                }
            }
            acc += channel_bias[m];
            // std::nearbyint under the default rounding mode rounds half to even (spec §7.2).
            const double q = std::nearbyint(double(acc) * multiplier[m]) + double(output_zero);
            output.set_from_double(o, std::clamp(q, lowest, highest));
        }
    }, 256);
    return Status::ok();
}

}  // namespace dmltool::ops::quantized_linear_convolution
