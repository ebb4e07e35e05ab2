// DmlOperatorDesc: every member of the DML_*_OPERATOR_DESC that DirectML.dll reads, built from parsed cases.
// Needs no device and no DLL, so it runs in every build.
#include <gtest/gtest.h>

#include <cstring>

#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/op_registry.h"
#include "gpu/directml/dml_operator_desc.h"
#include "ops/element_wise/desc.h"
#include "ops/element_wise/dml_binding.h"

namespace dmltool::gpu::dml {
namespace {

using nlohmann::json;

// A desc's bytes as the C struct (copied: DmlOperatorDesc stores them as raw bytes).
template <typename Struct>
Struct read_as(const void* desc) {
    Struct value;
    std::memcpy(&value, desc, sizeof value);
    return value;
}

class DmlOperatorDescTest : public ::testing::Test {
protected:
    // Parses one case's operator (no data needed) and builds its DML desc.
    std::unique_ptr<DmlOperatorDesc> build(const std::string& type, const json& desc) {
        op_ = registry_.find(type);
        EXPECT_NE(op_, nullptr) << type;
        desc_json_ = json::parse(desc.dump());  // as the case loader sees it (non-negative numbers unsigned)
        JsonObjectReader reader(desc_json_, "/operator/desc");
        auto parsed = op_->parse(reader);
        EXPECT_TRUE(parsed.is_ok()) << parsed.status().message();
        parsed_ = std::move(parsed).value();
        auto built = DmlOperatorDesc::build(*op_, *parsed_);
        EXPECT_TRUE(built.is_ok()) << built.status().message();
        return std::move(built).value();
    }
    // The element-wise family's desc through its Op (FamilyOp::dml_desc, ops/element_wise/dml_binding.h): the
    // same desc, member for member, as the binding gives it directly.
    std::unique_ptr<DmlOperatorDesc> build_family(const std::string& type, const json& desc) {
        auto through_op = build(type, desc);
        auto fields = ops::element_wise::element_wise_dml_desc(
            static_cast<const ops::element_wise::ElementWiseDesc&>(*parsed_));
        EXPECT_TRUE(fields.is_ok()) << fields.status().message();
        auto direct = DmlOperatorDesc::from_fields(std::move(fields).value());
        EXPECT_TRUE(direct.is_ok()) << direct.status().message();
        if (through_op && direct.is_ok()) {
            EXPECT_EQ(through_op->summary(), (*direct)->summary());
        }
        return through_op;
    }
    static const DML_BUFFER_TENSOR_DESC& buffer(const DML_TENSOR_DESC* t) {
        EXPECT_EQ(t->Type, DML_TENSOR_TYPE_BUFFER);
        return *static_cast<const DML_BUFFER_TENSOR_DESC*>(t->Desc);
    }

