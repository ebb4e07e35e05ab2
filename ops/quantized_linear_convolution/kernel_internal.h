// Internals shared by the kernel generators (prep_kernel.cpp, conv_kernel.cpp, tiled_conv_kernel.cpp, with the
// emitters both conv kernels use in emitters.cpp) and the planner (plan.cpp): sizes and root-constant layouts
// that the host side and the generated code must agree on. Not part of kernel.h's interface.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "ops/quantized_linear_convolution/kernel.h"
#include "shaders/elements.h"

namespace dmltool::ops::quantized_linear_convolution::internal {

using shaders::Extend;
using shaders::imm;
using shaders::imm4;
using shaders::imm_i;
using shaders::Operand;
using shaders::ProgramBuilder;
using shaders::Resource;
using shaders::TensorViews;

constexpr uint32_t kThreadsPerGroup = 64;
constexpr uint32_t kOutputsPerThread = 4;  // consecutive output columns: one output word when packed
constexpr uint32_t kRecordBytes = 16;      // {Mq, control, bias, output zero point} per output channel
constexpr uint32_t kMaxUnrolledKernelW = 7;  // wider kernels loop over kw at run time
constexpr uint32_t kMaxTiledKernel = 7;      // KH and KW up to this use the tiled kernel (both unrolled)
constexpr uint64_t kMaxViewBytes = uint64_t{1} << shaders::kMaxViewBytesLog2;

// The device buffer of a tensor of `bytes`: whole 16-byte words, at least one.
inline uint64_t padded_buffer_size(uint64_t bytes) { return bytes < 16 ? 16 : (bytes + 15) & ~uint64_t(15); }
constexpr uint32_t kTileWords = 4096;        // groupshared filter chunk of the tiled kernel: 16 KiB

// Input slots (Op::tensors order) and the prep kernel's SRV slots.
enum InputSlot : uint32_t { kInput, kInputScale, kInputZeroPoint, kFilter, kFilterScale, kFilterZeroPoint, kBias,
                            kOutputScale, kOutputZeroPoint };

// ---- prep kernel root constants
enum PrepConstant : uint32_t {
    kPThreadsPerRow, kPThreads, kPFilterCount, kPChannels, kPTaps, kPKernelArea, kPKernelW,
    kPFilterStrideM, kPFilterStrideC, kPFilterStrideH, kPFilterStrideW,
    kPScaleStride, kPZeroPointStride, kPBiasStride, kPPaddedChannels, kPFilterRegion,
    // byte offset of the filter sums the Winograd weight kernel accumulates (Mp int32 after the shifted filter), which
    // the prep kernel zeroes; 0 for the other kernels (nothing to zero)
    kPSumRegion, kPConstantCount
};

// ---- conv kernel root constants (kSizeN..kColumnGroups are the thread-index decomposition sizes)
enum ConvConstant : uint32_t {
    kThreadsPerRow, kThreads, kSizeN, kChannelTiles, kOutH, kColumnGroups, kChannelsPerGroup, kInChannelsPerGroup,
    kKernelH, kKernelW, kInH, kInW, kOutW, kStrideH, kStrideW, kDilationH, kDilationW, kPadH, kPadW,
    kInStrideN, kInStrideC, kInStrideH, kInStrideW, kOutStrideN, kOutStrideM, kOutStrideH, kOutStrideW,
    kFilterRegion, kTapBytes, kInputLimit, kGroupInStride, kRowStep, kRowBytes, kChannelBytes,
    // tiled kernel only: spatial units (n, oh, column group), units per image (OH * column groups), channels per
    // groupshared chunk, scratch bytes between a thread's successive cooperative loads, scratch bytes per chunk
    kSpatialUnits, kUnitsPerImage, kChunkChannels, kLoadStep, kChunkBytes,
    // float kernel only: spatial blocks per image (row blocks * column blocks), column blocks, input channels per
    // split slice, and the partial buffer's strides (elements: per slice, n, m, oh; rows padded to whole units)
    kSpatialBlocksPerImage, kColumnBlocks, kSplitChannels, kPartialSplit, kPartialN, kPartialM, kPartialH,
    // Winograd kernels only: byte offset of the filter sums in the scratch buffer (the prep kernel's kPSumRegion)
    kSumRegion,
    kConvConstantCount
};

// Groupshared floats the float kernel may use: D3D11's 32 KiB.
constexpr uint32_t kSharedFloats = 8192;
// Products per float run: 256 * 255^2 < 2^24, so every partial sum of a run is an exact float32 integer.
constexpr uint32_t kMaxExactTaps = 256;

// The float kernel's derived sizes (floats unless named bytes), shared by the generator and the planner.
struct FloatConvLayout {
    uint32_t threads = 0, taps = 0, block_channels = 0;
    uint32_t patch_rows = 0, patch_cols = 0, unit_stride = 0, row_stride = 0;
    uint32_t patch_floats = 0, weight_floats = 0;  // per staged input channel
    uint32_t chunk_channels = 0;                   // staged per chunk (chunk * taps <= kMaxExactTaps)
    uint32_t weight_region = 0, shared_floats = 0;
};
Result<FloatConvLayout> float_conv_layout(const FloatConvKernelOptions& options);

// The float path of one shape: kernel options, layout and dispatch geometry.
struct FloatPlan {
    FloatConvKernelOptions kernel;
    FloatConvLayout layout;
    uint32_t row_blocks = 0, column_blocks = 0, channel_blocks = 0;
    uint32_t splits = 1, split_channels = 0;  // input-channel slices and channels per slice
    uint32_t padded_row = 0;                  // columns per row of the partial buffer (whole units)
    uint64_t partial_elements = 0;            // int32 partial sums per slice
};
// The float plan when the shape takes the float kernel (stride and dilation 1, M / G a multiple of 4, KH and
// KW <= 7, single-view input and output, geometry within limits); nullopt sends it to the integer kernels.
std::optional<FloatPlan> choose_float_plan(const QuantizedLinearConvolutionDesc& desc, const ConvGeometry& geometry,
                                           bool single_views, const PlanOptions& options);
// Appends the float conv dispatch (and, with slices, the partial buffer and the finalize dispatch) to `plan`,
// whose auxiliary buffer 0 is the prepared scratch buffer. `constants`: the conv kernels' common root constants.
void append_float_dispatches(const FloatPlan& plan_choice, const ConvGeometry& geometry,
                             std::vector<uint32_t> constants, std::shared_ptr<const std::vector<uint8_t>> conv_blob,
                             std::shared_ptr<const std::vector<uint8_t>> finalize_blob, bool has_input_zero_point,
                             DevicePlan& plan);

// The Winograd kernel's derived sizes (floats unless named), shared by the generator and the planner. The conv
// kernel's root constants are the common ConvConstant ones, with kSpatialUnits = units (n, tile row, unit column)
// in all, kUnitsPerImage and kColumnGroups = unit columns per tile row; the weights kernel reads kThreadsPerRow,
// kThreads, kTapBytes (Mp * 4) and kFilterRegion; both read kSumRegion.
struct WinogradLayout {
    uint32_t threads = 0;
    uint32_t block_channels = 0;   // BK = MT * KG output channels per group
    uint32_t block_units = 0;      // BU = TG * NT / 2 units (2 tiles each) per group
    uint32_t block_tiles = 0;      // BT = 2 * BU
    uint32_t position_stride = 0;  // floats between positions of one staged channel (BT + pad: fewest bank conflicts)
    uint32_t chunk_channels = 0;   // input channels staged per chunk
    uint32_t staging_jobs = 0;     // (channel, unit) staging jobs per thread per chunk
    uint32_t pass_channels = 0;    // PC: accumulator channels per thread per exchange pass
    uint32_t shared_floats = 0;
};
// Input channels per float run at transformed position 4i + j: floor(2^24 / (max |B^T d B|_ij * max |G~ g G~^T|_ij))
// with the bounds that 8-bit data (minus 8-bit zero points, so within one 255-wide window) can reach.
uint32_t winograd_run_channels(uint32_t position);
constexpr uint32_t kWinogradExchangeStride = 17;  // floats per (channel, tile) in the exchange: 16 positions + 1
Result<WinogradLayout> winograd_layout(const WinogradConvKernelOptions& options);

// The Winograd path of one shape (PlanOptions::Kernel::kWinograd): nullopt when the shape does not take it.
struct WinogradPlan {
    WinogradConvKernelOptions kernel;
    WinogradLayout layout;
    uint64_t units = 0, units_per_image = 0, unit_columns = 0;
    uint32_t unit_blocks = 0, channel_blocks = 0;
};
std::optional<WinogradPlan> choose_winograd_plan(const QuantizedLinearConvolutionDesc& desc,
                                                 const ConvGeometry& geometry, bool single_views,
                                                 const PlanOptions& options);
// Appends the weight transform and the conv dispatch (and the weight buffer) to `plan`, whose auxiliary buffer 0
// is the prepared scratch buffer (float filter).
void append_winograd_dispatches(const WinogradPlan& plan_choice, const ConvGeometry& geometry,
                                std::vector<uint32_t> constants,
                                std::shared_ptr<const std::vector<uint8_t>> weights_blob,
                                std::shared_ptr<const std::vector<uint8_t>> conv_blob, bool has_input_zero_point,
                                uint32_t padded_channels, DevicePlan& plan);

// Kernels are deterministic in their options; build each variant once per process.
template <typename Options, typename Build>
Result<std::shared_ptr<const std::vector<uint8_t>>> cached_blob(const Options& options, const std::string& key,
                                                               Build build) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const std::vector<uint8_t>>> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it != cache.end()) return it->second;
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<uint8_t> blob, build(options));
    auto stored = std::make_shared<const std::vector<uint8_t>>(std::move(blob));
    cache.emplace(key, stored);
    return stored;
}

