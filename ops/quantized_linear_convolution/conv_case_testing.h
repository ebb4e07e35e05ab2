// Test support for QUANTIZED_LINEAR_CONVOLUTION's GPU tests (quantized_linear_convolution_gpu_test.cpp,
// winograd_gpu_test.cpp): a convolution case description (types, shapes, layouts, quantization, values) turned into
// a differential case, the op planned with given PlanOptions, and an exact mismatch count against the reference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ops/quantized_linear_convolution/kernel.h"
#include "ops/split/layout_test_support.h"
#include "shaders/testing/validate_blob.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::quantized_linear_convolution::conv_testing {

using dmltool::testing::DifferentialCase;
using dmltool::testing::random_tensor;
using nlohmann::json;
using dmltool::testing::tensor_json;

inline const Op& qlc_op() { return dmltool::testing::builtin_op("QUANTIZED_LINEAR_CONVOLUTION"); }

using dmltool::testing::layouts::Layout;
using dmltool::testing::layouts::layout_name;

// Strides (elements) for `sizes` in a layout: padded = packed over sizes enlarged by a few elements per
// dimension; permuted = channels innermost (NHWC-like: the W stride is not 1); broadcast = packed with the
// batch dimension repeated (stride 0).
inline Dims conv_strides(const Dims& sizes, Layout layout, std::mt19937& rng) {
    const size_t rank = sizes.size();
    Dims strides(rank, 1);
    if (layout == Layout::kPermuted) {
        // order innermost first: C, W, H, N (3-D: C, W, N)
        std::vector<size_t> order = {1};
        for (size_t d = rank; d-- > 2;) order.push_back(d);
        order.push_back(0);
        uint32_t running = 1;
        for (size_t d : order) {
            strides[d] = running;
            running *= sizes[d];
        }
        return strides;
    }
    uint32_t running = 1;
    for (size_t d = rank; d-- > 0;) {
        strides[d] = running;
        const uint32_t pad = layout == Layout::kPadded ? 1 + rng() % 3 : 0;
        running *= sizes[d] + pad;
    }
    if (layout == Layout::kBroadcast) strides[0] = 0;
    return strides;
}

struct ConvCase {
    DataType input_type = DataType::kUint8, filter_type = DataType::kInt8, output_type = DataType::kUint8;
    Dims input_sizes;   // {N, C, (H,) W}
    Dims filter_sizes;  // {M, C/G, (KH,) KW}
    uint32_t groups = 1;
    Dims strides, dilations, start_pad, end_pad;
    bool input_zp = true, filter_zp = true, bias = true, output_zp = true;
    bool per_channel_scale = false, per_channel_zp = false;
    bool one_dim_quant = false;  // filter scale / zero point as {M} or {1}
    Layout input_layout = Layout::kPacked, output_layout = Layout::kPacked;
    bool strided_filter = false;
    // Values; empty = random.
    std::vector<double> input_scale, filter_scale, output_scale;
    std::optional<double> input_zero, output_zero;
    std::vector<double> bias_values;
    double scale_lo = 0.002, scale_hi = 0.05;
    // Value ranges (clipped to the types); narrow ones keep acc * M near the rounding points.
    double x_lo = -128, x_hi = 255, w_lo = -128, w_hi = 255, bias_lo = -20000, bias_hi = 20000;
};

inline Dims output_sizes(const ConvCase& c) {
    Dims out = {c.input_sizes[0], c.filter_sizes[0]};
    for (size_t i = 0; i + 2 < c.input_sizes.size(); ++i) {
        const uint32_t padded = c.input_sizes[2 + i] + c.start_pad[i] + c.end_pad[i];
        const uint32_t extent = (c.filter_sizes[2 + i] - 1) * c.dilations[i] + 1;
        out.push_back((padded - extent) / c.strides[i] + 1);
    }
    return out;
}

