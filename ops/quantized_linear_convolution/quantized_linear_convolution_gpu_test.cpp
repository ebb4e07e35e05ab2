// QUANTIZED_LINEAR_CONVOLUTION on the GPU backend (lavapipe in CI) against the CPU reference: every
// input/filter/output type combination, 3-D and 4-D, optional zero points and bias, per-tensor and per-channel
// filter quantization, groups (depthwise too), strides, dilations, asymmetric padding, padded / permuted /
// broadcast inputs, strided filters, padded / permuted outputs, both input paths (packed W, general) and every
// channel tile (1, 2, 4); exactness of the requantization (mismatch count, not just the +-1 contract), edge
// multipliers (>= 1, tiny, negative, power-of-two ties), biases near the int32 limits; the refusal of shapes
// whose accumulator could overflow; the float kernel (its geometries and split slices, and exactness at the
// boundaries of its float runs with maximal products); and every blob the generators produce through
// vkd3d-compiler + spirv-val. Tests aimed at the integer tiled kernel turn the float kernel off. The Winograd kernel's
// tests are in winograd_gpu_test.cpp; the case helpers both use in conv_case_testing.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/conv_case_testing.h"
#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/quantized_linear_convolution/kernel_internal.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

using dmltool::testing::DifferentialCase;
using dmltool::testing::random_tensor;
using dmltool::testing::run_differential;
using nlohmann::json;
using testing::tensor_json;

using namespace conv_testing;

TEST(QuantizedLinearConvolutionGpu, RandomCasesEveryTypeAndRank) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 100;
    for (uint32_t rank : {3u, 4u}) {
        for (DataType in : kTypes) {
            for (DataType filter : kTypes) {
                for (DataType out : kTypes) {
                    for (int variant = 0; variant < 4; ++variant, ++seed) {
                        std::mt19937 rng{uint32_t(seed)};
                        const ConvCase c = random_case(rank, in, filter, out, rng);
                        const std::string name = "qlconv_gpu/random/rank" + std::to_string(rank) + "/" + type_tag(c) +
                                                 "/" + layout_name(c.input_layout) + "_" +
                                                 layout_name(c.output_layout) + "/" + std::to_string(seed);
                        const auto result = run_differential(qlc_op(), to_differential(c, name, seed));
                        EXPECT_TRUE(result.passed) << result.message;
                    }
                }
            }
        }
    }
}

// A convolution geometry with its input and output layouts, for the table-driven tests below.
struct Shape {
    Dims input, filter;
    uint32_t groups;
    Dims strides, dilations, start_pad, end_pad;
    Layout in, out;
};

