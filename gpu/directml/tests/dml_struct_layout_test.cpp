// The x64 struct layout computed from core/dml_desc.h's field lists (dml_struct_layout.h) against the compiler's
// own layout of dml_api.h's structs (offsetof/sizeof): every seed operator's desc as its Op builds it, one
// element-wise or activation desc per shape of member list, and one struct with every remaining member kind. Under
// the MinGW cross build (scripts/test_windows.sh) the compiler's answer is the Windows x64 ABI DirectML.dll uses.
// Also the bytes DmlOperatorDesc writes, read back through the C structs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/op_registry.h"
#include "gpu/directml/dml_operator_desc.h"
#include "gpu/directml/dml_struct_layout.h"

namespace dmltool::gpu::dml {
namespace {

using nlohmann::json;

struct ExpectedMember {
    const char* name;
    size_t offset;
};
#define DMLTOOL_MEMBER(Struct, Member) ExpectedMember{#Member, offsetof(Struct, Member)}

// Whether the fields are the struct's members (names, in order), at the compiler's offsets, in a struct of its size
// and alignment; each difference is reported. Tests ASSERT it before reading bytes back through the struct.
bool layout_matches(const DmlDesc& desc, size_t struct_size, size_t struct_alignment,
                    const std::vector<ExpectedMember>& members) {
    const DmlStructLayout layout = struct_layout(desc);
    bool matches = desc.fields.size() == members.size() && layout.size == struct_size &&
                   layout.alignment == struct_alignment;
    EXPECT_EQ(desc.fields.size(), members.size()) << desc.operator_name;
    EXPECT_EQ(layout.size, struct_size) << desc.operator_name;
    EXPECT_EQ(layout.alignment, struct_alignment) << desc.operator_name;
    for (size_t i = 0; i < std::min(members.size(), desc.fields.size()); ++i) {
        EXPECT_EQ(desc.fields[i].name, members[i].name) << desc.operator_name << " member " << i;
        EXPECT_EQ(layout.members[i].offset, members[i].offset) << desc.operator_name << "." << members[i].name;
        matches = matches && desc.fields[i].name == members[i].name && layout.members[i].offset == members[i].offset;
    }
    return matches;
}

// A desc's bytes as the C struct (copied: the bytes live in DmlOperatorDesc's own storage).
template <typename Struct>
Struct read_as(const void* desc) {
    Struct value;
    std::memcpy(&value, desc, sizeof value);
    return value;
}

class DmlStructLayoutTest : public ::testing::Test {
protected:
    // The Op's own DML desc of a parsed case (no data needed).
    DmlDesc op_fields(const std::string& type, const json& desc) {
        const Op* op = registry_.find(type);
        EXPECT_NE(op, nullptr) << type;
        descs_.push_back(json::parse(desc.dump()));
        JsonObjectReader reader(descs_.back(), "/operator/desc");
        auto parsed = op->parse(reader);
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        parsed_.push_back(std::move(parsed).value());
        auto fields = op->dml_desc(*parsed_.back());
        EXPECT_TRUE(fields.is_ok()) << fields.status().message();
        return std::move(fields).value();
    }
    static TensorDesc tensor(DataType type, Dims sizes) {
        TensorDesc t;
        t.data_type = type;
        t.sizes = std::move(sizes);
        t.total_size_in_bytes = 4096;
        return t;
    }

    OpRegistry registry_ = make_builtin_registry();
    std::vector<json> descs_;
    std::vector<std::unique_ptr<OpDesc>> parsed_;
};

TEST_F(DmlStructLayoutTest, SeedOperatorsMatchTheCompilersLayout) {
    const DmlDesc split = op_fields("DML_OPERATOR_SPLIT", {{"InputTensor", {{"DataType", "INT8"}, {"Sizes", {1, 5, 2}}}},
                                                           {"OutputTensors",
                                                            {{{"DataType", "INT8"}, {"Sizes", {1, 2, 2}}},
                                                             {{"DataType", "INT8"}, {"Sizes", {1, 3, 2}}}}},
                                                           {"Axis", 1}});
    using Split = DML_SPLIT_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(split, sizeof(Split), alignof(Split),
                  {DMLTOOL_MEMBER(Split, InputTensor), DMLTOOL_MEMBER(Split, OutputCount),
                   DMLTOOL_MEMBER(Split, OutputTensors), DMLTOOL_MEMBER(Split, Axis)}));

