// The host-side planner: view counts, kernel choice, root constants and bindings of the dispatches (prep, conv and,
// for the float kernel with split input channels, finalize; float_plan.cpp plans the float kernel).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;
namespace {

constexpr uint64_t kMaxTensorBytes = uint64_t{1} << 32;  // 32-bit byte addresses in the kernels

bool is_signed(DataType t) { return t == DataType::kInt8; }

// Stride (elements) that steps through the per-channel values of a filter scale / zero point / bias tensor;
// 0 for a per-tensor (single-element) tensor.
uint32_t channel_stride(const TensorDesc& t) {
    if (t.element_count() == 1) return 0;
    const Dims strides = t.effective_strides();
    return t.rank() == 1 ? strides[0] : strides[1];
}

}  // namespace

Result<DevicePlan> plan_quantized_linear_convolution(const QuantizedLinearConvolutionDesc& d,
                                                     const PlanOptions& requested) {
    const std::string op = "QUANTIZED_LINEAR_CONVOLUTION";
    PlanOptions options = requested;
    if (options.kernel == PlanOptions::Kernel::kTiled || options.kernel == PlanOptions::Kernel::kDirect)
        options.allow_float = false;
    if (options.kernel == PlanOptions::Kernel::kDirect) options.allow_tiled = false;
    if (options.kernel == PlanOptions::Kernel::kWinograd) options.allow_float = options.allow_tiled = false;
    const ConvGeometry g = conv_geometry(d);
    const uint64_t taps = g.in_channels_per_group * g.kernel[0] * g.kernel[1];
    // |x - xz| <= 255 and |w - wz| <= 255: the int32 accumulator is exact while taps * 255^2 fits (the bias is
    // added with a 33-bit-exact sum, so it does not count here).
    const uint64_t max_taps = uint64_t(std::numeric_limits<int32_t>::max()) / (255 * 255);
    if (taps > max_taps)
        return unsupported(op + ": (C/G)*KH*KW = " + std::to_string(taps) + " taps could overflow the GPU kernel's "
                           "int32 accumulator (at most " + std::to_string(max_taps) + " taps)");
    const uint64_t padded_channels = (g.out_channels + 3) & ~uint64_t(3);
    const uint64_t filter_region = kRecordBytes * padded_channels;
    // After the shifted filter: Mp int32 filter sums (the Winograd kernel's centring correction; unused otherwise).
    const uint64_t sum_region = filter_region + taps * padded_channels * 4;
    const uint64_t scratch_bytes = sum_region + padded_channels * 4;
    // The filter (read by the prep kernel) and the scratch buffer stay one view each: a 512 MiB filter is not a
    // realistic convolution, so their kernels keep plain single-view loads.
    const struct {
        const char* name;
        uint64_t bytes;
    } single_view[] = {{"FilterTensor", d.filter.total_size_in_bytes},
                       {"the shifted-filter scratch buffer", scratch_bytes}};
    for (const auto& s : single_view)
        if (s.bytes > kMaxViewBytes - 16)
            return unsupported(op + ": " + s.name + " takes " + std::to_string(s.bytes) +
                               " bytes; the GPU kernel binds it as one view of at most 512 MiB");
    // Input and output: as many views as their (16-byte padded) buffers need, up to 4 GiB.
    const uint32_t window_log2 = options.window_log2;
    if (window_log2 < 8 || window_log2 > shaders::kMaxViewBytesLog2)
        return invalid_input(op + ": window_log2 must be 8..29 (256 B .. 512 MiB views)");
    const auto view_count = [&](const TensorDesc& t, const char* name) -> Result<uint32_t> {
        if (t.total_size_in_bytes > kMaxTensorBytes - 16)
            return unsupported(op + ": " + name + " takes " + std::to_string(t.total_size_in_bytes) +
                               " bytes; the GPU kernel addresses at most 4 GiB per tensor (32-bit byte addresses)");
        const uint64_t padded = padded_buffer_size(t.total_size_in_bytes);
        return uint32_t((padded + (uint64_t{1} << window_log2) - 1) >> window_log2);
    };
    DMLTOOL_ASSIGN_OR_RETURN(const uint32_t input_views, view_count(d.input, "InputTensor"));
    DMLTOOL_ASSIGN_OR_RETURN(const uint32_t output_views, view_count(d.output, "OutputTensor"));
    // Single-view blobs do not depend on the window: keep one blob (and one cache entry) for them.
    const uint32_t kernel_window = input_views == 1 && output_views == 1 ? shaders::kMaxViewBytesLog2 : window_log2;

    const uint32_t mpg = uint32_t(g.out_channels_per_group);
    // Channels per thread: more amortize each input load over more multiply-adds, but leave fewer threads.
    // On the H200, 8 paid off where it still left >= ~40K threads (8x64x112x112 s2: -30%, 8x256x28x28 k1:
    // -12%) and lost where it left 25K (8x128x28x28: +20%).
    const uint64_t rows = g.batch * g.out_size[0] * ((g.out_size[1] + kOutputsPerThread - 1) / kOutputsPerThread);
    uint32_t mt = mpg % 4 == 0 ? 4 : mpg % 2 == 0 ? 2 : 1;
    if (mpg % 8 == 0 && rows * (g.out_channels / 8) >= options.wide_tile_min_threads) mt = 8;
    const bool packed_w = d.input.effective_strides().back() == 1 && g.stride[1] == 1;
    const bool tiled = options.allow_tiled && packed_w && g.dilation[1] == 1 && g.kernel[0] <= kMaxTiledKernel &&
                       g.kernel[1] <= kMaxTiledKernel;
    // Tiled: 8 columns x 8 channels per thread measured best on the H200 (8x64x56x56 k3: 9.5 -> 14.7 TOPS with
    // 8x8 vs 13.6 with 4x8 and 13.7 with 8x4; 8x128x28x28 k3: 7.2 -> 12.2 TOPS vs 9.9 and 10.0) although it leaves
    // only 14-25K threads: the groupshared filter makes weights cheap, so per-thread reuse of the input window
    // and of each weight wins. 4 columns when the output rows are that short.
    const uint32_t cw = !tiled                 ? kOutputsPerThread
                        : options.tiled_columns ? options.tiled_columns
                        : g.out_size[1] > 4     ? 8
                                                : 4;
    if (tiled && cw != 4 && cw != 8) return invalid_input(op + ": tiled_columns must be 0, 4 or 8");
    if (tiled && mpg % 8 == 0) mt = 8;

    PrepKernelOptions prep{.filter_signed = is_signed(d.filter.data_type),
                           .output_signed = is_signed(d.output.data_type),
                           .has_filter_zero_point = d.filter_zero_point.has_value(),
                           .has_bias = d.bias.has_value(),
                           .has_output_zero_point = d.output_zero_point.has_value()};
    ConvKernelOptions conv{.input_signed = is_signed(d.input.data_type),
                           .output_signed = prep.output_signed,
                           .has_input_zero_point = d.input_zero_point.has_value(),
                           .channels_per_thread = mt,
                           .packed_w = packed_w,
                           .kernel_w = g.kernel[1] <= kMaxUnrolledKernelW ? uint32_t(g.kernel[1]) : 0,
                           .input_views = input_views,
                           .output_views = output_views,
                           .window_log2 = kernel_window};
    // Blob keys: the view suffix is empty for the single-view kernels.
    const std::string views_key = input_views == 1 && output_views == 1
                                      ? std::string()
                                      : "v" + std::to_string(input_views) + "." + std::to_string(output_views) + "w" +
                                            std::to_string(kernel_window);
    const std::string prep_key = std::to_string(prep.filter_signed) + std::to_string(prep.output_signed) +
                                 std::to_string(prep.has_filter_zero_point) + std::to_string(prep.has_bias) +
                                 std::to_string(prep.has_output_zero_point);
    const std::string conv_key = std::to_string(conv.input_signed) + std::to_string(conv.output_signed) +
                                 std::to_string(conv.has_input_zero_point) + std::to_string(mt) +
                                 std::to_string(conv.packed_w) + "k" + std::to_string(conv.kernel_w) + views_key;
    const TiledConvKernelOptions tiled_conv{.input_signed = conv.input_signed,
                                            .output_signed = conv.output_signed,
                                            .has_input_zero_point = conv.has_input_zero_point,
                                            .channels_per_thread = mt,
                                            .columns_per_thread = cw,
                                            .kernel_h = uint32_t(g.kernel[0]),
                                            .kernel_w = uint32_t(g.kernel[1]),
                                            .input_views = input_views,
                                            .output_views = output_views,
                                            .window_log2 = kernel_window};
    const std::optional<FloatPlan> float_plan =
        choose_float_plan(d, g, input_views == 1 && output_views == 1, options);
    const std::optional<WinogradPlan> winograd_plan =
        choose_winograd_plan(d, g, input_views == 1 && output_views == 1, options);
    if (options.kernel == PlanOptions::Kernel::kWinograd && !winograd_plan)
        return unsupported(op + ": the Winograd conv kernel does not apply to this shape");
    if ((options.kernel == PlanOptions::Kernel::kFloat && !float_plan) ||
        (options.kernel == PlanOptions::Kernel::kTiled && !tiled))
        return unsupported(op + ": the " +
                           std::string(options.kernel == PlanOptions::Kernel::kFloat ? "float" : "tiled") +
                           " conv kernel does not apply to this shape");
    // The float kernel multiplies float weights: the prep kernel writes them so.
    prep.float_filter = float_plan.has_value() || winograd_plan.has_value();
    DMLTOOL_ASSIGN_OR_RETURN(auto prep_blob, cached_blob(prep, "prep" + prep_key + std::to_string(prep.float_filter),
                                                         build_prep_kernel));
    std::shared_ptr<const std::vector<uint8_t>> conv_blob, finalize_blob, winograd_weights_blob;
    if (winograd_plan) {
        const WinogradConvKernelOptions& w = winograd_plan->kernel;
        const std::string key = "winograd" + std::to_string(w.input_signed) + std::to_string(w.output_signed) +
                                std::to_string(w.has_input_zero_point) + "m" + std::to_string(w.channels_per_thread) +
                                "n" + std::to_string(w.tiles_per_thread) + "k" + std::to_string(w.channel_groups) +
                                "t" + std::to_string(w.tile_groups) + "s" + std::to_string(w.channels_per_step) +
                                "c" + std::to_string(w.max_chunk_channels);
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(w, key, build_winograd_conv_kernel));
        const auto build_weights = [](int) { return build_winograd_weights_kernel(); };
        DMLTOOL_ASSIGN_OR_RETURN(winograd_weights_blob, cached_blob(0, "winograd_weights", build_weights));
    } else if (float_plan) {
        const FloatConvKernelOptions& f = float_plan->kernel;
        const std::string key = "float" + std::to_string(f.input_signed) + std::to_string(f.output_signed) +
                                std::to_string(f.has_input_zero_point) + std::to_string(f.split) +
                                std::to_string(f.single_run) + std::to_string(f.weights_from_view) +
                                std::to_string(f.prefetch) + "m" +
                                std::to_string(f.channels_per_thread) + "c" + std::to_string(f.columns_per_thread) +
                                "u" + std::to_string(f.column_units) + "r" + std::to_string(f.rows) + "g" +
                                std::to_string(f.channel_groups) + "k" + std::to_string(f.kernel_h) + "x" +
                                std::to_string(f.kernel_w) + "l" + std::to_string(f.live_columns) + "n" +
                                std::to_string(f.channel_unroll);
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(f, key, build_float_conv_kernel));
        if (f.split) {
            const SplitFinalizeKernelOptions fin{.output_signed = f.output_signed, .splits = float_plan->splits};
            DMLTOOL_ASSIGN_OR_RETURN(finalize_blob,
                                     cached_blob(fin, "finalize" + std::to_string(fin.output_signed) + "s" +
                                                          std::to_string(fin.splits),
                                                 build_split_finalize_kernel));
        }
    } else if (tiled) {
        const std::string key = "tiled" + std::to_string(conv.input_signed) + std::to_string(conv.output_signed) +
                                std::to_string(conv.has_input_zero_point) + std::to_string(mt) + "c" +
                                std::to_string(cw) + "k" + std::to_string(g.kernel[0]) + "x" +
                                std::to_string(g.kernel[1]) + views_key;
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(tiled_conv, key, build_tiled_conv_kernel));
    } else {
        DMLTOOL_ASSIGN_OR_RETURN(conv_blob, cached_blob(conv, "conv" + conv_key, build_conv_kernel));
    }

    DevicePlan plan;
    plan.auxiliary_buffers.emplace_back(scratch_bytes);  // zero-filled: padded channels read as 0
    const auto input_binding = [](uint32_t slot) { return BufferBinding{BufferBinding::Source::kInput, slot, 0, 0}; };
    const BufferBinding scratch{BufferBinding::Source::kAuxiliary, 0, 0, 0};

    // ---- prep
    {
        const Dims fs = d.filter.effective_strides();
        const bool four_d = d.filter.rank() == 4;
        const uint64_t filter_count = d.filter.element_count();
        const uint64_t threads = std::max<uint64_t>(filter_count, g.out_channels);
        const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
        std::vector<uint32_t> c(kPConstantCount, 0);
        c[kPThreadsPerRow] = grid.threads_per_row;
        c[kPThreads] = uint32_t(threads);
        c[kPFilterCount] = uint32_t(filter_count);
        c[kPChannels] = uint32_t(g.out_channels);
        c[kPTaps] = uint32_t(taps);
        c[kPKernelArea] = uint32_t(g.kernel[0] * g.kernel[1]);
        c[kPKernelW] = uint32_t(g.kernel[1]);
        c[kPFilterStrideM] = fs[0];
        c[kPFilterStrideC] = fs[1];
        c[kPFilterStrideH] = four_d ? fs[2] : 0;
        c[kPFilterStrideW] = fs.back();
        c[kPScaleStride] = channel_stride(d.filter_scale);
        c[kPZeroPointStride] = d.filter_zero_point ? channel_stride(*d.filter_zero_point) : 0;
        c[kPBiasStride] = d.bias ? channel_stride(*d.bias) : 0;
        c[kPPaddedChannels] = uint32_t(padded_channels);
        c[kPFilterRegion] = uint32_t(filter_region);
        c[kPSumRegion] = winograd_plan ? uint32_t(sum_region) : 0;
        KernelDispatch k;
        k.dxbc = prep_blob;
        k.label = "quantized_linear_convolution/prep";
        k.root_constants = std::move(c);
        k.srvs = {input_binding(kFilter), input_binding(kInputScale), input_binding(kFilterScale),
                  input_binding(kOutputScale)};
        if (prep.has_filter_zero_point) k.srvs.push_back(input_binding(kFilterZeroPoint));
        if (prep.has_bias) k.srvs.push_back(input_binding(kBias));
        if (prep.has_output_zero_point) k.srvs.push_back(input_binding(kOutputZeroPoint));
        k.uavs = {scratch};
        k.group_count = {grid.groups_x, grid.groups_y, 1};
        plan.dispatches.push_back(std::move(k));
    }

    // ---- conv
    {
        const bool four_d = d.input.rank() == 4;
        const Dims is = d.input.effective_strides();
        const Dims os = d.output.effective_strides();
        const uint32_t in_h_stride = four_d ? is[2] : 0, out_h_stride = four_d ? os[2] : 0;
        const uint64_t column_groups = (g.out_size[1] + cw - 1) / cw;
        const uint64_t spatial_units = g.batch * g.out_size[0] * column_groups;
        // Tiled: whole groups of kThreadsPerGroup spatial units per channel tile.
        const uint64_t threads =
            tiled ? (spatial_units + kThreadsPerGroup - 1) / kThreadsPerGroup * kThreadsPerGroup * (g.out_channels / mt)
                  : spatial_units * (g.out_channels / mt);
        if (threads > std::numeric_limits<uint32_t>::max())
            return unsupported(op + ": too many output elements for 32-bit thread indices");
        const shaders::DispatchGrid grid = shaders::plan_dispatch(threads, kThreadsPerGroup);
        std::vector<uint32_t> c(kConvConstantCount, 0);
        c[kThreadsPerRow] = grid.threads_per_row;
        c[kThreads] = uint32_t(threads);
        c[kSizeN] = uint32_t(g.batch);
        c[kChannelTiles] = uint32_t(g.out_channels / mt);
        c[kOutH] = uint32_t(g.out_size[0]);
        c[kColumnGroups] = uint32_t(column_groups);
        c[kChannelsPerGroup] = mpg;
        c[kSumRegion] = uint32_t(sum_region);
        c[kInChannelsPerGroup] = uint32_t(g.in_channels_per_group);
        c[kKernelH] = uint32_t(g.kernel[0]);
        c[kKernelW] = uint32_t(g.kernel[1]);
        c[kInH] = uint32_t(g.in_size[0]);
        c[kInW] = uint32_t(g.in_size[1]);
        c[kOutW] = uint32_t(g.out_size[1]);
        c[kStrideH] = uint32_t(g.stride[0]);
        c[kStrideW] = uint32_t(g.stride[1]);
        c[kDilationH] = uint32_t(g.dilation[0]);
        c[kDilationW] = uint32_t(g.dilation[1]);
        c[kPadH] = uint32_t(g.start_pad[0]);
        c[kPadW] = uint32_t(g.start_pad[1]);
        c[kInStrideN] = is[0];
        c[kInStrideC] = is[1];
        c[kInStrideH] = in_h_stride;
        c[kInStrideW] = is.back();
        c[kOutStrideN] = os[0];
        c[kOutStrideM] = os[1];
        c[kOutStrideH] = out_h_stride;
        c[kOutStrideW] = os.back();
        c[kFilterRegion] = uint32_t(filter_region);
        c[kTapBytes] = uint32_t(padded_channels * 4);
        c[kInputLimit] = uint32_t(padded_buffer_size(d.input.total_size_in_bytes) - 4);
        c[kGroupInStride] = uint32_t(g.in_channels_per_group * is[1]);
        c[kRowStep] = uint32_t(g.dilation[0] * in_h_stride);
        c[kRowBytes] = uint32_t(g.kernel[1] * padded_channels * 4);
        c[kChannelBytes] = uint32_t(g.kernel[0] * g.kernel[1] * padded_channels * 4);
        if (winograd_plan) {
            append_winograd_dispatches(*winograd_plan, g, std::move(c), winograd_weights_blob, conv_blob,
                                       conv.has_input_zero_point, uint32_t(padded_channels), plan);
            return plan;
        }
        if (float_plan) {
            append_float_dispatches(*float_plan, g, std::move(c), conv_blob, finalize_blob,
                                    conv.has_input_zero_point, plan);
            return plan;
        }
        if (tiled) {
            const uint32_t chunk = tiled_chunk_channels(mt, uint32_t(g.kernel[0]), uint32_t(g.kernel[1]));
            c[kSpatialUnits] = uint32_t(spatial_units);
            c[kUnitsPerImage] = uint32_t(g.out_size[0] * column_groups);
            c[kChunkChannels] = uint32_t(std::min<uint64_t>(chunk, g.in_channels_per_group));
            c[kLoadStep] = uint32_t(kThreadsPerGroup / mt * padded_channels * 4);
            c[kChunkBytes] = uint32_t(uint64_t(chunk) * g.kernel[0] * g.kernel[1] * padded_channels * 4);
        }
        KernelDispatch k;
        k.dxbc = conv_blob;
        k.label = "quantized_linear_convolution/conv";
        if (!views_key.empty()) k.label += "/" + views_key;
        k.root_constants = std::move(c);
        // Window i of a tensor: bytes [i << window, (i + 1) << window); the last one reaches to the end of the
        // (padded) buffer, at most one window by construction.
        const auto windows = [&](BufferBinding::Source source, uint32_t slot, uint32_t views,
                                 std::vector<BufferBinding>& out) {
            for (uint32_t i = 0; i < views; ++i)
                out.push_back({source, slot, uint64_t{i} << window_log2,
                               i + 1 < views ? uint64_t{1} << window_log2 : 0});
        };
        windows(BufferBinding::Source::kInput, kInput, input_views, k.srvs);
        k.srvs.push_back(scratch);
        if (conv.has_input_zero_point) k.srvs.push_back(input_binding(kInputZeroPoint));
        windows(BufferBinding::Source::kOutput, 0, output_views, k.uavs);
        k.group_count = {grid.groups_x, grid.groups_y, 1};
        plan.dispatches.push_back(std::move(k));
    }
    return plan;
}

}  // namespace dmltool::ops::quantized_linear_convolution
