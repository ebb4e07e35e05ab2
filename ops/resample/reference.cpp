// CPU reference of DML_RESAMPLE v1 (spec §6.4-6.7). Per-dimension index/weight tables come from
// coordinates.h; the loop over output elements gathers (nearest) or blends the 2^rank corners (linear).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ops/resample/coordinates.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample {
namespace {

// Converts the double blend to the output type with a single rounding.
void store(HostTensor& output, uint64_t index, double value) {
    switch (output.data_type()) {
        case DataType::kFloat32:
            output.set<float>(index, float(value));  // round to nearest even
            break;
        case DataType::kFloat16:
            output.set<uint16_t>(index, double_to_half(value));
            break;
        case DataType::kInt8:
            output.set<int8_t>(index, int8_t(std::clamp(std::nearbyint(value), -128.0, 127.0)));
            break;
        case DataType::kUint8:
            output.set<uint8_t>(index, uint8_t(std::clamp(std::nearbyint(value), 0.0, 255.0)));
            break;
        default:
            break;  // excluded by the feature-level table; run_resample_reference refuses it up front
    }
}

Status run_nearest(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                   const ReferenceContext& context) {
    const uint32_t rank = desc.input.rank();
    std::vector<std::vector<uint32_t>> index(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o)
            index[d].push_back(nearest_index(o, desc.input.sizes[d], inv, context.semantics.resample_nearest_rule));
    }
    const Dims in_strides = packed_strides(desc.input.sizes);
    const size_t bytes = input.element_bytes();
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, desc.output.sizes, coord);
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d) source += uint64_t(index[d][coord[d]]) * in_strides[d];
            std::memcpy(output.element_ptr(i), input.element_ptr(source), bytes);
        }
    });
    return Status::ok();
}

// The error scale M of one output element (README: Semantics and tolerances). A correct float32
// implementation's result differs from the reference's exact blend by at most 1.01 * 2^-24 * M (+ underflow
// and output rounding): (2r + 2^r - 1) * m covers the roundings of the weights, products and sums (m = sum of
// |weight * value| over the corners), and (2 + 8 * (|q_d| + 1)) * P_d covers, per interpolated axis d, the
// subtraction and product of an `a + w * (b - a)` blend (2) and float32 coordinate arithmetic of a different
// order than the reference's (8 * (|q_d| + 1) ulps of the coordinate q_d = (o + 0.5) / scale, times P_d, the
// largest difference between neighbours along d among the input elements the blend may touch).
class ErrorScale {
public:
    ErrorScale(const ResampleDesc& desc, const HostTensor& input) : desc_(desc), input_(input) {
        strides_ = packed_strides(desc.input.sizes);
        for (uint32_t d = 0; d < desc.input.rank(); ++d) interpolated_ += desc.scales[d] != 1.0f;
    }
    uint32_t interpolated_axes() const { return interpolated_; }
    // Underflow: a GPU may flush float32 denormals in every operation (and on reading inputs).
    double absolute_floor() const { return double((1u << interpolated_) + 2 * interpolated_ + 2) * 0x1p-126; }

    double operator()(const uint32_t* coord, const std::vector<std::vector<LinearTap>>& taps, double m) const {
        const uint32_t rank = desc_.input.rank();
        uint32_t lo[kMaxDimensionCount], hi[kMaxDimensionCount];
        double q[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) {
            const LinearTap& tap = taps[d][coord[d]];
            lo[d] = hi[d] = tap.x0;
            q[d] = 0;
            if (desc_.scales[d] == 1.0f) continue;  // exact coordinate o in any evaluation order: weight 1 on x0
            q[d] = (double(coord[d]) + 0.5) / double(desc_.scales[d]);
            const double delta = kUnitRoundoff * 8.0 * (q[d] + 1.0);
            hi[d] = tap.x1;
            // Within delta of a cell boundary another implementation may blend the neighbouring cell.
            if (double(tap.w1) <= delta && lo[d] > 0) --lo[d];
            if (double(tap.w1) >= 1.0 - delta && hi[d] + 1 < desc_.input.sizes[d]) ++hi[d];
        }
        double slope[kMaxDimensionCount] = {};
        uint32_t at[kMaxDimensionCount];
        for (uint32_t d = 0; d < rank; ++d) at[d] = lo[d];
        for (;;) {
            uint64_t source = 0;
            for (uint32_t d = 0; d < rank; ++d) source += uint64_t(at[d]) * strides_[d];
            const double here = input_.get_as_double(source);
            for (uint32_t d = 0; d < rank; ++d)
                if (at[d] < hi[d])
                    slope[d] = std::max(slope[d], std::fabs(input_.get_as_double(source + strides_[d]) - here));
            uint32_t d = rank;
            while (d > 0 && at[d - 1] == hi[d - 1]) at[d - 1] = lo[d - 1], --d;
            if (d == 0) break;
            ++at[d - 1];
        }
        const uint32_t r = interpolated_;
        double scale = double(2 * r + (1u << r) - 1) * m;
        for (uint32_t d = 0; d < rank; ++d)
            if (desc_.scales[d] != 1.0f) scale += (2.0 + 8.0 * (q[d] + 1.0)) * slope[d];
        return scale;
    }

