// Tests of DML_OPERATOR_GEMM: a hand-worked product, every validation rule (one-line messages with the JSON path),
// FusedActivation refused as unsupported, the feature-level table, TransA/TransB against explicitly transposed data,
// broadcast C, and the reference's error-bound data (exact values and scales).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/gemm/gemm.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::gemm {
namespace {

using nlohmann::json;
using testing::parse_desc;
using testing::rejection;
using testing::tensor_json;

json desc_json(DataType type, const Dims& a, const Dims& b, std::optional<Dims> c, const Dims& out, bool ta = false,
               bool tb = false, double alpha = 1, double beta = 1) {
    json d = {{"ATensor", tensor_json(type, a)},
              {"BTensor", tensor_json(type, b)},
              {"OutputTensor", tensor_json(type, out)},
              {"TransA", ta ? "DML_MATRIX_TRANSFORM_TRANSPOSE" : "DML_MATRIX_TRANSFORM_NONE"},
              {"TransB", tb ? "TRANSPOSE" : "NONE"},
              {"Alpha", alpha},
              {"Beta", beta}};
    if (c) d["CTensor"] = tensor_json(type, *c);
    return d;
}

Result<std::vector<double>> run(const json& desc, const std::vector<HostTensor>& inputs) {
    auto op = make_op();
    DMLTOOL_ASSIGN_OR_RETURN(auto parsed, parse_desc(*op, desc.dump()));
    std::vector<const HostTensor*> pointers;
    for (const HostTensor& t : inputs) pointers.push_back(t.element_count() ? &t : nullptr);
    while (pointers.size() < 3) pointers.push_back(nullptr);
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, testing::run_reference(*op, *parsed, pointers));
    return testing::values_of(outputs[0]);
}

TEST(GemmReference, HandWorkedProductWithAlphaBetaC) {
    const DataType f = DataType::kFloat32;
    // A = [[1,2,3],[4,5,6]], B = [[1,0],[0,1],[1,1]]: A x B = [[4,5],[10,11]]; 2 * that + 0.5 * [[2,4],[6,8]].
    auto y = run(desc_json(f, {1, 1, 2, 3}, {1, 1, 3, 2}, Dims{1, 1, 2, 2}, {1, 1, 2, 2}, false, false, 2, 0.5),
                 {testing::make_tensor(f, {1, 1, 2, 3}, {1, 2, 3, 4, 5, 6}),
                  testing::make_tensor(f, {1, 1, 3, 2}, {1, 0, 0, 1, 1, 1}),
                  testing::make_tensor(f, {1, 1, 2, 2}, {2, 4, 6, 8})});
    ASSERT_TRUE(y.is_ok()) << y.status().message();
    EXPECT_EQ(*y, (std::vector<double>{9, 12, 23, 26}));
}

TEST(GemmReference, TransposesReadTheOtherLayout) {
    const DataType f = DataType::kFloat32;
    const std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 0, 1, 1, 1};
    // TransA: A given as its 3x2 transpose; TransB: B given as its 2x3 transpose.
    const std::vector<double> at = {1, 4, 2, 5, 3, 6}, bt = {1, 0, 1, 0, 1, 1};
    auto plain = run(desc_json(f, {2, 3}, {3, 2}, std::nullopt, {2, 2}),
                     {testing::make_tensor(f, {2, 3}, a), testing::make_tensor(f, {3, 2}, b)});
    auto both = run(desc_json(f, {3, 2}, {2, 3}, std::nullopt, {2, 2}, true, true),
                    {testing::make_tensor(f, {3, 2}, at), testing::make_tensor(f, {2, 3}, bt)});
    ASSERT_TRUE(plain.is_ok() && both.is_ok());
    EXPECT_EQ(*plain, (std::vector<double>{4, 5, 10, 11}));
    EXPECT_EQ(*both, *plain);
}

TEST(GemmReference, BroadcastCAndBatches) {
    const DataType f = DataType::kFloat16;
    // Two batches of 1x1 x 1x2; C {2,1,1,2} broadcast over the batches with a stride of 0 (its logical data repeats),
    // Beta 2.
    json d = desc_json(f, {2, 1, 1, 1}, {2, 1, 1, 2}, Dims{2, 1, 1, 2}, {2, 1, 1, 2}, false, false, 1, 2);
    d["CTensor"] = tensor_json(f, {2, 1, 1, 2}, Dims{0, 2, 2, 1});
    auto y = run(d, {testing::make_tensor(f, {2, 1, 1, 1}, {3, -1}), testing::make_tensor(f, {2, 1, 1, 2}, {1, 2, 3, 4}),
                     testing::make_tensor(f, {2, 1, 1, 2}, {0.5, 1, 0.5, 1})});
    ASSERT_TRUE(y.is_ok()) << y.status().message();
    EXPECT_EQ(*y, (std::vector<double>{4, 8, -2, -2}));
}

