// Autotuning's search space for QUANTIZED_LINEAR_CONVOLUTION (kernel.h: plan_variants). The float kernel is bound
// by its operand loads (groupshared patch reads and weight texels: results/h100_2026-11-28_operand_probe) and by
// latency, and which geometry wins depends on the GPU and the shape, so the planner's fixed rules are one guess
// among the candidates below: channels x columns per thread, thread-group sizes from 64 to 1024 threads (which set
// the rows and channel groups), and 1 to 4 input-channel slices or the planner's own count, each with the weights
// staged in groupshared memory or fetched from a typed view (that also with prefetch, with and without 4 channels
// per multiply-add iteration). Candidates are named by the geometry they produce, so two option sets that land on
// the same kernel and grid are one variant. The integer kernels are candidates too.
#include <algorithm>
#include <charconv>
#include <set>
#include <span>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"

namespace dmltool::ops::quantized_linear_convolution {
using namespace internal;
namespace {

constexpr uint32_t kChannelChoices[] = {8, 4};
constexpr uint32_t kColumnChoices[] = {8, 4};
// 64-thread groups and 8 or 16 slices never came within 10% of the winner on the H100's ResNet-50 layers
// (results/h100_2026-11-26_tune/v2) and each variant costs a pipeline compilation when tuning: left out.
constexpr uint32_t kThreadTargets[] = {128, 256, 512, 1024};
constexpr uint32_t kSplitChoices[] = {0, 1, 2, 4};  // 0: the planner's own rule (up to 16 slices)
// Weights from a typed view (FloatConvKernelOptions::weights_from_view): a smaller set, so that tuning time grows
// by about half, not double.
constexpr uint32_t kViewThreadTargets[] = {128, 256, 512};
constexpr uint32_t kViewSplitChoices[] = {0, 1, 2};
constexpr std::string_view kViewSuffix = "/wview";
// The view kernel with the next chunk prefetched (FloatConvKernelOptions::prefetch), over the view's geometries.
constexpr std::string_view kPrefetchSuffix = "/pf";
// The prefetch kernels' thread-group sizes: 64 too, as with their channel loop unrolled the 1x1 layer ran fastest in
// the smallest groups (H100: 165 us at 64 threads, 168 at 128, 191 at 256; results/h100_2026-11-28_unroll).
constexpr uint32_t kPrefetchThreadTargets[] = {64, 128, 256};
// Channels per multiply-add iteration (FloatConvKernelOptions::channel_unroll; a "/u4" suffix after the others): the
// names take 2, 4 and 8, and the search tries 4 over the prefetch geometries, the unroll that won there on the H100
// (2 and 8 never won on a ResNet-50 layer, nor did unrolling without prefetch; results/h100_2026-11-28_unroll).
constexpr uint32_t kUnrollNames[] = {2, 4, 8};
constexpr uint32_t kUnrollSearched = 4;
constexpr std::string_view kUnrollSuffix = "/u";

// The Winograd kernel's geometries (MT, NT, KG, TG, most channels per chunk), each with 4 channels per step (on the
// H200, 4 beat 1 and 2 on every geometry: results/h200_2026-11-27_winograd). 256 to 512 threads and 32 or 64 channels
// per group. The first three won among 15 geometries on the H100 (MT 4 x NT 8 with many channel groups and few tile
// groups), each with the chunk that ran it fastest among 16, 24, 32, 40 and 56 (results/h100_2026-11-28_winograd:
// kg16/tg1 at 32 channels 234.5 us on 14x14, 212.2 on 56x56); the other three are three of the four that led on the
// H200 before.
constexpr uint32_t kWinogradGeometries[][5] = {{4, 8, 16, 1, 32}, {4, 8, 8, 2, 24}, {4, 8, 16, 2, 32},
                                               {8, 4, 4, 4, 16},  {8, 4, 8, 4, 16}, {4, 8, 8, 4, 16}};
constexpr uint32_t kWinogradStep = 4;
constexpr std::string_view kWinogradPrefix = "wino/";

std::string winograd_name(const uint32_t (&g)[5]) {
    return std::string(kWinogradPrefix) + "mt" + std::to_string(g[0]) + "/nt" + std::to_string(g[1]) + "/kg" +
           std::to_string(g[2]) + "/tg" + std::to_string(g[3]) + "/u" + std::to_string(kWinogradStep) + "/c" +
           std::to_string(g[4]);
}

PlanOptions winograd_options(const uint32_t (&g)[5]) {
    PlanOptions o;
    o.kernel = PlanOptions::Kernel::kWinograd;
    o.winograd_channels = g[0];
    o.winograd_tiles = g[1];
    o.winograd_channel_groups = g[2];
    o.winograd_tile_groups = g[3];
    o.winograd_steps = kWinogradStep;
    o.winograd_chunk = g[4];
    return o;
}

// The float kernel binds InputTensor and OutputTensor as one view each (as plan.cpp counts views at the real
// 512 MiB window).
bool single_views(const QuantizedLinearConvolutionDesc& d) {
    return padded_buffer_size(d.input.total_size_in_bytes) <= kMaxViewBytes &&
           padded_buffer_size(d.output.total_size_in_bytes) <= kMaxViewBytes;
}

std::string float_name(const FloatPlan& f) {
    const FloatConvKernelOptions& k = f.kernel;
    return "float/mt" + std::to_string(k.channels_per_thread) + "/cw" + std::to_string(k.columns_per_thread) + "/tr" +
           std::to_string(k.rows) + "/cg" + std::to_string(k.channel_groups) + "/s" + std::to_string(f.splits) +
           std::string(k.weights_from_view ? kViewSuffix : "") + std::string(k.prefetch ? kPrefetchSuffix : "") +
           (k.channel_unroll > 1 ? std::string(kUnrollSuffix) + std::to_string(k.channel_unroll) : "");
}

// "float/mt8/cw8/tr4/cg8/s2" -> the float options that reproduce it; nullopt when the name is not of that form.
std::optional<PlanOptions> parse_float_name(std::string_view name) {
    constexpr std::string_view prefix = "float/";
    if (name.substr(0, prefix.size()) != prefix) return std::nullopt;
    name.remove_prefix(prefix.size());
    PlanOptions o;
    o.kernel = PlanOptions::Kernel::kFloat;
    const auto strip_suffix = [&name](std::string_view suffix) {
        const bool found = name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
        if (found) name.remove_suffix(suffix.size());
        return found;
    };
    o.float_channel_unroll = 1;  // no suffix: one channel per iteration, not the planner's default
    for (uint32_t unroll : kUnrollNames)
        if (strip_suffix(std::string(kUnrollSuffix) + std::to_string(unroll))) o.float_channel_unroll = unroll;
    o.float_prefetch = strip_suffix(kPrefetchSuffix);
    o.float_weights_from_view = strip_suffix(kViewSuffix);
    const std::pair<std::string_view, uint32_t*> fields[] = {{"mt", &o.float_channels},
                                                             {"cw", &o.float_columns},
                                                             {"tr", &o.float_rows},
                                                             {"cg", &o.float_channel_groups},
                                                             {"s", &o.float_splits}};
    for (size_t i = 0; i < std::size(fields); ++i) {
        const auto& [key, target] = fields[i];
        const size_t end = name.find('/');
        std::string_view part = name.substr(0, end);
        if ((end == std::string_view::npos) != (i + 1 == std::size(fields))) return std::nullopt;
        if (part.substr(0, key.size()) != key) return std::nullopt;
        part.remove_prefix(key.size());
        const auto [rest, error] = std::from_chars(part.data(), part.data() + part.size(), *target);
        if (error != std::errc() || rest != part.data() + part.size() || *target == 0 || *target > 1024)
            return std::nullopt;
        name.remove_prefix(end == std::string_view::npos ? name.size() : end + 1);
    }
    return o;
}

Result<DevicePlan> unknown_variant(std::string_view name) {
    return unsupported("QUANTIZED_LINEAR_CONVOLUTION: no plan variant '" + std::string(name) + "' for this desc");
}

}  // namespace

std::vector<std::string> plan_variants(const QuantizedLinearConvolutionDesc& d) {
    std::vector<std::string> names;
    std::set<std::string> seen;
    const auto add = [&](std::string name) {
        if (seen.insert(name).second) names.push_back(std::move(name));
    };
    const ConvGeometry g = conv_geometry(d);
    const bool single = single_views(d);
    const auto add_float = [&](std::span<const uint32_t> thread_targets, std::span<const uint32_t> split_choices,
                               bool weights_from_view, bool prefetch, uint32_t unroll) {
        for (uint32_t mt : kChannelChoices)
            for (uint32_t cw : kColumnChoices)
                for (uint32_t threads : thread_targets)
                    for (uint32_t splits : split_choices) {
                        PlanOptions o;
                        o.float_channels = mt;
                        o.float_columns = cw;
                        o.float_target_threads = threads;
                        o.float_splits = splits;
                        o.float_weights_from_view = weights_from_view;
                        o.float_prefetch = prefetch;
                        o.float_channel_unroll = unroll;
                        if (const std::optional<FloatPlan> f = choose_float_plan(d, g, single, o))
                            add(float_name(*f));
                    }
    };
    add_float(kThreadTargets, kSplitChoices, false, false, 1);
    add_float(kViewThreadTargets, kViewSplitChoices, true, false, 1);
    for (uint32_t unroll : {1u, kUnrollSearched})
        add_float(kPrefetchThreadTargets, kViewSplitChoices, true, true, unroll);
    // The integer kernels: the tiled one at both column widths where it applies, and the direct one.
    for (uint32_t cw : {8u, 4u}) {
        PlanOptions o;
        o.kernel = PlanOptions::Kernel::kTiled;
        o.tiled_columns = cw;
        if (plan_quantized_linear_convolution(d, o).is_ok()) add("int-tiled/cw" + std::to_string(cw));
    }
    PlanOptions direct;
    direct.kernel = PlanOptions::Kernel::kDirect;
    if (plan_quantized_linear_convolution(d, direct).is_ok()) add("int-direct");
    for (const auto& geometry : kWinogradGeometries)
        if (choose_winograd_plan(d, g, single, winograd_options(geometry))) add(winograd_name(geometry));
    return names;
}

Result<DevicePlan> plan_variant(const QuantizedLinearConvolutionDesc& d, std::string_view name) {
    if (name == "int-direct") {
        PlanOptions o;
        o.kernel = PlanOptions::Kernel::kDirect;
        return plan_quantized_linear_convolution(d, o);
    }
    if (name == "int-tiled/cw4" || name == "int-tiled/cw8") {
        PlanOptions o;
        o.kernel = PlanOptions::Kernel::kTiled;
        o.tiled_columns = name.back() == '4' ? 4 : 8;
        return plan_quantized_linear_convolution(d, o);
    }
    for (const auto& geometry : kWinogradGeometries)
        if (name == winograd_name(geometry)) return plan_quantized_linear_convolution(d, winograd_options(geometry));
    const std::optional<PlanOptions> o = parse_float_name(name);
    if (!o) return unknown_variant(name);
    // The planner may adjust explicit options (fewer slices when the partial buffer would be too large): the plan
    // is this variant only when it lands on exactly the named geometry.
    const std::optional<FloatPlan> f = choose_float_plan(d, conv_geometry(d), single_views(d), *o);
    if (!f || float_name(*f) != name) return unknown_variant(name);
    return plan_quantized_linear_convolution(d, *o);
}

Result<DevicePlan> plan_default(const QuantizedLinearConvolutionDesc& d) {
    const PlanOptions winograd = winograd_options(kWinogradGeometries[0]);
    if (choose_winograd_plan(d, conv_geometry(d), single_views(d), winograd))
        return plan_quantized_linear_convolution(d, winograd);
    return plan_quantized_linear_convolution(d);
}

}  // namespace dmltool::ops::quantized_linear_convolution
