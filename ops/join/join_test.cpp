// Tests of DML_OPERATOR_JOIN: the documentation's worked examples, every validation rule (one-line messages with
// the JSON path), the feature-level table, derived outputs, and the reference against an independent formulation
// (SPLIT's reference cutting the output back must give the inputs, byte for byte) on random bit patterns of every
// data type, 1 to 8 dimensions and every axis.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/join/join.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::split {
std::unique_ptr<Op> make_op();
}

namespace dmltool::ops::join {
namespace {

using nlohmann::json;
using testing::parse_desc;
using testing::rejection;
using testing::tensor_json;

json desc_json(DataType type, const std::vector<Dims>& ins, const Dims& out, uint32_t axis) {
    json inputs = json::array();
    for (const Dims& in : ins) inputs.push_back(tensor_json(type, in));
    return {{"InputTensors", inputs}, {"OutputTensor", tensor_json(type, out)}, {"Axis", axis}};
}

Result<HostTensor> run(const Op& op, const json& desc, const std::vector<HostTensor>& inputs) {
    DMLTOOL_ASSIGN_OR_RETURN(auto parsed, parse_desc(op, desc.dump()));
    std::vector<const HostTensor*> pointers;
    for (const HostTensor& t : inputs) pointers.push_back(&t);
    DMLTOOL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, testing::run_reference(op, *parsed, pointers));
    return std::move(outputs[0]);
}

std::vector<double> iota(double first, size_t n) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = first + double(i);
    return v;
}

// The page's example 1: {1,1,2,3} and {1,1,2,4} along axis 3.
TEST(JoinDocExample, OnlyOnePossibleAxis) {
    auto op = make_op();
    const std::vector<HostTensor> in = {testing::make_tensor(DataType::kFloat32, {1, 1, 2, 3}, iota(1, 6)),
                                        testing::make_tensor(DataType::kFloat32, {1, 1, 2, 4}, iota(7, 8))};
    auto out = run(*op, desc_json(DataType::kFloat32, {{1, 1, 2, 3}, {1, 1, 2, 4}}, {1, 1, 2, 7}, 3), in);
    ASSERT_TRUE(out.is_ok()) << out.status().message();
    EXPECT_EQ(testing::values_of(*out), (std::vector<double>{1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14}));
}

// The page's example 2: three {1,1,2,2} inputs along axes 1, 2 and 3.
TEST(JoinDocExample, MultiplePossibleAxes) {
    auto op = make_op();
    const std::vector<HostTensor> in = {testing::make_tensor(DataType::kFloat32, {1, 1, 2, 2}, iota(1, 4)),
                                        testing::make_tensor(DataType::kFloat32, {1, 1, 2, 2}, iota(5, 4)),
                                        testing::make_tensor(DataType::kFloat32, {1, 1, 2, 2}, iota(9, 4))};
    const std::vector<Dims> ins(3, Dims{1, 1, 2, 2});
    auto axis1 = run(*op, desc_json(DataType::kFloat32, ins, {1, 3, 2, 2}, 1), in);
    auto axis2 = run(*op, desc_json(DataType::kFloat32, ins, {1, 1, 6, 2}, 2), in);
    auto axis3 = run(*op, desc_json(DataType::kFloat32, ins, {1, 1, 2, 6}, 3), in);
    ASSERT_TRUE(axis1.is_ok() && axis2.is_ok() && axis3.is_ok());
    EXPECT_EQ(testing::values_of(*axis1), iota(1, 12));
    EXPECT_EQ(testing::values_of(*axis2), iota(1, 12));
    EXPECT_EQ(testing::values_of(*axis3), (std::vector<double>{1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}));
}

TEST(JoinValidation, RejectsEachRuleWithItsPath) {
    auto op = make_op();
    const DataType f = DataType::kFloat32;
    EXPECT_NE(rejection(*op, json({{"InputTensors", json::array()}, {"OutputTensor", tensor_json(f, {1, 1, 1, 1})},
                                   {"Axis", 0}}).dump()),
              "");
    EXPECT_NE(rejection(*op, desc_json(f, {{1, 1, 2, 2}}, {1, 1, 2, 2}, 4).dump()).find("/Axis: expected less than 4"),
              std::string::npos);
    json wrong_type = desc_json(f, {{1, 1, 2, 2}, {1, 1, 2, 2}}, {1, 1, 4, 2}, 2);
    wrong_type["InputTensors"][1] = tensor_json(DataType::kFloat16, {1, 1, 2, 2});
    EXPECT_NE(rejection(*op, wrong_type.dump()).find("/InputTensors/1/DataType: expected FLOAT32"), std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {{1, 1, 2, 2}, {1, 2, 2}}, {1, 1, 4, 2}, 2).dump())
                  .find("/InputTensors/1/Sizes: expected 4 dimensions"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {{1, 1, 2, 2}, {1, 1, 2, 3}}, {1, 1, 4, 2}, 2).dump())
                  .find("/InputTensors/1/Sizes/3: expected 2"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(f, {{1, 1, 2, 2}, {1, 1, 3, 2}}, {1, 1, 4, 2}, 2).dump())
                  .find("/OutputTensor/Sizes/2: expected 5 (the sum of the InputTensors' sizes along Axis 2), found 4"),
              std::string::npos);
    json count = desc_json(f, {{1, 1, 2, 2}}, {1, 1, 2, 2}, 2);
    count["InputCount"] = 2;
    EXPECT_NE(rejection(*op, count.dump()).find("InputCount"), std::string::npos);
}

