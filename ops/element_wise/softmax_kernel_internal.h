// Shared by the softmax emitter (softmax_kernel.cpp) and its host planning (softmax_plan.cpp).
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "ops/element_wise/softmax_kernel.h"

namespace dmltool::ops::element_wise::softmax {

// Root constants: a header, then the tables (sizes and strides in elements). Ranks are at most 8 each, so the
// tables (at most 6 * 8 words) always fit the 63 root constants.
inline constexpr uint32_t kLanes = 0;        // lane count
inline constexpr uint32_t kGroupsX = 1;      // groups per row of the dispatch grid
inline constexpr uint32_t kChunks = 2;       // chunks per lane
inline constexpr uint32_t kRuntimeZero = 3;  // 0, opaque to the compiler (BodyContext::runtime_zero)
inline constexpr uint32_t kTables = 4;

struct ConstantTables {
    uint32_t outer_rank = 0;
    uint32_t lane_rank = 1;
    uint32_t outer_sizes() const { return 0; }
    uint32_t outer_input_strides() const { return outer_rank; }
    uint32_t outer_output_strides() const { return 2 * outer_rank; }
    uint32_t lane_sizes() const { return 3 * outer_rank; }
    uint32_t lane_input_strides() const { return 3 * outer_rank + lane_rank; }
    uint32_t lane_output_strides() const { return 3 * outer_rank + 2 * lane_rank; }
    uint32_t words() const { return 3 * outer_rank + 3 * lane_rank; }
};

// Everything a blob is specialised on; sizes, strides and counts are root constants.
struct KernelSpec {
    SoftmaxKind kind = SoftmaxKind::kSoftmax;
    uint32_t bytes = 4;              // element size: 4 (FLOAT32) or 2 (FLOAT16)
    uint32_t chunk = 1;              // elements per chunk (V): 1, or 16 / bytes through typed uint4 views
    uint32_t threads_per_lane = 1;   // T, a power of two
    uint32_t chunks_per_thread = 1;  // register path: chunks each thread holds
    bool looped = false;
    // Register path with every chunk of every lane inside the lane (chunks == T * chunks_per_thread): loads need no
    // bounds branch (lanes past the end read the last lane; nothing of theirs is stored).
    bool exact_fit = false;
    bool native_half = false;
    bool hardware_exp2 = false;  // e^(x - m) by the exp instruction (math::exp_nonpositive)
    uint32_t threads_per_group = 256;
    uint32_t outer_rank = 0;
    uint32_t lane_rank = 1;
    uint32_t input_views = 1;
    uint32_t output_views = 1;
    uint32_t window_log2 = shaders::kMaxViewBytesLog2;
    auto operator<=>(const KernelSpec&) const = default;
};

Result<std::vector<uint8_t>> build_kernel(const KernelSpec& spec);

}  // namespace dmltool::ops::element_wise::softmax
