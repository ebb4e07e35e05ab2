// Tests of DML_OPERATOR_SPLIT: the spec §9.2 worked examples, every §10 validation rule, the feature-level
// table, and the reference against an independent formulation (joining the outputs back must give the input,
// byte for byte) on random bit patterns of every data type, 1 to 8 dimensions and every axis.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/split/split.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::split {
std::unique_ptr<Op> make_op();
namespace {

using nlohmann::json;
using testing::tensor_json;
using testing::first_difference;
using testing::parse_desc;
using testing::random_bits_tensor;
using testing::rejection;

json desc_json(DataType type, const Dims& in, const std::vector<Dims>& outs, uint32_t axis) {
    json outputs = json::array();
    for (const Dims& out : outs) outputs.push_back(tensor_json(type, out));
    return {{"InputTensor", tensor_json(type, in)}, {"OutputTensors", outputs}, {"Axis", axis}};
}



// JOIN along `axis` (the inverse the spec names): the input is `outer` rows, each the concatenation of every
// output's row of `outputs[i].sizes[axis] * inner` elements.
std::vector<std::byte> join(const std::vector<HostTensor>& outputs, uint32_t axis) {
    const Dims& sizes = outputs[0].desc().sizes;
    uint64_t outer = 1, inner = 1;
    for (uint32_t d = 0; d < axis; ++d) outer *= sizes[d];
    for (uint32_t d = axis + 1; d < sizes.size(); ++d) inner *= sizes[d];
    std::vector<std::byte> joined;
    for (uint64_t row = 0; row < outer; ++row)
        for (const HostTensor& out : outputs) {
            const uint64_t row_bytes = out.desc().sizes[axis] * inner * out.element_bytes();
            const std::byte* begin = out.bytes().data() + row * row_bytes;
            joined.insert(joined.end(), begin, begin + row_bytes);
        }
    return joined;
}

Result<std::vector<HostTensor>> run(const Op& op, const json& desc_json_value, const HostTensor& input) {
    DMLTOOL_ASSIGN_OR_RETURN(auto desc, parse_desc(op, desc_json_value.dump()));
    return testing::run_reference(op, *desc, {&input});
}

// ---------------------------------------------------------------------------------------------------------
// Spec §9.2 worked examples.

const std::vector<double> kDocInput = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

TEST(SplitDocExample, Axis2IntoThreeUnevenParts) {
    auto op = make_op();
    const HostTensor input = testing::make_tensor(DataType::kFloat32, {1, 1, 6, 2}, kDocInput);
    json desc = desc_json(DataType::kFloat32, {1, 1, 6, 2}, {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 3, 2}}, 2);
    desc["OutputCount"] = 3;
    auto outputs = run(*op, desc, input);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 3u);
    EXPECT_EQ(testing::values_of((*outputs)[0]), (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(testing::values_of((*outputs)[1]), (std::vector<double>{5, 6}));
    EXPECT_EQ(testing::values_of((*outputs)[2]), (std::vector<double>{7, 8, 9, 10, 11, 12}));
}

TEST(SplitDocExample, Axis3IntoColumns) {
    auto op = make_op();
    const HostTensor input = testing::make_tensor(DataType::kFloat32, {1, 1, 6, 2}, kDocInput);
    auto outputs = run(*op, desc_json(DataType::kFloat32, {1, 1, 6, 2}, {{1, 1, 6, 1}, {1, 1, 6, 1}}, 3), input);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 2u);
    EXPECT_EQ(testing::values_of((*outputs)[0]), (std::vector<double>{1, 3, 5, 7, 9, 11}));
    EXPECT_EQ(testing::values_of((*outputs)[1]), (std::vector<double>{2, 4, 6, 8, 10, 12}));
}

TEST(SplitDocExample, DxDispatchOneDimensionalSample) {
    auto op = make_op();
    const HostTensor input = testing::make_tensor(DataType::kFloat32, {6}, {1, 2, 3, 4, 5, 6});
    auto outputs = run(*op, desc_json(DataType::kFloat32, {6}, {{2}, {2}, {2}}, 0), input);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), 3u);
    EXPECT_EQ(testing::values_of((*outputs)[0]), (std::vector<double>{1, 2}));
    EXPECT_EQ(testing::values_of((*outputs)[1]), (std::vector<double>{3, 4}));
    EXPECT_EQ(testing::values_of((*outputs)[2]), (std::vector<double>{5, 6}));
}

