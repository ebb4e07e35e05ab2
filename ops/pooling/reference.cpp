// CPU reference of the pooling family (docs/operators-pooling.md), the obviously right form: one loop over every
// output element, and for each a loop over every tap of its window in row-major order (depth, height, width),
// skipping taps that land in the padding.
//   max:        the first in-input tap, replaced by each later tap that is strictly greater (so the first of equal
//               maxima wins, as the documentation's OutputIndicesTensor requires); the element is copied bit for bit
//               and its index is its position in the input seen as a packed 1-D array.
//   average:    the double sum of the in-input taps divided by the count: the taps of the whole window with
//               IncludePadding (padding counts as 0), else the in-input taps only; rounded once to the output type.
//   QL average: the exact integer sum of (x - InputZeroPoint), then round_half_even(sum * InputScale / (count *
//               OutputScale)) + OutputZeroPoint, saturated to the output type (all in double).
#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ops/pooling/pooling.h"

namespace dmltool::ops::pooling {
namespace {

// The window of one output element, normalised to three spatial dimensions (4-D inputs get a unit depth).
struct Geometry {
    uint64_t channels = 0;
    std::array<uint64_t, 3> in{1, 1, 1}, out{1, 1, 1}, window{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1},
        start{0, 0, 0};
};

Geometry geometry(const PoolingDesc& d) {
    Geometry g;
    g.channels = d.input.sizes[1];
    const uint32_t spatial = d.spatial_dimension_count();
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint32_t axis = 3 - spatial + i;
        g.in[axis] = d.input.sizes[2 + i];
        g.out[axis] = d.output.sizes[2 + i];
        g.window[axis] = d.window[i];
        g.stride[axis] = d.strides[i];
        g.dilation[axis] = d.dilations[i];
        g.start[axis] = d.start_padding[i];
    }
    return g;
}

// Calls tap(input_index) for every in-input tap of output element `o` (packed indices), in row-major window order.
template <typename Tap>
void for_each_tap(const Geometry& g, uint64_t o, Tap&& tap) {
    const uint64_t ow = o % g.out[2], oh = (o / g.out[2]) % g.out[1], od = (o / (g.out[2] * g.out[1])) % g.out[0];
    const uint64_t nc = o / (g.out[2] * g.out[1] * g.out[0]);  // n * C + c
    const uint64_t plane = g.in[0] * g.in[1] * g.in[2];
    for (uint64_t kd = 0; kd < g.window[0]; ++kd) {
        const int64_t id = tap_position(od, kd, g.stride[0], g.dilation[0], g.start[0]);
        if (id < 0 || id >= int64_t(g.in[0])) continue;
        for (uint64_t kh = 0; kh < g.window[1]; ++kh) {
            const int64_t ih = tap_position(oh, kh, g.stride[1], g.dilation[1], g.start[1]);
            if (ih < 0 || ih >= int64_t(g.in[1])) continue;
            for (uint64_t kw = 0; kw < g.window[2]; ++kw) {
                const int64_t iw = tap_position(ow, kw, g.stride[2], g.dilation[2], g.start[2]);
                if (iw < 0 || iw >= int64_t(g.in[2])) continue;
                tap(nc * plane + (uint64_t(id) * g.in[1] + uint64_t(ih)) * g.in[2] + uint64_t(iw));
            }
        }
    }
}

// Whether input element a is strictly greater than b, in the input type's own order.
bool greater(const HostTensor& t, uint64_t a, uint64_t b) {
    const DataType type = t.data_type();
    if (is_float(type)) return t.get_as_double(a) > t.get_as_double(b);
    if (is_signed_integer(type)) return t.get_as_int64(a) > t.get_as_int64(b);
    return uint64_t(t.get_as_int64(a)) > uint64_t(t.get_as_int64(b));
}

// A window whose first in-input tap is NaN keeps it under the rule above (nothing is greater than NaN). Direct3D's
// max returns the non-NaN operand (maxNum), and DirectML 1.15.4's MAX_POOLING2 selects that way: the first non-NaN
// tap, then each later one strictly greater (results/directml_pooling_2026-11-29.txt). The documentation says nothing
// about NaN, so both are right: the other selection, and its index, are also accepted there
// (ExactOutput::also_accepts). Refers to `input`: valid while the reference's inputs live. Empty when no window
// starts with a NaN followed by a number.
void nan_skipping_alternatives(const Geometry& g, const HostTensor& input, uint64_t count,
                               const std::vector<uint64_t>& selected, ExactOutput* values, ExactOutput* indices,
                               size_t index_bytes) {
    if (!is_float(input.data_type())) return;
    auto other = std::make_shared<std::vector<int64_t>>(count, -1);  // the maxNum selection where it differs
    bool any = false;
    for (uint64_t o = 0; o < count; ++o) {
        if (!std::isnan(input.get_as_double(selected[o]))) continue;
        bool found = false;
        uint64_t best = 0;
        for_each_tap(g, o, [&](uint64_t i) {
            if (std::isnan(input.get_as_double(i))) return;
            if (!found || greater(input, i, best)) best = i;
            found = true;
        });
        if (found) (*other)[o] = int64_t(best), any = true;
    }
    if (!any) return;
    auto chosen = std::make_shared<std::vector<uint64_t>>(selected);
    if (values)
        values->also_accepts = [other, chosen, &input](uint64_t o, const std::byte* bits) {
            const size_t bytes = input.element_bytes();
            if (std::memcmp(input.element_ptr((*chosen)[o]), bits, bytes) == 0) return true;
            return (*other)[o] >= 0 && std::memcmp(input.element_ptr(uint64_t((*other)[o])), bits, bytes) == 0;
        };
    if (indices)
        indices->also_accepts = [other, chosen, index_bytes](uint64_t o, const std::byte* bits) {
            uint64_t index = 0;
            std::memcpy(&index, bits, index_bytes);  // UINT32 or UINT64, little-endian host
            return index == (*chosen)[o] || ((*other)[o] >= 0 && index == uint64_t((*other)[o]));
        };
}

Status run_max(const PoolingDesc& d, const HostTensor& input, HostTensor& output, HostTensor* indices,
               const ReferenceContext& context) {
    const Geometry g = geometry(d);
    const size_t bytes = output.element_bytes();
    std::vector<uint64_t> selected(output.element_count());
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t o = begin; o < end; ++o) {
            bool found = false;
            uint64_t best = 0;
            for_each_tap(g, o, [&](uint64_t i) {
                if (!found || greater(input, i, best)) best = i;
                found = true;
            });
            // parse() refuses windows of padding only, so `found` holds.
            std::memcpy(output.element_ptr(o), input.element_ptr(best), bytes);
            if (indices) indices->set_from_double(o, double(best));
            selected[o] = best;
        }
    });
    if (context.exact_outputs && !context.exact_outputs->empty()) {
        std::vector<ExactOutput>& exact = *context.exact_outputs;
        nan_skipping_alternatives(g, input, output.element_count(), selected, &exact[0],
                                  indices && exact.size() > 1 ? &exact[1] : nullptr,
                                  indices ? indices->element_bytes() : 0);
    }
    return Status::ok();
}