    const DmlDesc resample = op_fields("DML_OPERATOR_RESAMPLE",
                                       {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 2, 2}}}},
                                        {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 4, 6}}}},
                                        {"InterpolationMode", "LINEAR"},
                                        {"Scales", {1.0, 1.0, 2.0, 3.0}}});
    using Resample = DML_RESAMPLE_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(resample, sizeof(Resample), alignof(Resample),
                  {DMLTOOL_MEMBER(Resample, InputTensor), DMLTOOL_MEMBER(Resample, OutputTensor),
                   DMLTOOL_MEMBER(Resample, InterpolationMode), DMLTOOL_MEMBER(Resample, ScaleCount),
                   DMLTOOL_MEMBER(Resample, Scales)}));

    const DmlDesc depth = op_fields("DML_OPERATOR_DEPTH_TO_SPACE1",
                                    {{"InputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 8, 2, 3}}}},
                                     {"OutputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 2, 4, 6}}}},
                                     {"BlockSize", 2},
                                     {"Order", "COLUMN_ROW_DEPTH"}});
    using Depth = DML_DEPTH_TO_SPACE1_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(depth, sizeof(Depth), alignof(Depth),
                  {DMLTOOL_MEMBER(Depth, InputTensor), DMLTOOL_MEMBER(Depth, OutputTensor),
                   DMLTOOL_MEMBER(Depth, BlockSize), DMLTOOL_MEMBER(Depth, Order)}));

    const DmlDesc conv = op_fields("DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION",
                                   {{"InputTensor", {{"DataType", "UINT8"}, {"Sizes", {1, 2, 5, 5}}}},
                                    {"InputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}}},
                                    {"FilterTensor", {{"DataType", "INT8"}, {"Sizes", {4, 1, 3, 3}}}},
                                    {"FilterScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 4, 1, 1}}}},
                                    {"OutputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}}},
                                    {"OutputTensor", {{"DataType", "UINT8"}, {"Sizes", {1, 4, 2, 3}}}},
                                    {"Strides", {2, 1}},
                                    {"Dilations", {1, 1}},
                                    {"StartPadding", {0, 0}},
                                    {"EndPadding", {0, 0}},
                                    {"GroupCount", 2}});
    using Conv = DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(conv, sizeof(Conv), alignof(Conv),
                  {DMLTOOL_MEMBER(Conv, InputTensor), DMLTOOL_MEMBER(Conv, InputScaleTensor),
                   DMLTOOL_MEMBER(Conv, InputZeroPointTensor), DMLTOOL_MEMBER(Conv, FilterTensor),
                   DMLTOOL_MEMBER(Conv, FilterScaleTensor), DMLTOOL_MEMBER(Conv, FilterZeroPointTensor),
                   DMLTOOL_MEMBER(Conv, BiasTensor), DMLTOOL_MEMBER(Conv, OutputScaleTensor),
                   DMLTOOL_MEMBER(Conv, OutputZeroPointTensor), DMLTOOL_MEMBER(Conv, OutputTensor),
                   DMLTOOL_MEMBER(Conv, DimensionCount), DMLTOOL_MEMBER(Conv, Strides),
                   DMLTOOL_MEMBER(Conv, Dilations), DMLTOOL_MEMBER(Conv, StartPadding),
                   DMLTOOL_MEMBER(Conv, EndPadding), DMLTOOL_MEMBER(Conv, GroupCount)}));
}

TEST_F(DmlStructLayoutTest, Clip1ScalarUnionsAndScaleBias) {
    const TensorDesc in = tensor(DataType::kInt8, {2, 3}), out = tensor(DataType::kInt8, {2, 3});
    const std::array<uint8_t, 8> min = {0xfb, 0, 0, 0, 0, 0, 0, 0};  // INT8 -5
    const std::array<uint8_t, 8> max = {0x07, 0, 0, 0, 0, 0, 0, 0};
    DmlDesc fields{"ELEMENT_WISE_CLIP1", {}};
    fields.input("InputTensor", &in).output("OutputTensor", &out).scale_bias("ScaleBias", DmlScaleBias{0.5f, -2});
    fields.uint("MinMaxDataType", uint32_t(DataType::kInt8)).scalar_union("Min", min).scalar_union("Max", max);
    using Clip = DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(fields, sizeof(Clip), alignof(Clip),
                  {DMLTOOL_MEMBER(Clip, InputTensor), DMLTOOL_MEMBER(Clip, OutputTensor),
                   DMLTOOL_MEMBER(Clip, ScaleBias), DMLTOOL_MEMBER(Clip, MinMaxDataType), DMLTOOL_MEMBER(Clip, Min),
                   DMLTOOL_MEMBER(Clip, Max)}));

    auto built = DmlOperatorDesc::from_fields(fields);
    ASSERT_TRUE(built.is_ok()) << built.status().message();
    const auto& d = *built.value();
    EXPECT_EQ(d.desc().Type, DML_OPERATOR_ELEMENT_WISE_CLIP1);
    const Clip clip = read_as<Clip>(d.desc().Desc);
    ASSERT_NE(clip.ScaleBias, nullptr);
    EXPECT_EQ(clip.ScaleBias->Scale, 0.5f);
    EXPECT_EQ(clip.ScaleBias->Bias, -2.0f);
    EXPECT_EQ(clip.MinMaxDataType, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT_EQ(clip.Min.Int8, -5);
    EXPECT_EQ(clip.Max.Int8, 7);
    EXPECT_EQ(d.input_tensors().size(), 1u);
    EXPECT_EQ(d.input_tensors()[0], clip.InputTensor->Desc);
    EXPECT_EQ(d.summary(), "DML_OPERATOR_ELEMENT_WISE_CLIP1 (ScaleBias {0.5, -2}, MinMaxDataType 8, "
                           "Min 0x00000000000000fb, Max 0x0000000000000007)");
}

TEST_F(DmlStructLayoutTest, Add1FusedActivationIsANestedDescWithoutTensors) {
    const TensorDesc a = tensor(DataType::kFloat32, {4}), b = tensor(DataType::kFloat32, {4}),
                     out = tensor(DataType::kFloat32, {4});
    auto linear = std::make_shared<DmlDesc>(DmlDesc{"ACTIVATION_LINEAR", {}});
    linear->input("InputTensor", nullptr).output("OutputTensor", nullptr).float32("Alpha", 2).float32("Beta", -1);
    using Linear = DML_ACTIVATION_LINEAR_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(*linear, sizeof(Linear), alignof(Linear),
                  {DMLTOOL_MEMBER(Linear, InputTensor), DMLTOOL_MEMBER(Linear, OutputTensor),
                   DMLTOOL_MEMBER(Linear, Alpha), DMLTOOL_MEMBER(Linear, Beta)}));
    DmlDesc fields{"ELEMENT_WISE_ADD1", {}};
    fields.input("ATensor", &a).input("BTensor", &b).output("OutputTensor", &out).operator_desc("FusedActivation", linear);
    using Add = DML_ELEMENT_WISE_ADD1_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(fields, sizeof(Add), alignof(Add),
                  {DMLTOOL_MEMBER(Add, ATensor), DMLTOOL_MEMBER(Add, BTensor), DMLTOOL_MEMBER(Add, OutputTensor),
                   DMLTOOL_MEMBER(Add, FusedActivation)}));

    auto built = DmlOperatorDesc::from_fields(fields);
    ASSERT_TRUE(built.is_ok()) << built.status().message();
    const auto& d = *built.value();
    const Add add = read_as<Add>(d.desc().Desc);
    ASSERT_NE(add.FusedActivation, nullptr);
    EXPECT_EQ(add.FusedActivation->Type, DML_OPERATOR_ACTIVATION_LINEAR);
    const Linear fused = read_as<Linear>(add.FusedActivation->Desc);
    EXPECT_EQ(fused.InputTensor, nullptr);
    EXPECT_EQ(fused.OutputTensor, nullptr);
    EXPECT_EQ(fused.Alpha, 2.0f);
    EXPECT_EQ(fused.Beta, -1.0f);
    // Only the top level's tensors are bound.
    ASSERT_EQ(d.input_tensors().size(), 2u);
    EXPECT_EQ(d.input_tensors()[1], add.BTensor->Desc);
    ASSERT_EQ(d.output_tensors().size(), 1u);
    EXPECT_EQ(d.summary(), "DML_OPERATOR_ELEMENT_WISE_ADD1 (FusedActivation DML_OPERATOR_ACTIVATION_LINEAR (Alpha 2, Beta -1))");

    // Absent: a null pointer.
    DmlDesc plain{"ELEMENT_WISE_ADD1", {}};
    plain.input("ATensor", &a).input("BTensor", &b).output("OutputTensor", &out).operator_desc("FusedActivation", nullptr);
    auto without = DmlOperatorDesc::from_fields(plain);
    ASSERT_TRUE(without.is_ok());
    EXPECT_EQ(read_as<Add>(without.value()->desc().Desc).FusedActivation, nullptr);
}