TEST(GemmValidation, RejectsEachRuleWithItsPath) {
    auto op = make_op();
    const DataType f = DataType::kFloat32;
    EXPECT_NE(rejection(*op, desc_json(f, {2, 3}, {4, 2}, std::nullopt, {2, 2}).dump())
                  .find("/BTensor/Sizes/0: expected 3 (K: ATensor {2,3} is {.., M, K}), found 4"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {2, 3}, {3, 2}, std::nullopt, {2, 3}).dump())
                  .find("/OutputTensor/Sizes: expected {2,2}"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {2, 3}, {3, 2}, Dims{1, 2}, {2, 2}).dump())
                  .find("/CTensor/Sizes: expected {2,2} (OutputTensor's Sizes; a C that broadcasts does so with Strides "
                        "of 0), found {1,2}"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {1, 2, 3}, {3, 2}, std::nullopt, {1, 2, 2}).dump())
                  .find("/BTensor/Sizes: expected 3 dimensions"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {2, 2, 3}, {1, 3, 2}, std::nullopt, {2, 2, 2}).dump())
                  .find("/BTensor/Sizes/0: expected 2 (ATensor's batch dimension)"),
              std::string::npos);
    json int_type = desc_json(DataType::kInt32, {2, 3}, {3, 2}, std::nullopt, {2, 2});
    EXPECT_NE(rejection(*op, int_type.dump()).find("/ATensor/DataType: expected one of"), std::string::npos);
    json mixed = desc_json(f, {2, 3}, {3, 2}, std::nullopt, {2, 2});
    mixed["BTensor"] = tensor_json(DataType::kFloat16, {3, 2});
    EXPECT_NE(rejection(*op, mixed.dump()).find("/BTensor/DataType: expected FLOAT32"), std::string::npos);
    json bad_enum = desc_json(f, {2, 3}, {3, 2}, std::nullopt, {2, 2});
    bad_enum["TransA"] = "FLIP";
    EXPECT_NE(rejection(*op, bad_enum.dump()).find("/TransA"), std::string::npos);
}

TEST(GemmValidation, FusedActivationIsUnsupportedNotIgnored) {
    auto op = make_op();
    json d = desc_json(DataType::kFloat32, {2, 3}, {3, 2}, std::nullopt, {2, 2});
    d["FusedActivation"] = {{"type", "DML_OPERATOR_ACTIVATION_RELU"}};
    auto parsed = parse_desc(*op, d.dump());
    ASSERT_FALSE(parsed.is_ok());
    EXPECT_EQ(parsed.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(parsed.status().message().find("/FusedActivation: dmltool's GEMM does not implement"), std::string::npos);
    d["FusedActivation"] = nullptr;
    EXPECT_TRUE(parse_desc(*op, d.dump()).is_ok());
}

TEST(GemmFeatureLevels, FollowTheTable) {
    auto op = make_op();
    const auto level = [&](const json& d) {
        auto desc = parse_desc(*op, d.dump());
        EXPECT_TRUE(desc.is_ok()) << desc.status().message();
        auto fl = min_feature_level(*op, **desc);
        return fl.is_ok() ? fl->to_string() : std::string("none");
    };
    EXPECT_EQ(level(desc_json(DataType::kFloat32, {1, 1, 2, 3}, {1, 1, 3, 2}, std::nullopt, {1, 1, 2, 2})), "1_0");
    EXPECT_EQ(level(desc_json(DataType::kFloat16, {1, 1, 2, 3}, {1, 1, 3, 2}, Dims{1, 1, 2, 2}, {1, 1, 2, 2})), "1_0");
    EXPECT_EQ(level(desc_json(DataType::kFloat32, {2, 3}, {3, 2}, std::nullopt, {2, 2})), "4_0");
    EXPECT_EQ(level(desc_json(DataType::kFloat32, {4, 2, 3}, {4, 3, 2}, std::nullopt, {4, 2, 2})), "4_0");
}

TEST(GemmDerivedOutputs, BatchMAndNFromTheTransforms) {
    auto op = make_op();
    json d = desc_json(DataType::kFloat16, {2, 5, 3}, {2, 4, 5}, std::nullopt, {1}, true, true);
    d.erase("OutputTensor");
    ASSERT_TRUE(op->derive_outputs(d, "/operator/desc").is_ok());
    EXPECT_EQ(d["OutputTensor"]["Sizes"], json({2, 3, 4}));
    EXPECT_EQ(d["OutputTensor"]["DataType"], "FLOAT16");
    EXPECT_TRUE(parse_desc(*op, d.dump()).is_ok());
}

// The exact value and error scale the runner's bound uses: M = (K + 3) * |Alpha| * sum |a*b| + 2 * |Beta * c|.
TEST(GemmReference, ErrorScaleFollowsTheDotProductBound) {
    auto op = make_op();
    const DataType f = DataType::kFloat32;
    auto desc = parse_desc(*op, desc_json(f, {1, 2}, {2, 1}, Dims{1, 1}, {1, 1}, false, false, -2, 3).dump());
    ASSERT_TRUE(desc.is_ok());
    const HostTensor a = testing::make_tensor(f, {1, 2}, {1.5, -2}), b = testing::make_tensor(f, {2, 1}, {4, 0.25});
    const HostTensor c = testing::make_tensor(f, {1, 1}, {0.125});
    HostTensor out(static_cast<const GemmDesc&>(**desc).output);
    ThreadPool pool(1);
    SemanticsOptions semantics;
    std::vector<ExactOutput> exact(1);
    const HostTensor* inputs[] = {&a, &b, &c};
    HostTensor* outputs[] = {&out};
    ASSERT_TRUE(op->run_reference(**desc, inputs, outputs, {pool, semantics, &exact}).is_ok());
    EXPECT_EQ(exact[0].exact[0], -2 * (6 - 0.5) + 3 * 0.125);
    EXPECT_EQ(exact[0].scale[0], (2 + 3) * 2 * (6 + 0.5) + 2 * 0.375);
    EXPECT_EQ(testing::values_of(out)[0], -10.625);
}

}  // namespace
}  // namespace dmltool::ops::gemm
