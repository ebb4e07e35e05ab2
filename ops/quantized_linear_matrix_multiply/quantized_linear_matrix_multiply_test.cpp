// Tests of DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY: a hand-worked requantization (zero points of both signs,
// round half to even, saturation), per-row / per-column quantization, every validation rule, scale values, and the
// feature-level table.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/quantized_linear_matrix_multiply/qlmm.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::quantized_linear_matrix_multiply {
namespace {

using nlohmann::json;
using testing::make_tensor;
using testing::parse_desc;
using testing::rejection;
using testing::tensor_json;

const DataType u8 = DataType::kUint8, s8 = DataType::kInt8, f32 = DataType::kFloat32;

json desc_json(DataType at, const Dims& a, DataType bt, const Dims& b, DataType yt, const Dims& y,
               const Dims& a_scale = {1, 1, 1, 1}, const Dims& b_scale = {1, 1, 1, 1}, const Dims& y_scale = {1, 1, 1, 1},
               bool zero_points = true) {
    json d = {{"ATensor", tensor_json(at, a)},          {"AScaleTensor", tensor_json(f32, a_scale)},
              {"BTensor", tensor_json(bt, b)},          {"BScaleTensor", tensor_json(f32, b_scale)},
              {"OutputScaleTensor", tensor_json(f32, y_scale)}, {"OutputTensor", tensor_json(yt, y)}};
    if (zero_points) {
        d["AZeroPointTensor"] = tensor_json(at, a_scale);
        d["BZeroPointTensor"] = tensor_json(bt, b_scale);
        d["OutputZeroPointTensor"] = tensor_json(yt, y_scale);
    }
    return d;
}

Result<std::vector<double>> run(const json& desc, const std::vector<HostTensor>& slots) {
    auto op = make_op();
    DMLTOOL_ASSIGN_OR_RETURN(auto parsed, parse_desc(*op, desc.dump()));
    std::vector<const HostTensor*> inputs;
    for (const HostTensor& t : slots) inputs.push_back(t.element_count() ? &t : nullptr);
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, testing::run_reference(*op, *parsed, inputs));
    return testing::values_of(outputs[0]);
}

// A {1,1,2,2} uint8 (zero point 128) x B {1,1,2,2} int8 (zero point -1): acc = (a - 128) * (b + 1) summed over k;
// multiplier 0.5 * 0.25 / 0.0625 = 2 ... chosen so values land on .5 ties for half-to-even.
TEST(QlmmReference, HandWorkedRequantization) {
    const Dims one{1, 1, 1, 1};
    // a - az = [[1, 2], [-3, 0]], b - bz = [[1, -1], [2, 3]]: acc = [[5, 5], [-3, 3]].
    const std::vector<HostTensor> in = {
        make_tensor(u8, {1, 1, 2, 2}, {129, 130, 125, 128}), make_tensor(f32, one, {0.5}), make_tensor(u8, one, {128}),
        make_tensor(s8, {1, 1, 2, 2}, {0, -2, 1, 2}),        make_tensor(f32, one, {0.25}), make_tensor(s8, one, {-1}),
        make_tensor(f32, one, {0.25}),                       make_tensor(u8, one, {10})};
    // acc * 0.5 * 0.25 / 0.25 = acc / 2 = [[2.5, 2.5], [-1.5, 1.5]] -> half to even [[2, 2], [-2, 2]] + 10.
    auto y = run(desc_json(u8, {1, 1, 2, 2}, s8, {1, 1, 2, 2}, u8, {1, 1, 2, 2}), in);
    ASSERT_TRUE(y.is_ok()) << y.status().message();
    EXPECT_EQ(*y, (std::vector<double>{12, 12, 8, 12}));
}

TEST(QlmmReference, SaturatesAndPerRowPerColumn) {
    // 2-D: A {2,1} per-row scale {2,1}, B {1,2} per-column scale {1,2}, no zero points, int8 output.
    const std::vector<HostTensor> in = {
        make_tensor(s8, {2, 1}, {100, -100}), make_tensor(f32, {2, 1}, {1, 0.01}), HostTensor(),
        make_tensor(s8, {1, 2}, {100, 1}),    make_tensor(f32, {1, 2}, {1, 0.5}),  HostTensor(),
        make_tensor(f32, {1, 1}, {1}),        HostTensor()};
    auto y = run(desc_json(s8, {2, 1}, s8, {1, 2}, s8, {2, 2}, {2, 1}, {1, 2}, {1, 1}, false), in);
    ASSERT_TRUE(y.is_ok()) << y.status().message();
    // [[10000 -> 127, 100 * 0.5 = 50], [-10000 * 0.01 = -100, -100 * 0.01 * 0.5 = -0.5 -> -0 (even)]]
    EXPECT_EQ(*y, (std::vector<double>{127, 50, -100, 0}));
}