uint64_t window_taps(const Geometry& g) { return g.window[0] * g.window[1] * g.window[2]; }

Status run_average(const PoolingDesc& d, const HostTensor& input, HostTensor& output, ExactOutput* exact,
                   ThreadPool& pool) {
    const Geometry g = geometry(d);
    if (exact) {
        exact->exact.assign(output.element_count(), 0.0);
        exact->scale.assign(output.element_count(), 0.0);
        exact->nonfinite_allowed.assign(output.element_count(), 0);
        // float32 arithmetic may flush a subnormal partial sum: one smallest-normal per tap and the division.
        exact->absolute_floor = double(window_taps(g) + 2) * 0x1p-126;
    }
    pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t o = begin; o < end; ++o) {
            double sum = 0, magnitude = 0;
            uint64_t taps = 0;
            for_each_tap(g, o, [&](uint64_t i) {
                const double v = input.get_as_double(i);
                sum += v;
                magnitude += std::fabs(v);
                ++taps;
            });
            const double count = double(d.include_padding ? window_taps(g) : taps);
            const double mean = sum / count;
            output.set_from_double(o, mean);
            if (exact) {
                exact->exact[o] = mean;
                // Recursive float32 summation of `taps` terms: (taps - 1) u sum|x|; the division, or a reciprocal
                // and a product: 3 u |mean| <= 3 u sum|x| / count. Hence (taps + 2) sum|x| / count.
                exact->scale[o] = double(taps + 2) * magnitude / count;
                // A window holding a non-finite value, or whose float32 partial sums may overflow (sum|x| beyond
                // float32's largest value), has no finite bound: an infinity or NaN is also right there.
                exact->nonfinite_allowed[o] = std::isfinite(sum) && magnitude <= double(FLT_MAX) ? 0 : 1;
            }
        }
    });
    return Status::ok();
}

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

