// The Winograd kernel's share of the planner: whether a shape takes it (only when asked for by name, as an
// autotuning variant) and its dispatches (the weight transform, then the conv kernel).
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution::internal {
namespace {

constexpr uint64_t kMaxGroups = 65535;  // per dispatch dimension
// 4 * the accumulator must stay inside int32: (C/G) * 9 * 255^2 * 4 < 2^31.
constexpr uint64_t kMaxChannels = uint64_t(std::numeric_limits<int32_t>::max()) / (9 * 255 * 255 * 4);

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

}  // namespace

std::optional<WinogradPlan> choose_winograd_plan(const QuantizedLinearConvolutionDesc& d, const ConvGeometry& g,
                                                 bool single_views, const PlanOptions& options) {
    if (options.kernel != PlanOptions::Kernel::kWinograd || !single_views || d.input.rank() != 4) return std::nullopt;
    if (g.kernel[0] != 3 || g.kernel[1] != 3 || g.stride[0] != 1 || g.stride[1] != 1 || g.dilation[0] != 1 ||
        g.dilation[1] != 1)
        return std::nullopt;
    if (d.input.effective_strides().back() != 1 || g.in_channels_per_group > kMaxChannels) return std::nullopt;
    WinogradPlan w;
    WinogradConvKernelOptions& k = w.kernel;
    k.input_signed = d.input.data_type == DataType::kInt8;
    k.output_signed = d.output.data_type == DataType::kInt8;
    k.has_input_zero_point = d.input_zero_point.has_value();
    k.channels_per_thread = options.winograd_channels;
    k.tiles_per_thread = options.winograd_tiles;
    k.channel_groups = options.winograd_channel_groups;
    k.tile_groups = options.winograd_tile_groups;
    k.channels_per_step = options.winograd_steps;
    k.max_chunk_channels = options.winograd_chunk;
    const Result<WinogradLayout> layout = winograd_layout(k);
    if (!layout.is_ok()) return std::nullopt;
    w.layout = *layout;
    if (g.out_channels_per_group % w.layout.block_channels != 0) return std::nullopt;
    w.unit_columns = ceil_div(g.out_size[1], 4);
    w.units_per_image = ceil_div(g.out_size[0], 2) * w.unit_columns;
    w.units = g.batch * w.units_per_image;
    const uint64_t unit_blocks = ceil_div(w.units, w.layout.block_units);
    const uint64_t channel_blocks = g.out_channels / w.layout.block_channels;
    if (unit_blocks > kMaxGroups || channel_blocks > kMaxGroups || w.units > std::numeric_limits<uint32_t>::max())
        return std::nullopt;
    w.unit_blocks = uint32_t(unit_blocks);
    w.channel_blocks = uint32_t(channel_blocks);
    return w;
}

void append_winograd_dispatches(const WinogradPlan& w, const ConvGeometry& g, std::vector<uint32_t> c,
                                std::shared_ptr<const std::vector<uint8_t>> weights_blob,
                                std::shared_ptr<const std::vector<uint8_t>> conv_blob, bool has_input_zero_point,
                                uint32_t padded_channels, DevicePlan& plan) {
    const auto input_binding = [](uint32_t slot) { return BufferBinding{BufferBinding::Source::kInput, slot, 0, 0}; };
    const BufferBinding scratch{BufferBinding::Source::kAuxiliary, 0, 0, 0};
    const uint32_t weights_index = uint32_t(plan.auxiliary_buffers.size());
    const uint64_t weight_floats = g.in_channels_per_group * 16 * uint64_t{padded_channels};
    plan.auxiliary_buffers.emplace_back(weight_floats * 4);
    const BufferBinding transformed{BufferBinding::Source::kAuxiliary, weights_index, 0, 0};

    const uint64_t threads = g.in_channels_per_group * uint64_t{padded_channels};
    const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
    c[kThreadsPerRow] = grid.threads_per_row;
    c[kThreads] = uint32_t(threads);
    c[kSpatialUnits] = uint32_t(w.units);
    c[kUnitsPerImage] = uint32_t(w.units_per_image);
    c[kColumnGroups] = uint32_t(w.unit_columns);
    KernelDispatch weights;
    weights.dxbc = std::move(weights_blob);
    weights.label = "quantized_linear_convolution/winograd_weights";
    weights.root_constants = c;
    weights.uavs = {transformed, scratch};
    weights.group_count = {grid.groups_x, grid.groups_y, 1};
    plan.dispatches.push_back(std::move(weights));

    KernelDispatch conv;
    conv.dxbc = std::move(conv_blob);
    conv.label = "quantized_linear_convolution/winograd";
    conv.root_constants = std::move(c);
    conv.srvs = {input_binding(kInput), scratch};
    if (has_input_zero_point) conv.srvs.push_back(input_binding(kInputZeroPoint));
    BufferBinding texels = transformed;
    texels.typed_uint4 = true;
    conv.srvs.push_back(texels);
    conv.uavs = {BufferBinding{BufferBinding::Source::kOutput, 0, 0, 0}};
    conv.group_count = {w.unit_blocks, w.channel_blocks, 1};
    plan.dispatches.push_back(std::move(conv));
}

}  // namespace dmltool::ops::quantized_linear_convolution::internal
