// The parsed pooling descs (DML_OPERATOR_MAX_POOLING2, AVERAGE_POOLING, AVERAGE_POOLING1,
// QUANTIZED_LINEAR_AVERAGE_POOLING; docs/operators-pooling.md) and their window geometry. Shared by op.cpp (parse,
// validation), reference.cpp (the CPU reference) and kernel.cpp (the GPU kernel), so the output size formula and
// the input position of a window tap are written down once.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "core/op.h"
#include "core/tensor.h"

namespace dmltool::ops::pooling {

// The family's operators (one registry entry each).
enum class PoolingKind {
    kMaxPooling2,                     // DML_OPERATOR_MAX_POOLING2: max, optional indices, dilations
    kAveragePooling,                  // DML_OPERATOR_AVERAGE_POOLING: mean, no dilations
    kAveragePooling1,                 // DML_OPERATOR_AVERAGE_POOLING1: mean with dilations
    kQuantizedLinearAveragePooling,   // DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING
};

inline bool is_max(PoolingKind kind) { return kind == PoolingKind::kMaxPooling2; }
inline bool is_quantized(PoolingKind kind) { return kind == PoolingKind::kQuantizedLinearAveragePooling; }
inline bool has_dilations(PoolingKind kind) { return kind != PoolingKind::kAveragePooling; }

struct PoolingDesc final : OpDesc {
    PoolingKind kind = PoolingKind::kMaxPooling2;
    TensorDesc input;                              // {N, C, H, W} or {N, C, D, H, W}
    std::optional<TensorDesc> input_scale;         // QL only (required there): 1 or C elements
    std::optional<TensorDesc> input_zero_point;    // QL only, optional: 1 or C elements
    std::optional<TensorDesc> output_scale;        // QL only (required there)
    std::optional<TensorDesc> output_zero_point;   // QL only, optional
    TensorDesc output;                             // {N, C, spatial out...}
    std::optional<TensorDesc> output_indices;      // MAX_POOLING2 only, optional: the output's sizes
    Dims strides, window, start_padding, end_padding;  // one entry per spatial dimension
    Dims dilations;                                // all 1 for AVERAGE_POOLING (which has no Dilations member)
    bool include_padding = false;                  // average kinds only

    uint32_t spatial_dimension_count() const { return input.rank() - 2; }
};

// Output extent of one spatial dimension: floor((in + start + end - ((window - 1) * dilation + 1)) / stride) + 1,
// or nullopt when the dilated window is longer than the padded input (or a size is 0). 64-bit throughout:
// (window - 1) * dilation alone can exceed 32 bits. With dilation 1 it is the documentation's formula.
inline std::optional<uint64_t> pooled_size(uint64_t in, uint64_t window, uint64_t stride, uint64_t dilation,
                                           uint64_t start_pad, uint64_t end_pad) {
    if (window == 0 || stride == 0 || dilation == 0) return std::nullopt;
    const uint64_t padded = in + start_pad + end_pad;
    const uint64_t extent = (window - 1) * dilation + 1;
    if (padded < extent) return std::nullopt;
    return (padded - extent) / stride + 1;
}

// Input coordinate of window tap k for output coordinate `out`: negative or >= the input size means padding.
inline int64_t tap_position(uint64_t out, uint64_t k, uint64_t stride, uint64_t dilation, uint64_t start_pad) {
    return int64_t(out * stride + k * dilation) - int64_t(start_pad);
}

// Whether per-channel quantization values have the channel layout: {C} when 1-D, else C on dim 1 and 1 elsewhere.
inline bool is_per_channel_shape(std::span<const uint32_t> sizes, uint64_t channels) {
    if (sizes.size() == 1) return sizes[0] == channels;
    if (sizes.size() < 2 || sizes[1] != channels) return false;
    for (size_t d = 0; d < sizes.size(); ++d)
        if (d != 1 && sizes[d] != 1) return false;
    return true;
}

// Slot positions of Op::run_reference's inputs for the quantized kind (tensors() order).
enum QuantizedInputSlot { kInput, kInputScale, kInputZeroPoint, kOutputScale, kOutputZeroPoint };

// The CPU reference (reference.cpp): inputs / outputs as Op::run_reference.
Status run_pooling_reference(const PoolingDesc& desc, std::span<const HostTensor* const> inputs,
                             std::span<HostTensor* const> outputs, const ReferenceContext& context);

// Every scale value finite and non-zero (Op::check_input_values of the quantized kind).
Status check_scale_values(std::span<const HostTensor* const> inputs);

// The GPU plan (kernel.cpp): one thread per output element.
Result<DevicePlan> plan_pooling_device(const PoolingDesc& desc);

// A random valid case for `dmltool generate` (generate.cpp), types and ranks from `table` (the op's own).
Status generate_case(PoolingKind kind, const FeatureLevelTable& table, CaseRng& rng, GeneratedCase& out);

}  // namespace dmltool::ops::pooling