TEST(SplitDocExample, NameSlotsToleranceAndWork) {
    auto op = make_op();
    EXPECT_EQ(op->name(), "SPLIT");
    auto desc = parse_desc(*op, desc_json(DataType::kInt64, {1, 1, 6, 2}, {{1, 1, 2, 2}, {1, 1, 4, 2}}, 2).dump());
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    const auto slots = op->tensors(**desc);
    ASSERT_EQ(slots.size(), 3u);
    EXPECT_EQ(slots[0].name, "InputTensor");
    EXPECT_EQ(slots[0].role, TensorRole::kInput);
    EXPECT_EQ(slots[2].name, "OutputTensors[1]");
    EXPECT_EQ(slots[2].field, "OutputTensors");
    EXPECT_EQ(slots[2].role, TensorRole::kOutput);
    EXPECT_EQ(slots[2].desc->sizes, (Dims{1, 1, 4, 2}));
    for (size_t i = 0; i < 2; ++i) {
        const Tolerance tolerance = op->default_tolerance(**desc, i);
        EXPECT_TRUE(tolerance.bitwise);
        EXPECT_EQ(tolerance.reason, "pure data movement: bit-exact");
    }
    EXPECT_EQ(op->work(**desc).bytes, 2u * 12 * 8);  // 12 INT64 elements read and written
    EXPECT_EQ(op->work(**desc).ops, 0u);
}

// ---------------------------------------------------------------------------------------------------------
// Spec §10 validation: each rule rejects with a message naming the exact member.

const Dims kIn = {1, 1, 6, 2};
const std::vector<Dims> kOuts = {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 3, 2}};

TEST(SplitValidation, OutputCountMustMatchTheArray) {
    auto op = make_op();
    json desc = desc_json(DataType::kFloat32, kIn, kOuts, 2);
    desc["OutputCount"] = 2;
    EXPECT_EQ(rejection(*op, desc.dump()), "/operator/desc/OutputCount: expected 3 (the length of OutputTensors), found 2");
    desc["OutputCount"] = 0;
    EXPECT_EQ(rejection(*op, desc.dump()), "/operator/desc/OutputCount: expected 3 (the length of OutputTensors), found 0");
    json empty = desc_json(DataType::kFloat32, kIn, {}, 2);
    EXPECT_NE(rejection(*op, empty.dump()).find("/operator/desc/OutputTensors: expected a non-empty array of tensor descs"),
              std::string::npos);
}

TEST(SplitValidation, AxisMustBeBelowTheRank) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, kOuts, 4).dump()),
              "/operator/desc/Axis: expected less than 4 (the InputTensor's dimension count, {1,1,6,2}), found 4");
}

TEST(SplitValidation, DataTypesMustMatch) {
    auto op = make_op();
    json desc = desc_json(DataType::kFloat32, kIn, kOuts, 2);
    desc["OutputTensors"][1]["DataType"] = "FLOAT16";
    EXPECT_EQ(rejection(*op, desc.dump()),
              "/operator/desc/OutputTensors/1/DataType: expected FLOAT32 (the InputTensor's data type), found FLOAT16");
}

TEST(SplitValidation, RanksMustMatch) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 3, 2}}, 2).dump()),
              "/operator/desc/OutputTensors/2/Sizes: expected 4 dimensions (as InputTensor {1,1,6,2}), found 3 in "
              "{1,3,2}");
}

TEST(SplitValidation, NonAxisSizesMustMatch) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, {{1, 1, 2, 2}, {1, 1, 1, 1}, {1, 1, 3, 2}}, 2).dump()),
              "/operator/desc/OutputTensors/1/Sizes/3: expected 2 (InputTensor Sizes[3]; only Axis 2 may differ), "
              "found 1");
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, kIn, {{2, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 3, 2}}, 2).dump())
                  .find("/operator/desc/OutputTensors/0/Sizes/0: expected 1 "),
              std::string::npos);
}

