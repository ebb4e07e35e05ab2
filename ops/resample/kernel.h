// GPU kernels of DML_RESAMPLE v1. All coordinate math happens on the host (coordinates.h, the functions the
// CPU reference uses); the device gets per-dimension tables and only gathers (nearest: bit copies) or blends
// (linear). Plan layout and kernel variants are described in kernel.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/device_plan.h"
#include "core/semantics.h"
#include "core/status.h"
#include "ops/resample/desc.h"

namespace dmltool::ops::resample {

// How one (canonical) output dimension maps to the input.
enum class DimKind : uint8_t {
    kIdentity,  // source index == output index: offset = coordinate * input stride (no table)
    kGather,    // one source index per coordinate: table of premultiplied element offsets
    kBlend,     // linear with a non-zero weight somewhere: table of {x0 * stride, x1 * stride, w0, w1}
};

// How threads map onto outputs.
enum class StorePath : uint8_t {
    kRows,       // last dim contiguous, rows aligned: `group` consecutive outputs of one row per thread, one store
    kFlatWords,  // packed output with unaligned rows (1/2-byte types): one whole output word per thread
    kElements,   // anything else: one element per thread, strided store (atomic for 1/2-byte types)
};

// Everything the DXBC of one dispatch depends on (sizes, strides and tables are run-time data).
struct KernelConfig {
    DataType type = DataType::kFloat32;
    uint32_t rank = 1;                          // canonical rank, 1..4
    std::array<DimKind, 4> kinds{};             // per canonical dimension
    StorePath path = StorePath::kElements;
    uint32_t group = 1;                         // outputs per thread (kRows: 16 or 4 bytes' worth; kFlatWords: 4 bytes)
    // kRows only: 0, or the number of input words (1, 2 or 4) one row window holds. With a window, the thread
    // loads, per input row it reads (one, or one per corner of the outer blended dimensions), one aligned
    // run of window_words words that holds every input element its `group` columns read, and picks elements
    // out of it with per-chunk byte selectors from the chunk table (see kernel.cpp), instead of one load per
    // output element and corner. Single input view only.
    uint32_t window_words = 0;
    // kRows with a window, blended last dimension, at most 3 blended dimensions in all: every blend weight is
    // a multiple of 1/16 (power-of-two scales: 2x gives {1/4, 3/4}, 4x multiples of 1/8, 1/2x gives 1/2),
    // which the host checks from the tables. The chunk table then also carries each lane's last-dimension
    // weight as a 4-bit code (no per-lane tap load), and 8-bit blends are exact in float32, so they need no
    // clamp (see blend.cpp).
    bool short_weights = false;
    uint32_t input_views = 1;                   // 512 MiB windows
    uint32_t output_views = 1;
};

Result<std::vector<uint8_t>> build_resample_kernel(const KernelConfig& config);

// The device plan for a parsed desc (tables built with coordinates.h for semantics' nearest rule).
Result<DevicePlan> plan_resample(const ResampleDesc& desc, const SemanticsOptions& semantics);

// The general kernel's configuration for a desc (for tests that check which variant a case takes). plan_resample
// tries the dedicated nearest-upsample and linear x2 paths first; a desc they take is not described by this.
Result<KernelConfig> resample_kernel_config(const ResampleDesc& desc, const SemanticsOptions& semantics);

// A covering set of configurations (every data type x path x dimension kind in every position, both view
// counts) for validating the generator's output offline.
std::vector<KernelConfig> representative_kernel_configs();

}  // namespace dmltool::ops::resample