inline DifferentialCase to_differential(const ConvCase& c, const std::string& name, uint64_t seed) {
    std::mt19937 rng{uint32_t(seed * 7919 + 1)};
    const uint32_t rank = uint32_t(c.input_sizes.size());
    const uint32_t m = c.filter_sizes[0];
    const Dims out = output_sizes(c);
    Dims quant(rank, 1);
    Dims channel(rank, 1);
    channel[1] = m;
    const Dims filter_quant = c.one_dim_quant ? (c.per_channel_scale ? Dims{m} : Dims{1}) : (c.per_channel_scale ? channel : quant);
    const Dims zp_quant = c.one_dim_quant ? (c.per_channel_zp ? Dims{m} : Dims{1}) : (c.per_channel_zp ? channel : quant);
    json desc;
    std::optional<Dims> in_strides;
    if (c.input_layout != Layout::kPacked) in_strides = conv_strides(c.input_sizes, c.input_layout, rng);
    std::optional<Dims> out_strides;
    if (c.output_layout != Layout::kPacked) out_strides = conv_strides(out, c.output_layout, rng);
    std::optional<Dims> filter_strides;
    if (c.strided_filter) filter_strides = conv_strides(c.filter_sizes, Layout::kPadded, rng);
    desc["InputTensor"] = tensor_json(c.input_type, c.input_sizes, in_strides);
    desc["InputScaleTensor"] = tensor_json(DataType::kFloat32, quant);
    if (c.input_zp) desc["InputZeroPointTensor"] = tensor_json(c.input_type, quant);
    desc["FilterTensor"] = tensor_json(c.filter_type, c.filter_sizes, filter_strides);
    desc["FilterScaleTensor"] = tensor_json(DataType::kFloat32, filter_quant);
    if (c.filter_zp) desc["FilterZeroPointTensor"] = tensor_json(c.filter_type, zp_quant);
    if (c.bias) desc["BiasTensor"] = tensor_json(DataType::kInt32, channel);
    desc["OutputScaleTensor"] = tensor_json(DataType::kFloat32, quant);
    if (c.output_zp) desc["OutputZeroPointTensor"] = tensor_json(c.output_type, quant);
    desc["OutputTensor"] = tensor_json(c.output_type, out, out_strides);
    desc["Strides"] = c.strides;
    desc["Dilations"] = c.dilations;
    desc["StartPadding"] = c.start_pad;
    desc["EndPadding"] = c.end_pad;
    desc["GroupCount"] = c.groups;

    const auto lo = [](DataType t) { return t == DataType::kInt8 ? -128.0 : 0.0; };
    const auto hi = [](DataType t) { return t == DataType::kInt8 ? 127.0 : 255.0; };
    const auto values_or_random = [&](const std::vector<double>& values, const Dims& sizes, uint64_t s) {
        if (!values.empty()) return dmltool::testing::make_tensor(DataType::kFloat32, sizes, values);
        return random_tensor(DataType::kFloat32, sizes, s, c.scale_lo, c.scale_hi);
    };
    const auto scalar_or_random = [&](const std::optional<double>& v, DataType t, const Dims& sizes, uint64_t s) {
        if (v) return dmltool::testing::make_tensor(t, sizes, {*v});
        return random_tensor(t, sizes, s, lo(t), hi(t));
    };
    DifferentialCase d;
    d.name = name;
    d.op_type = "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION";
    d.desc_json = desc.dump();
    d.seed = seed;
    HostTensor input = random_tensor(c.input_type, c.input_sizes, seed, std::max(c.x_lo, lo(c.input_type)),
                                     std::min(c.x_hi, hi(c.input_type)));
    if (c.input_layout == Layout::kBroadcast) {
        // Stride 0 on N: every batch reads the same physical elements, so the logical values must repeat.
        const uint64_t per_batch = input.element_count() / c.input_sizes[0];
        for (uint64_t i = per_batch; i < input.element_count(); ++i)
            input.set_from_double(i, input.get_as_double(i % per_batch));
    }
    d.inputs.push_back(std::move(input));
    d.inputs.push_back(values_or_random(c.input_scale, quant, seed + 1));
    d.inputs.push_back(c.input_zp ? scalar_or_random(c.input_zero, c.input_type, quant, seed + 2) : HostTensor());
    d.inputs.push_back(random_tensor(c.filter_type, c.filter_sizes, seed + 3, std::max(c.w_lo, lo(c.filter_type)),
                                     std::min(c.w_hi, hi(c.filter_type))));
    d.inputs.push_back(values_or_random(c.filter_scale, filter_quant, seed + 4));
    d.inputs.push_back(c.filter_zp ? random_tensor(c.filter_type, zp_quant, seed + 5, lo(c.filter_type), hi(c.filter_type))
                                   : HostTensor());
    if (c.bias) {
        d.inputs.push_back(c.bias_values.empty() ? random_tensor(DataType::kInt32, channel, seed + 6, c.bias_lo, c.bias_hi)
                                                 : dmltool::testing::make_tensor(DataType::kInt32, channel, c.bias_values));
    } else {
        d.inputs.emplace_back();
    }
    d.inputs.push_back(values_or_random(c.output_scale, quant, seed + 7));
    d.inputs.push_back(c.output_zp ? scalar_or_random(c.output_zero, c.output_type, quant, seed + 8) : HostTensor());
    // The backend lays inputs out by their own desc: give each the case's desc (strides, total size), same
    // logical values.
    auto parsed = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
    if (parsed.is_ok()) {
        size_t i = 0;
        for (const TensorSlot& slot : qlc_op().tensors(**parsed)) {
            if (slot.role != TensorRole::kInput) continue;
            HostTensor& t = d.inputs[i++];
            if (!slot.desc) continue;
            HostTensor laid_out(*slot.desc);
            std::copy(t.bytes().begin(), t.bytes().end(), laid_out.bytes().begin());
            t = std::move(laid_out);
        }
    }
    return d;
}