    static constexpr double kUnitRoundoff = 0x1p-24;  // float32, the arithmetic a correct implementation may use

private:
    const ResampleDesc& desc_;
    const HostTensor& input_;
    Dims strides_;
    uint32_t interpolated_ = 0;
};

Status run_linear(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                  const ReferenceContext& context) {
    const uint32_t rank = desc.input.rank();
    std::vector<std::vector<LinearTap>> taps(rank);
    for (uint32_t d = 0; d < rank; ++d) {
        const float inv = inverse_scale(desc.scales[d]);
        for (uint32_t o = 0; o < desc.output.sizes[d]; ++o) taps[d].push_back(linear_tap(o, desc.input.sizes[d], inv));
    }
    const Dims in_strides = packed_strides(desc.input.sizes);
    const uint32_t corners = 1u << rank;
    ExactOutput* exact = context.exact_outputs ? &context.exact_outputs->at(0) : nullptr;
    const ErrorScale error_scale(desc, input);
    if (exact) {
        exact->exact.assign(output.element_count(), 0.0);
        exact->scale.assign(output.element_count(), 0.0);
        exact->absolute_floor = error_scale.absolute_floor();
    }
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, desc.output.sizes, coord);
            // Every corner, including those of identity dimensions (weights 1 and 0, exact), in a fixed order —
            // dimension 0 is the most significant bit — so the double sum is reproducible.
            double sum = 0.0, magnitude = 0.0;
            for (uint32_t corner = 0; corner < corners; ++corner) {
                double weight = 1.0;
                uint64_t source = 0;
                for (uint32_t d = 0; d < rank; ++d) {
                    const LinearTap& tap = taps[d][coord[d]];
                    const bool upper = (corner >> (rank - 1 - d)) & 1u;
                    source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                    weight *= double(upper ? tap.w1 : tap.w0);
                }
                const double term = input.get_as_double(source) * weight;
                sum += term;
                magnitude += std::fabs(term);
            }
            store(output, i, sum);
            if (exact) {
                exact->exact[i] = sum;
                exact->scale[i] = error_scale(coord, taps, magnitude);
            }
        }
    });
    return Status::ok();
}

}  // namespace

Status run_resample_reference(const ResampleDesc& desc, const HostTensor& input, HostTensor& output,
                              const ReferenceContext& context) {
    const DataType type = desc.input.data_type;
    if (type != DataType::kFloat32 && type != DataType::kFloat16 && type != DataType::kInt8 &&
        type != DataType::kUint8)
        return internal_error("RESAMPLE reference: data type " + std::string(data_type_name(type)) +
                              " is not in the feature-level table");
    if (desc.input.rank() > 4)
        return internal_error("RESAMPLE reference: more than 4 dimensions is not in the feature-level table");
    if (input.desc().sizes != desc.input.sizes || output.desc().sizes != desc.output.sizes ||
        input.data_type() != type || output.data_type() != type)
        return internal_error("RESAMPLE reference: tensors do not match the desc");
    if (desc.mode == InterpolationMode::kNearestNeighbor) return run_nearest(desc, input, output, context);
    return run_linear(desc, input, output, context);
}

}  // namespace dmltool::ops::resample
