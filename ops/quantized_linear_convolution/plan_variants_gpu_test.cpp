// Autotuning of QUANTIZED_LINEAR_CONVOLUTION (kernel.h: plan_variants; gpu/gpu_backend_tuning.cpp): every plan
// variant the tuner may pick computes what the reference computes (on lavapipe, each variant a differential
// run), variant names are unique and reproduce their geometry, and the GPU backend's tuning picks a variant,
// stores it in the cache, reuses it, and refuses a variant whose outputs differ from the heuristic plan's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "gpu/gpu_backend.h"
#include "ops/quantized_linear_convolution/kernel.h"
#include "tests/testing/gpu_testing.h"
#include "tests/testing/op_testing.h"
#include "tests/unit/temp_dir.h"

namespace dmltool::ops::quantized_linear_convolution {
namespace {

using dmltool::testing::DifferentialCase;
using dmltool::testing::random_tensor;
using testing::tensor_json;

const Op& qlc_op() { return dmltool::testing::builtin_op("QUANTIZED_LINEAR_CONVOLUTION"); }

struct Shape {
    Dims input, filter;  // NCHW, MCKK
    uint32_t stride = 1, pad = 1, groups = 1;
};

// A uint8 x int8 -> uint8 convolution with zero points, per-channel filter scales and a bias, its output scale
// set so the outputs spread over the type's range.
DifferentialCase make_case(const Shape& s, uint64_t seed) {
    const uint32_t m = s.filter[0];
    Dims out = {s.input[0], m};
    for (size_t i = 2; i < 4; ++i) out.push_back((s.input[i] + 2 * s.pad - s.filter[i]) / s.stride + 1);
    const Dims one = {1, 1, 1, 1}, channel = {1, m, 1, 1};
    nlohmann::json desc;
    desc["InputTensor"] = tensor_json(DataType::kUint8, s.input);
    desc["InputScaleTensor"] = tensor_json(DataType::kFloat32, one);
    desc["InputZeroPointTensor"] = tensor_json(DataType::kUint8, one);
    desc["FilterTensor"] = tensor_json(DataType::kInt8, s.filter);
    desc["FilterScaleTensor"] = tensor_json(DataType::kFloat32, channel);
    desc["FilterZeroPointTensor"] = tensor_json(DataType::kInt8, channel);
    desc["BiasTensor"] = tensor_json(DataType::kInt32, channel);
    desc["OutputScaleTensor"] = tensor_json(DataType::kFloat32, one);
    desc["OutputZeroPointTensor"] = tensor_json(DataType::kUint8, one);
    desc["OutputTensor"] = tensor_json(DataType::kUint8, out);
    desc["Strides"] = {s.stride, s.stride};
    desc["Dilations"] = {1, 1};
    desc["StartPadding"] = {s.pad, s.pad};
    desc["EndPadding"] = {s.pad, s.pad};
    desc["GroupCount"] = s.groups;
    const double taps = double(s.filter[1]) * s.filter[2] * s.filter[3];
    DifferentialCase d;
    d.name = "qlconv_gpu/variants/" + std::to_string(seed);
    d.op_type = "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION";
    d.desc_json = desc.dump();
    d.seed = seed;
    d.inputs.push_back(random_tensor(DataType::kUint8, s.input, seed, 0, 255));
    d.inputs.push_back(random_tensor(DataType::kFloat32, one, seed + 1, 0.01, 0.03));
    d.inputs.push_back(random_tensor(DataType::kUint8, one, seed + 2, 100, 150));
    d.inputs.push_back(random_tensor(DataType::kInt8, s.filter, seed + 3, -128, 127));
    d.inputs.push_back(random_tensor(DataType::kFloat32, channel, seed + 4, 0.01, 0.03));
    d.inputs.push_back(random_tensor(DataType::kInt8, channel, seed + 5, -10, 10));
    d.inputs.push_back(random_tensor(DataType::kInt32, channel, seed + 6, -5000, 5000));
    d.inputs.push_back(dmltool::testing::make_tensor(DataType::kFloat32, one,
                                                     {0.02 * 0.02 * std::sqrt(taps) * 70.0 * 70.0 / 40.0}));
    d.inputs.push_back(random_tensor(DataType::kUint8, one, seed + 8, 100, 150));
    return d;
}

// The real op with its plans replaced: plan_device runs `variant` (tests of each variant), and `broken` is a
// variant whose plan skips the prep dispatch (its outputs are wrong: the tuner must refuse it).
class VariantOp final : public Op {
public:
    explicit VariantOp(std::string variant = {}, std::string broken = {})
        : variant_(std::move(variant)), broken_(std::move(broken)) {}
    std::string_view name() const override { return qlc_op().name(); }
    Result<std::unique_ptr<OpDesc>> parse(JsonObjectReader& desc) const override { return qlc_op().parse(desc); }
    std::vector<TensorSlot> tensors(const OpDesc& desc) const override { return qlc_op().tensors(desc); }
    const FeatureLevelTable& feature_levels() const override { return qlc_op().feature_levels(); }
    Status run_reference(const OpDesc& desc, std::span<const HostTensor* const> inputs,
                         std::span<HostTensor* const> outputs, const ReferenceContext& context) const override {
        return qlc_op().run_reference(desc, inputs, outputs, context);
    }
    Tolerance default_tolerance(const OpDesc& desc, size_t i) const override { return qlc_op().default_tolerance(desc, i); }
    WorkEstimate work(const OpDesc& desc) const override { return qlc_op().work(desc); }
    Result<DevicePlan> plan_device(const OpDesc& desc, const SemanticsOptions& s) const override {
        return variant_.empty() ? qlc_op().plan_device(desc, s) : plan_device_variant(desc, s, variant_);
    }
    std::vector<std::string> device_plan_variants(const OpDesc& desc, const SemanticsOptions& s) const override {
        std::vector<std::string> names = qlc_op().device_plan_variants(desc, s);
        if (!broken_.empty()) names.push_back(broken_);
        return names;
    }
    Result<DevicePlan> plan_device_variant(const OpDesc& desc, const SemanticsOptions& s,
                                           std::string_view variant) const override {
        if (variant != broken_) return qlc_op().plan_device_variant(desc, s, variant);
        DMLTOOL_ASSIGN_OR_RETURN(DevicePlan plan, qlc_op().plan_device(desc, s));
        plan.dispatches.erase(plan.dispatches.begin());
        return plan;
    }

private:
    std::string variant_, broken_;
};

// Shapes where the float kernel and its slices apply (3x3 with 64 input channels: several slices; 1x1 with many
// channels: one float run; few channels: MT 4 only), one that it does not (stride 2: the integer kernels only)
// and grouped channels.
const Shape kShapes[] = {
    {{2, 64, 9, 11}, {16, 64, 3, 3}},
    {{1, 96, 6, 10}, {32, 96, 1, 1}, 1, 0},
    {{1, 8, 7, 9}, {4, 8, 3, 3}},
    {{1, 8, 11, 13}, {8, 8, 3, 3}, 2},
    {{1, 16, 6, 7}, {16, 8, 3, 3}, 1, 1, 2},
    {{2, 24, 6, 8}, {64, 24, 3, 3}},  // 64 output channels: every Winograd geometry applies
};

TEST(QuantizedLinearConvolutionVariants, NamesAreUniqueAndPlanTheirGeometry) {
    size_t float_shapes = 0, total = 0;
    for (const Shape& s : kShapes) {
        const DifferentialCase d = make_case(s, 1);
        auto desc = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
        ASSERT_TRUE(desc.is_ok()) << desc.status().message();
        const std::vector<std::string> names = qlc_op().device_plan_variants(**desc, {});
        EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
        EXPECT_FALSE(names.empty());
        total += names.size();
        bool has_float = false, has_view = false, has_prefetch = false;
        size_t winograd = 0;
        for (const std::string& name : names) {
            winograd += name.rfind("wino/", 0) == 0;
            has_float = has_float || name.rfind("float/", 0) == 0;
            has_view = has_view || name.find("/wview") != std::string::npos;
            has_prefetch = has_prefetch || name.find("/wview/pf") != std::string::npos;
            EXPECT_TRUE(qlc_op().plan_device_variant(**desc, {}, name).is_ok()) << name;
        }
        float_shapes += has_float;
        EXPECT_EQ(has_float, s.stride == 1) << "the float kernel applies to stride 1 only";
        EXPECT_EQ(has_view, has_float) << "every float shape has variants with the weights from the typed view";
        EXPECT_EQ(has_prefetch, has_float) << "... and with prefetch";
        // Winograd: 3x3 stride 1 with M / G a multiple of each geometry's block channels (32 or 64): all 6.
        const bool winograd_shape = s.filter[2] == 3 && s.stride == 1 && s.groups == 1;
        EXPECT_EQ(winograd, winograd_shape && s.filter[0] % 64 == 0 ? 6u : 0u) << s.filter[0];
        // The planner's own choice (plan_default): the first Winograd geometry wherever it applies, which won every
        // such ResNet-50 layer's tuning on an H100 and an H200.
        const auto heuristic = qlc_op().plan_device(**desc, {});
        ASSERT_TRUE(heuristic.is_ok()) << heuristic.status().message();
        bool heuristic_winograd = false;
        for (const KernelDispatch& dispatch : heuristic->dispatches)
            heuristic_winograd = heuristic_winograd || dispatch.label == "quantized_linear_convolution/winograd";
        EXPECT_EQ(heuristic_winograd, winograd_shape && s.filter[0] % 64 == 0) << s.filter[0];
        for (const char* bad : {"float/mt8/cw8/tr1/cg1/s99", "float/mt8", "float/mt8/cw8/tr1/cg1/s1/x", "int-tiled/cw6",
                                "float/mt8/cw8/tr1/cg1/wview", "float/mt8/cw8/tr1/cg1/s1/wview/wview",
                                "float/mt8/cw8/tr1/cg1/s1wview", "float/mt8/cw8/tr1/cg1/s1/pf",
                                "float/mt8/cw8/tr1/cg1/s1/pf/wview", "float/mt8/cw8/tr1/cg1/s1/wview/pf/u3",
                                "float/mt8/cw8/tr1/cg1/s1/wview/u4/pf", "float/mt8/cw8/tr1/cg1/s1/wview/pf/u16", "",
                                "heuristic", "wino/mt8/nt4/kg4/tg4", "wino/mt8/nt4/kg4/tg4/u4",
                                "wino/mt8/nt4/kg4/tg4/u2/c16", "wino/mt8/nt4/kg4/tg5/u4/c16",
                                "wino/mt4/nt8/kg16/tg1/u4/c16"}) {
            const auto plan = qlc_op().plan_device_variant(**desc, {}, bad);
            ASSERT_FALSE(plan.is_ok()) << bad;
            EXPECT_EQ(plan.status().code(), ErrorCode::kUnsupported) << bad;
        }
    }
    EXPECT_EQ(float_shapes, std::size(kShapes) - 1);
    EXPECT_GE(total, 40u) << "the search space";
}

// Every variant of every shape on the GPU against the reference: the tuner may pick any of them. One test per
// shape, so that each stays well inside ctest's timeout on lavapipe under Wine (each variant compiles a pipeline).
class EveryVariant : public ::testing::TestWithParam<size_t> {};

TEST_P(EveryVariant, MatchesTheReference) {
    SKIP_WITHOUT_GPU();
    const Shape& s = kShapes[GetParam()];
    const DifferentialCase d = make_case(s, 31001 + GetParam());
    auto desc = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    const std::vector<std::string> names = qlc_op().device_plan_variants(**desc, {});
    EXPECT_GE(names.size(), 1u) << "at least an integer kernel";
    for (const std::string& name : names) {
        DifferentialCase named = d;
        named.name += "/" + name;
        const auto result = dmltool::testing::run_differential(VariantOp(name), named);
        EXPECT_TRUE(result.passed) << name << ": " << result.message;
    }
}

INSTANTIATE_TEST_SUITE_P(QuantizedLinearConvolutionVariants, EveryVariant,
                         ::testing::Range(size_t{0}, std::size(kShapes)));

class TunedBackend {
public:
    TunedBackend(TuningMode mode, const std::filesystem::path& cache, std::string* why) {
        gpu::GpuBackendOptions options;
        options.tuning = {mode, cache};
        auto created = gpu::GpuBackend::create({}, {}, options);
        if (created.is_ok())
            backend_ = std::move(created).value();
        else
            *why = created.status().message();
    }
    gpu::GpuBackend* get() { return backend_.get(); }

private:
    std::unique_ptr<gpu::GpuBackend> backend_;
};

std::vector<const HostTensor*> pointers(const DifferentialCase& d) {
    std::vector<const HostTensor*> out;
    for (const HostTensor& t : d.inputs) out.push_back(t.element_count() ? &t : nullptr);
    return out;
}

TEST(QuantizedLinearConvolutionVariants, BackendTunesStoresAndReusesTheWinner) {
    SKIP_WITHOUT_GPU();
    dmltool::testing::TempDir dir;
    const auto cache = dir.path() / "tuning.json";
    const DifferentialCase d = make_case(kShapes[0], 7);
    auto desc = dmltool::testing::parse_desc(qlc_op(), d.desc_json);
    ASSERT_TRUE(desc.is_ok());
    const size_t variants = qlc_op().device_plan_variants(**desc, {}).size();
    std::string why;
    std::vector<HostTensor> tuned_outputs;
    {
        TunedBackend tuned(TuningMode::kTune, cache, &why);
        ASSERT_TRUE(tuned.get()) << why;
        EXPECT_FALSE(tuned.get()->plan_choice(qlc_op(), **desc).has_value()) << "nothing planned yet";
        auto outputs = tuned.get()->execute(qlc_op(), **desc, pointers(d), nullptr);
        ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
        tuned_outputs = std::move(outputs).value();
        const auto choice = tuned.get()->plan_choice(qlc_op(), **desc);
        ASSERT_TRUE(choice.has_value());
        EXPECT_EQ(choice->source, "tuned");
        EXPECT_EQ(choice->candidates.size(), variants + 1);
        for (const VariantTime& t : choice->candidates) EXPECT_GT(t.seconds, 0) << t.variant;
        EXPECT_GE(choice->speedup(), 1.0);
        ASSERT_TRUE(std::filesystem::exists(cache));
    }
    {
        TunedBackend cached(TuningMode::kCached, cache, &why);
        ASSERT_TRUE(cached.get()) << why;
        auto outputs = cached.get()->execute(qlc_op(), **desc, pointers(d), nullptr);
        ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
        const auto choice = cached.get()->plan_choice(qlc_op(), **desc);
        ASSERT_TRUE(choice.has_value());
        EXPECT_EQ(choice->source, "cache");
        EXPECT_EQ(choice->candidates.size(), variants + 1);
        ASSERT_EQ(outputs->size(), tuned_outputs.size());
        EXPECT_TRUE(std::equal(outputs->front().bytes().begin(), outputs->front().bytes().end(),
                               tuned_outputs.front().bytes().begin()));
    }
    {
        TunedBackend cached(TuningMode::kCached, dir.path() / "empty.json", &why);
        ASSERT_TRUE(cached.get()) << why;
        ASSERT_TRUE(cached.get()->execute(qlc_op(), **desc, pointers(d), nullptr).is_ok());
        const auto choice = cached.get()->plan_choice(qlc_op(), **desc);
        ASSERT_TRUE(choice.has_value());
        EXPECT_EQ(choice->source, "heuristic");
        EXPECT_NE(choice->note.find("no tuned winner"), std::string::npos) << choice->note;
        EXPECT_FALSE(std::filesystem::exists(dir.path() / "empty.json")) << "cached mode never writes";
    }
    {
        TunedBackend off(TuningMode::kOff, cache, &why);
        ASSERT_TRUE(off.get()) << why;
        const auto choice = off.get()->plan_choice(qlc_op(), **desc);
        ASSERT_TRUE(choice.has_value());
        EXPECT_EQ(choice->source, "heuristic");
        EXPECT_EQ(choice->note, "--autotune off");
    }
}

TEST(QuantizedLinearConvolutionVariants, TuningRefusesAVariantWithOtherOutputs) {
    SKIP_WITHOUT_GPU();
    dmltool::testing::TempDir dir;
    const DifferentialCase d = make_case(kShapes[2], 8);
    const VariantOp op({}, "broken/no-prep");
    auto desc = dmltool::testing::parse_desc(op, d.desc_json);
    ASSERT_TRUE(desc.is_ok());
    std::string why;
    TunedBackend tuned(TuningMode::kTune, dir.path() / "tuning.json", &why);
    ASSERT_TRUE(tuned.get()) << why;
    auto outputs = tuned.get()->execute(op, **desc, pointers(d), nullptr);
    ASSERT_FALSE(outputs.is_ok());
    EXPECT_EQ(outputs.status().code(), ErrorCode::kInternal);
    EXPECT_NE(outputs.status().message().find("plan variant 'broken/no-prep' computes other outputs than the "
                                              "heuristic plan (first at output 0 element "),
              std::string::npos)
        << outputs.status().message();
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "tuning.json")) << "a refused tuning stores nothing";
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_convolution
