// Test helpers for the data-movement kernels (SPLIT, DEPTH_TO_SPACE1): random tensor layouts (packed, padded,
// permuted, broadcast), input tensors of random bits that respect aliasing strides, JSON for tensor descs, and
// an Op wrapper that swaps in a different device plan (to run the multi-view kernels with small windows).
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <random>
#include <string>

#include "core/op.h"
#include "tests/testing/op_testing.h"
#include "core/tensor.h"
#include "core/tensor_source.h"

namespace dmltool::testing::layouts {

enum class Layout { kPacked, kPadded, kPermuted, kBroadcast };
inline const char* layout_name(Layout l) {
    switch (l) {
        case Layout::kPacked: return "packed";
        case Layout::kPadded: return "padded";
        case Layout::kPermuted: return "permuted";
        case Layout::kBroadcast: return "broadcast";
    }
    return "?";
}

// Strides for `sizes` in `layout` (nullopt = packed, no Strides member). Broadcast is for inputs only.
inline std::optional<Dims> make_strides(const Dims& sizes, Layout layout, std::mt19937& rng) {
    const size_t rank = sizes.size();
    if (layout == Layout::kPacked) return std::nullopt;
    std::vector<size_t> order(rank);  // order[0] = outermost dimension in memory
    std::iota(order.begin(), order.end(), 0);
    if (layout == Layout::kPermuted) std::shuffle(order.begin(), order.end(), rng);
    Dims strides(rank, 0);
    uint64_t next = layout == Layout::kPadded && rng() % 3 == 0 ? 2 : 1;  // sometimes a strided innermost dim
    for (size_t i = rank; i-- > 0;) {
        const size_t d = order[i];
        strides[d] = uint32_t(next);
        next *= sizes[d] + (layout == Layout::kPadded ? rng() % 3 : 0);
    }
    if (layout == Layout::kBroadcast) {
        bool any = false;
        for (size_t d = 0; d < rank; ++d)
            if (rng() % 3 == 0) strides[d] = 0, any = true;
        if (!any) strides[rng() % rank] = 0;
    }
    return strides;
}

inline TensorDesc make_desc(DataType type, Dims sizes, std::optional<Dims> strides, TensorRole role) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = std::move(sizes);
    desc.strides = std::move(strides);
    (void)validate_tensor_desc(desc, role, false);
    return desc;
}


// Random bits for every element (NaN payloads, -0.0 and denormals included: the copy must be bit-exact);
// elements that share a physical offset (stride 0) share their value, as a real buffer would.
inline HostTensor random_bits_tensor(const TensorDesc& desc, uint64_t seed) {
    HostTensor t(desc);
    const Dims strides = desc.effective_strides();
    const size_t bytes = t.element_bytes();
    std::vector<uint32_t> at(desc.rank());
    for (uint64_t i = 0; i < t.element_count(); ++i) {
        unravel_index(i, desc.sizes, at.data());
        uint64_t offset = 0;
        for (size_t d = 0; d < desc.rank(); ++d) offset += uint64_t(at[d]) * strides[d];
        const uint64_t bits = random_bits(seed, offset);
        std::memcpy(t.element_ptr(i), &bits, bytes);
    }
    return t;
}

// `inner` with plan_device replaced (everything else forwarded).
class ReplannedOp final : public Op {
public:
    using Planner = std::function<Result<DevicePlan>(const OpDesc&)>;
    ReplannedOp(const Op& inner, Planner planner) : inner_(inner), planner_(std::move(planner)) {}
    std::string_view name() const override { return inner_.name(); }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& desc) const override { return inner_.parse(desc); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override { return inner_.tensors(desc); }
    const FeatureLevelTable& feature_levels() const override { return inner_.feature_levels(); }
    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return inner_.run_reference(desc, inputs, outputs, context);
    }
    Tolerance default_tolerance(const OpDesc& desc, size_t i) const override { return inner_.default_tolerance(desc, i); }
    WorkEstimate work(const OpDesc& desc) const override { return inner_.work(desc); }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions&) const override { return planner_(desc); }

private:
    const Op& inner_;
    Planner planner_;
};

// Every data type of the data-movement tables.
inline const std::vector<DataType>& all_movement_types() {
    static const std::vector<DataType> types = {DataType::kFloat64, DataType::kFloat32, DataType::kFloat16,
                                                DataType::kInt64,   DataType::kInt32,   DataType::kInt16,
                                                DataType::kInt8,    DataType::kUint64,  DataType::kUint32,
                                                DataType::kUint16,  DataType::kUint8};
    return types;
}

}  // namespace dmltool::testing::layouts