TEST(JoinFeatureLevels, FollowTheTable) {
    auto op = make_op();
    const auto level = [&](DataType type, const std::vector<Dims>& ins, const Dims& out) {
        auto desc = parse_desc(*op, desc_json(type, ins, out, 0).dump());
        EXPECT_TRUE(desc.is_ok()) << desc.status().message();
        auto fl = min_feature_level(*op, **desc);
        return fl.is_ok() ? fl->to_string() : std::string("none");
    };
    EXPECT_EQ(level(DataType::kFloat32, {{1, 2, 2, 2}, {2, 2, 2, 2}}, {3, 2, 2, 2}), "1_0");
    EXPECT_EQ(level(DataType::kInt8, {{1, 2, 2, 2}}, {1, 2, 2, 2}), "2_1");
    EXPECT_EQ(level(DataType::kUint16, {{1, 2, 2, 2, 2}}, {1, 2, 2, 2, 2}), "3_0");
    EXPECT_EQ(level(DataType::kFloat32, {{3}, {2}}, {5}), "4_1");
    EXPECT_EQ(level(DataType::kInt64, {{1, 2, 2, 2}}, {1, 2, 2, 2}), "4_1");
}

TEST(JoinDerivedOutputs, SumsTheAxis) {
    auto op = make_op();
    json desc = desc_json(DataType::kInt16, {{2, 3, 1}, {2, 4, 1}}, {1}, 1);
    desc.erase("OutputTensor");
    ASSERT_TRUE(op->derive_outputs(desc, "/operator/desc").is_ok());
    EXPECT_EQ(desc["OutputTensor"]["Sizes"], json({2, 7, 1}));
    EXPECT_EQ(desc["OutputTensor"]["DataType"], "INT16");
}

// Joining then splitting with SPLIT's reference gives back every input bit for bit (NaN payloads, -0.0).
TEST(JoinReference, InverseOfSplitOnRandomBits) {
    auto join = make_op();
    auto split = dmltool::ops::split::make_op();
    std::mt19937_64 rng(42);
    const DataType types[] = {DataType::kFloat32, DataType::kFloat16, DataType::kFloat64, DataType::kInt8,
                              DataType::kUint16,  DataType::kInt32,   DataType::kUint64};
    for (DataType type : types) {
        for (uint32_t rank = 1; rank <= 8; ++rank) {
            for (uint32_t axis = 0; axis < rank; ++axis) {
                Dims base(rank);
                for (uint32_t& s : base) s = 1 + uint32_t(rng() % (rank > 4 ? 2 : 4));
                const size_t count = 1 + rng() % 4;
                std::vector<Dims> ins;
                std::vector<HostTensor> tensors;
                Dims out = base;
                out[axis] = 0;
                for (size_t i = 0; i < count; ++i) {
                    Dims in = base;
                    in[axis] = 1 + uint32_t(rng() % 3);
                    out[axis] += in[axis];
                    ins.push_back(in);
                    tensors.push_back(testing::random_bits_tensor(type, in, rng));
                }
                auto joined = run(*join, desc_json(type, ins, out, axis), tensors);
                ASSERT_TRUE(joined.is_ok()) << joined.status().message();
                json outputs = json::array();
                for (const Dims& in : ins) outputs.push_back(tensor_json(type, in));
                const json split_desc = {{"InputTensor", tensor_json(type, out)}, {"OutputTensors", outputs},
                                         {"Axis", axis}};
                auto parsed = parse_desc(*split, split_desc.dump());
                ASSERT_TRUE(parsed.is_ok()) << parsed.status().message();
                auto parts = testing::run_reference(*split, **parsed, {&*joined});
                ASSERT_TRUE(parts.is_ok()) << parts.status().message();
                for (size_t i = 0; i < count; ++i)
                    EXPECT_EQ(testing::first_difference((*parts)[i], tensors[i]), -1)
                        << data_type_name(type) << " rank " << rank << " axis " << axis << " input " << i;
            }
        }
    }
}

TEST(JoinDmlDesc, MembersInDirectMLOrder) {
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(DataType::kFloat32, {{1, 1, 2, 2}, {1, 1, 1, 2}}, {1, 1, 3, 2}, 2).dump());
    ASSERT_TRUE(desc.is_ok());
    auto dml = op->dml_desc(**desc);
    ASSERT_TRUE(dml.is_ok());
    ASSERT_EQ(dml->fields.size(), 4u);
    EXPECT_EQ(dml->fields[0].name, "InputCount");
    EXPECT_EQ(dml->fields[1].name, "InputTensors");
    EXPECT_EQ(dml->fields[2].name, "OutputTensor");
    EXPECT_EQ(dml->fields[3].name, "Axis");
}

}  // namespace
}  // namespace dmltool::ops::join