// Input channels per groupshared chunk of the tiled kernel (>= 10: MT * KH * KW <= 392).
inline uint32_t tiled_chunk_channels(uint32_t channels_per_thread, uint32_t kernel_h, uint32_t kernel_w) {
    return kTileWords / (channels_per_thread * kernel_h * kernel_w);
}

// Requantizes and stores a thread's tile: `acc` holds channels m0.. m0+channels-1 (p.x = m0), each as `quads`
// groups of 4 columns starting at column p.z, of output row (n, oh); acc[j * quads + h] is channel j, group h.
// Columns at or past `column_limit` (one component; default the output width) are not stored.
void emit_store_tile(ProgramBuilder& b, bool output_signed, const std::vector<Operand>& acc, uint32_t channels,
                     uint32_t quads, Operand n, Operand oh, Operand p, Resource scratch,
                     const TensorViews& output, std::optional<Operand> column_limit = std::nullopt);

// A tensor bound as `count` views t(first).. (SRVs) or u(first).. (UAVs) of 2^window_log2 bytes each.
TensorViews bind_views(ProgramBuilder& b, bool uav, uint32_t first, uint32_t count, uint32_t window_log2);

// kInvalidInput unless the window is 2^8..2^29 bytes and each tensor has 1 or more views within 4 GiB.
Status check_views(const char* kernel, uint32_t input_views, uint32_t output_views, uint32_t window_log2);

// The conv kernels' resources, declared in binding order: t0.. input views, then the prepared scratch buffer
// and the optional input zero point; u0.. output views.
struct ConvResources {
    TensorViews input;
    Resource scratch;
    Resource input_zero_point;  // default (unused) without an input zero point
    TensorViews output;
};
ConvResources bind_conv_resources(ProgramBuilder& b, uint32_t input_views, uint32_t output_views,
                                  uint32_t window_log2, bool has_input_zero_point);

// Clamps word addresses (4 lanes) into the input buffer [0, limit]. Single view: the signed clamp at 0 the
// kernels always had (addresses stay below 512 MiB). Several views: unsigned only, so addresses >= 2 GiB stay;
// negative ones wrap high and are clamped or alias another word, which only feeds masked padding lanes.
void clamp_input_addresses(ProgramBuilder& b, Operand addresses, bool multi_view);

}  // namespace dmltool::ops::quantized_linear_convolution::internal