    OpRegistry registry_ = make_builtin_registry();
    const Op* op_ = nullptr;
    json desc_json_;
    std::unique_ptr<OpDesc> parsed_;
};

TEST_F(DmlOperatorDescTest, DepthToSpaceKeepsStridesAndTotalSize) {
    auto d = build("DML_OPERATOR_DEPTH_TO_SPACE1",
                   {{"InputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 8, 2, 3}}, {"Strides", {96, 12, 6, 2}},
                                     {"TotalTensorSizeInBytes", 200}}},
                    {"OutputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 2, 4, 6}}}},
                    {"BlockSize", 2},
                    {"Order", "COLUMN_ROW_DEPTH"}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_DEPTH_TO_SPACE1);
    const auto s = read_as<DML_DEPTH_TO_SPACE1_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(s.BlockSize, 2u);
    EXPECT_EQ(s.Order, DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH);
    const auto& in = buffer(s.InputTensor);
    EXPECT_EQ(in.DataType, DML_TENSOR_DATA_TYPE_FLOAT16);
    ASSERT_EQ(in.DimensionCount, 4u);
    ASSERT_NE(in.Strides, nullptr);
    EXPECT_EQ((std::vector<UINT>(in.Sizes, in.Sizes + 4)), (std::vector<UINT>{1, 8, 2, 3}));
    EXPECT_EQ((std::vector<UINT>(in.Strides, in.Strides + 4)), (std::vector<UINT>{96, 12, 6, 2}));
    EXPECT_EQ(in.TotalTensorSizeInBytes, 200u);
    const auto& out = buffer(s.OutputTensor);
    EXPECT_EQ(out.Strides, nullptr);  // packed: DirectML gets no strides
    EXPECT_EQ(out.TotalTensorSizeInBytes, 48u * 2);
    EXPECT_EQ(d->input_tensors().size(), 1u);
    EXPECT_EQ(d->output_tensors().size(), 1u);
}

TEST_F(DmlOperatorDescTest, ResampleScalesAndMode) {
    auto d = build("DML_OPERATOR_RESAMPLE", {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 2, 2}}}},
                                             {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 4, 6}}}},
                                             {"InterpolationMode", "LINEAR"},
                                             {"Scales", {1.0, 1.0, 2.0, 3.0}}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_RESAMPLE);
    const auto s = read_as<DML_RESAMPLE_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(s.InterpolationMode, DML_INTERPOLATION_MODE_LINEAR);
    ASSERT_EQ(s.ScaleCount, 4u);
    EXPECT_EQ((std::vector<FLOAT>(s.Scales, s.Scales + 4)), (std::vector<FLOAT>{1, 1, 2, 3}));
    EXPECT_EQ(buffer(s.OutputTensor).Sizes[3], 6u);
    EXPECT_EQ(d->summary(), "DML_OPERATOR_RESAMPLE (InterpolationMode 1, ScaleCount 4, Scales [1, 1, 2, 3])");
}