// Shapes that pick each kernel variant: channel tiles 4/2/1, packed-W and general input path, output words
// owned (OW % 4 == 0, packed) or partly atomic (odd OW, padded/permuted outputs).
TEST(QuantizedLinearConvolutionGpu, KernelPaths) {
    SKIP_WITHOUT_GPU();
    const Shape shapes[] = {
        {{1, 8, 9, 16}, {8, 8, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked},    // MT 4, owned
        {{2, 6, 7, 13}, {6, 3, 3, 2}, 2, {1, 1}, {1, 2}, {0, 2}, {1, 0}, Layout::kPacked, Layout::kPacked},    // MT 3->1? (3 per group)
        {{1, 4, 6, 11}, {4, 2, 2, 3}, 2, {2, 1}, {1, 1}, {1, 1}, {0, 1}, Layout::kPacked, Layout::kPadded},    // MT 2
        {{1, 5, 8, 8}, {5, 1, 3, 3}, 5, {1, 2}, {1, 1}, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked},     // depthwise, stride 2 W: general
        {{2, 4, 5, 10}, {8, 4, 3, 3}, 1, {1, 1}, {2, 2}, {2, 2}, {2, 2}, Layout::kPermuted, Layout::kPermuted},
        {{1, 3, 40}, {4, 3, 5}, 1, {1}, {1}, {2}, {2}, Layout::kPacked, Layout::kPacked},                      // 3-D
        {{3, 2, 17}, {6, 1, 3}, 2, {3}, {2}, {1}, {0}, Layout::kPadded, Layout::kPadded},
    };
    uint64_t seed = 3000;
    for (size_t s = 0; s < std::size(shapes); ++s) {
        for (DataType type : kTypes) {
            ++seed;
            const Shape& sh = shapes[s];
            ConvCase c;
            c.input_type = type;
            c.filter_type = type == DataType::kInt8 ? DataType::kUint8 : DataType::kInt8;
            c.output_type = type;
            c.input_sizes = sh.input;
            c.filter_sizes = sh.filter;
            c.groups = sh.groups;
            c.strides = sh.strides;
            c.dilations = sh.dilations;
            c.start_pad = sh.start_pad;
            c.end_pad = sh.end_pad;
            c.input_layout = sh.in;
            c.output_layout = sh.out;
            c.per_channel_scale = c.per_channel_zp = s % 2 == 0;
            balance_output_scale(c);
            const std::string name = "qlconv_gpu/paths/" + std::to_string(s) + "/" + type_tag(c);
            const auto result = run_differential(qlc_op(), to_differential(c, name, seed));
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}


TEST(QuantizedLinearConvolutionGpu, EightChannelTiles) {
    SKIP_WITHOUT_GPU();
    for (bool tiled : {true, false}) {
    const auto op = planned_op({.wide_tile_min_threads = 0, .allow_tiled = tiled, .allow_float = false});
    uint64_t seed = 4000;
    for (uint32_t rank : {3u, 4u}) {
        for (DataType type : kTypes) {
            for (int variant = 0; variant < 3; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                ConvCase c = random_case(rank, type, DataType::kInt8, type, rng);
                // 8 or 16 output channels per group; depthwise with a channel multiplier of 8 included.
                const uint32_t mpg = 8 * (1 + rng() % 2);
                c.filter_sizes[0] = mpg * c.groups;
                const std::string name = "qlconv_gpu/wide/rank" + std::to_string(rank) + "/" + type_tag(c) + "/" +
                                         layout_name(c.input_layout) + "_" + layout_name(c.output_layout) + "/" +
                                         std::to_string(seed) + (tiled ? "/tiled" : "/untiled");
                const auto result = run_differential(op, to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
    }
}

// The same random cases as RandomCasesEveryTypeAndRank with the tiled kernel off: build_conv_kernel keeps its
// packed-W coverage now that the planner sends those shapes to the tiled kernel.
TEST(QuantizedLinearConvolutionGpu, UntiledKernelRandomCases) {
    SKIP_WITHOUT_GPU();
    const auto op = planned_op({.allow_tiled = false});
    uint64_t seed = 100;
    for (uint32_t rank : {3u, 4u}) {
        for (DataType in : kTypes) {
            for (int variant = 0; variant < 4; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                const ConvCase c = random_case(rank, in, DataType::kInt8, in, rng);
                const std::string name = "qlconv_gpu/untiled/rank" + std::to_string(rank) + "/" + type_tag(c) + "/" +
                                         layout_name(c.input_layout) + "_" + layout_name(c.output_layout) + "/" +
                                         std::to_string(seed);
                const auto result = run_differential(op, to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// The tiled kernel where its structure shows: several groupshared filter chunks (C/G above 4096 / (MT*KH*KW)
// words), the last chunk partial, a last thread group with idle threads, 4 and 8 columns per thread, every MT,
// KH/KW from 1 to 7 (unrolled), padding rows and columns on every side, unaligned input rows (padded layout,
// odd widths) and rows shorter than a thread's window. (Exactness of the tiled kernel's requantization: the
// Exact* and EdgeMultipliers tests, whose shapes the default planner sends to it.)
TEST(QuantizedLinearConvolutionGpu, TiledKernelChunksAndWindows) {
    SKIP_WITHOUT_GPU();
    struct TiledShape {  // stride and dilation 1: what the tiled kernel takes
        Dims input, filter;
        uint32_t groups;
        Dims start_pad, end_pad;
        Layout in, out;
    };
    const TiledShape shapes[] = {
        {{1, 70, 5, 11}, {8, 70, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked},     // MT 8: 2 chunks (56 + 14)
        {{2, 120, 3, 9}, {16, 120, 3, 3}, 1, {1, 0}, {0, 2}, Layout::kPadded, Layout::kPacked},   // 3 chunks, unaligned rows
        {{1, 600, 2, 6}, {8, 600, 1, 1}, 1, {0, 0}, {0, 0}, Layout::kPacked, Layout::kPadded},    // 1x1: 512 + 88
        {{1, 40, 9, 13}, {16, 20, 7, 7}, 2, {3, 3}, {3, 3}, Layout::kPadded, Layout::kPacked},    // 7x7, MT 8: 2 chunks of 10
        {{1, 12, 4, 3}, {4, 12, 2, 5}, 1, {0, 2}, {1, 2}, Layout::kPacked, Layout::kPermuted},     // OW 3 < window, MT 4
        {{3, 6, 6, 17}, {6, 3, 3, 2}, 2, {2, 0}, {0, 1}, Layout::kBroadcast, Layout::kPacked},    // MT 1 (3 per group)
        {{1, 4, 7, 10}, {4, 2, 4, 1}, 2, {1, 0}, {2, 0}, Layout::kPadded, Layout::kPadded},       // MT 2, KW 1
        {{1, 2, 1, 40}, {8, 2, 1, 6}, 1, {0, 5}, {0, 5}, Layout::kPacked, Layout::kPacked},       // one row, wide pads
    };
    uint64_t seed = 5000;
    for (size_t s = 0; s < std::size(shapes); ++s) {
        for (uint32_t columns : {4u, 8u}) {
            const auto op = planned_op({.tiled_columns = columns, .allow_float = false});
            for (DataType type : kTypes) {
                ++seed;
                const TiledShape& sh = shapes[s];
                ConvCase c;
                c.input_type = type;
                c.filter_type = seed % 2 ? DataType::kInt8 : DataType::kUint8;
                c.output_type = seed % 3 ? DataType::kUint8 : DataType::kInt8;
                c.input_sizes = sh.input;
                c.filter_sizes = sh.filter;
                c.groups = sh.groups;
                c.strides = {1, 1};
                c.dilations = {1 + uint32_t(s % 2), 1};  // H dilation is free; W dilation 1 (tiled condition)
                c.start_pad = sh.start_pad;
                c.end_pad = sh.end_pad;
                c.input_layout = sh.in;
                c.output_layout = sh.out;
                c.input_zp = seed % 4 != 0;
                c.per_channel_scale = c.per_channel_zp = s % 2 == 0;
                if (c.dilations[0] == 2 && (sh.filter[2] - 1) * 2 + 1 > sh.input[2] + sh.start_pad[0] + sh.end_pad[0])
                    c.dilations[0] = 1;
                balance_output_scale(c);
                const std::string name = "qlconv_gpu/tiled/" + std::to_string(s) + "/cw" + std::to_string(columns) +
                                         "/" + type_tag(c);
                const DifferentialCase d = to_differential(c, name, seed);
                auto parsed = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
                ASSERT_TRUE(parsed.is_ok()) << name << ": " << parsed.status().message();
                const auto result = run_differential(op, d);
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}


// Random scales: the requantization must agree exactly (the +-1 contract would hide a biased multiplier).
TEST(QuantizedLinearConvolutionGpu, ExactOnRandomScales) {
    SKIP_WITHOUT_GPU();
    uint64_t elements = 0, mismatches = 0;
    for (uint64_t seed = 7000; seed < 7006; ++seed) {
        ConvCase c;
        c.input_type = seed % 2 ? DataType::kInt8 : DataType::kUint8;
        c.filter_type = DataType::kInt8;
        c.output_type = seed % 3 ? DataType::kUint8 : DataType::kInt8;
        c.input_sizes = {1, 8, 20, 24};
        c.filter_sizes = {16, 8, 3, 3};
        c.strides = {1, 1};
        c.dilations = {1, 1};
        c.start_pad = {1, 1};
        c.end_pad = {1, 1};
        c.per_channel_scale = true;
        c.per_channel_zp = seed % 2 == 0;
        // A narrow output scale range keeps most outputs unclamped, where rounding decides.
        c.scale_lo = 0.001;
        c.scale_hi = 0.03;
        balance_output_scale(c);
        c.output_scale[0] *= 1.0 + double(seed % 5) * 0.37;
        const ExactCount n = count_exact_mismatches(to_differential(c, "qlconv_gpu/exact", seed));
        ASSERT_TRUE(n.error.empty()) << n.error;
        elements += n.elements;
        mismatches += n.mismatches;
    }
    std::printf("[exactness] %llu of %llu outputs differ from the reference\n", (unsigned long long)mismatches,
                (unsigned long long)elements);
    EXPECT_EQ(mismatches, 0u);
}

// Multipliers that exercise every requantization branch. Power-of-two scales produce exact ties (acc * M =
// k + 1/2), which must round half to even exactly like the reference.
TEST(QuantizedLinearConvolutionGpu, EdgeMultipliers) {
    SKIP_WITHOUT_GPU();
    struct Scales {
        const char* name;
        std::vector<double> xs, ws, ys;
        double range;  // |x|, |w| <= range: |acc| <= 12 * range^2 (+ bias)
    };
    const Scales cases[] = {
        {"ties_half", {0.5}, {1.0}, {1.0}, 6},                       // M = 1/2: many exact ties
        {"ties_quarter", {0.25}, {0.5}, {0.0625}, 4},                // M = 2
        {"ties_eighth", {0.125}, {0.0625}, {0.0078125}, 4},          // M = 1
        {"ties_sixteenth", {0.25}, {0.25}, {1.0}, 12},               // M = 1/16
        {"pow2_small", {1.0 / 64}, {1.0 / 32}, {1.0}, 127},          // M = 2^-11
        {"big_multiplier", {3.0}, {5.0}, {0.001}, 2},                // M ~ 15000: almost everything saturates
        {"above_one", {0.75}, {0.8}, {0.5}, 4},                      // M = 1.2
        {"above_one_odd", {0.7}, {0.9}, {0.3}, 4},                   // M = 2.1 (not a binary fraction)
        {"huge", {1e20}, {1e15}, {1e-10}, 3},                        // s < 1: saturate
        {"tiny", {1e-20}, {1e-15}, {1e10}, 127},                     // s > 64: zero
        {"near_2pow-32", {1.0 / 65536}, {1.0 / 65536}, {1.0}, 127},  // M = 2^-32
        {"bias_scale", {1.0 / 4096}, {1.0 / 16384}, {1.0}, 127},     // M = 2^-26: a +-2^31 bias lands in range
        {"negative", {-0.02}, {0.03}, {0.004}, 30},                  // negative multiplier
        {"negative_out", {0.02}, {0.03}, {-0.004}, 30},
        {"negative_ties", {-0.5}, {1.0}, {1.0}, 6},
        {"subnormal", {1e-40}, {3e-3}, {1e-41}, 5},                  // subnormal mantissas
        {"odd_ys", {0.1}, {0.3}, {0.7}, 8},
    };
    uint64_t seed = 8000;
    for (const Scales& s : cases) {
        for (bool bias_extreme : {false, true}) {
            ++seed;
            ConvCase c;
            c.input_type = DataType::kInt8;
            c.filter_type = DataType::kInt8;
            c.output_type = seed % 2 ? DataType::kInt8 : DataType::kUint8;
            c.input_sizes = {1, 3, 6, 9};
            c.filter_sizes = {4, 3, 2, 2};
            c.strides = {1, 1};
            c.dilations = {1, 1};
            c.start_pad = {0, 1};
            c.end_pad = {1, 0};
            c.input_scale = s.xs;
            c.filter_scale = s.ws;
            c.output_scale = s.ys;
            c.input_zp = c.filter_zp = false;
            c.x_lo = c.w_lo = -s.range;
            c.x_hi = c.w_hi = s.range;
            c.bias_lo = -3 * s.range;
            c.bias_hi = 3 * s.range;
            c.bias = true;
            if (bias_extreme) c.bias_values = {2147483647.0, -2147483648.0, 2147480000.0, -2147480000.0};
            const DifferentialCase d = to_differential(c, std::string("qlconv_gpu/edge/") + s.name, seed);
            const ExactCount n = count_exact_mismatches(d);
            ASSERT_TRUE(n.error.empty()) << s.name << ": " << n.error;
            if (std::getenv("QLC_DEBUG"))
                std::printf("  %s%s: %llu of %llu unclamped\n", s.name, bias_extreme ? " (extreme bias)" : "",
                            (unsigned long long)n.unclamped, (unsigned long long)n.elements);
            EXPECT_EQ(n.mismatches, 0u) << s.name << (bias_extreme ? " (extreme bias)" : "") << ": " << n.mismatches
                                        << " of " << n.elements << " outputs differ";
        }
    }
}

// Small accumulators and power-of-two multipliers: many exact ties.
TEST(QuantizedLinearConvolutionGpu, ExactTiesRoundHalfToEven) {
    SKIP_WITHOUT_GPU();
    for (uint64_t seed = 9000; seed < 9004; ++seed) {
        ConvCase c;
        c.input_type = DataType::kInt8;
        c.filter_type = DataType::kInt8;
        c.output_type = DataType::kInt8;
        c.input_sizes = {1, 1, 5, 7};
        c.filter_sizes = {4, 1, 1, 2};
        c.strides = {1, 1};
        c.dilations = {1, 1};
        c.start_pad = {0, 0};
        c.end_pad = {0, 0};
        c.input_zp = c.filter_zp = c.output_zp = false;
        c.bias = false;
        c.x_lo = c.w_lo = -40;
        c.x_hi = c.w_hi = 40;
        c.input_scale = {1.0};
        c.filter_scale = {1.0};
        c.output_scale = {double(uint64_t{1} << (7 + seed % 4))};  // M = 2^-7 .. 2^-10
        const ExactCount n = count_exact_mismatches(to_differential(c, "qlconv_gpu/ties", seed));
        ASSERT_TRUE(n.error.empty()) << n.error;
        EXPECT_EQ(n.mismatches, 0u);
    }
}

TEST(QuantizedLinearConvolutionGpu, RefusesAccumulatorOverflowShapes) {
    // 33026 taps * 255^2 > INT32_MAX.
    const json desc = {
        {"InputTensor", tensor_json(DataType::kUint8, {1, 33026, 1, 1})},
        {"InputScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
        {"FilterTensor", tensor_json(DataType::kUint8, {1, 33026, 1, 1})},
        {"FilterScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
        {"OutputScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
        {"OutputTensor", tensor_json(DataType::kUint8, {1, 1, 1, 1})},
        {"Strides", {1, 1}}, {"Dilations", {1, 1}}, {"StartPadding", {0, 0}}, {"EndPadding", {0, 0}},
        {"GroupCount", 1}};
    auto parsed = dmltool::testing::parse_desc(qlc_op(), desc.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    auto plan = qlc_op().plan_device(**parsed, {});
    ASSERT_FALSE(plan.is_ok());
    EXPECT_EQ(plan.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(plan.status().message().find("int32 accumulator"), std::string::npos) << plan.status().message();
    // One tap fewer is accepted.
    json ok = desc;
    ok["InputTensor"]["Sizes"] = Dims{1, 33025, 1, 1};
    ok["FilterTensor"]["Sizes"] = Dims{1, 33025, 1, 1};
    auto parsed_ok = dmltool::testing::parse_desc(qlc_op(), ok.dump());
    ASSERT_TRUE(parsed_ok.is_ok()) << parsed_ok.status().message();
    EXPECT_TRUE(qlc_op().plan_device(**parsed_ok, {}).is_ok());
}

// The conv dispatch's label and view bindings for a desc planned with `options` (no GPU needed).
struct ViewPlan {
    std::string label;
    size_t input_views = 0, output_views = 0;  // SRVs / UAVs bound to InputTensor / OutputTensor
    std::vector<BufferBinding> input_bindings, output_bindings;
};
Result<ViewPlan> plan_views(const std::string& desc_json, const PlanOptions& options = {}) {
    auto parsed = dmltool::testing::parse_desc(qlc_op(), desc_json);
    if (!parsed.is_ok()) return parsed.status();
    DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, plan_quantized_linear_convolution(
                                                  static_cast<const QuantizedLinearConvolutionDesc&>(**parsed), options));
    // The conv dispatch: after prep, and before the finalize dispatch of a float plan with split channels.
    const KernelDispatch& conv = plan.dispatches.at(1);
    if (conv.label.rfind("quantized_linear_convolution/conv", 0) != 0)
        return internal_error("plan_views: dispatch 1 is " + conv.label + ", not the conv kernel");
    ViewPlan v;
    v.label = conv.label;
    for (const BufferBinding& b : conv.srvs)
        if (b.source == BufferBinding::Source::kInput && b.index == 0) v.input_bindings.push_back(b);
    for (const BufferBinding& b : conv.uavs)
        if (b.source == BufferBinding::Source::kOutput) v.output_bindings.push_back(b);
    v.input_views = v.input_bindings.size();
    v.output_views = v.output_bindings.size();
    return v;
}

// Windows of 512 bytes (and 256 / 4 KiB): tensors of a few KiB span several views, as tensors over 512 MiB do
// with the real 512 MiB windows, so the multi-view kernels (view picked per access from the byte address) run on
// lavapipe without large allocations. Both conv kernels, both input paths of the untiled one, owned-word and
// atomic output stores, rows straddling window boundaries (odd widths, padded layouts), broadcast inputs.
TEST(QuantizedLinearConvolutionGpu, MultiViewKernels) {
    SKIP_WITHOUT_GPU();
    const Shape shapes[] = {
        {{2, 8, 9, 30}, {8, 8, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked},
        {{1, 6, 13, 23}, {6, 3, 3, 2}, 2, {1, 1}, {1, 2}, {0, 2}, {1, 0}, Layout::kPadded, Layout::kPadded},
        {{1, 5, 16, 16}, {5, 1, 3, 3}, 5, {1, 2}, {1, 1}, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked},   // general path
        {{2, 4, 10, 12}, {8, 4, 3, 3}, 1, {1, 1}, {2, 2}, {2, 2}, {2, 2}, Layout::kPermuted, Layout::kPermuted},
        {{3, 4, 11, 17}, {4, 2, 3, 2}, 2, {2, 1}, {1, 1}, {2, 0}, {0, 1}, Layout::kBroadcast, Layout::kPacked},
        {{2, 3, 400}, {4, 3, 5}, 1, {1}, {1}, {2}, {2}, Layout::kPacked, Layout::kPacked},                       // 3-D
        {{1, 70, 5, 11}, {8, 70, 3, 3}, 1, {1, 1}, {1, 1}, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPadded},    // 2 chunks
        {{1, 16, 9, 13}, {16, 8, 7, 7}, 2, {1, 1}, {1, 1}, {3, 3}, {3, 3}, Layout::kPadded, Layout::kPacked},    // 7x7
    };
    struct Variant {
        const char* name;
        PlanOptions options;
    };
    const Variant variants[] = {
        {"untiled_w9", {.wide_tile_min_threads = 0, .allow_tiled = false, .window_log2 = 9}},
        {"untiled_w8", {.allow_tiled = false, .window_log2 = 8}},
        {"tiled4_w9", {.tiled_columns = 4, .window_log2 = 9}},
        {"tiled8_w9", {.tiled_columns = 8, .window_log2 = 9}},
        {"tiled8_w12", {.tiled_columns = 8, .window_log2 = 12}},
    };
    uint64_t seed = 9100;
    size_t multi_view_runs = 0;
    for (const Variant& variant : variants) {
        const auto op = planned_op(variant.options);
        for (size_t s = 0; s < std::size(shapes); ++s) {
            ++seed;
            const Shape& sh = shapes[s];
            ConvCase c;
            c.input_type = seed % 2 ? DataType::kInt8 : DataType::kUint8;
            c.filter_type = seed % 3 ? DataType::kInt8 : DataType::kUint8;
            c.output_type = seed % 5 < 2 ? DataType::kInt8 : DataType::kUint8;
            c.input_sizes = sh.input;
            c.filter_sizes = sh.filter;
            c.groups = sh.groups;
            c.strides = sh.strides;
            c.dilations = sh.dilations;
            c.start_pad = sh.start_pad;
            c.end_pad = sh.end_pad;
            c.input_layout = sh.in;
            c.output_layout = sh.out;
            c.input_zp = seed % 4 != 0;
            c.per_channel_scale = c.per_channel_zp = s % 2 == 0;
            balance_output_scale(c);
            const std::string name = "qlconv_gpu/multiview/" + std::string(variant.name) + "/" + std::to_string(s) +
                                     "/" + type_tag(c);
            const DifferentialCase d = to_differential(c, name, seed);
            auto views = plan_views(d.desc_json, variant.options);
            ASSERT_TRUE(views.is_ok()) << name << ": " << views.status().message();
            if (views->input_views > 1 && views->output_views > 1) ++multi_view_runs;
            const auto result = run_differential(op, d);
            EXPECT_TRUE(result.passed) << name << " (" << views->label << "): " << result.message;
        }
    }
    // Every shape spans several input and output windows at 512 bytes.
    EXPECT_GE(multi_view_runs, 4 * std::size(shapes));
}

// Random cases (every layout, group count, padding, dilation, stride; both kernels) with 256-byte windows.
TEST(QuantizedLinearConvolutionGpu, MultiViewRandomCases) {
    SKIP_WITHOUT_GPU();
    uint64_t seed = 9500;
    for (bool tiled : {true, false}) {
        const PlanOptions options{.wide_tile_min_threads = 0, .allow_tiled = tiled, .window_log2 = 8};
        const auto op = planned_op(options);
        for (uint32_t rank : {3u, 4u}) {
            for (int variant = 0; variant < 6; ++variant, ++seed) {
                std::mt19937 rng{uint32_t(seed)};
                ConvCase c = random_case(rank, variant % 2 ? DataType::kInt8 : DataType::kUint8,
                                         DataType::kInt8, variant % 3 ? DataType::kUint8 : DataType::kInt8, rng);
                c.input_sizes[0] += 2;  // a few hundred bytes at least: several 256-byte windows
                const std::string name = "qlconv_gpu/multiview_random/rank" + std::to_string(rank) + "/" +
                                         type_tag(c) + "/" + layout_name(c.input_layout) + "_" +
                                         layout_name(c.output_layout) + "/" + std::to_string(seed) +
                                         (tiled ? "/tiled" : "/untiled");
                const auto result = run_differential(op, to_differential(c, name, seed));
                EXPECT_TRUE(result.passed) << result.message;
            }
        }
    }
}

// Tensors over 512 MiB are planned as several 512 MiB windows (no allocation: planning only); over 4 GiB, and a
// filter or scratch buffer over one view, are refused with the reason.
TEST(QuantizedLinearConvolutionGpu, PlansLargeTensorsAsSeveralViews) {
    const auto desc = [](const Dims& input, const Dims& filter, const Dims& output) {
        const json d = {
            {"InputTensor", tensor_json(DataType::kUint8, input)},
            {"InputScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
            {"FilterTensor", tensor_json(DataType::kInt8, filter)},
            {"FilterScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
            {"OutputScaleTensor", tensor_json(DataType::kFloat32, {1, 1, 1, 1})},
            {"OutputTensor", tensor_json(DataType::kUint8, output)},
            {"Strides", {1, 1}}, {"Dilations", {1, 1}}, {"StartPadding", {0, 0}}, {"EndPadding", {0, 0}},
            {"GroupCount", 1}};
        return d.dump();
    };
    constexpr uint64_t kWindow = uint64_t{1} << 29;
    // Small tensors: one view each, the single-view integer kernel (no view suffix in the label; the float
    // kernel, which this shape would take, is single-view only).
    {
        auto v = plan_views(desc({1, 8, 64, 64}, {8, 8, 3, 3}, {1, 8, 62, 62}), {.allow_float = false});
        ASSERT_TRUE(v.is_ok()) << v.status().message();
        EXPECT_EQ(v->input_views, 1u);
        EXPECT_EQ(v->output_views, 1u);
        EXPECT_EQ(v->label, "quantized_linear_convolution/conv");
        EXPECT_EQ(v->input_bindings[0].byte_offset, 0u);
        EXPECT_EQ(v->input_bindings[0].byte_size, 0u);
    }
    // A 1 GiB + 64 KiB input (tiled kernel) and a just-under-1 GiB output: 3 input windows, 2 output windows.
    {
        auto v = plan_views(desc({1, 1, 32770, 32768}, {1, 1, 3, 3}, {1, 1, 32768, 32766}));
        ASSERT_TRUE(v.is_ok()) << v.status().message();
        ASSERT_EQ(v->input_views, 3u);
        ASSERT_EQ(v->output_views, 2u);
        for (size_t i = 0; i < v->input_views; ++i) {
            EXPECT_EQ(v->input_bindings[i].byte_offset, i * kWindow);
            EXPECT_EQ(v->input_bindings[i].byte_size, i + 1 < v->input_views ? kWindow : 0u);
        }
        EXPECT_NE(v->label.find("/v3.2w29"), std::string::npos) << v->label;
    }
    // Just under 4 GiB (untiled kernel: W stride 2): 8 windows.
    {
        const json d = json::parse(desc({1, 1, 65536, 65535}, {1, 1, 1, 1}, {1, 1, 65536, 32768}));
        json strided = d;
        strided["Strides"] = {1, 2};
        auto v = plan_views(strided.dump());
        ASSERT_TRUE(v.is_ok()) << v.status().message();
        EXPECT_EQ(v->input_views, 8u);
        EXPECT_EQ(v->output_views, 4u);
    }
    const auto refused = [&](const std::string& d, const std::string& what) {
        auto v = plan_views(d);
        ASSERT_FALSE(v.is_ok()) << what;
        EXPECT_EQ(v.status().code(), ErrorCode::kUnsupported);
        EXPECT_NE(v.status().message().find(what), std::string::npos) << v.status().message();
    };
    // Over 4 GiB (DirectML caps the element count at 2^32 - 1, so a larger buffer comes from its declared
    // TotalTensorSizeInBytes or strides): input, then output.
    const uint64_t over = (uint64_t{1} << 32) - 12;  // the padded buffer would exceed 2^32 bytes
    json big_input = json::parse(desc({1, 1, 65536, 65535}, {1, 1, 1, 1}, {1, 1, 65536, 65535}));
    big_input["InputTensor"]["TotalTensorSizeInBytes"] = over;
    refused(big_input.dump(), "InputTensor takes 4294967284 bytes; the GPU kernel addresses at most 4 GiB");
    json big_output = json::parse(desc({1, 1, 65536, 65535}, {1, 1, 1, 1}, {1, 1, 65536, 65535}));
    big_output["OutputTensor"]["TotalTensorSizeInBytes"] = over + 4096;
    refused(big_output.dump(), "OutputTensor takes 4294971380 bytes; the GPU kernel addresses at most 4 GiB");
    // Filter over one view (the scratch buffer would be larger still; the filter is named first).
    refused(desc({1, 33025, 1, 1}, {20000, 33025, 1, 1}, {1, 20000, 1, 1}),
            "FilterTensor takes 660500000 bytes; the GPU kernel binds it as one view of at most 512 MiB");
    refused(desc({1, 33025, 1, 1}, {6000, 33025, 1, 1}, {1, 6000, 1, 1}),
            "the shifted-filter scratch buffer takes");
    // The test hook's window must be a valid view size.
    auto bad = plan_views(desc({1, 8, 64, 64}, {8, 8, 3, 3}, {1, 8, 62, 62}), {.window_log2 = 30});
    ASSERT_FALSE(bad.is_ok());
    EXPECT_EQ(bad.status().code(), ErrorCode::kInvalidInput);
}

// The multi-view variants of both conv kernels pass vkd3d-compiler and spirv-val: every flag combination of
// each kernel with several input and output views, the largest tiles and kernels, and 8 real 512 MiB windows.
TEST(QuantizedLinearConvolutionGpu, MultiViewBlobsValidate) {
    size_t count = 0;
    struct Views {
        uint32_t input, output, window_log2;
    };
    const Views view_sets[] = {{3, 2, 9}, {1, 4, 12}, {8, 8, 29}};
    for (const Views& v : view_sets) {
        for (uint32_t bits = 0; bits < 16; ++bits) {
            for (uint32_t kernel_w : {0u, 3u}) {
                const uint32_t mt = bits % 2 ? 8 : 2;
                ConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), mt, bool(bits & 8), kernel_w};
                o.input_views = v.input;
                o.output_views = v.output;
                o.window_log2 = v.window_log2;
                auto blob = build_conv_kernel(o);
                ASSERT_TRUE(blob.is_ok()) << blob.status().message();
                const std::string name = "qlconv_conv_mv_" + std::to_string(v.input) + "_" + std::to_string(v.output) +
                                         "_" + std::to_string(bits) + "_" + std::to_string(kernel_w);
                const auto r = shaders::testing::validate_with_vkd3d(*blob, name);
                if (!r.tools_found) GTEST_SKIP() << r.log;
                EXPECT_TRUE(r.ok) << name << ": " << r.log;
                ++count;
            }
        }
        for (uint32_t bits = 0; bits < 8; ++bits) {
            for (uint32_t cw : {4u, 8u}) {
                const uint32_t k = bits % 2 ? 7 : 3;
                TiledConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), 8, cw, k, k};
                o.input_views = v.input;
                o.output_views = v.output;
                o.window_log2 = v.window_log2;
                auto blob = build_tiled_conv_kernel(o);
                ASSERT_TRUE(blob.is_ok()) << blob.status().message();
                const std::string name = "qlconv_tiled_mv_" + std::to_string(v.input) + "_" +
                                         std::to_string(v.output) + "_" + std::to_string(bits) + "_" + std::to_string(cw);
                const auto r = shaders::testing::validate_with_vkd3d(*blob, name);
                EXPECT_TRUE(r.ok) << name << ": " << r.log;
                ++count;
            }
        }
    }
    EXPECT_EQ(count, 3u * (32u + 16u));
    // Views beyond 4 GiB of addresses, no views, or a window outside 2^8 .. 2^29 are refused.
    ConvKernelOptions too_many{.channels_per_thread = 4, .input_views = 9};
    EXPECT_FALSE(build_conv_kernel(too_many).is_ok());
    TiledConvKernelOptions none{.output_views = 0};
    EXPECT_FALSE(build_tiled_conv_kernel(none).is_ok());
    TiledConvKernelOptions tiny{.input_views = 2, .window_log2 = 7};
    EXPECT_FALSE(build_tiled_conv_kernel(tiny).is_ok());
}

TEST(QuantizedLinearConvolutionGpu, EveryBlobValidates) {
    size_t count = 0;
    for (uint32_t bits = 0; bits < 32; ++bits) {
        const PrepKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), bool(bits & 8), bool(bits & 16)};
        auto blob = build_prep_kernel(o);
        ASSERT_TRUE(blob.is_ok()) << blob.status().message();
        const auto v = shaders::testing::validate_with_vkd3d(*blob, "qlconv_prep_" + std::to_string(bits));
        if (!v.tools_found) GTEST_SKIP() << v.log;
        EXPECT_TRUE(v.ok) << "prep " << bits << ": " << v.log;
        ++count;
    }
    // Every flag combination and channel tile with run-time KW; each baked KW with the smallest and largest
    // tile on both input paths (KW only changes how often the tap body is repeated).
    const auto check_conv = [&](uint32_t bits, uint32_t mt, uint32_t kernel_w) {
        const ConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), mt, bool(bits & 8), kernel_w};
        auto blob = build_conv_kernel(o);
        ASSERT_TRUE(blob.is_ok()) << blob.status().message();
        const std::string name = "qlconv_conv_" + std::to_string(bits) + "_" + std::to_string(mt) + "_" +
                                 std::to_string(kernel_w);
        const auto v = shaders::testing::validate_with_vkd3d(*blob, name);
        EXPECT_TRUE(v.ok) << name << ": " << v.log;
        ++count;
    };
    for (uint32_t bits = 0; bits < 16; ++bits)
        for (uint32_t mt : {1u, 2u, 4u, 8u}) check_conv(bits, mt, 0);
    for (uint32_t kernel_w = 1; kernel_w <= 7; ++kernel_w)
        for (uint32_t bits : {0u, 15u})
            for (uint32_t mt : {1u, 8u}) check_conv(bits, mt, kernel_w);
    // Tiled kernel: every flag combination and tile shape for 3x3, and every KH/KW with the largest tiles.
    const auto check_tiled = [&](uint32_t bits, uint32_t mt, uint32_t cw, uint32_t kh, uint32_t kw) {
        const TiledConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), mt, cw, kh, kw};
        auto blob = build_tiled_conv_kernel(o);
        ASSERT_TRUE(blob.is_ok()) << blob.status().message();
        const std::string name = "qlconv_tiled_" + std::to_string(bits) + "_" + std::to_string(mt) + "_" +
                                 std::to_string(cw) + "_" + std::to_string(kh) + "x" + std::to_string(kw);
        const auto v = shaders::testing::validate_with_vkd3d(*blob, name);
        EXPECT_TRUE(v.ok) << name << ": " << v.log;
        ++count;
    };
    for (uint32_t bits = 0; bits < 8; ++bits)
        for (uint32_t mt : {1u, 2u, 4u, 8u})
            for (uint32_t cw : {4u, 8u}) check_tiled(bits, mt, cw, 3, 3);
    for (uint32_t k = 1; k <= 7; ++k) {
        check_tiled(7, 8, 8, k, 8 - k);
        check_tiled(0, 8, 8, k, k);
    }
    EXPECT_FALSE(build_tiled_conv_kernel({.channels_per_thread = 3}).is_ok());
    EXPECT_FALSE(build_tiled_conv_kernel({.columns_per_thread = 6}).is_ok());
    EXPECT_FALSE(build_tiled_conv_kernel({.kernel_h = 8}).is_ok());
    EXPECT_FALSE(build_tiled_conv_kernel({.kernel_w = 0}).is_ok());
    EXPECT_FALSE(build_conv_kernel({.channels_per_thread = 3}).is_ok());
    EXPECT_FALSE(build_conv_kernel({.channels_per_thread = 4, .kernel_w = 8}).is_ok());
    EXPECT_EQ(count, 32u + 64u + 28u + 64u + 14u);
}

// True when the default planner (or `options`) sends the case to the float kernel.
bool takes_float_kernel(const DifferentialCase& d, const PlanOptions& options = {}) {
    auto parsed = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
    if (!parsed.is_ok()) return false;
    const auto& desc = static_cast<const QuantizedLinearConvolutionDesc&>(**parsed);
    return internal::choose_float_plan(desc, conv_geometry(desc), true, options).has_value();
}

// The float kernel's geometry: rows per group not dividing OH, partial column units, several column blocks,
// input-channel slices (with a short last slice), KW = CW + 1, 7x7, groups, 4 and 8 channels / columns per
// thread, every input layout (its staging reads bytes through the strides), padded and permuted outputs, 3-D;
// each with the weights staged in groupshared memory, fetched from the typed view, and that with prefetch (whose
// multiply-add loop takes 4 channels per iteration where a chunk has 4), and staged with 2 channels per iteration
// (chunks of odd length end in the single-channel loop).
TEST(QuantizedLinearConvolutionGpu, FloatKernelGeometries) {
    SKIP_WITHOUT_GPU();
    struct FloatShape {
        Dims input, filter;
        uint32_t groups;
        Dims start_pad, end_pad;
        Layout in, out;
        PlanOptions options;
    };
    const FloatShape shapes[] = {
        {{2, 12, 9, 19}, {8, 12, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked, {}},
        {{1, 12, 9, 19}, {8, 12, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPadded, Layout::kPacked, {.float_rows = 4}},
        {{2, 9, 7, 7}, {16, 9, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPadded, {.float_splits = 3}},
        {{1, 8, 3, 140}, {8, 8, 1, 3}, 1, {0, 1}, {0, 1}, Layout::kPacked, Layout::kPacked, {.float_columns = 8}},
        {{1, 8, 6, 30}, {8, 4, 2, 5}, 2, {1, 2}, {0, 2}, Layout::kPadded, Layout::kPadded, {.float_columns = 4}},
        {{2, 6, 9, 11}, {8, 6, 7, 7}, 1, {3, 3}, {3, 3}, Layout::kPermuted, Layout::kPermuted, {}},
        {{3, 5, 6, 6}, {4, 5, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kBroadcast, Layout::kPacked, {.float_channels = 4}},
        {{2, 4, 23}, {8, 4, 3}, 1, {1}, {1}, Layout::kPacked, Layout::kPermuted, {}},
        {{2, 40, 5, 9}, {8, 40, 3, 3}, 1, {1, 1}, {1, 1}, Layout::kPacked, Layout::kPacked,
         {.float_channels = 4, .float_rows = 2, .float_channel_groups = 1, .float_splits = 2}},
        {{1, 300, 4, 10}, {8, 300, 1, 1}, 1, {0, 0}, {0, 0}, Layout::kPadded, Layout::kPacked, {.float_splits = 2}},
    };
    uint64_t seed = 12000;
    for (size_t s = 0; s < std::size(shapes); ++s) {
        for (size_t variant = 0; variant < 4 * std::size(kTypes); ++variant) {
            const DataType type = kTypes[variant % std::size(kTypes)];
            const size_t set = variant / std::size(kTypes);  // staged, view, view + prefetch, staged unrolled
            PlanOptions options = shapes[s].options;
            options.float_weights_from_view = set == 1 || set == 2;
            options.float_prefetch = set == 2;
            if (set == 3) options.float_channel_unroll = 2;
            ++seed;
            const ConvCase c = stride1_case(shapes[s], type, seed, s % 2 == 0);
            const std::string name = "qlconv_gpu/float/" + std::to_string(s) + "/" + type_tag(c) +
                                     (options.float_weights_from_view ? "/wview" : "") +
                                     (*options.float_prefetch ? "/pf" : "") + (set == 3 ? "/u2" : "");
            const DifferentialCase d = to_differential(c, name, seed);
            ASSERT_TRUE(takes_float_kernel(d, options)) << name;
            const auto result = run_differential(planned_op(options), d);
            EXPECT_TRUE(result.passed) << result.message;
        }
    }
}

// The float kernel sums each output's products in float runs of at most 256 taps: exact only because every
// partial sum stays below 2^24. Reduction lengths just below, at and above 256 taps (and several runs), every
// product but one channel's at the maximum 255 * 255 (x = 0, xz = 255, w = -128, wz = 127; a run of 259 such
// products would already round), a bias that cancels them, and M = 1/2: an accumulator off by one changes the
// output, so the outputs must equal the reference exactly. Both weight sources: with the weights from the typed
// view, groupshared memory holds more channels per chunk, with prefetch at most 8: runs end at other places.
TEST(QuantizedLinearConvolutionGpu, FloatKernelExactAtRunBoundaries) {
    SKIP_WITHOUT_GPU();
    struct Reduction {
        uint32_t channels, kernel, outputs;
        PlanOptions options;
    };
    // The last one stages 3 channels (27 taps) per chunk, so its runs end mid-way between chunks of channels.
    const Reduction reductions[] = {
        {255, 1, 8, {}}, {256, 1, 8, {}}, {257, 1, 8, {}}, {600, 1, 8, {}}, {600, 1, 8, {.float_splits = 1}},
        {28, 3, 8, {}}, {29, 3, 8, {}}, {57, 3, 8, {.float_splits = 1}}, {6, 7, 8, {.float_splits = 1}},
        {40, 3, 256, {.float_channel_groups = 32, .float_splits = 1}},
    };
    uint64_t seed = 13000;
    for (size_t variant = 0; variant < 3 * std::size(reductions); ++variant) {
        Reduction r = reductions[variant % std::size(reductions)];
        r.options.float_weights_from_view = variant >= std::size(reductions);
        r.options.float_prefetch = variant >= 2 * std::size(reductions);
        ++seed;
        ConvCase c;
        c.input_type = DataType::kUint8;
        c.filter_type = DataType::kInt8;
        c.output_type = DataType::kUint8;
        c.input_sizes = {1, r.channels, r.kernel + 3, r.kernel + 12};
        c.filter_sizes = {r.outputs, r.channels, r.kernel, r.kernel};
        c.strides = c.dilations = {1, 1};
        c.start_pad = c.end_pad = {0, 0};  // every output sums all taps
        c.input_scale = {1.0};
        c.filter_scale = {1.0};
        c.output_scale = {2.0};
        c.input_zero = 255;
        c.output_zero = 128;
        const uint64_t taps = uint64_t(r.channels) * r.kernel * r.kernel;
        // The last input channel varies the sums: x in 253..255 and, in its first tap only, a random weight
        // (its other weights equal the zero point): one product in 0 .. 510.
        const uint64_t last_taps = uint64_t(r.kernel) * r.kernel;
        c.bias_values = std::vector<double>(r.outputs, -double((taps - last_taps) * 65025 + 255));
        DifferentialCase d = to_differential(c, "qlconv_gpu/float_exact/c" + std::to_string(r.channels) + "_k" +
                                                    std::to_string(r.kernel) +
                                                    (r.options.float_weights_from_view ? "/wview" : "") +
                                                    (*r.options.float_prefetch ? "/pf" : ""),
                                             seed);
        HostTensor& x = d.inputs[0];
        HostTensor& w = d.inputs[3];
        const uint64_t plane = uint64_t(c.input_sizes[2]) * c.input_sizes[3];
        std::mt19937 rng{uint32_t(seed)};
        for (uint64_t i = 0; i < x.element_count(); ++i)
            x.set_from_double(i, (i / plane) % r.channels + 1 == r.channels ? 253 + rng() % 3 : 0);
        for (uint64_t i = 0; i < w.element_count(); ++i) {
            const bool last = (i / last_taps) % r.channels + 1 == r.channels;
            w.set_from_double(i, !last ? -128 : i % last_taps == 0 ? -128 + double(rng() % 256) : 127);
        }
        d.inputs[5] = dmltool::testing::make_tensor(DataType::kInt8, {1, 1, 1, 1}, {127});
        ASSERT_TRUE(takes_float_kernel(d, r.options)) << d.name;
        const ExactCount n = count_exact_mismatches(d, r.options);
        ASSERT_TRUE(n.error.empty()) << n.error;
        EXPECT_EQ(n.mismatches, 0u) << d.name << ": " << n.mismatches << " of " << n.elements;
        EXPECT_GT(n.unclamped, n.elements / 2) << d.name << ": the outputs must not saturate";
    }
}

// Every float kernel variant and finalize kernel passes vkd3d-compiler and spirv-val; bad geometry is refused.
TEST(QuantizedLinearConvolutionGpu, FloatBlobsValidate) {
    BlobChecker blobs;
    const auto check = [&](const FloatConvKernelOptions& o, const std::string& name) {
        blobs.check(build_float_conv_kernel(o), name);
    };
    for (uint32_t bits = 0; bits < 48; ++bits) {
        FloatConvKernelOptions o{bool(bits & 1), bool(bits & 2), bool(bits & 4), 8, 8, 7, 4, 8, 3, 3, bool(bits & 8)};
        o.weights_from_view = bits & 48;
        o.prefetch = bits & 32;
        check(o, "qlconv_float_" + std::to_string(bits));
    }
    check({.channels_per_thread = 4, .columns_per_thread = 4, .column_units = 3, .rows = 5, .channel_groups = 2,
           .kernel_h = 7, .kernel_w = 5},
          "qlconv_float_mt4_cw4_7x5");
    check({.column_units = 1, .rows = 7, .channel_groups = 8, .kernel_h = 1, .kernel_w = 1, .split = true},
          "qlconv_float_1x1_split");
    for (uint32_t unroll : {2u, 4u, 8u})
        check({.kernel_h = 1, .kernel_w = 1, .weights_from_view = true, .prefetch = unroll != 2,
               .channel_unroll = unroll},
              "qlconv_float_unroll" + std::to_string(unroll));
    for (uint32_t live : {2u, 3u, 4u, 7u})  // units of `live` columns (7x7: one of 7, 14x14: two of 7)
        for (uint32_t units : {1u, 2u})
            check({.column_units = units, .rows = 7, .channel_groups = 8, .weights_from_view = true,
                   .live_columns = live},
                  "qlconv_float_live" + std::to_string(live) + "_units" + std::to_string(units));
    for (uint32_t splits : {2u, 5u})
        for (bool output_signed : {false, true})
            blobs.check(build_split_finalize_kernel({.output_signed = output_signed, .splits = splits}),
                        "qlconv_finalize_" + std::to_string(splits));
    if (!blobs.tools_missing.empty()) GTEST_SKIP() << blobs.tools_missing;
    EXPECT_EQ(blobs.count, 48u + 2u + 3u + 4u + 8u);
    EXPECT_FALSE(build_float_conv_kernel({.channel_unroll = 3}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.channel_unroll = 0}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.prefetch = true}).is_ok()) << "prefetch needs weights_from_view";
    EXPECT_FALSE(build_float_conv_kernel({.channels_per_thread = 2}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.columns_per_thread = 4, .kernel_w = 6}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.column_units = 16, .rows = 16, .channel_groups = 8}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.channel_groups = 64, .kernel_h = 7, .kernel_w = 7}).is_ok());
    EXPECT_FALSE(build_float_conv_kernel({.column_units = 2, .split = true, .live_columns = 7}).is_ok())
        << "live columns: split partial sums are stored in whole units";
    EXPECT_FALSE(build_float_conv_kernel({.column_units = 1, .live_columns = 8}).is_ok()) << "live columns = CW";
    EXPECT_FALSE(build_float_conv_kernel({.column_units = 1, .kernel_w = 4, .live_columns = 2}).is_ok())
        << "a window reaching past the next unit";
    EXPECT_FALSE(build_split_finalize_kernel({.splits = 1}).is_ok());
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_convolution
