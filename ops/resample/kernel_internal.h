// Internal to ops/resample: what the host planning (plan.cpp) and the kernel generator (emitter.h and its
// .cpp files) share — the root-constant layout and the table formats. Not part of the op's interface.
#pragma once

#include <cstdint>
#include <optional>

#include "core/device_plan.h"
#include "core/semantics.h"
#include "ops/resample/desc.h"
#include "shaders/elements.h"
#include "shaders/kernels.h"
#include "shaders/vector_interleave.h"

namespace dmltool::ops::resample {

// Root constants.
constexpr uint32_t kThreadCount = 0;
constexpr uint32_t kThreadsPerRow = 1;
constexpr uint32_t kInputBase = 2;     // element offset of the folded size-1 dimensions
                                       // 3: unused
constexpr uint32_t kGroupsPerRow = 4;  // kRows: threads per output row
constexpr uint32_t kLastSize = 5;      // kRows: size of the last dimension
constexpr uint32_t kElementCount = 6;  // kFlatWords: output elements
constexpr uint32_t kChunkTable = 7;    // kRows with a window: first word of the chunk table (8 words per chunk)
constexpr uint32_t kSizes = 8;         // [4] canonical output sizes
constexpr uint32_t kOutStrides = 12;   // [4] output strides (elements)
constexpr uint32_t kInStrides = 16;    // [4] input strides (elements; identity dimensions)
constexpr uint32_t kTableOffsets = 20; // [4] first word of each dimension's table in the auxiliary buffer
constexpr uint32_t kRootConstantCount = 24;

constexpr uint32_t kMaxRank = 4;
constexpr uint32_t kThreadsPerGroup = shaders::kDefaultThreadsPerGroup;
constexpr uint64_t kWindowBytes = uint64_t{1} << shaders::kMaxViewBytesLog2;
constexpr uint32_t kChunkEntryWords = 8;  // {start, sel0[0..7], sel0[8..15], 0, sel1[0..7], sel1[8..15], 0, 0}

// Nearest upsampling of H and W by one integer factor on vector-aligned rows (upsample.cpp), or nullopt.
// `shape` picks the kernel shape (the tuning variants); kAuto is plan_resample's choice.
Result<std::optional<DevicePlan>> plan_nearest_upsample(const ResampleDesc& desc, const SemanticsOptions& semantics,
                                                        shaders::InterleaveShape shape = shaders::InterleaveShape::kAuto);
// Nearest downsampling by integer factors (affine tables) as a strided copy (upsample.cpp), or nullopt. Tests
// lower the view window to exercise the multi-view kernels.
Result<std::optional<DevicePlan>> plan_nearest_strided(const ResampleDesc& desc, const SemanticsOptions& semantics,
                                                       uint32_t window_log2 = shaders::kMaxViewBytesLog2);

// Tuning variants of the dedicated linear kernels (linear_fast.cpp); the default is the heuristic plan's.
struct LinearFastVariant {
    bool native_half = false;     // FLOAT16 through f16tof32 / f32tof16 (the plan then requires DeviceCapability::kExactHalfOpcodes)
    bool one_output_row = false;  // x2: one output row per thread instead of a pair
};

// Linear x2 upsampling or x0.5 downsampling of the last two dimensions of packed tensors whose rows are whole
// 16-byte vectors, every data type (linear_fast.cpp), or nullopt (also when the variant does not apply: native_half
// to a type other than FLOAT16, one_output_row to x0.5).
Result<std::optional<DevicePlan>> plan_linear_fast(const ResampleDesc& desc, LinearFastVariant variant = {});

}  // namespace dmltool::ops::resample