TEST_F(DmlOperatorDescTest, SplitOutputsAreOneArray) {
    auto d = build("DML_OPERATOR_SPLIT", {{"InputTensor", {{"DataType", "INT8"}, {"Sizes", {1, 5, 2}}}},
                                          {"OutputTensors",
                                           {{{"DataType", "INT8"}, {"Sizes", {1, 2, 2}}},
                                            {{"DataType", "INT8"}, {"Sizes", {1, 3, 2}}}}},
                                          {"Axis", 1}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_SPLIT);
    const auto s = read_as<DML_SPLIT_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(s.Axis, 1u);
    ASSERT_EQ(s.OutputCount, 2u);
    EXPECT_EQ(buffer(&s.OutputTensors[0]).Sizes[1], 2u);
    EXPECT_EQ(buffer(&s.OutputTensors[1]).Sizes[1], 3u);
    EXPECT_EQ(buffer(s.InputTensor).DataType, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT_EQ(d->output_tensors().size(), 2u);
    EXPECT_EQ(d->output_tensors()[1], s.OutputTensors[1].Desc);
}

TEST_F(DmlOperatorDescTest, JoinInputsAreOneArray) {
    auto d = build("DML_OPERATOR_JOIN", {{"InputTensors",
                                          {{{"DataType", "INT16"}, {"Sizes", {1, 1, 2, 2}}},
                                           {{"DataType", "INT16"}, {"Sizes", {1, 1, 3, 2}}}}},
                                         {"OutputTensor", {{"DataType", "INT16"}, {"Sizes", {1, 1, 5, 2}}}},
                                         {"Axis", 2}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_JOIN);
    const auto s = read_as<DML_JOIN_OPERATOR_DESC>(d->desc().Desc);
    ASSERT_EQ(s.InputCount, 2u);
    EXPECT_EQ(buffer(&s.InputTensors[1]).Sizes[2], 3u);
    EXPECT_EQ(buffer(s.OutputTensor).Sizes[2], 5u);
    EXPECT_EQ(s.Axis, 2u);
}

TEST_F(DmlOperatorDescTest, GemmMembersInOrder) {
    auto d = build("DML_OPERATOR_GEMM", {{"ATensor", {{"DataType", "FLOAT32"}, {"Sizes", {3, 2}}}},
                                         {"BTensor", {{"DataType", "FLOAT32"}, {"Sizes", {4, 3}}}},
                                         {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {2, 4}}}},
                                         {"TransA", "TRANSPOSE"},
                                         {"TransB", "DML_MATRIX_TRANSFORM_TRANSPOSE"},
                                         {"Alpha", 0.5},
                                         {"Beta", 2.0}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_GEMM);
    const auto s = read_as<DML_GEMM_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(buffer(s.ATensor).Sizes[0], 3u);
    EXPECT_EQ(buffer(s.BTensor).Sizes[0], 4u);
    EXPECT_EQ(s.CTensor, nullptr);
    EXPECT_EQ(buffer(s.OutputTensor).Sizes[1], 4u);
    EXPECT_EQ(s.TransA, DML_MATRIX_TRANSFORM_TRANSPOSE);
    EXPECT_EQ(s.TransB, DML_MATRIX_TRANSFORM_TRANSPOSE);
    EXPECT_EQ(s.Alpha, 0.5f);
    EXPECT_EQ(s.Beta, 2.0f);
    EXPECT_EQ(s.FusedActivation, nullptr);
}

TEST_F(DmlOperatorDescTest, QuantizedMatrixMultiplyOptionalTensorsAreNull) {
    const json one = {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}};
    auto d = build("DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY",
                   {{"ATensor", {{"DataType", "UINT8"}, {"Sizes", {1, 1, 2, 3}}}},
                    {"AScaleTensor", one},
                    {"BTensor", {{"DataType", "INT8"}, {"Sizes", {1, 1, 3, 4}}}},
                    {"BScaleTensor", one},
                    {"BZeroPointTensor", {{"DataType", "INT8"}, {"Sizes", {1, 1, 1, 1}}}},
                    {"OutputScaleTensor", one},
                    {"OutputTensor", {{"DataType", "UINT8"}, {"Sizes", {1, 1, 2, 4}}}}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY);
    const auto s = read_as<DML_QUANTIZED_LINEAR_MATRIX_MULTIPLY_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(buffer(s.ATensor).Sizes[3], 3u);
    EXPECT_EQ(s.AZeroPointTensor, nullptr);
    EXPECT_EQ(buffer(s.BZeroPointTensor).DataType, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT_EQ(s.OutputZeroPointTensor, nullptr);
    EXPECT_EQ(buffer(s.OutputTensor).Sizes[3], 4u);
}

TEST_F(DmlOperatorDescTest, QuantizedConvolutionOptionalTensorsAreNull) {
    auto d = build("DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION",
                   {{"InputTensor", {{"DataType", "UINT8"}, {"Sizes", {1, 2, 5, 5}}}},
                    {"InputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}}},
                    {"FilterTensor", {{"DataType", "INT8"}, {"Sizes", {4, 1, 3, 3}}}},
                    {"FilterScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 4, 1, 1}}}},
                    {"BiasTensor", {{"DataType", "INT32"}, {"Sizes", {1, 4, 1, 1}}}},
                    {"OutputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}}},
                    {"OutputTensor", {{"DataType", "UINT8"}, {"Sizes", {1, 4, 2, 3}}}},
                    {"Strides", {2, 1}},
                    {"Dilations", {1, 1}},
                    {"StartPadding", {0, 0}},
                    {"EndPadding", {0, 0}},
                    {"GroupCount", 2}});
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION);
    const auto c = read_as<DML_QUANTIZED_LINEAR_CONVOLUTION_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(c.InputZeroPointTensor, nullptr);
    EXPECT_EQ(c.FilterZeroPointTensor, nullptr);
    EXPECT_EQ(c.OutputZeroPointTensor, nullptr);
    ASSERT_NE(c.BiasTensor, nullptr);
    EXPECT_EQ(buffer(c.BiasTensor).DataType, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT_EQ(buffer(c.FilterTensor).DataType, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT_EQ(buffer(c.FilterScaleTensor).Sizes[1], 4u);
    EXPECT_EQ(buffer(c.OutputTensor).Sizes[3], 3u);
    ASSERT_EQ(c.DimensionCount, 2u);
    EXPECT_EQ(c.Strides[0], 2u);
    EXPECT_EQ(c.Strides[1], 1u);
    EXPECT_EQ(c.GroupCount, 2u);
    // Bindings: nine inputs in member order, absent ones null.
    ASSERT_EQ(d->input_tensors().size(), 9u);
    EXPECT_EQ(d->input_tensors()[2], nullptr);
    EXPECT_EQ(d->input_tensors()[6], c.BiasTensor->Desc);
    EXPECT_EQ(d->input_tensors()[8], nullptr);
}

// The element-wise family through the registry: a parsed case's desc as DirectML reads it (FamilyOp::dml_desc,
// ops/element_wise/dml_binding.cpp, laid out here).
TEST_F(DmlOperatorDescTest, ElementWiseClip1AndAdd1WithFusedActivation) {
    auto clip = build_family("DML_OPERATOR_ELEMENT_WISE_CLIP1",
                      {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {2, 3}}, {"Strides", {0, 1}}}},
                       {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {2, 3}}}},
                       {"ScaleBias", {{"Scale", 2.0}, {"Bias", 0.5}}},
                       {"MinMaxDataType", "FLOAT32"},
                       {"Min", -1.0},
                       {"Max", 3.0}});
    ASSERT_EQ(clip->desc().Type, DML_OPERATOR_ELEMENT_WISE_CLIP1);
    const auto c = read_as<DML_ELEMENT_WISE_CLIP1_OPERATOR_DESC>(clip->desc().Desc);
    ASSERT_NE(c.ScaleBias, nullptr);
    EXPECT_EQ(c.ScaleBias->Scale, 2.0f);
    EXPECT_EQ(c.ScaleBias->Bias, 0.5f);
    EXPECT_EQ(c.MinMaxDataType, DML_TENSOR_DATA_TYPE_FLOAT32);
    EXPECT_EQ(c.Min.Float32, -1.0f);
    EXPECT_EQ(c.Max.Float32, 3.0f);
    const auto& in = buffer(c.InputTensor);
    ASSERT_NE(in.Strides, nullptr);  // broadcast by a 0 stride, as the case gives it
    EXPECT_EQ(in.Strides[0], 0u);
    EXPECT_EQ(clip->input_tensors().size(), 1u);

    auto add = build_family("DML_OPERATOR_ELEMENT_WISE_ADD1",
                     {{"ATensor", {{"DataType", "FLOAT16"}, {"Sizes", {4}}}},
                      {"BTensor", {{"DataType", "FLOAT16"}, {"Sizes", {4}}}},
                      {"OutputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {4}}}},
                      {"FusedActivation",
                       {{"type", "DML_OPERATOR_ACTIVATION_LINEAR"}, {"desc", {{"Alpha", 0.25}, {"Beta", 1.0}}}}}});
    ASSERT_EQ(add->desc().Type, DML_OPERATOR_ELEMENT_WISE_ADD1);
    const auto a = read_as<DML_ELEMENT_WISE_ADD1_OPERATOR_DESC>(add->desc().Desc);
    ASSERT_NE(a.FusedActivation, nullptr);
    EXPECT_EQ(a.FusedActivation->Type, DML_OPERATOR_ACTIVATION_LINEAR);
    const auto linear = read_as<DML_ACTIVATION_LINEAR_OPERATOR_DESC>(a.FusedActivation->Desc);
    EXPECT_EQ(linear.InputTensor, nullptr);
    EXPECT_EQ(linear.OutputTensor, nullptr);
    EXPECT_EQ(linear.Alpha, 0.25f);
    EXPECT_EQ(linear.Beta, 1.0f);
    ASSERT_EQ(add->input_tensors().size(), 2u);
    EXPECT_EQ(add->input_tensors()[0], a.ATensor->Desc);
    EXPECT_EQ(add->input_tensors()[1], a.BTensor->Desc);
}

// The pooling family (ops/pooling/op.cpp): members in DirectML's order, and an absent optional tensor is a null
// member in its own slot. MAX_POOLING2 without OutputIndicesTensor: the member is null, the second output binding
// is null (DML_BINDING_TYPE_NONE) and the one output slot is the first output member.
TEST_F(DmlOperatorDescTest, MaxPooling2WithoutIndicesHasANullIndicesMember) {
    auto d = build("DML_OPERATOR_MAX_POOLING2",
                   {{"InputTensor", {{"DataType", "INT8"}, {"Sizes", {1, 2, 4, 5, 5}}}},
                    {"OutputTensor", {{"DataType", "INT8"}, {"Sizes", {1, 2, 4, 2, 3}}}},
                    {"DimensionCount", 3},
                    {"Strides", {1, 2, 2}},
                    {"WindowSize", {2, 3, 2}},
                    {"StartPadding", {1, 0, 1}},
                    {"EndPadding", {0, 1, 0}},
                    {"Dilations", {1, 1, 1}}});
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_MAX_POOLING2);
    const auto m = read_as<DML_MAX_POOLING2_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(buffer(m.InputTensor).Sizes[4], 5u);
    EXPECT_EQ(buffer(m.OutputTensor).Sizes[4], 3u);
    EXPECT_EQ(m.OutputIndicesTensor, nullptr);
    ASSERT_EQ(m.DimensionCount, 3u);
    EXPECT_EQ(m.Strides[1], 2u);
    EXPECT_EQ(m.WindowSize[1], 3u);
    EXPECT_EQ(m.StartPadding[0], 1u);
    EXPECT_EQ(m.EndPadding[1], 1u);
    EXPECT_EQ(m.Dilations[2], 1u);
    ASSERT_EQ(d->output_tensors().size(), 2u);
    EXPECT_EQ(d->output_tensors()[0], m.OutputTensor->Desc);
    EXPECT_EQ(d->output_tensors()[1], nullptr);
    ASSERT_EQ(d->input_tensors().size(), 1u);
}

TEST_F(DmlOperatorDescTest, MaxPooling2WithIndicesBindsBothOutputs) {
    auto d = build("DML_OPERATOR_MAX_POOLING2",
                   {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 2, 7, 7}}}},
                    {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 2, 4, 4}}}},
                    {"OutputIndicesTensor", {{"DataType", "UINT64"}, {"Sizes", {1, 2, 4, 4}}}},
                    {"DimensionCount", 2},
                    {"Strides", {2, 2}},
                    {"WindowSize", {3, 3}},
                    {"StartPadding", {1, 1}},
                    {"EndPadding", {1, 1}},
                    {"Dilations", {1, 1}}});
    ASSERT_NE(d, nullptr);
    const auto m = read_as<DML_MAX_POOLING2_OPERATOR_DESC>(d->desc().Desc);
    ASSERT_NE(m.OutputIndicesTensor, nullptr);
    EXPECT_EQ(buffer(m.OutputIndicesTensor).DataType, DML_TENSOR_DATA_TYPE_UINT64);
    ASSERT_EQ(d->output_tensors().size(), 2u);
    EXPECT_EQ(d->output_tensors()[1], m.OutputIndicesTensor->Desc);
}