TEST_F(DmlStructLayoutTest, ConstantPowSoftmax1AndQuantizedLinearAdd) {
    const TensorDesc t = tensor(DataType::kFloat32, {2, 3, 4});
    DmlDesc pow{"ELEMENT_WISE_CONSTANT_POW", {}};
    pow.input("InputTensor", &t).output("OutputTensor", &t).scale_bias("ScaleBias", std::nullopt).float32("Exponent", 3);
    using Pow = DML_ELEMENT_WISE_CONSTANT_POW_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(pow, sizeof(Pow), alignof(Pow),
                  {DMLTOOL_MEMBER(Pow, InputTensor), DMLTOOL_MEMBER(Pow, OutputTensor), DMLTOOL_MEMBER(Pow, ScaleBias),
                   DMLTOOL_MEMBER(Pow, Exponent)}));
    auto built_pow = DmlOperatorDesc::from_fields(pow);
    ASSERT_TRUE(built_pow.is_ok());
    EXPECT_EQ(read_as<Pow>(built_pow.value()->desc().Desc).ScaleBias, nullptr);
    EXPECT_EQ(read_as<Pow>(built_pow.value()->desc().Desc).Exponent, 3.0f);

    DmlDesc softmax{"ACTIVATION_SOFTMAX1", {}};
    softmax.input("InputTensor", &t).output("OutputTensor", &t).uint("AxisCount", 2).uint_array("Axes", {0, 2});
    using Softmax = DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(softmax, sizeof(Softmax), alignof(Softmax),
                  {DMLTOOL_MEMBER(Softmax, InputTensor), DMLTOOL_MEMBER(Softmax, OutputTensor),
                   DMLTOOL_MEMBER(Softmax, AxisCount), DMLTOOL_MEMBER(Softmax, Axes)}));
    auto built_softmax = DmlOperatorDesc::from_fields(softmax);
    ASSERT_TRUE(built_softmax.is_ok());
    const Softmax s = read_as<Softmax>(built_softmax.value()->desc().Desc);
    ASSERT_EQ(s.AxisCount, 2u);
    EXPECT_EQ(s.Axes[0], 0u);
    EXPECT_EQ(s.Axes[1], 2u);

    // OutputScaleTensor and OutputZeroPointTensor are inputs: bound among the inputs, in member order.
    const TensorDesc scale = tensor(DataType::kFloat32, {1});
    DmlDesc add{"ELEMENT_WISE_QUANTIZED_LINEAR_ADD", {}};
    add.input("ATensor", &t).input("AScaleTensor", &scale).input("AZeroPointTensor", nullptr);
    add.input("BTensor", &t).input("BScaleTensor", &scale).input("BZeroPointTensor", nullptr);
    add.input("OutputScaleTensor", &scale).input("OutputZeroPointTensor", nullptr).output("OutputTensor", &t);
    using QAdd = DML_ELEMENT_WISE_QUANTIZED_LINEAR_ADD_OPERATOR_DESC;
    ASSERT_TRUE(layout_matches(add, sizeof(QAdd), alignof(QAdd),
                  {DMLTOOL_MEMBER(QAdd, ATensor), DMLTOOL_MEMBER(QAdd, AScaleTensor),
                   DMLTOOL_MEMBER(QAdd, AZeroPointTensor), DMLTOOL_MEMBER(QAdd, BTensor),
                   DMLTOOL_MEMBER(QAdd, BScaleTensor), DMLTOOL_MEMBER(QAdd, BZeroPointTensor),
                   DMLTOOL_MEMBER(QAdd, OutputScaleTensor), DMLTOOL_MEMBER(QAdd, OutputZeroPointTensor),
                   DMLTOOL_MEMBER(QAdd, OutputTensor)}));
    auto built_add = DmlOperatorDesc::from_fields(add);
    ASSERT_TRUE(built_add.is_ok());
    ASSERT_EQ(built_add.value()->input_tensors().size(), 8u);
    EXPECT_EQ(built_add.value()->input_tensors()[7], nullptr);
    EXPECT_NE(built_add.value()->input_tensors()[6], nullptr);
    EXPECT_EQ(built_add.value()->output_tensors().size(), 1u);
}

