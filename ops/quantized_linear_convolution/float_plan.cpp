// The float kernel's share of the planner: whether a shape takes it, its thread-group geometry, and its
// dispatches (conv, or conv into partial sums + finalize when the input channels are split).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution::internal {
namespace {

constexpr uint64_t kMaxGroups = 65535;              // per dispatch dimension
constexpr uint64_t kMaxSplits = 64;                 // build_split_finalize_kernel's limit
constexpr uint64_t kPartialBytesLimit = 256u << 20;  // the partial buffer stays one view, well below 512 MiB
// Below 384 threads per H200 multiprocessor (132 of them) the planner splits the input channels (more
// slices measured slower: their partial sums cost memory traffic; 256x14x14 3x3 at batch 32: 20.9 TOPS with 2
// slices, 19.7 with 4; 512x7x7: 17.5 with 4, 16.1 with 8).
constexpr uint64_t kTargetThreads = 132 * 384;

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::optional<FloatPlan> choose_float_plan(const QuantizedLinearConvolutionDesc& d, const ConvGeometry& g,
                                           bool single_views, const PlanOptions& options) {
    if (!options.allow_float || !single_views) return std::nullopt;
    if (g.stride[0] != 1 || g.stride[1] != 1 || g.dilation[0] != 1 || g.dilation[1] != 1) return std::nullopt;
    const uint64_t mpg = g.out_channels_per_group;
    FloatPlan f;
    FloatConvKernelOptions& k = f.kernel;
    k.input_signed = d.input.data_type == DataType::kInt8;
    k.output_signed = d.output.data_type == DataType::kInt8;
    k.has_input_zero_point = d.input_zero_point.has_value();
    k.kernel_h = uint32_t(g.kernel[0]);
    k.kernel_w = uint32_t(g.kernel[1]);
    k.weights_from_view = options.float_weights_from_view;
    // Prefetch by default for 1x1 kernels: there a chunk's arithmetic is too short to cover the next chunk's staging
    // (H100, 256x56x56 1x1: 0.233 -> 0.201 ms at 224 threads), while on the 3x3 layers its smaller chunks lost
    // (0.293 -> 0.328, 0.311 -> 0.339, 0.345 -> 0.354 ms; results/h100_2026-11-27_prefetch).
    k.prefetch = options.float_prefetch.value_or(k.weights_from_view && g.kernel[0] * g.kernel[1] == 1);
    if (k.prefetch && !k.weights_from_view) return std::nullopt;
    // With prefetch the multiply-add loop takes 4 channels per iteration by default (1x1 on the H100 at 56 threads:
    // 204 -> 165 us; results/h100_2026-11-28_unroll); 1 where a chunk holds fewer channels (below).
    k.channel_unroll = options.float_channel_unroll ? options.float_channel_unroll : k.prefetch ? 4 : 1;
    k.channels_per_thread = options.float_channels ? options.float_channels : mpg % 8 == 0 ? 8 : 4;
    if (mpg % k.channels_per_thread != 0) return std::nullopt;
    k.columns_per_thread = options.float_columns ? options.float_columns : g.out_size[1] > 4 ? 8 : 4;
    if (k.kernel_h > kMaxTiledKernel || k.kernel_w > kMaxTiledKernel || k.kernel_w > k.columns_per_thread + 1)
        return std::nullopt;
    const uint64_t units = ceil_div(g.out_size[1], k.columns_per_thread);
    const uint64_t column_blocks = ceil_div(units, 16);
    k.column_units = uint32_t(ceil_div(units, column_blocks));
    // A row that CW does not divide: units of ceil(OW / units) columns each, computing no dead column (7x7: one
    // unit of 7 instead of 8 columns; 14x14: two of 7 instead of 16).
    if (column_blocks == 1 && g.out_size[1] % k.columns_per_thread != 0) {
        const uint64_t unit_columns = ceil_div(g.out_size[1], units);
        if (unit_columns < k.columns_per_thread && k.kernel_w <= unit_columns + 1)
            k.live_columns = uint32_t(unit_columns);
    }
    // About 256 threads per group (smaller groups measured slower on the H200: batch-32 256x14x14 3x3 8.1 -> 18
    // TOPS from 64 to 224 threads, 512x7x7 7.3 -> 12.8 -> 17.5 from 56 to 112 to 224), 512 when the reduction is a
    // single float run (no int32 accumulators: 256x56x56 1x1 12.4 -> 15.2 TOPS from 224 to 448 threads): 8
    // channel groups and as many rows as fit (evened out over the row blocks), then more channel groups (up to
    // 32) where the rows are few and short. With prefetch (and its loop unrolled) 64: on the H100 the 1x1 layer took
    // 165 us at 56 threads, 168 at 112 and 191 at 224 (results/h100_2026-11-28_unroll).
    const bool one_run = g.in_channels_per_group * g.kernel[0] * g.kernel[1] <= kMaxExactTaps;
    const uint64_t target = options.float_target_threads ? options.float_target_threads
                            : k.prefetch                 ? 64
                            : one_run                    ? 512
                                                         : 256;
    const uint64_t tiles = mpg / k.channels_per_thread;
    const auto largest_dividing = [&](uint64_t limit) {
        uint64_t c = 1;
        while (c * 2 <= limit && tiles % (c * 2) == 0) c *= 2;
        return uint32_t(c);
    };
    uint32_t cg = options.float_channel_groups ? options.float_channel_groups : largest_dividing(8);
    if (tiles % cg != 0) return std::nullopt;
    uint64_t rows = options.float_rows;
    if (!rows) {
        rows = std::clamp<uint64_t>(target / (uint64_t{k.column_units} * cg), 1, g.out_size[0]);
        rows = ceil_div(g.out_size[0], ceil_div(g.out_size[0], rows));
    }
    if (!options.float_channel_groups && uint64_t{k.column_units} * rows * cg < target / 2)
        cg = largest_dividing(std::min<uint64_t>(32, target / (uint64_t{k.column_units} * rows)));
    k.rows = uint32_t(rows);
    // Fewer channel groups while one input channel's patch and weights overflow groupshared memory.
    Result<FloatConvLayout> layout = invalid_input("no layout");
    for (;; cg /= 2) {
        k.channel_groups = cg;
        layout = float_conv_layout(k);
        if (layout.is_ok() || options.float_channel_groups || cg == 1) break;
    }
    if (!layout.is_ok()) return std::nullopt;
    f.layout = *layout;
    const uint64_t channel_blocks = g.out_channels / (uint64_t{cg} * k.channels_per_thread);
    const uint64_t row_blocks = ceil_div(g.out_size[0], rows);
    const uint64_t spatial_blocks = g.batch * row_blocks * column_blocks;
    if (spatial_blocks > kMaxGroups || channel_blocks > kMaxGroups) return std::nullopt;
    // Input-channel slices while the groups hold too few threads to fill the GPU; each slice keeps at least 2
    // chunks of channels.
    uint64_t splits = options.float_splits;
    if (!splits) {
        splits = 1;
        const uint64_t threads = spatial_blocks * channel_blocks * f.layout.threads;
        while (threads * splits < kTargetThreads && splits < 16 &&
               g.in_channels_per_group / (splits * 2) >= 2 * f.layout.chunk_channels)
            splits *= 2;
    }
    if (splits > 1 && k.live_columns && k.column_units > 1) {
        // Partial sums are stored in whole CW-column units: a split plan keeps its units CW apart.
        FloatConvKernelOptions whole_units = k;
        whole_units.live_columns = 0;
        Result<FloatConvLayout> whole_layout = float_conv_layout(whole_units);
        if (whole_layout.is_ok()) {
            k = whole_units;
            f.layout = *whole_layout;
        } else {
            splits = 1;
        }
    }
    const uint64_t padded_row = column_blocks * k.column_units * k.columns_per_thread;
    f.partial_elements = g.batch * g.out_channels * g.out_size[0] * padded_row;
    if (splits > 1 && f.partial_elements * splits * 4 > kPartialBytesLimit) splits = 1;
    const uint64_t slice = ceil_div(g.in_channels_per_group, splits);
    splits = ceil_div(g.in_channels_per_group, slice);  // no empty slices
    if (splits > kMaxSplits) return std::nullopt;
    // An unrolled step longer than a chunk would never run: refused when asked for, else not taken.
    if (k.channel_unroll > f.layout.chunk_channels) {
        if (options.float_channel_unroll) return std::nullopt;
        k.channel_unroll = 1;
    }
    k.split = splits > 1;
    // One float run per output: no int32 accumulators (64 fewer registers at MT = CW = 8).
    k.single_run = slice * f.layout.taps <= kMaxExactTaps;
    f.splits = uint32_t(splits);
    f.split_channels = uint32_t(slice);
    f.row_blocks = uint32_t(row_blocks);
    f.column_blocks = uint32_t(column_blocks);
    f.channel_blocks = uint32_t(channel_blocks);
    f.padded_row = uint32_t(padded_row);
    return f;
}

void append_float_dispatches(const FloatPlan& f, const ConvGeometry& g, std::vector<uint32_t> c,
                             std::shared_ptr<const std::vector<uint8_t>> conv_blob,
                             std::shared_ptr<const std::vector<uint8_t>> finalize_blob, bool has_input_zero_point,
                             DevicePlan& plan) {
    const auto input_binding = [](uint32_t slot) { return BufferBinding{BufferBinding::Source::kInput, slot, 0, 0}; };
    const BufferBinding scratch{BufferBinding::Source::kAuxiliary, 0, 0, 0};
    c[kSpatialBlocksPerImage] = f.row_blocks * f.column_blocks;
    c[kColumnBlocks] = f.column_blocks;
    c[kSplitChannels] = f.split_channels;
    c[kPartialH] = f.padded_row;
    c[kPartialM] = uint32_t(g.out_size[0] * f.padded_row);
    c[kPartialN] = uint32_t(g.out_channels * g.out_size[0] * f.padded_row);
    c[kPartialSplit] = uint32_t(f.partial_elements);
    KernelDispatch conv;
    conv.dxbc = std::move(conv_blob);
    conv.label = "quantized_linear_convolution/conv";
    conv.root_constants = c;
    conv.srvs = {input_binding(kInput), scratch};
    if (has_input_zero_point) conv.srvs.push_back(input_binding(kInputZeroPoint));
    if (f.kernel.weights_from_view) {
        BufferBinding texels = scratch;  // the whole scratch buffer: 16 * Mp + taps * Mp * 4 bytes, Mp % 4 == 0
        texels.typed_uint4 = true;
        conv.srvs.push_back(texels);
    }
    conv.group_count = {uint32_t(g.batch) * f.row_blocks * f.column_blocks, f.channel_blocks, f.splits};
    if (f.splits == 1) {
        conv.uavs = {BufferBinding{BufferBinding::Source::kOutput, 0, 0, 0}};
        plan.dispatches.push_back(std::move(conv));
        return;
    }
    const uint32_t partial_index = uint32_t(plan.auxiliary_buffers.size());
    plan.auxiliary_buffers.emplace_back(f.partial_elements * f.splits * 4);
    const BufferBinding partial{BufferBinding::Source::kAuxiliary, partial_index, 0, 0};
    conv.uavs = {partial};
    plan.dispatches.push_back(std::move(conv));

    const uint64_t quads = f.partial_elements / 4;
    const shaders::DispatchGrid grid = shaders::plan_dispatch(quads, kThreadsPerGroup);
    c[kThreadsPerRow] = grid.threads_per_row;
    c[kThreads] = uint32_t(quads);
    c[kSizeN] = uint32_t(g.batch);
    c[kChannelTiles] = uint32_t(g.out_channels);
    c[kOutH] = uint32_t(g.out_size[0]);
    c[kColumnGroups] = f.padded_row / 4;
    KernelDispatch finalize;
    finalize.dxbc = std::move(finalize_blob);
    finalize.label = "quantized_linear_convolution/finalize";
    finalize.root_constants = std::move(c);
    finalize.srvs = {partial, scratch};
    finalize.uavs = {BufferBinding{BufferBinding::Source::kOutput, 0, 0, 0}};
    finalize.group_count = {grid.groups_x, grid.groups_y, 1};
    plan.dispatches.push_back(std::move(finalize));
}

}  // namespace dmltool::ops::quantized_linear_convolution::internal