TEST_F(DmlOperatorDescTest, AveragePoolingAndAveragePooling1MembersInOrder) {
    auto a = build("DML_OPERATOR_AVERAGE_POOLING",
                   {{"InputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 2, 5, 6}}}},
                    {"OutputTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 2, 3, 3}}}},
                    {"DimensionCount", 2},
                    {"Strides", {2, 2}},
                    {"WindowSize", {3, 2}},
                    {"StartPadding", {1, 0}},
                    {"EndPadding", {1, 1}},
                    {"IncludePadding", true}});
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(a->desc().Type, DML_OPERATOR_AVERAGE_POOLING);
    const auto p = read_as<DML_AVERAGE_POOLING_OPERATOR_DESC>(a->desc().Desc);
    ASSERT_EQ(p.DimensionCount, 2u);
    EXPECT_EQ(p.WindowSize[0], 3u);
    EXPECT_EQ(p.WindowSize[1], 2u);
    EXPECT_EQ(p.StartPadding[0], 1u);
    EXPECT_EQ(p.StartPadding[1], 0u);
    EXPECT_EQ(p.EndPadding[1], 1u);
    EXPECT_EQ(p.IncludePadding, 1);

    auto b = build("DML_OPERATOR_AVERAGE_POOLING1",
                   {{"InputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 3, 8, 5}}}},
                    {"OutputTensor", {{"DataType", "FLOAT16"}, {"Sizes", {1, 3, 4, 3}}}},
                    {"DimensionCount", 2},
                    {"Strides", {2, 2}},
                    {"WindowSize", {2, 2}},
                    {"StartPadding", {1, 1}},
                    {"EndPadding", {1, 1}},
                    {"Dilations", {3, 1}},
                    {"IncludePadding", false}});
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(b->desc().Type, DML_OPERATOR_AVERAGE_POOLING1);
    const auto q = read_as<DML_AVERAGE_POOLING1_OPERATOR_DESC>(b->desc().Desc);
    EXPECT_EQ(q.Dilations[0], 3u);
    EXPECT_EQ(q.Dilations[1], 1u);
    EXPECT_EQ(q.IncludePadding, 0);
}

TEST_F(DmlOperatorDescTest, QuantizedLinearAveragePoolingAbsentZeroPointsAreNull) {
    auto d = build("DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING",
                   {{"InputTensor", {{"DataType", "UINT8"}, {"Sizes", {2, 2, 6, 6}}}},
                    {"InputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 1, 1, 1}}}},
                    {"OutputScaleTensor", {{"DataType", "FLOAT32"}, {"Sizes", {1, 2, 1, 1}}}},
                    {"OutputZeroPointTensor", {{"DataType", "INT8"}, {"Sizes", {1, 1, 1, 1}}}},
                    {"OutputTensor", {{"DataType", "INT8"}, {"Sizes", {2, 2, 5, 6}}}},
                    {"DimensionCount", 2},
                    {"Strides", {1, 1}},
                    {"WindowSize", {2, 3}},
                    {"StartPadding", {0, 1}},
                    {"EndPadding", {0, 1}},
                    {"Dilations", {1, 1}},
                    {"IncludePadding", true}});
    ASSERT_NE(d, nullptr);
    ASSERT_EQ(d->desc().Type, DML_OPERATOR_QUANTIZED_LINEAR_AVERAGE_POOLING);
    const auto q = read_as<DML_QUANTIZED_LINEAR_AVERAGE_POOLING_OPERATOR_DESC>(d->desc().Desc);
    EXPECT_EQ(q.InputZeroPointTensor, nullptr);
    ASSERT_NE(q.OutputZeroPointTensor, nullptr);
    EXPECT_EQ(buffer(q.OutputZeroPointTensor).DataType, DML_TENSOR_DATA_TYPE_INT8);
    EXPECT_EQ(buffer(q.OutputScaleTensor).Sizes[1], 2u);
    EXPECT_EQ(buffer(q.OutputTensor).Sizes[2], 5u);
    EXPECT_EQ(q.WindowSize[1], 3u);
    EXPECT_EQ(q.StartPadding[1], 1u);
    EXPECT_EQ(q.IncludePadding, 1);
    ASSERT_EQ(d->input_tensors().size(), 5u);
    EXPECT_EQ(d->input_tensors()[2], nullptr);
    EXPECT_EQ(d->input_tensors()[4], q.OutputZeroPointTensor->Desc);
    ASSERT_EQ(d->output_tensors().size(), 1u);
}

}  // namespace
}  // namespace dmltool::gpu::dml