TEST(SplitValidation, AxisSizesMustNotExceedTheInput) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 4, 2}}, 2).dump()),
              "/operator/desc/OutputTensors/2/Sizes/2: expected at most 3 (InputTensor Sizes[2] = 6, of which "
              "OutputTensors 0..1 already take 3), found 4");
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, {{1, 1, 7, 2}}, 2).dump()),
              "/operator/desc/OutputTensors/0/Sizes/2: expected at most 6 (InputTensor Sizes[2] = 6), found 7");
}

TEST(SplitValidation, AxisSizesMustCoverTheInput) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, kIn, {{1, 1, 2, 2}, {1, 1, 1, 2}, {1, 1, 2, 2}}, 2).dump()),
              "/operator/desc/OutputTensors/2/Sizes/2: expected 3 so that the outputs' sizes along Axis 2 sum to "
              "InputTensor Sizes[2] = 6, found 2 (the outputs sum to 5)");
}

TEST(SplitValidation, RequiredMembers) {
    auto op = make_op();
    for (const char* member : {"InputTensor", "OutputTensors", "Axis"}) {
        json desc = desc_json(DataType::kFloat32, kIn, kOuts, 2);
        desc.erase(member);
        EXPECT_NE(rejection(*op, desc.dump()).find("/operator/desc/" + std::string(member) + ": missing required member"),
                  std::string::npos)
            << member;
    }
}

// ---------------------------------------------------------------------------------------------------------
// Feature levels (spec §5.4): a case that needs exactly each row, and rejected combinations.

Result<FeatureLevel> feature_level_of(DataType type, const Dims& in, const std::vector<Dims>& outs, uint32_t axis) {
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(type, in, outs, axis).dump());
    if (!desc.is_ok()) return desc.status();
    return min_feature_level(*op, **desc);
}

void expect_level(DataType type, const Dims& in, const std::vector<Dims>& outs, uint32_t axis, FeatureLevel want) {
    auto level = feature_level_of(type, in, outs, axis);
    ASSERT_TRUE(level.is_ok()) << data_type_name(type) << " " << format_dims(in) << ": " << level.status().message();
    EXPECT_EQ(level->to_string(), want.to_string()) << data_type_name(type) << " " << format_dims(in);
}

TEST(SplitFeatureLevel, FourDimsWithoutEightBitTypesNeed1_0) {
    for (DataType type : {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kInt16,
                          DataType::kUint32, DataType::kUint16})
        expect_level(type, kIn, kOuts, 2, fl(1, 0));
}

TEST(SplitFeatureLevel, EightBitTypesNeed2_1) {
    for (DataType type : {DataType::kInt8, DataType::kUint8}) expect_level(type, kIn, kOuts, 2, fl(2, 1));
}

TEST(SplitFeatureLevel, OtherRanksNeed3_0) {
    expect_level(DataType::kFloat32, {6}, {{2}, {4}}, 0, fl(3, 0));
    expect_level(DataType::kUint8, {2, 6, 3}, {{2, 1, 3}, {2, 5, 3}}, 1, fl(3, 0));
    expect_level(DataType::kFloat16, {1, 2, 1, 2, 1, 2, 1, 4}, {{1, 2, 1, 2, 1, 2, 1, 4}}, 7, fl(3, 0));
}

TEST(SplitFeatureLevel, SixtyFourBitTypesNeed4_1) {
    for (DataType type : {DataType::kFloat64, DataType::kInt64, DataType::kUint64}) {
        expect_level(type, kIn, kOuts, 2, fl(4, 1));
        expect_level(type, {6}, {{6}}, 0, fl(4, 1));
    }
}

TEST(SplitFeatureLevel, FourBitTypesAreRejected) {
    for (DataType type : {DataType::kUint4, DataType::kInt4}) {
        auto level = feature_level_of(type, kIn, kOuts, 2);
        ASSERT_FALSE(level.is_ok()) << data_type_name(type);
        EXPECT_EQ(level.status().code(), ErrorCode::kInvalidInput);
        EXPECT_NE(level.status().message().find("InputTensor: data type " + std::string(data_type_name(type)) +
                                                " not allowed"),
                  std::string::npos)
            << level.status().message();
    }
}

