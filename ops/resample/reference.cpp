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
    context.pool.parallel_for(output.element_count(), [&](uint64_t begin, uint64_t end) {
        uint32_t coord[kMaxDimensionCount];
        for (uint64_t i = begin; i < end; ++i) {
            unravel_index(i, desc.output.sizes, coord);
            // Every corner, including those of identity dimensions (weights 1 and 0, exact), in a fixed order —
            // dimension 0 is the most significant bit — so the double sum is reproducible.
            double sum = 0.0;
            for (uint32_t corner = 0; corner < corners; ++corner) {
                double weight = 1.0;
                uint64_t source = 0;
                for (uint32_t d = 0; d < rank; ++d) {
                    const LinearTap& tap = taps[d][coord[d]];
                    const bool upper = (corner >> (rank - 1 - d)) & 1u;
                    source += uint64_t(upper ? tap.x1 : tap.x0) * in_strides[d];
                    weight *= double(upper ? tap.w1 : tap.w0);
                }
                sum += input.get_as_double(source) * weight;
            }
            store(output, i, sum);
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