// The member kinds no operator above has, in one struct declared with DirectML's member types.
struct EveryOtherKind {
    UINT InputCount;
    const DML_TENSOR_DESC* InputTensors;
    INT Offset;
    UINT64 Large;
    BOOL Flag;
    DML_SIZE_2D Size;
    FLOAT Value;
    DML_SCALAR_UNION Scalar;
    const INT* Starts;
    const FLOAT* Weights;
    UINT Last;
};

TEST_F(DmlStructLayoutTest, EveryOtherMemberKind) {
    const TensorDesc a = tensor(DataType::kUint16, {3}), b = tensor(DataType::kUint16, {5});
    std::array<uint8_t, 8> scalar{};
    const double value = -0.25;
    std::memcpy(scalar.data(), &value, sizeof value);
    // The operator type only matters to DirectML (this struct is no operator's): the test reads the bytes back.
    DmlDesc fields{"ELEMENT_WISE_IDENTITY", {}};
    fields.uint("InputCount", 2).inputs("InputTensors", {&a, &b}).int32("Offset", -3).uint64("Large", 1ull << 40);
    fields.boolean("Flag", true).size_2d("Size", {7, 9}).float32("Value", 1.5f).scalar_union("Scalar", scalar);
    fields.int_array("Starts", {-1, 4}).float_array("Weights", {0.25f}).uint("Last", 11);
    using S = EveryOtherKind;
    ASSERT_TRUE(layout_matches(fields, sizeof(S), alignof(S),
                  {DMLTOOL_MEMBER(S, InputCount), DMLTOOL_MEMBER(S, InputTensors), DMLTOOL_MEMBER(S, Offset),
                   DMLTOOL_MEMBER(S, Large), DMLTOOL_MEMBER(S, Flag), DMLTOOL_MEMBER(S, Size),
                   DMLTOOL_MEMBER(S, Value), DMLTOOL_MEMBER(S, Scalar), DMLTOOL_MEMBER(S, Starts),
                   DMLTOOL_MEMBER(S, Weights), DMLTOOL_MEMBER(S, Last)}));

    auto built = DmlOperatorDesc::from_fields(fields);
    ASSERT_TRUE(built.is_ok()) << built.status().message();
    const S s = read_as<S>(built.value()->desc().Desc);
    EXPECT_EQ(s.InputCount, 2u);
    EXPECT_EQ(static_cast<const DML_BUFFER_TENSOR_DESC*>(s.InputTensors[1].Desc)->Sizes[0], 5u);
    EXPECT_EQ(s.Offset, -3);
    EXPECT_EQ(s.Large, 1ull << 40);
    EXPECT_EQ(s.Flag, 1);
    EXPECT_EQ(s.Size.Width, 7u);
    EXPECT_EQ(s.Size.Height, 9u);
    EXPECT_EQ(s.Value, 1.5f);
    EXPECT_EQ(s.Scalar.Float64, -0.25);
    EXPECT_EQ(s.Starts[0], -1);
    EXPECT_EQ(s.Starts[1], 4);
    EXPECT_EQ(s.Weights[0], 0.25f);
    EXPECT_EQ(s.Last, 11u);
    ASSERT_EQ(built.value()->input_tensors().size(), 2u);
    EXPECT_EQ(built.value()->input_tensors()[0], s.InputTensors[0].Desc);
}

