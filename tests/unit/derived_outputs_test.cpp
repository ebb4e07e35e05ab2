// Output sizes the operators derive (Op::derive_outputs, docs/case-format.md: Derived output sizes): each operator's formula,
// the default data type, given members left alone, and the errors when the sizes cannot be derived.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/case_spec.h"
#include "core/op_registry.h"

namespace dmltool {
namespace {

using nlohmann::json;

class DerivedOutputsTest : public ::testing::Test {
protected:
    // The desc after derivation, or the error message.
    json derive(const std::string& op, json desc) {
        const Status status = registry_.find(op)->derive_outputs(desc, "/d");
        return status.is_ok() ? desc : json(status.message());
    }
    std::vector<uint64_t> sizes(const json& desc, const std::string& member) {
        EXPECT_TRUE(desc.is_object()) << desc.dump();
        return desc.is_object() ? desc[member]["Sizes"].get<std::vector<uint64_t>>() : std::vector<uint64_t>{};
    }

    OpRegistry registry_ = make_builtin_registry();
};

json tensor(const std::string& type, std::vector<uint64_t> sizes) { return {{"DataType", type}, {"Sizes", sizes}}; }

TEST_F(DerivedOutputsTest, DepthToSpaceMovesBlocksOfChannelsIntoSpace) {
    const json d2s = {{"InputTensor", tensor("FLOAT16", {2, 18, 3, 5})}, {"BlockSize", 3u}, {"Order", "DEPTH_COLUMN_ROW"}};
    const json out = derive("DEPTH_TO_SPACE1", d2s);
    EXPECT_EQ(sizes(out, "OutputTensor"), (std::vector<uint64_t>{2, 2, 9, 15}));
    EXPECT_EQ(out["OutputTensor"]["DataType"], "FLOAT16");
    // An output given with a DataType but no Sizes keeps its DataType (parse() then judges it).
    json typed = d2s;
    typed["OutputTensor"] = {{"DataType", "FLOAT32"}};
    EXPECT_EQ(derive("DEPTH_TO_SPACE1", typed)["OutputTensor"], tensor("FLOAT32", {2, 2, 9, 15}));
    // Given sizes are never changed, even wrong ones: parse() reports them.
    json given = d2s;
    given["OutputTensor"] = tensor("FLOAT16", {1, 1, 1, 1});
    EXPECT_EQ(derive("DEPTH_TO_SPACE1", given), given);
    json uneven = d2s;
    uneven["InputTensor"]["Sizes"] = {1u, 8u, 2u, 2u};
    EXPECT_EQ(derive("DEPTH_TO_SPACE1", uneven),
              "/d/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by BlockSize^2 = 9 (BlockSize 3), "
              "found 8");
    json no_block = d2s;
    no_block.erase("BlockSize");
    EXPECT_EQ(derive("DEPTH_TO_SPACE1", no_block), "/d/BlockSize: missing required member (an unsigned integer)");
}

TEST_F(DerivedOutputsTest, ResampleFloorsSizeTimesScale) {
    const json desc = {{"InputTensor", tensor("FLOAT32", {1, 3, 5, 5})},
                       {"InterpolationMode", "LINEAR"},
                       {"Scales", {1, 1, 0.5, 1.5}}};
    const json out = derive("RESAMPLE", desc);
    EXPECT_EQ(sizes(out, "OutputTensor"), (std::vector<uint64_t>{1, 3, 2, 7}));
    EXPECT_EQ(out["OutputTensor"]["DataType"], "FLOAT32");
    json short_scales = desc;
    short_scales["Scales"] = {2, 2};
    EXPECT_EQ(derive("RESAMPLE", short_scales),
              "/d/Scales: expected 4 scales (one per dimension of InputTensor {1,3,5,5}), found 2");
}

json qlconv_desc() {
    return {{"InputTensor", tensor("UINT8", {2, 4, 7, 6})},
            {"InputScaleTensor", tensor("FLOAT32", {1, 1, 1, 1})},
            {"FilterTensor", tensor("INT8", {8, 2, 3, 2})},
            {"FilterScaleTensor", tensor("FLOAT32", {1, 1, 1, 1})},
            {"OutputScaleTensor", tensor("FLOAT32", {1, 1, 1, 1})},
            {"Strides", {2u, 1u}},
            {"Dilations", {1u, 2u}},
            {"StartPadding", {1u, 0u}},
            {"EndPadding", {0u, 1u}},
            {"GroupCount", 2u}};
}

TEST_F(DerivedOutputsTest, QuantizedConvolutionUsesTheConvolutionFormula) {
    // H: (7 + 1 + 0 - 3) / 2 + 1 = 3; W: (6 + 0 + 1 - ((2 - 1) * 2 + 1)) / 1 + 1 = 5; M = 8.
    const json out = derive("QUANTIZED_LINEAR_CONVOLUTION", qlconv_desc());
    EXPECT_EQ(out["OutputTensor"], tensor("UINT8", {2, 8, 3, 5}));
    // The output zero point's type is the output's.
    json with_zero_point = qlconv_desc();
    with_zero_point["OutputZeroPointTensor"] = tensor("INT8", {1, 1, 1, 1});
    EXPECT_EQ(derive("QUANTIZED_LINEAR_CONVOLUTION", with_zero_point)["OutputTensor"]["DataType"], "INT8");
    json too_big = qlconv_desc();
    too_big["FilterTensor"]["Sizes"] = {8u, 2u, 9u, 2u};
    EXPECT_EQ(derive("QUANTIZED_LINEAR_CONVOLUTION", too_big),
              "/d/FilterTensor/Sizes: expected the dilated kernel ((9 - 1) * Dilations[0] 1 + 1 = 9) to fit the padded "
              "input (7 + StartPadding 1 + EndPadding 0) in spatial dimension 0, found {8,2,9,2}");
    json no_strides = qlconv_desc();
    no_strides.erase("Strides");  // DML requires them: no default
    EXPECT_EQ(derive("QUANTIZED_LINEAR_CONVOLUTION", no_strides),
              "/d/Strides: missing required member (an array of unsigned integers)");
}

TEST_F(DerivedOutputsTest, SplitMakesEqualPartsOrTheGivenSizesAlongAxis) {
    const json base = {{"InputTensor", tensor("INT8", {1, 6, 2, 4})}, {"Axis", 1u}};
    json equal = base;
    equal["OutputCount"] = 3u;
    const json parts = derive("SPLIT", equal);
    EXPECT_EQ(parts["OutputTensors"], json::array({tensor("INT8", {1, 2, 2, 4}), tensor("INT8", {1, 2, 2, 4}),
                                                   tensor("INT8", {1, 2, 2, 4})}));
    EXPECT_EQ(parts["OutputCount"], 3);  // kept: parse() checks it against OutputTensors
    json given = base;
    given["OutputSizesAlongAxis"] = {1u, 5u};
    const json two = derive("SPLIT", given);
    EXPECT_EQ(two["OutputTensors"], json::array({tensor("INT8", {1, 1, 2, 4}), tensor("INT8", {1, 5, 2, 4})}));
    EXPECT_FALSE(two.contains("OutputSizesAlongAxis"));  // a dmltool extension, gone once used
    equal["OutputCount"] = 4u;
    EXPECT_EQ(derive("SPLIT", equal),
              "/d/OutputCount: expected a count that divides InputTensor Sizes[1] = 6 into equal parts, found 4");
    given["OutputSizesAlongAxis"] = {1u, 4u};
    EXPECT_EQ(derive("SPLIT", given),
              "/d/OutputSizesAlongAxis: expected sizes summing to InputTensor Sizes[1] = 6, found 5 ({1,4})");
    given["OutputSizesAlongAxis"] = {6u, 0u};
    EXPECT_EQ(derive("SPLIT", given), "/d/OutputSizesAlongAxis/1: expected a size >= 1, found 0");
    json both = given;
    both["OutputTensors"] = json::array({tensor("INT8", {1, 6, 2, 4})});
    EXPECT_EQ(derive("SPLIT", both),
              "/d/OutputSizesAlongAxis: expected it only without OutputTensors (it derives them), found both");
    EXPECT_EQ(derive("SPLIT", base),
              "/d/OutputTensors: missing required member (an array of tensor descs; or OutputCount for equal parts, "
              "or OutputSizesAlongAxis, along Axis)");
}

TEST_F(DerivedOutputsTest, DerivedCasesLoadAndRunLikeWrittenOnes) {
    const std::string text = R"({"cases": [
      {"name": "split/derived", "operator": {"type": "SPLIT", "desc": {
         "InputTensor": {"DataType": "UINT16", "Sizes": [1, 4, 1, 1]}, "Axis": 1, "OutputCount": 2}},
       "inputs": {"InputTensor": {"values": [1, 2, 3, 4]}},
       "expected": {"OutputTensors": [{"values": [1, 2]}, {"values": [3, 4]}]}},
      {"name": "d2s/typed_output", "operator": {"type": "DEPTH_TO_SPACE1", "desc": {
         "InputTensor": {"DataType": "UINT16", "Sizes": [1, 4, 1, 1]}, "OutputTensor": {"DataType": "UINT8"},
         "BlockSize": 2, "Order": "DEPTH_COLUMN_ROW"}},
       "inputs": {"InputTensor": {"random": {}}}}]})";
    const CaseFile file = load_case_text(text, "derived.json", registry_);
    ASSERT_EQ(file.cases.size(), 2u);
    EXPECT_TRUE(file.cases[0].status.is_ok()) << file.cases[0].status.message();
    // A derived output's given DataType still meets the operator's rules.
    EXPECT_EQ(file.cases[1].status.message(),
              "derived.json: case 'd2s/typed_output': /cases/1/operator/desc/OutputTensor/DataType: expected UINT16 "
              "(the InputTensor's data type), found UINT8");
}

}  // namespace
}  // namespace dmltool
