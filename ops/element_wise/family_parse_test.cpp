// Bad descs of the families get one-line messages naming the JSON path, what was expected and what was found; and
// what the generic reader accepts (attributes of every kind, ScaleBias, FusedActivation, scalar unions, Axes).
#include <gtest/gtest.h>

#include "core/op_registry.h"
#include "ops/element_wise/desc.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::element_wise {
namespace {

using dmltool::testing::rejection;
using nlohmann::json;

json t(const char* type, Dims sizes) { return {{"DataType", type}, {"Sizes", sizes}}; }

class FamilyParse : public ::testing::Test {
protected:
    const Op& op(std::string_view name) {
        const Op* o = registry_.find(name);
        EXPECT_NE(o, nullptr) << name;
        return *o;
    }
    OpRegistry registry_ = make_builtin_registry();
};

TEST_F(FamilyParse, InputSizesMustBeTheOutputsBroadcastIsByStrides) {
    json d = {{"ATensor", t("FLOAT32", {2, 3})}, {"BTensor", t("FLOAT32", {1, 3})}, {"OutputTensor", t("FLOAT32", {2, 3})}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_ADD"), d.dump()),
              "/operator/desc/BTensor/Sizes: expected {2,3} (the OutputTensor's Sizes; element-wise operators broadcast "
              "through Strides, 0 on a broadcast dimension), found {1,3}");
    d["BTensor"] = {{"DataType", "FLOAT32"}, {"Sizes", {2, 3}}, {"Strides", {0, 1}}};
    EXPECT_TRUE(dmltool::testing::parse_desc(op("ELEMENT_WISE_ADD"), d.dump()).is_ok());
}

// Throughput counts bytes moved: a broadcast input (stride 0) is one read per distinct element, as the copy
// roofline and PyTorch's peer count it; a logical count would put a broadcast add above 100% of the copy.
TEST_F(FamilyParse, WorkCountsEachBroadcastElementOnce) {
    json d = {{"ATensor", t("FLOAT32", {2, 64, 8, 8})},
              {"BTensor", {{"DataType", "FLOAT32"}, {"Sizes", {2, 64, 8, 8}}, {"Strides", {0, 1, 0, 0}}}},
              {"OutputTensor", t("FLOAT32", {2, 64, 8, 8})}};
    auto desc = dmltool::testing::parse_desc(op("ELEMENT_WISE_ADD"), d.dump());
    ASSERT_TRUE(desc.is_ok());
    const uint64_t n = 2 * 64 * 8 * 8;
    EXPECT_EQ(op("ELEMENT_WISE_ADD").work(**desc).bytes, 4 * (n + 64 + n));
    EXPECT_EQ(op("ELEMENT_WISE_ADD").work(**desc).ops, n);
}

TEST_F(FamilyParse, SameTypeGroupsAndRowRules) {
    json d = {{"ATensor", t("FLOAT32", {4})}, {"BTensor", t("FLOAT16", {4})}, {"OutputTensor", t("FLOAT32", {4})}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_MULTIPLY"), d.dump()),
              "/operator/desc/BTensor/DataType: expected FLOAT32 (the ATensor's data type), found FLOAT16");
    json clip = {{"InputTensor", t("INT32", {4})}, {"OutputTensor", t("INT32", {4})}, {"MinMaxDataType", "FLOAT32"},
                 {"Min", 0}, {"Max", 1}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_CLIP1"), clip.dump()),
              "/operator/desc/MinMaxDataType: expected INT32 (the OutputTensor's DataType), found FLOAT32");
    json softmax = {{"InputTensor", t("FLOAT32", {2, 3})}, {"OutputTensor", t("FLOAT32", {2, 3})}, {"Axes", {1, 2}}};
    EXPECT_EQ(rejection(op("ACTIVATION_SOFTMAX1"), softmax.dump()),
              "/operator/desc/Axes/1: expected an axis in [0, 1] (the OutputTensor has 2 dimensions), found 2");
    softmax["Axes"] = {1};
    softmax["AxisCount"] = 2;
    EXPECT_EQ(rejection(op("ACTIVATION_SOFTMAX1"), softmax.dump()),
              "/operator/desc/AxisCount: expected 1 (the length of Axes), found 2");
}

TEST_F(FamilyParse, AttributesOfEveryKind) {
    json d = {{"InputTensor", t("FLOAT32", {4})}, {"OutputTensor", t("FLOAT32", {4})}, {"Alpha", "fast"}};
    EXPECT_EQ(rejection(op("ACTIVATION_ELU"), d.dump()),
              "/operator/desc/Alpha: expected a 32-bit float (a number, \"inf\" or \"-inf\"), found string \"fast\"");
    d.erase("Alpha");
    EXPECT_EQ(rejection(op("ACTIVATION_ELU"), d.dump()), "/operator/desc/Alpha: missing required member (a number)");
    json round = {{"InputTensor", t("FLOAT32", {4})}, {"OutputTensor", t("FLOAT32", {4})}, {"RoundingMode", "UP"}};
    EXPECT_NE(rejection(op("ELEMENT_WISE_ROUND"), round.dump()).find("/operator/desc/RoundingMode: expected one of "
                                                                     "HALVES_TO_NEAREST_EVEN, TOWARD_ZERO, TOWARD_INFINITY"),
              std::string::npos);
    round["RoundingMode"] = "DML_ROUNDING_MODE_TOWARD_ZERO";
    EXPECT_TRUE(dmltool::testing::parse_desc(op("ELEMENT_WISE_ROUND"), round.dump()).is_ok());
    json clip = {{"InputTensor", t("INT8", {4})}, {"OutputTensor", t("INT8", {4})}, {"MinMaxDataType", "INT8"},
                 {"Min", -200}, {"Max", 1}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_CLIP1"), clip.dump()), "/operator/desc/Min: expected a INT8 value, found number -200");
    clip["Min"] = -100;
    auto parsed = dmltool::testing::parse_desc(op("ELEMENT_WISE_CLIP1"), clip.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    EXPECT_EQ(static_cast<const ElementWiseDesc&>(**parsed).attribute("Min")->scalar.as_int64(), -100);
}

TEST_F(FamilyParse, ScaleBiasAndFusedActivation) {
    json d = {{"InputTensor", t("FLOAT32", {4})}, {"OutputTensor", t("FLOAT32", {4})}, {"ScaleBias", {{"Scale", 2}}}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_EXP"), d.dump()),
              "/operator/desc/ScaleBias/Bias: missing required member (a number)");
    d["ScaleBias"] = 3;
    EXPECT_EQ(rejection(op("ELEMENT_WISE_EXP"), d.dump()), "/operator/desc/ScaleBias: expected an object, found number 3");
    json add = {{"ATensor", t("FLOAT32", {4})}, {"BTensor", t("FLOAT32", {4})}, {"OutputTensor", t("FLOAT32", {4})},
                {"FusedActivation", {{"type", "DML_OPERATOR_ACTIVATION_SOFTMAX"}}}};
    EXPECT_NE(rejection(op("ELEMENT_WISE_ADD1"), add.dump()).find("/operator/desc/FusedActivation/type: expected an "
                                                                 "activation DirectML can fuse ("),
              std::string::npos);
    add["FusedActivation"] = {{"type", "ACTIVATION_LEAKY_RELU"},
                              {"desc", {{"InputTensor", t("FLOAT32", {4})}, {"Alpha", 0.1}}}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_ADD1"), add.dump()),
              "/operator/desc/FusedActivation/desc/InputTensor: expected no tensor (a fused activation's tensors are "
              "null in DirectML), found object");
    add["FusedActivation"]["desc"].erase("InputTensor");
    auto parsed = dmltool::testing::parse_desc(op("ELEMENT_WISE_ADD1"), add.dump());
    ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
    const auto& desc = static_cast<const ElementWiseDesc&>(**parsed);
    ASSERT_TRUE(desc.fused_activation);
    EXPECT_EQ(desc.fused_activation->function->name, "ACTIVATION_LEAKY_RELU");
    EXPECT_FLOAT_EQ(desc.fused_activation->attributes[0].float_value, 0.1f);
    json int_add = {{"ATensor", t("INT32", {4})}, {"BTensor", t("INT32", {4})}, {"OutputTensor", t("INT32", {4})},
                    {"FusedActivation", {{"type", "ACTIVATION_RELU"}}}};
    EXPECT_EQ(rejection(op("ELEMENT_WISE_ADD1"), int_add.dump()),
              "/operator/desc/FusedActivation: expected none for a INT32 OutputTensor (DirectML fuses activations only "
              "into FLOAT32 and FLOAT16 outputs)");
}

TEST_F(FamilyParse, DerivedOutputTakesTheSharedTypeAndSizes) {
    json d = {{"InputTensor", t("FLOAT32", {2, 3})}, {"ScaleTensor", t("FLOAT32", {2, 3})},
              {"ZeroPointTensor", t("INT8", {2, 3})}};
    ASSERT_TRUE(op("ELEMENT_WISE_QUANTIZE_LINEAR").derive_outputs(d, "/operator/desc").is_ok());
    EXPECT_EQ(d["OutputTensor"]["DataType"], "INT8");
    EXPECT_EQ(d["OutputTensor"]["Sizes"], json({2, 3}));
}

}  // namespace
}  // namespace dmltool::ops::element_wise
