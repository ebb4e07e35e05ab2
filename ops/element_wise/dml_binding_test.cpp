// element_wise_dml_desc: the family's DirectML desc, member for member, from hand-made rows of each member shape
// (independent of the function table, so a table edit cannot hide a binding bug): tensors in member order with
// absent optional ones null, ScaleBias, the data type + DML_SCALAR_UNION pair, enum, count + array, and a fused
// activation as a nested desc without tensors.
#include <gtest/gtest.h>

#include "ops/element_wise/dml_binding.h"

namespace dmltool::ops::element_wise {
namespace {

using Kind = DmlField::Kind;

TensorDesc tensor(DataType type) {
    TensorDesc t;
    t.data_type = type;
    t.sizes = {2, 3};
    t.total_size_in_bytes = 64;
    return t;
}

AttributeValue attribute(const FunctionSpec& row, std::string_view name) {
    AttributeValue value;
    value.member = row.member(name);
    EXPECT_NE(value.member, nullptr) << name;
    return value;
}

void expect_fields(const DmlDesc& dml, const std::vector<std::pair<std::string, Kind>>& expected) {
    ASSERT_EQ(dml.fields.size(), expected.size()) << dml.operator_name;
    for (size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(dml.fields[i].name, expected[i].first) << dml.operator_name << " field " << i;
        EXPECT_EQ(dml.fields[i].kind, expected[i].second) << dml.operator_name << "." << expected[i].first;
    }
}

TEST(ElementWiseDmlDescTest, Clip1ScaleBiasDataTypeAndScalarUnions) {
    FunctionSpec row;
    row.name = "ELEMENT_WISE_CLIP1";
    row.members = {{MemberKind::kInputTensor, "InputTensor"},
                   {MemberKind::kOutputTensor, "OutputTensor"},
                   {MemberKind::kScaleBias, "ScaleBias", true},
                   {MemberKind::kDataType, "MinMaxDataType"},
                   {MemberKind::kScalarUnion, "Min", false, {}, {}, "MinMaxDataType"},
                   {MemberKind::kScalarUnion, "Max", false, {}, {}, "MinMaxDataType"}};
    ElementWiseDesc desc;
    desc.function = &row;
    desc.inputs = {tensor(DataType::kInt16)};
    desc.output = tensor(DataType::kInt16);
    desc.scale_bias = ScaleBias{2.0f, -1.0f};
    AttributeValue type = attribute(row, "MinMaxDataType"), min = attribute(row, "Min"), max = attribute(row, "Max");
    type.data_type = DataType::kInt16;
    min.scalar = ScalarUnion::of_double(DataType::kInt16, -300);
    max.scalar = ScalarUnion::of_double(DataType::kInt16, 4000);
    desc.attributes = {type, min, max};

    auto dml = element_wise_dml_desc(desc);
    ASSERT_TRUE(dml.is_ok()) << dml.status().message();
    expect_fields(*dml, {{"InputTensor", Kind::kInputTensor}, {"OutputTensor", Kind::kOutputTensor},
                         {"ScaleBias", Kind::kScaleBias}, {"MinMaxDataType", Kind::kUint},
                         {"Min", Kind::kScalarUnion}, {"Max", Kind::kScalarUnion}});
    EXPECT_EQ(dml->operator_name, "ELEMENT_WISE_CLIP1");
    EXPECT_EQ(dml->fields[0].tensor, &*desc.inputs[0]);
    EXPECT_EQ(dml->fields[1].tensor, &desc.output);
    // -300 = 0xfed4, 4000 = 0x0fa0 as INT16, little-endian; DML_TENSOR_DATA_TYPE_INT16 is 7.
    EXPECT_EQ(describe(*dml), "DML_OPERATOR_ELEMENT_WISE_CLIP1 (ScaleBias {2, -1}, MinMaxDataType 7, "
                              "Min 0x000000000000fed4, Max 0x0000000000000fa0)");
}

TEST(ElementWiseDmlDescTest, AbsentOptionalInputAndScaleBiasAreNull) {
    FunctionSpec row;
    row.name = "ELEMENT_WISE_QUANTIZE_LINEAR";
    row.members = {{MemberKind::kInputTensor, "InputTensor"},
                   {MemberKind::kInputTensor, "ScaleTensor"},
                   {MemberKind::kInputTensor, "ZeroPointTensor", true},
                   {MemberKind::kOutputTensor, "OutputTensor"}};
    ElementWiseDesc desc;
    desc.function = &row;
    desc.inputs = {tensor(DataType::kFloat32), tensor(DataType::kFloat32), std::nullopt};
    desc.output = tensor(DataType::kUint8);
    auto dml = element_wise_dml_desc(desc);
    ASSERT_TRUE(dml.is_ok()) << dml.status().message();
    EXPECT_EQ(dml->fields[1].tensor, &*desc.inputs[1]);
    EXPECT_EQ(dml->fields[2].tensor, nullptr);
    const std::vector<const TensorDesc*> bound = dml_bound_tensors(*dml, TensorRole::kInput);
    EXPECT_EQ(bound, (std::vector<const TensorDesc*>{&*desc.inputs[0], &*desc.inputs[1], nullptr}));

    FunctionSpec exp_row;
    exp_row.name = "ELEMENT_WISE_EXP";
    exp_row.members = {{MemberKind::kInputTensor, "InputTensor"},
                       {MemberKind::kOutputTensor, "OutputTensor"},
                       {MemberKind::kScaleBias, "ScaleBias", true}};
    ElementWiseDesc exp;
    exp.function = &exp_row;
    exp.inputs = {tensor(DataType::kFloat32)};
    exp.output = tensor(DataType::kFloat32);
    auto exp_dml = element_wise_dml_desc(exp);
    ASSERT_TRUE(exp_dml.is_ok());
    EXPECT_FALSE(exp_dml->fields[2].scale_bias.has_value());
}

TEST(ElementWiseDmlDescTest, Add1FusedActivationIsNestedWithoutTensors) {
    FunctionSpec linear;
    linear.name = "ACTIVATION_LINEAR";
    linear.members = {{MemberKind::kInputTensor, "InputTensor"},
                      {MemberKind::kOutputTensor, "OutputTensor"},
                      {MemberKind::kFloat, "Alpha"},
                      {MemberKind::kFloat, "Beta"}};
    FunctionSpec add;
    add.name = "ELEMENT_WISE_ADD1";
    add.members = {{MemberKind::kInputTensor, "ATensor"},
                   {MemberKind::kInputTensor, "BTensor"},
                   {MemberKind::kOutputTensor, "OutputTensor"},
                   {MemberKind::kFusedActivation, "FusedActivation", true}};
    ElementWiseDesc desc;
    desc.function = &add;
    desc.inputs = {tensor(DataType::kFloat16), tensor(DataType::kFloat16)};
    desc.output = tensor(DataType::kFloat16);
    FusedActivation fused;
    fused.function = &linear;
    AttributeValue alpha = attribute(linear, "Alpha"), beta = attribute(linear, "Beta");
    alpha.float_value = 0.5f;
    beta.float_value = 3.0f;
    fused.attributes = {alpha, beta};
    desc.fused_activation = fused;

    auto dml = element_wise_dml_desc(desc);
    ASSERT_TRUE(dml.is_ok()) << dml.status().message();
    ASSERT_EQ(dml->fields.size(), 4u);
    EXPECT_EQ(dml->fields[1].tensor, &*desc.inputs[1]);  // B, not A: operands keep their places
    ASSERT_NE(dml->fields[3].nested, nullptr);
    const DmlDesc& nested = *dml->fields[3].nested;
    EXPECT_EQ(nested.operator_name, "ACTIVATION_LINEAR");
    expect_fields(nested, {{"InputTensor", Kind::kInputTensor}, {"OutputTensor", Kind::kOutputTensor},
                           {"Alpha", Kind::kFloat}, {"Beta", Kind::kFloat}});
    EXPECT_EQ(nested.fields[0].tensor, nullptr);
    EXPECT_EQ(nested.fields[1].tensor, nullptr);
    EXPECT_EQ(describe(*dml), "DML_OPERATOR_ELEMENT_WISE_ADD1 (FusedActivation DML_OPERATOR_ACTIVATION_LINEAR "
                              "(Alpha 0.5, Beta 3))");

    desc.fused_activation.reset();
    auto plain = element_wise_dml_desc(desc);
    ASSERT_TRUE(plain.is_ok());
    EXPECT_EQ(plain->fields[3].kind, Kind::kOperatorDesc);
    EXPECT_EQ(plain->fields[3].nested, nullptr);
}

TEST(ElementWiseDmlDescTest, EnumCountArrayAndMissingValue) {
    FunctionSpec softmax;
    softmax.name = "ACTIVATION_SOFTMAX1";
    softmax.members = {{MemberKind::kInputTensor, "InputTensor"},
                       {MemberKind::kOutputTensor, "OutputTensor"},
                       {MemberKind::kArrayCount, "AxisCount", false, {}, {}, "Axes"},
                       {MemberKind::kUintArray, "Axes", false, {}, {}, "AxisCount"}};
    ElementWiseDesc desc;
    desc.function = &softmax;
    desc.inputs = {tensor(DataType::kFloat32)};
    desc.output = tensor(DataType::kFloat32);
    AttributeValue axes = attribute(softmax, "Axes");
    axes.uint_array = {1, 3, 2};
    desc.attributes = {axes};
    auto dml = element_wise_dml_desc(desc);
    ASSERT_TRUE(dml.is_ok()) << dml.status().message();
    EXPECT_EQ(describe(*dml), "DML_OPERATOR_ACTIVATION_SOFTMAX1 (AxisCount 3, Axes [1, 3, 2])");

    FunctionSpec round;
    round.name = "ELEMENT_WISE_ROUND";
    round.members = {{MemberKind::kInputTensor, "InputTensor"},
                     {MemberKind::kOutputTensor, "OutputTensor"},
                     {MemberKind::kEnum, "RoundingMode"}};
    ElementWiseDesc r;
    r.function = &round;
    r.inputs = {tensor(DataType::kFloat32)};
    r.output = tensor(DataType::kFloat32);
    AttributeValue mode = attribute(round, "RoundingMode");
    mode.uint_value = 2;
    r.attributes = {mode};
    auto round_dml = element_wise_dml_desc(r);
    ASSERT_TRUE(round_dml.is_ok());
    EXPECT_EQ(describe(*round_dml), "DML_OPERATOR_ELEMENT_WISE_ROUND (RoundingMode 2)");

    r.attributes.clear();  // a parser bug: the binding says so rather than giving DirectML a zero
    auto missing = element_wise_dml_desc(r);
    ASSERT_FALSE(missing.is_ok());
    EXPECT_EQ(missing.status().code(), ErrorCode::kInternal);
    EXPECT_NE(missing.status().message().find("RoundingMode"), std::string::npos);
}

}  // namespace
}  // namespace dmltool::ops::element_wise