// Scales such that the output spans the type's range: ys ~ xs * ws * sqrt(taps) * 128 * 128 / 64.
inline void balance_output_scale(ConvCase& c) {
    uint64_t taps = 1;
    for (size_t i = 1; i < c.filter_sizes.size(); ++i) taps *= c.filter_sizes[i];
    const double typical = 0.02 * 0.02 * std::sqrt(double(taps)) * 70.0 * 70.0 / 40.0;
    c.output_scale = {typical};
}

inline constexpr DataType kTypes[] = {DataType::kInt8, DataType::kUint8};

// A random valid case of the given rank and types.
inline ConvCase random_case(uint32_t rank, DataType in, DataType filter, DataType out, std::mt19937& rng) {
    ConvCase c;
    c.input_type = in;
    c.filter_type = filter;
    c.output_type = out;
    const uint32_t spatial = rank - 2;
    const uint32_t group_choice = rng() % 4;  // 0,1: G=1; 2: G=2; 3: depthwise
    const uint32_t cpg = group_choice == 3 ? 1 : 1 + rng() % 4;
    const uint32_t groups = group_choice < 2 ? 1 : group_choice == 2 ? 2 : 2 + rng() % 4;
    const uint32_t mpg_choices[] = {1, 2, 3, 4, 8};
    const uint32_t mpg = mpg_choices[rng() % 5];
    c.groups = groups;
    c.input_sizes = {uint32_t(1 + rng() % 2), cpg * groups};
    c.filter_sizes = {mpg * groups, cpg};
    for (uint32_t i = 0; i < spatial; ++i) {
        const uint32_t k = 1 + rng() % 3;
        const uint32_t dilation = 1 + (rng() % 4 == 0 ? rng() % 2 + 1 : 0);
        const uint32_t stride = 1 + (rng() % 3 == 0 ? rng() % 2 + 1 : 0);
        const uint32_t size = (spatial == 1 ? 5 : 3) + rng() % 9;
        c.input_sizes.push_back(size);
        c.filter_sizes.push_back(k);
        c.strides.push_back(stride);
        c.dilations.push_back(dilation);
        c.start_pad.push_back(rng() % 3);
        c.end_pad.push_back(rng() % 3);
        // The dilated kernel must fit the padded input.
        while ((k - 1) * dilation + 1 > size + c.start_pad.back() + c.end_pad.back()) ++c.end_pad.back();
    }
    c.input_zp = rng() % 4 != 0;
    c.filter_zp = rng() % 4 != 0;
    c.bias = rng() % 3 != 0;
    c.output_zp = rng() % 4 != 0;
    c.per_channel_scale = rng() % 2 == 0;
    c.per_channel_zp = rng() % 2 == 0;
    c.one_dim_quant = rng() % 5 == 0;
    const Layout in_layouts[] = {Layout::kPacked, Layout::kPacked, Layout::kPadded, Layout::kPermuted, Layout::kBroadcast};
    const Layout out_layouts[] = {Layout::kPacked, Layout::kPacked, Layout::kPadded, Layout::kPermuted};
    c.input_layout = in_layouts[rng() % 5];
    if (c.input_layout == Layout::kBroadcast && c.input_sizes[0] == 1) c.input_sizes[0] = 2;
    c.output_layout = out_layouts[rng() % 4];
    c.strided_filter = rng() % 4 == 0;
    balance_output_scale(c);
    return c;
}

inline std::string type_tag(const ConvCase& c) {
    const auto t = [](DataType d) { return d == DataType::kInt8 ? "s8" : "u8"; };
    return std::string(t(c.input_type)) + "_" + t(c.filter_type) + "_" + t(c.output_type);
}

