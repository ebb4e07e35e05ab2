// The pooling family on the CPU: parse errors (one line naming the JSON path, what was expected and what was found),
// derived output sizes, and the reference on small hand-computed examples (max with ties and indices, average with
// and without IncludePadding, dilations, the quantized average's rounding and saturation).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ops/pooling/pooling.h"
#include "core/compare.h"
#include "core/op_registry.h"
#include "core/thread_pool.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::pooling {
namespace {

using dmltool::testing::make_tensor;
using dmltool::testing::parse_desc;
using dmltool::testing::rejection;
using dmltool::testing::values_of;
using nlohmann::json;

const Op& builtin_op(std::string_view name) {
    static const OpRegistry registry = make_builtin_registry();
    const Op* op = registry.find(name);
    if (!op) throw std::runtime_error("no operator " + std::string(name));
    return *op;
}

json tensor(const char* type, std::vector<uint32_t> sizes) { return {{"DataType", type}, {"Sizes", sizes}}; }

// A 2-D desc over a {1,1,H,W} input; `extra` members are merged in.
json desc2d(const char* type, uint32_t h, uint32_t w, std::vector<uint32_t> out, std::vector<uint32_t> window,
            std::vector<uint32_t> strides, std::vector<uint32_t> start, std::vector<uint32_t> end,
            json extra = json::object()) {
    json d = {{"InputTensor", tensor(type, {1, 1, h, w})},
              {"OutputTensor", tensor(type, out)},
              {"DimensionCount", 2u},
              {"Strides", strides},
              {"WindowSize", window},
              {"StartPadding", start},
              {"EndPadding", end}};
    for (auto& [k, v] : extra.items()) d[k] = v;
    return d;
}

std::vector<HostTensor> reference(const Op& op, const json& desc, const std::vector<const HostTensor*>& inputs) {
    auto parsed = parse_desc(op, desc.dump());
    EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
    auto out = dmltool::testing::run_reference(op, **parsed, inputs);
    EXPECT_TRUE(out.is_ok()) << out.status().message();
    return std::move(out).value();
}

TEST(Pooling, RegistryHasTheFourOperators) {
    for (const char* name : {"MAX_POOLING2", "AVERAGE_POOLING", "AVERAGE_POOLING1", "QUANTIZED_LINEAR_AVERAGE_POOLING"})
        EXPECT_EQ(builtin_op(name).name(), name);
}

TEST(Pooling, ParseErrorsNameThePathExpectedAndFound) {
    const Op& max = builtin_op("MAX_POOLING2");
    const json dil = {{"Dilations", {1, 1}}};
    json d = desc2d("FLOAT32", 4, 4, {1, 1, 2, 2}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, dil);
    ASSERT_TRUE(parse_desc(max, d.dump()).is_ok());

    json bad = d;
    bad["OutputTensor"]["Sizes"] = {1, 1, 3, 2};
    EXPECT_NE(rejection(max, bad.dump()).find("/OutputTensor/Sizes: expected {1,1,2,2}"), std::string::npos)
        << rejection(max, bad.dump());
    bad = d;
    bad["Strides"] = {2, 0};
    EXPECT_NE(rejection(max, bad.dump()).find("/Strides/1: expected at least 1, found 0"), std::string::npos);
    bad = d;
    bad["WindowSize"] = {2};
    EXPECT_NE(rejection(max, bad.dump()).find("/WindowSize: expected 2 entries"), std::string::npos);
    bad = d;
    bad["DimensionCount"] = 3;
    EXPECT_NE(rejection(max, bad.dump()).find("/DimensionCount: expected 2"), std::string::npos);
    bad = d;
    bad["OutputTensor"]["DataType"] = "FLOAT16";
    EXPECT_NE(rejection(max, bad.dump()).find("/OutputTensor/DataType: expected FLOAT32"), std::string::npos);
    bad = d;
    bad["InputTensor"]["Sizes"] = {1, 4, 4};
    EXPECT_NE(rejection(max, bad.dump()).find("/InputTensor/Sizes: expected 4 or 5 dimensions"), std::string::npos);
    bad = d;
    bad["WindowSize"] = {5, 2};
    EXPECT_NE(rejection(max, bad.dump()).find("/WindowSize/0: expected the dilated window"), std::string::npos);
    bad = d;
    bad["OutputIndicesTensor"] = tensor("UINT32", {1, 1, 2, 3});
    EXPECT_NE(rejection(max, bad.dump()).find("/OutputIndicesTensor/Sizes: expected {1,1,2,2}"), std::string::npos);
    // A window of padding only: input 1 wide, window 2 with dilation 2 and one start padding covers -1 and 1.
    bad = desc2d("FLOAT32", 1, 1, {1, 1, 1, 1}, {1, 2}, {1, 1}, {0, 1}, {0, 1}, {{"Dilations", {1, 2}}});
    EXPECT_NE(rejection(max, bad.dump()).find("/StartPadding: expected every window to cover at least one input "
                                              "element, found output position 0 of spatial dimension 1"),
              std::string::npos)
        << rejection(max, bad.dump());
    // AVERAGE_POOLING has no Dilations member and needs IncludePadding.
    const Op& avg = builtin_op("AVERAGE_POOLING");
    json a = desc2d("FLOAT32", 4, 4, {1, 1, 2, 2}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, {{"IncludePadding", false}});
    ASSERT_TRUE(parse_desc(avg, a.dump()).is_ok());
    a.erase("IncludePadding");
    EXPECT_NE(rejection(avg, a.dump()).find("IncludePadding"), std::string::npos);
    a["IncludePadding"] = true;
    a["Dilations"] = {1, 1};
    EXPECT_NE(rejection(avg, a.dump()).find("Dilations"), std::string::npos) << rejection(avg, a.dump());
}

TEST(Pooling, QuantizedParseErrors) {
    const Op& ql = builtin_op("QUANTIZED_LINEAR_AVERAGE_POOLING");
    json d = desc2d("UINT8", 4, 4, {1, 1, 1, 1}, {4, 4}, {1, 1}, {0, 0}, {0, 0},
                    {{"Dilations", {1, 1}}, {"IncludePadding", false}});
    d["InputTensor"]["Sizes"] = {1, 3, 4, 4};
    d["OutputTensor"]["Sizes"] = {1, 3, 1, 1};
    d["InputScaleTensor"] = tensor("FLOAT32", {1, 1, 1, 1});
    d["OutputScaleTensor"] = tensor("FLOAT32", {1, 3, 1, 1});
    d["InputZeroPointTensor"] = tensor("UINT8", {3});
    ASSERT_TRUE(parse_desc(ql, d.dump()).is_ok()) << rejection(ql, d.dump());
    json bad = d;
    bad["InputZeroPointTensor"]["DataType"] = "INT8";
    EXPECT_NE(rejection(ql, bad.dump()).find("/InputZeroPointTensor/DataType: expected UINT8 (the data type of "
                                             "InputTensor), found INT8"),
              std::string::npos);
    bad = d;
    bad["OutputScaleTensor"]["Sizes"] = {1, 1, 3, 1};
    EXPECT_NE(rejection(ql, bad.dump()).find("/OutputScaleTensor/Sizes: expected 1 element (per tensor) or C = 3"),
              std::string::npos);
    bad = d;
    bad["InputTensor"]["DataType"] = "FLOAT32";
    EXPECT_NE(rejection(ql, bad.dump()).find("/InputTensor/DataType: expected one of"), std::string::npos);
    bad = d;
    bad.erase("InputScaleTensor");
    EXPECT_NE(rejection(ql, bad.dump()).find("InputScaleTensor"), std::string::npos);
}

TEST(Pooling, DerivedOutputSizesUseTheDilatedWindow) {
    const Op& max = builtin_op("MAX_POOLING2");
    json d = desc2d("FLOAT16", 7, 9, {}, {3, 2}, {2, 3}, {1, 0}, {1, 1},
                    {{"Dilations", {2, 1}}, {"OutputIndicesTensor", json::object()}});
    d.erase("OutputTensor");
    d = json::parse(d.dump());  // unsigned numbers, as read from a file
    const Status derived = max.derive_outputs(d, "/desc");
    ASSERT_TRUE(derived.is_ok()) << derived.message();
    // H: (7 + 2 - 5) / 2 + 1 = 3; W: (9 + 1 - 2) / 3 + 1 = 3.
    EXPECT_EQ(d["OutputTensor"]["Sizes"], json({1, 1, 3, 3}));
    EXPECT_EQ(d["OutputTensor"]["DataType"], "FLOAT16");
    EXPECT_EQ(d["OutputIndicesTensor"]["Sizes"], json({1, 1, 3, 3}));
    EXPECT_EQ(d["OutputIndicesTensor"]["DataType"], "UINT32");
    EXPECT_TRUE(parse_desc(max, d.dump()).is_ok());
}

TEST(Pooling, MaxTakesTheFirstOfEqualMaximaAndItsIndex) {
    const Op& max = builtin_op("MAX_POOLING2");
    // 3x4 input, 2x2 window, stride 2 (H: padding 1 at the end), with indices.
    const HostTensor x = make_tensor(DataType::kFloat32, {1, 1, 3, 4}, {1, 5, 5, 2,  //
                                                                        5, 3, 0, 7,  //
                                                                        -9, -8, -2, -3});
    json d = desc2d("FLOAT32", 3, 4, {1, 1, 2, 2}, {2, 2}, {2, 2}, {0, 0}, {1, 0},
                    {{"Dilations", {1, 1}}, {"OutputIndicesTensor", tensor("UINT32", {1, 1, 2, 2})}});
    const auto out = reference(max, d, {&x});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(values_of(out[0]), (std::vector<double>{5, 7, -8, -2}));
    // The first 5 is at index 1 (row 0), not 4 (row 1); the padded bottom windows see row 2 only.
    EXPECT_EQ(values_of(out[1]), (std::vector<double>{1, 7, 9, 10}));
}

TEST(Pooling, AverageCountsPaddingOnlyWithIncludePadding) {
    const HostTensor x = make_tensor(DataType::kFloat32, {1, 1, 2, 2}, {1, 2, 3, 4});
    // 2x2 window, stride 1, padding 1 everywhere: a 3x3 output; the corner windows hold one input element.
    for (const bool include : {false, true}) {
        json d = desc2d("FLOAT32", 2, 2, {1, 1, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 1}, {{"IncludePadding", include}});
        const auto out = reference(builtin_op("AVERAGE_POOLING"), d, {&x});
        const std::vector<double> expected =
            include ? std::vector<double>{0.25, 0.75, 0.5, 1, 2.5, 1.5, 0.75, 1.75, 1}
                    : std::vector<double>{1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4};
        EXPECT_EQ(values_of(out[0]), expected) << "IncludePadding " << include;
    }
}

TEST(Pooling, Average1DilationSkipsElements) {
    // 1x5 row, window 2 with dilation 3: taps (0,3) and (1,4).
    const HostTensor x = make_tensor(DataType::kFloat16, {1, 1, 1, 5}, {1, 10, 100, 3, 40});
    json d = desc2d("FLOAT16", 1, 5, {1, 1, 1, 2}, {1, 2}, {1, 1}, {0, 0}, {0, 0},
                    {{"Dilations", {1, 3}}, {"IncludePadding", false}});
    const auto out = reference(builtin_op("AVERAGE_POOLING1"), d, {&x});
    EXPECT_EQ(values_of(out[0]), (std::vector<double>{2, 25}));
}

// FLOAT16 averages: the float32 mean may reach the output rounded to nearest or toward zero (Direct3D's conversion
// rule; DirectML 1.15.4 rounds toward zero), and nothing else: the neighbour away from zero and the one beyond the
// zero-side neighbour still fail. The mean of {75, 75, 75, 75.1875} is 75.046875; one ulp of half there is 0.0625.
TEST(Pooling, Float16AverageAcceptsTheZeroSideNeighbourOnly) {
    for (const char* name : {"AVERAGE_POOLING", "AVERAGE_POOLING1"}) {
        const Op& op = builtin_op(name);
        for (const double sign : {1.0, -1.0}) {
            const HostTensor x = make_tensor(DataType::kFloat16, {1, 1, 1, 4},
                                             {sign * 75, sign * 75, sign * 75, sign * 75.1875});
            json extra = {{"IncludePadding", false}};
            if (std::string_view(name) == "AVERAGE_POOLING1") extra["Dilations"] = {1, 1};
            json d = desc2d("FLOAT16", 1, 4, {1, 1, 1, 1}, {1, 4}, {1, 1}, {0, 0}, {0, 0}, extra);
            auto parsed = parse_desc(op, d.dump());
            ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
            const Tolerance t = op.default_tolerance(**parsed, 0);
            EXPECT_TRUE(t.narrowing_toward_zero) << name;
            std::vector<HostTensor> outputs;
            outputs.emplace_back(*op.tensors(**parsed).back().desc);
            HostTensor* output_ptrs[] = {&outputs[0]};
            const HostTensor* input_ptrs[] = {&x};
            std::vector<ExactOutput> exact(1);
            ThreadPool pool(1);
            const SemanticsOptions semantics;
            ReferenceContext context{pool, semantics, &exact};
            ASSERT_TRUE(op.run_reference(**parsed, input_ptrs, output_ptrs, context).is_ok());
            ASSERT_EQ(exact[0].exact.size(), 1u);
            EXPECT_EQ(exact[0].exact[0], sign * 75.046875);
            auto verdict = [&](double got) {
                return compare_to_exact(exact[0], make_tensor(DataType::kFloat16, {1, 1, 1, 1}, {sign * got}), t)
                           .verdict == Verdict::kPassed;
            };
            EXPECT_TRUE(verdict(75.0)) << name << ": toward zero";
            EXPECT_TRUE(verdict(75.0625)) << name << ": nearest";
            EXPECT_FALSE(verdict(75.125)) << name << ": beyond nearest";
            EXPECT_FALSE(verdict(74.9375)) << name << ": beyond toward zero";
        }
    }
    // FLOAT32 averages are not narrowed.
    const Op& op = builtin_op("AVERAGE_POOLING");
    auto parsed = parse_desc(op, desc2d("FLOAT32", 1, 4, {1, 1, 1, 1}, {1, 4}, {1, 1}, {0, 0}, {0, 0},
                                        {{"IncludePadding", false}}).dump());
    ASSERT_TRUE(parsed.is_ok());
    EXPECT_FALSE(op.default_tolerance(**parsed, 0).narrowing_toward_zero);
}

// A window whose first tap is NaN: the reference keeps the NaN (nothing is greater); Direct3D's max returns the
// non-NaN operand, so the maximum of the other taps (DirectML 1.15.4's choice) and its index are right too, and
// nothing else. A NaN after the first tap is never selected by either rule.
TEST(Pooling, MaxAlsoAcceptsTheNanSkippingSelectionOfAWindowStartingWithNan) {
    const Op& op = builtin_op("MAX_POOLING2");
    const double nan = std::nan("");
    // Two 1x4 windows: {NaN, 1, 3, 2} and {1, NaN, 5, 2}.
    const HostTensor x = make_tensor(DataType::kFloat16, {1, 1, 2, 4}, {nan, 1, 3, 2, 1, nan, 5, 2});
    json d = desc2d("FLOAT16", 2, 4, {1, 1, 2, 1}, {1, 4}, {1, 1}, {0, 0}, {0, 0},
                    {{"OutputIndicesTensor", tensor("UINT32", {1, 1, 2, 1})}, {"Dilations", {1, 1}}});
    auto parsed = parse_desc(op, d.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    std::vector<HostTensor> outputs;
    for (const TensorSlot& slot : op.tensors(**parsed))
        if (slot.role == TensorRole::kOutput) outputs.emplace_back(*slot.desc);
    ASSERT_EQ(outputs.size(), 2u);
    HostTensor* output_ptrs[] = {&outputs[0], &outputs[1]};
    const HostTensor* input_ptrs[] = {&x};
    std::vector<ExactOutput> exact(2);
    ThreadPool pool(1);
    const SemanticsOptions semantics;
    ReferenceContext context{pool, semantics, &exact};
    ASSERT_TRUE(op.run_reference(**parsed, input_ptrs, output_ptrs, context).is_ok());
    EXPECT_TRUE(std::isnan(values_of(outputs[0])[0]));
    EXPECT_EQ(values_of(outputs[0])[1], 5);
    EXPECT_EQ(values_of(outputs[1]), (std::vector<double>{0, 6}));
    const Tolerance bitwise = op.default_tolerance(**parsed, 0);
    auto passes = [&](size_t output, DataType type, std::vector<double> got) {
        return compare_tensors(outputs[output], make_tensor(type, {1, 1, 2, 1}, got), bitwise, 8,
                               exact[output].also_accepts)
                   .verdict == Verdict::kPassed;
    };
    EXPECT_TRUE(passes(0, DataType::kFloat16, {nan, 5}));  // the reference's own
    EXPECT_TRUE(passes(0, DataType::kFloat16, {3, 5}));    // NaN skipped (DirectML)
    EXPECT_FALSE(passes(0, DataType::kFloat16, {2, 5}));   // not the maximum of the others
    EXPECT_FALSE(passes(0, DataType::kFloat16, {1, 5}));   // the first non-NaN tap only
    EXPECT_FALSE(passes(0, DataType::kFloat16, {3, nan})); // a later NaN is never selected
    EXPECT_TRUE(passes(1, DataType::kUint32, {2, 6}));
    EXPECT_FALSE(passes(1, DataType::kUint32, {3, 6}));
    EXPECT_FALSE(passes(1, DataType::kUint32, {0, 5}));
}

// The descs DirectML 1.15.4 refuses (gpu/directml/deviations/1.15.4.json, probes in
// results/directml_pooling_2026-11-29.txt): each model speaks exactly about its probed shapes.
TEST(Pooling, QuantizedAverageDeviationModelsMatchTheProbes) {
    const Op& op = builtin_op("QUANTIZED_LINEAR_AVERAGE_POOLING");
    const auto applies = [&](const json& d) {
        auto parsed = parse_desc(op, d.dump());
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        std::vector<std::string> names;
        for (const DeviationModel& m : op.deviation_models())
            if (m.applies(**parsed)) names.push_back(m.name);
        return names;
    };
    const auto q = [](uint32_t rank, const char* in, const char* out, std::vector<uint32_t> scale,
                      std::optional<std::vector<uint32_t>> zero_point) {
        const std::vector<uint32_t> spatial(rank - 2, 4), pooled(rank - 2, 2), ones(rank - 2, 0);
        std::vector<uint32_t> in_sizes{1, 2}, out_sizes{1, 2};
        in_sizes.insert(in_sizes.end(), spatial.begin(), spatial.end());
        out_sizes.insert(out_sizes.end(), pooled.begin(), pooled.end());
        json d = {{"InputTensor", tensor(in, in_sizes)},
                  {"InputScaleTensor", tensor("FLOAT32", scale)},
                  {"OutputScaleTensor", tensor("FLOAT32", scale)},
                  {"OutputTensor", tensor(out, out_sizes)},
                  {"DimensionCount", rank - 2},
                  {"Strides", std::vector<uint32_t>(rank - 2, 2)},
                  {"WindowSize", std::vector<uint32_t>(rank - 2, 2)},
                  {"StartPadding", ones},
                  {"EndPadding", ones},
                  {"Dilations", std::vector<uint32_t>(rank - 2, 1)},
                  {"IncludePadding", false}};
        if (zero_point) {
            d["InputZeroPointTensor"] = tensor(in, *zero_point);
            d["OutputZeroPointTensor"] = tensor(out, *zero_point);
        }
        return d;
    };
    using Names = std::vector<std::string>;
    // Run and pass on DirectML 1.15.4: no model speaks.
    EXPECT_EQ(applies(q(4, "UINT8", "UINT8", {1, 1, 1, 1}, std::vector<uint32_t>{1, 1, 1, 1})), Names{});
    EXPECT_EQ(applies(q(4, "INT8", "INT8", {1, 2, 1, 1}, std::nullopt)), Names{});
    EXPECT_EQ(applies(q(4, "UINT8", "UINT8", {1, 1, 1}, std::vector<uint32_t>{1, 1, 1})), Names{});
    EXPECT_EQ(applies(q(4, "UINT8", "UINT8", {1, 2, 1, 1, 1}, std::nullopt)), Names{});
    EXPECT_EQ(applies(q(5, "UINT8", "UINT8", {1, 1, 1, 1, 1}, std::vector<uint32_t>{1, 1, 1, 1, 1})), Names{});
    // Refused.
    EXPECT_EQ(applies(q(4, "UINT8", "INT8", {1, 1, 1, 1}, std::nullopt)), Names{"qlavgpool-input-output-types-differ"});
    EXPECT_EQ(applies(q(4, "UINT8", "UINT8", {1, 2, 1, 1}, std::vector<uint32_t>{1, 1, 1, 1})),
              Names{"qlavgpool-zero-point-scale-shapes-differ"});
    // Scales or zero points of too few dimensions: no model (DirectML's compile failure there is not deterministic);
    // dml_desc does not give them to DirectML (UNSUPPORTED), and gives every other desc.
    const auto dml_unsupported = [&](const json& d) {
        auto parsed = parse_desc(op, d.dump());
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        auto dml = op.dml_desc(**parsed);
        return !dml.is_ok() && dml.status().code() == ErrorCode::kUnsupported;
    };
    for (const json& low : {q(4, "UINT8", "UINT8", {1, 1}, std::nullopt), q(4, "UINT8", "UINT8", {2}, std::nullopt),
                            q(5, "INT8", "INT8", {1, 1, 1, 1}, std::vector<uint32_t>{1, 1, 1, 1})}) {
        EXPECT_EQ(applies(low), Names{});
        EXPECT_TRUE(dml_unsupported(low)) << low.dump();
    }
    EXPECT_FALSE(dml_unsupported(q(4, "UINT8", "UINT8", {1, 1, 1}, std::vector<uint32_t>{1, 1, 1})));
    EXPECT_FALSE(dml_unsupported(q(5, "UINT8", "UINT8", {1, 1, 1, 1, 1}, std::nullopt)));
    EXPECT_FALSE(dml_unsupported(q(4, "UINT8", "INT8", {1, 1, 1, 1}, std::nullopt)));  // a registered refusal
    // The other pooling operators have no models.
    EXPECT_TRUE(builtin_op("AVERAGE_POOLING").deviation_models().empty());
    EXPECT_TRUE(builtin_op("MAX_POOLING2").deviation_models().empty());
}

TEST(Pooling, QuantizedAverageRoundsHalfToEvenAndSaturates) {
    const Op& ql = builtin_op("QUANTIZED_LINEAR_AVERAGE_POOLING");
    // Two channels of 1x2: channel 0 {10, 15} - zp 10 = {0, 5}, mean 2.5 -> *1/1 -> 2 (half to even) + 3 = 5;
    // channel 1 {250, 255} - 10 = {240, 245}, mean 242.5 -> 242 + 3 = 245; with output scale 0.5: 485 + 3 -> 255.
    const HostTensor x = make_tensor(DataType::kUint8, {1, 2, 1, 2}, {10, 15, 250, 255});
    const HostTensor xs = make_tensor(DataType::kFloat32, {1, 1, 1, 1}, {1.0});
    const HostTensor xz = make_tensor(DataType::kUint8, {1, 1, 1, 1}, {10});
    const HostTensor ys = make_tensor(DataType::kFloat32, {2}, {1.0, 0.5});
    const HostTensor yz = make_tensor(DataType::kUint8, {1, 1, 1, 1}, {3});
    json d = desc2d("UINT8", 1, 2, {1, 2, 1, 1}, {1, 2}, {1, 1}, {0, 0}, {0, 0},
                    {{"Dilations", {1, 1}}, {"IncludePadding", false}});
    d["InputTensor"]["Sizes"] = {1, 2, 1, 2};
    d["InputScaleTensor"] = tensor("FLOAT32", {1, 1, 1, 1});
    d["InputZeroPointTensor"] = tensor("UINT8", {1, 1, 1, 1});
    d["OutputScaleTensor"] = tensor("FLOAT32", {2});
    d["OutputZeroPointTensor"] = tensor("UINT8", {1, 1, 1, 1});
    const auto out = reference(ql, d, {&x, &xs, &xz, &ys, &yz});
    EXPECT_EQ(values_of(out[0]), (std::vector<double>{5, 255}));
    // A zero scale is refused by the value check (run and validate), naming the tensor.
    const HostTensor zero = make_tensor(DataType::kFloat32, {1, 1, 1, 1}, {0.0});
    auto parsed = parse_desc(ql, d.dump());
    ASSERT_TRUE(parsed.is_ok());
    const std::vector<const HostTensor*> with_zero{&x, &zero, &xz, &ys, &yz};
    const Status s = ql.check_input_values(**parsed, with_zero);
    EXPECT_NE(s.message().find("InputScaleTensor: expected a finite non-zero scale, found 0"), std::string::npos)
        << s.message();
}

}  // namespace
}  // namespace dmltool::ops::pooling