// Per-tensor values have one element; per-channel ones C (element c is channel c in both accepted layouts).
uint64_t channel_index(const HostTensor& t, uint64_t c) { return t.element_count() == 1 ? 0 : c; }

Status run_quantized(const PoolingDesc& d, std::span<const HostTensor* const> inputs, HostTensor& output,
                     ThreadPool& pool) {
    const Geometry g = geometry(d);
    const HostTensor& input = *inputs[kInput];
    const HostTensor* in_zp = inputs[kInputZeroPoint];
    const HostTensor* out_zp = inputs[kOutputZeroPoint];
    std::vector<double> in_scale(g.channels), out_scale(g.channels);
    std::vector<int64_t> in_zero(g.channels, 0), out_zero(g.channels, 0);
    for (uint64_t c = 0; c < g.channels; ++c) {
        const HostTensor& xs = *inputs[kInputScale];
        const HostTensor& ys = *inputs[kOutputScale];
        DMLTOOL_ASSIGN_OR_RETURN(in_scale[c], read_scale(xs, channel_index(xs, c), "InputScaleTensor"));
        DMLTOOL_ASSIGN_OR_RETURN(out_scale[c], read_scale(ys, channel_index(ys, c), "OutputScaleTensor"));
        if (in_zp) in_zero[c] = in_zp->get_as_int64(channel_index(*in_zp, c));
        if (out_zp) out_zero[c] = out_zp->get_as_int64(channel_index(*out_zp, c));
    }
    const double lowest = double(integer_min(output.data_type())), highest = double(integer_max(output.data_type()));
    const uint64_t per_channel = g.out[0] * g.out[1] * g.out[2];
    pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        for (uint64_t o = begin; o < end; ++o) {
            const uint64_t c = (o / per_channel) % g.channels;
            int64_t sum = 0;
            uint64_t taps = 0;
            for_each_tap(g, o, [&](uint64_t i) {
                sum += input.get_as_int64(i) - in_zero[c];
                ++taps;
            });
            const double count = double(d.include_padding ? window_taps(g) : taps);
            // std::nearbyint under the default rounding mode rounds half to even.
            const double q = std::nearbyint(double(sum) * in_scale[c] / (count * out_scale[c])) + double(out_zero[c]);
            output.set_from_double(o, std::clamp(q, lowest, highest));
        }
    });
    return Status::ok();
}

}  // namespace

Status check_scale_values(std::span<const HostTensor* const> inputs) {
    if (inputs.size() != 5) return internal_error("QUANTIZED_LINEAR_AVERAGE_POOLING: expected 5 inputs");
    for (const auto& [slot, member] : {std::pair{kInputScale, "InputScaleTensor"}, std::pair{kOutputScale, "OutputScaleTensor"}}) {
        if (!inputs[slot]) continue;
        for (uint64_t i = 0; i < inputs[slot]->element_count(); ++i) {
            const Result<double> scale = read_scale(*inputs[slot], i, member);
            if (!scale.is_ok()) return scale.status();
        }
    }
    return Status::ok();
}

Status run_pooling_reference(const PoolingDesc& desc, std::span<const HostTensor* const> inputs,
                             std::span<HostTensor* const> outputs, const ReferenceContext& context) {
    const size_t expected_inputs = is_quantized(desc.kind) ? 5 : 1;
    if (inputs.size() != expected_inputs || outputs.empty() || !inputs[0] || !outputs[0])
        return internal_error("pooling reference: expected " + std::to_string(expected_inputs) +
                              " inputs and an output, found " + std::to_string(inputs.size()) + " and " +
                              std::to_string(outputs.size()));
    if (outputs[0]->element_count() == 0) return Status::ok();
    if (is_max(desc.kind))
        return run_max(desc, *inputs[0], *outputs[0], outputs.size() > 1 ? outputs[1] : nullptr, context);
    if (is_quantized(desc.kind)) return run_quantized(desc, inputs, *outputs[0], context.pool);
    ExactOutput* exact = context.exact_outputs && !context.exact_outputs->empty() ? &context.exact_outputs->at(0) : nullptr;
    return run_average(desc, *inputs[0], *outputs[0], exact, context.pool);
}

}  // namespace dmltool::ops::pooling