// The stride-1, dilation-1 case of a kernel-geometry test's shape (fields input, filter, groups, start_pad, end_pad,
// in, out): input type given, filter and output types and the input zero point varied by `seed`, per-channel or
// per-tensor quantization, the output scale balanced.
template <typename Shape>
ConvCase stride1_case(const Shape& sh, DataType input_type, uint64_t seed, bool per_channel) {
    ConvCase c;
    c.input_type = input_type;
    c.filter_type = seed % 3 ? DataType::kInt8 : DataType::kUint8;
    c.output_type = seed % 5 < 2 ? DataType::kInt8 : DataType::kUint8;
    c.input_sizes = sh.input;
    c.filter_sizes = sh.filter;
    c.groups = sh.groups;
    c.strides = Dims(sh.start_pad.size(), 1);
    c.dilations = Dims(sh.start_pad.size(), 1);
    c.start_pad = sh.start_pad;
    c.end_pad = sh.end_pad;
    c.input_layout = sh.in;
    c.output_layout = sh.out;
    c.input_zp = seed % 4 != 0;
    c.per_channel_scale = c.per_channel_zp = per_channel;
    balance_output_scale(c);
    return c;
}

// The op planned with given PlanOptions (8-channel tiles forced, the tiled kernel off or with 4/8 columns, a named
// kernel).
inline dmltool::testing::layouts::ReplannedOp planned_op(const PlanOptions& options) {
    return {qlc_op(), [options](const OpDesc& desc) {
                return plan_quantized_linear_convolution(static_cast<const QuantizedLinearConvolutionDesc&>(desc),
                                                         options);
            }};
}

// Runs a case on the GPU and the reference and counts elements that differ at all (the contract allows +-1).
struct ExactCount {
    uint64_t elements = 0, mismatches = 0;
    std::string error;
    uint64_t unclamped = 0;  // reference outputs strictly inside the type's range (where rounding shows)
};
// `executions` > 1: the plan runs that many times on one preparation and the last outputs are compared.
inline ExactCount count_exact_mismatches(const DifferentialCase& d, const PlanOptions& options = {},
                                         unsigned executions = 1) {
    ExactCount result;
    auto parsed = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
    if (!parsed.is_ok()) return {0, 0, parsed.status().message()};
    std::vector<const HostTensor*> inputs;
    for (const HostTensor& t : d.inputs) inputs.push_back(t.element_count() ? &t : nullptr);
    auto reference = dmltool::testing::run_reference(qlc_op(), **parsed, inputs);
    if (!reference.is_ok()) return {0, 0, reference.status().message()};
    gpu::GpuBackend* backend = dmltool::testing::test_gpu_backend(nullptr);
    auto gpu = executions > 1 ? backend->execute_repeatedly(planned_op(options), **parsed, inputs, executions)
                              : backend->execute(planned_op(options), **parsed, inputs, nullptr);
    if (!gpu.is_ok()) return {0, 0, gpu.status().message()};
    const HostTensor& want = (*reference)[0];
    const HostTensor& got = (*gpu)[0];
    result.elements = want.element_count();
    const int64_t lowest = want.data_type() == DataType::kInt8 ? -128 : 0;
    const int64_t highest = want.data_type() == DataType::kInt8 ? 127 : 255;
    for (uint64_t i = 0; i < want.element_count(); ++i)
        if (want.get_as_int64(i) > lowest && want.get_as_int64(i) < highest) ++result.unclamped;
    for (uint64_t i = 0; i < want.element_count(); ++i)
        if (want.get_as_int64(i) != got.get_as_int64(i)) {
            if (std::getenv("QLC_DEBUG") && result.mismatches < 16)
                std::printf("  [%llu] want %lld got %lld\n", (unsigned long long)i, (long long)want.get_as_int64(i),
                            (long long)got.get_as_int64(i));
            ++result.mismatches;
        }
    return result;
}

// Kernel blobs through vkd3d-compiler + spirv-val: `count` those that passed; without the tools `tools_missing` says
// why (the test then skips: GTEST_SKIP inside check would only leave check).
struct BlobChecker {
    size_t count = 0;
    std::string tools_missing;
    void check(const Result<std::vector<uint8_t>>& blob, const std::string& name) {
        ASSERT_TRUE(blob.is_ok()) << name << ": " << blob.status().message();
        const auto v = shaders::testing::validate_with_vkd3d(*blob, name);
        if (!v.tools_found) {
            tools_missing = v.log;
            return;
        }
        EXPECT_TRUE(v.ok) << name << ": " << v.log;
        ++count;
    }
};

}  // namespace dmltool::ops::quantized_linear_convolution::conv_testing