TEST_F(DmlStructLayoutTest, UnknownOperatorNameIsUnsupported) {
    DmlDesc fields{"ELEMENT_WISE_NO_SUCH_FUNCTION", {}};
    fields.uint("Value", 1);
    auto built = DmlOperatorDesc::from_fields(fields);
    ASSERT_FALSE(built.is_ok());
    EXPECT_EQ(built.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(built.status().message().find("DML_OPERATOR_ELEMENT_WISE_NO_SUCH_FUNCTION"), std::string::npos);
}

TEST(DmlOperatorTypeTest, NamesMapToDirectMlsNumbers) {
    EXPECT_EQ(operator_type("ELEMENT_WISE_IDENTITY"), DML_OPERATOR_TYPE(1));
    EXPECT_EQ(operator_type("ACTIVATION_THRESHOLDED_RELU"), DML_OPERATOR_TYPE(52));
    EXPECT_EQ(operator_type("SPLIT"), DML_OPERATOR_TYPE(62));
    EXPECT_EQ(operator_type("ELEMENT_WISE_ADD1"), DML_OPERATOR_TYPE(89));
    EXPECT_EQ(operator_type("ELEMENT_WISE_QUANTIZED_LINEAR_ADD"), DML_OPERATOR_TYPE(147));
    EXPECT_EQ(operator_type("ACTIVATION_HARD_SWISH"), DML_OPERATOR_TYPE(168));
    EXPECT_EQ(operator_type("RESAMPLE3"), std::nullopt);  // not one dmltool names
}

}  // namespace
}  // namespace dmltool::gpu::dml