TEST(QlmmValidation, RejectsEachRuleWithItsPath) {
    auto op = make_op();
    const Dims a{1, 1, 2, 3}, b{1, 1, 3, 4}, y{1, 1, 2, 4};
    EXPECT_NE(rejection(*op, desc_json(u8, a, u8, {1, 1, 2, 4}, u8, y).dump())
                  .find("/BTensor/Sizes/2: expected 3 (K"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(u8, a, u8, b, u8, {1, 1, 2, 3}).dump()).find("/OutputTensor/Sizes: expected {1,1,2,4}"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(DataType::kInt32, a, u8, b, u8, y).dump()).find("/ATensor/DataType: expected one of"),
              std::string::npos);
    json zp = desc_json(u8, a, u8, b, u8, y);
    zp["AZeroPointTensor"] = tensor_json(s8, {1, 1, 1, 1});
    EXPECT_NE(rejection(*op, zp.dump()).find("/AZeroPointTensor/DataType: expected UINT8"), std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(u8, a, u8, b, u8, y, {1, 1, 2, 1}, {1, 1, 4, 1}).dump())
                  .find("/BScaleTensor/Sizes: expected 1 element (per tensor) or {1,1,1,4} (per column of B, N = 4)"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(u8, a, u8, b, u8, y, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1}).dump())
                  .find("/OutputScaleTensor/Sizes: expected 4 dimensions"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(u8, {1, 2, 3}, u8, {1, 3, 4}, u8, {1, 1, 2, 4}).dump())
                  .find("/OutputTensor/Sizes: expected 3 dimensions"),
              std::string::npos);
}

TEST(QlmmValidation, ScaleValuesMustBeFiniteAndNonZero) {
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(u8, {1, 1, 1, 1}, u8, {1, 1, 1, 1}, u8, {1, 1, 1, 1}).dump());
    ASSERT_TRUE(desc.is_ok());
    const Dims one{1, 1, 1, 1};
    const HostTensor x = make_tensor(u8, one, {1}), good = make_tensor(f32, one, {1}), zero = make_tensor(f32, one, {0});
    const HostTensor* inputs[] = {&x, &good, &x, &x, &zero, &x, &good, &x};
    const Status s = op->check_input_values(**desc, inputs);
    EXPECT_NE(s.message().find("BScaleTensor: expected a finite non-zero scale, found 0"), std::string::npos);
}

TEST(QlmmDerivedOutputs, SizesAndTheZeroPointsType) {
    auto op = make_op();
    json d = desc_json(u8, {3, 2, 5}, s8, {3, 5, 4}, s8, {1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1});
    d.erase("OutputTensor");
    ASSERT_TRUE(op->derive_outputs(d, "/operator/desc").is_ok());
    EXPECT_EQ(d["OutputTensor"]["Sizes"], json({3, 2, 4}));
    EXPECT_EQ(d["OutputTensor"]["DataType"], "INT8");  // the OutputZeroPointTensor's
    EXPECT_TRUE(parse_desc(*op, d.dump()).is_ok());
}

TEST(QlmmFeatureLevels, FollowTheTable) {
    auto op = make_op();
    const auto level = [&](const json& d) {
        auto desc = parse_desc(*op, d.dump());
        EXPECT_TRUE(desc.is_ok()) << desc.status().message();
        auto fl = min_feature_level(*op, **desc);
        return fl.is_ok() ? fl->to_string() : std::string("none");
    };
    EXPECT_EQ(level(desc_json(u8, {1, 1, 2, 3}, s8, {1, 1, 3, 4}, s8, {1, 1, 2, 4})), "2_1");
    EXPECT_EQ(level(desc_json(u8, {2, 3}, u8, {3, 4}, u8, {2, 4}, {1, 1}, {1, 1}, {1, 1})), "4_0");
    EXPECT_EQ(level(desc_json(u8, {1, 1, 2, 3}, u8, {1, 1, 3, 4}, u8, {1, 1, 2, 4}, {1}, {1}, {1})), "4_0");
}

}  // namespace
}  // namespace dmltool::ops::quantized_linear_matrix_multiply