// ---------------------------------------------------------------------------------------------------------
// Properties: joining the outputs back gives the input, bit for bit.

// Splits `total` into `count` random positive parts (count <= total).
std::vector<uint32_t> random_parts(uint32_t total, uint32_t count, std::mt19937_64& rng) {
    std::vector<uint32_t> parts(count, 1);
    for (uint32_t extra = total - count; extra > 0; --extra) ++parts[rng() % count];
    return parts;
}

void expect_join_gives_input(const Op& op, DataType type, const Dims& in_sizes, uint32_t axis,
                             const std::vector<uint32_t>& parts, std::mt19937_64& rng) {
    std::vector<Dims> outs;
    for (uint32_t part : parts) {
        Dims out = in_sizes;
        out[axis] = part;
        outs.push_back(out);
    }
    const HostTensor input = random_bits_tensor(type, in_sizes, rng);
    json desc = desc_json(type, in_sizes, outs, axis);
    desc["OutputCount"] = parts.size();
    auto outputs = run(op, desc, input);
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    ASSERT_EQ(outputs->size(), parts.size());
    for (size_t i = 0; i < parts.size(); ++i) ASSERT_EQ((*outputs)[i].desc().sizes, outs[i]);
    // The naive gather (the reference before it copied whole runs): one source_offset per output element.
    uint32_t at[kMaxDimensionCount];
    uint64_t start = 0;
    for (size_t i = 0; i < parts.size(); ++i) {
        const HostTensor& output = (*outputs)[i];
        for (uint64_t e = 0; e < output.element_count(); ++e) {
            unravel_index(e, output.desc().sizes, at);
            const uint64_t from = source_offset(in_sizes, axis, start, at);
            ASSERT_EQ(std::memcmp(output.element_ptr(e), input.element_ptr(from), input.element_bytes()), 0)
                << "output " << i << " element " << e << " vs naive gather, " << data_type_name(type) << " "
                << format_dims(in_sizes) << " axis " << axis;
        }
        start += parts[i];
    }
    const std::vector<std::byte> joined = join(*outputs, axis);
    const std::vector<std::byte> expected(input.bytes().begin(), input.bytes().end());
    EXPECT_TRUE(joined == expected) << data_type_name(type) << " " << format_dims(in_sizes) << " axis " << axis
                                    << " into " << parts.size() << " parts";
}

TEST(SplitProperty, JoinGivesInputForEveryTypeRankAndAxis) {
    const uint64_t seed = 0x5b117001;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto op = make_op();
    for (DataType type : kAllTensorDataTypes)
        for (uint32_t rank = 1; rank <= 8; ++rank)
            for (uint32_t axis = 0; axis < rank; ++axis) {
                Dims in_sizes(rank);
                for (uint32_t& size : in_sizes) size = uint32_t(1 + rng() % (rank <= 4 ? 4 : 2));
                in_sizes[axis] = uint32_t(1 + rng() % 7);
                const uint32_t count = uint32_t(1 + rng() % std::min<uint32_t>(in_sizes[axis], 4));
                expect_join_gives_input(*op, type, in_sizes, axis, random_parts(in_sizes[axis], count, rng), rng);
            }
}

TEST(SplitProperty, OneOutputIsACopy) {
    const uint64_t seed = 0x5b117002;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto op = make_op();
    for (DataType type : kAllTensorDataTypes) expect_join_gives_input(*op, type, {2, 3, 4, 5}, 1, {3}, rng);
}

TEST(SplitProperty, UnevenPartsOfALargeTensorSplitAcrossThreads) {
    const uint64_t seed = 0x5b117003;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto op = make_op();
    expect_join_gives_input(*op, DataType::kFloat16, {8, 100, 3, 20}, 1, {1, 37, 50, 12}, rng);
    expect_join_gives_input(*op, DataType::kFloat64, {40, 7, 300}, 2, {299, 1}, rng);
    // Runs longer than one hand-off's piece (256 KiB) are cut into pieces.
    expect_join_gives_input(*op, DataType::kFloat32, {3, 70000}, 1, {1, 69999}, rng);
    expect_join_gives_input(*op, DataType::kUint8, {600000}, 0, {100, 599900}, rng);
}

}  // namespace
}  // namespace dmltool::ops::split
