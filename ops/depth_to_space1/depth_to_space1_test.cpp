// Tests of DML_OPERATOR_DEPTH_TO_SPACE1: the spec §9.1 worked examples, every §10 validation rule, the
// feature-level table, and the reference against two independent formulations of spec §4.4 (the per-input
// scatter form and ONNX's reshape/transpose form) on random bit patterns of every data type.
#include <gtest/gtest.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "core/op.h"
#include "ops/depth_to_space1/depth_to_space1.h"
#include "tests/testing/op_testing.h"

namespace dmltool::ops::depth_to_space1 {
std::unique_ptr<Op> make_op();
namespace {

using nlohmann::json;
using testing::tensor_json;
using testing::first_difference;
using testing::parse_desc;
using testing::random_bits_tensor;
using testing::rejection;

json desc_json(DataType type, const Dims& in, const Dims& out, uint32_t block, std::string order) {
    return {{"InputTensor", tensor_json(type, in)},
            {"OutputTensor", tensor_json(type, out)},
            {"BlockSize", block},
            {"Order", std::move(order)}};
}

Dims d2s_output_sizes(const Dims& in, uint32_t b) { return {in[0], in[1] / (b * b), in[2] * b, in[3] * b}; }




// Spec §4.4, scatter form: walk the INPUT; DCR: (blk, c') = divmod(ci, C'); CRD: (c', blk) = divmod(ci, B*B);
// (bh, bw) = divmod(blk, B); the element lands at (n, c', h*B + bh, w*B + bw).
HostTensor scatter_formulation(const HostTensor& input, uint32_t b, bool dcr) {
    const Dims& s = input.desc().sizes;
    TensorDesc out_desc;
    out_desc.data_type = input.data_type();
    out_desc.sizes = d2s_output_sizes(s, b);
    HostTensor out(out_desc);
    const uint64_t cp = s[1] / (b * b), oh_size = s[2] * b, ow_size = s[3] * b;
    uint64_t index = 0;
    for (uint64_t n = 0; n < s[0]; ++n)
        for (uint64_t ci = 0; ci < s[1]; ++ci)
            for (uint64_t h = 0; h < s[2]; ++h)
                for (uint64_t w = 0; w < s[3]; ++w, ++index) {
                    const uint64_t blk = dcr ? ci / cp : ci % (b * b);
                    const uint64_t c = dcr ? ci % cp : ci / (b * b);
                    const uint64_t oh = h * b + blk / b, ow = w * b + blk % b;
                    const uint64_t to = ((n * cp + c) * oh_size + oh) * ow_size + ow;
                    std::memcpy(out.element_ptr(to), input.element_ptr(index), input.element_bytes());
                }
    return out;
}

// ONNX's reference (onnx/reference/ops/op_depth_to_space.py): reshape to 6-D, transpose, reshape to 4-D.
//   DCR: (N, B, B, C', H, W) transposed by [0,3,4,1,5,2];  CRD: (N, C', B, B, H, W) transposed by [0,1,4,2,5,3].
HostTensor transpose_formulation(const HostTensor& input, uint32_t b, bool dcr) {
    const Dims& s = input.desc().sizes;
    const uint64_t cp = s[1] / (b * b);
    const uint64_t shape[6] = {s[0], dcr ? b : cp, b, dcr ? cp : b, s[2], s[3]};
    const int perm[6] = {0, dcr ? 3 : 1, 4, dcr ? 1 : 2, 5, dcr ? 2 : 3};
    uint64_t in_strides[6];
    in_strides[5] = 1;
    for (int d = 5; d > 0; --d) in_strides[d - 1] = in_strides[d] * shape[d];
    TensorDesc out_desc;
    out_desc.data_type = input.data_type();
    out_desc.sizes = d2s_output_sizes(s, b);
    HostTensor out(out_desc);
    uint64_t idx[6] = {};  // index into the transposed 6-D view, row-major
    for (uint64_t o = 0; o < out.element_count(); ++o) {
        uint64_t from = 0;
        for (int k = 0; k < 6; ++k) from += idx[k] * in_strides[perm[k]];
        std::memcpy(out.element_ptr(o), input.element_ptr(from), input.element_bytes());
        for (int k = 5; k >= 0; --k) {
            if (++idx[k] < shape[perm[k]]) break;
            idx[k] = 0;
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------
// Spec §9.1 worked examples.

const std::vector<double> kDocInput = {0,  1,  2,  3,  4,  5,  9,  10, 11, 12, 13, 14, 18, 19, 20, 21,
                                       22, 23, 27, 28, 29, 30, 31, 32, 36, 37, 38, 39, 40, 41, 45, 46,
                                       47, 48, 49, 50, 54, 55, 56, 57, 58, 59, 63, 64, 65, 66, 67, 68};

std::vector<double> run_doc_example(const std::string& order) {
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(DataType::kUint32, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, order).dump());
    EXPECT_TRUE(desc.is_ok()) << desc.status().message();
    if (!desc.is_ok()) return {};
    HostTensor input = testing::make_tensor(DataType::kUint32, {1, 8, 2, 3}, kDocInput);
    auto outputs = testing::run_reference(*op, **desc, {&input});
    EXPECT_TRUE(outputs.is_ok()) << outputs.status().message();
    return outputs.is_ok() ? testing::values_of((*outputs)[0]) : std::vector<double>{};
}

TEST(DepthToSpace1DocExample, DepthColumnRow) {
    const std::vector<double> expected = {0,  18, 1,  19, 2,  20, 36, 54, 37, 55, 38, 56, 3,  21, 4,  22,
                                          5,  23, 39, 57, 40, 58, 41, 59, 9,  27, 10, 28, 11, 29, 45, 63,
                                          46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68};
    EXPECT_EQ(run_doc_example("DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW"), expected);
}

TEST(DepthToSpace1DocExample, ColumnRowDepth) {
    const std::vector<double> expected = {0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29, 3,  12, 4,  13,
                                          5,  14, 21, 30, 22, 31, 23, 32, 36, 45, 37, 46, 38, 47, 54, 63,
                                          55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68};
    EXPECT_EQ(run_doc_example("COLUMN_ROW_DEPTH"), expected);  // the suffix alone is accepted too
}

TEST(DepthToSpace1DocExample, NameToleranceAndWork) {
    auto op = make_op();
    EXPECT_EQ(op->name(), "DEPTH_TO_SPACE1");
    auto desc = parse_desc(*op, desc_json(DataType::kFloat16, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW").dump());
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    const Tolerance tolerance = op->default_tolerance(**desc, 0);
    EXPECT_TRUE(tolerance.bitwise);
    EXPECT_EQ(tolerance.reason, "pure data movement: bit-exact");
    EXPECT_EQ(op->work(**desc).bytes, 2u * 48 * 2);  // 48 FLOAT16 elements read and written
    EXPECT_EQ(op->work(**desc).ops, 0u);
    const auto slots = op->tensors(**desc);
    ASSERT_EQ(slots.size(), 2u);
    EXPECT_EQ(slots[0].role, TensorRole::kInput);
    EXPECT_EQ(slots[1].role, TensorRole::kOutput);
    EXPECT_EQ(slots[1].desc->sizes, (Dims{1, 2, 4, 6}));
}

// ---------------------------------------------------------------------------------------------------------
// Spec §10 validation: each rule rejects with a message naming the member.

TEST(DepthToSpace1Validation, OutputSizesMustFollowTheShapeFormula) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 2, 4, 5}, 2, "DEPTH_COLUMN_ROW").dump()),
              "/operator/desc/OutputTensor/Sizes: expected {1,2,4,6} (InputTensor {1,8,2,3} with BlockSize 2), "
              "found {1,2,4,5}");
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {2, 8, 2, 3}, {1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW").dump())
                  .find("/operator/desc/OutputTensor/Sizes: expected {2,2,4,6}"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 8, 2, 3}, 2, "DEPTH_COLUMN_ROW").dump())
                  .find("/operator/desc/OutputTensor/Sizes: expected {1,2,4,6}"),
              std::string::npos);
}

TEST(DepthToSpace1Validation, DataTypesMustMatch) {
    auto op = make_op();
    json desc = desc_json(DataType::kUint32, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW");
    desc["OutputTensor"]["DataType"] = "FLOAT32";
    EXPECT_EQ(rejection(*op, desc.dump()),
              "/operator/desc/OutputTensor/DataType: expected UINT32 (the InputTensor's data type), found FLOAT32");
}

TEST(DepthToSpace1Validation, TensorsMustBe4D) {
    auto op = make_op();
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {8, 2, 3}, {1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW").dump())
                  .find("/operator/desc/InputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found 3"),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW").dump())
                  .find("/operator/desc/OutputTensor/Sizes: expected 4 dimensions {N,C,H,W}, found 5"),
              std::string::npos);
}

TEST(DepthToSpace1Validation, BlockSizeMustBePositive) {
    auto op = make_op();
    EXPECT_EQ(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 8, 2, 3}, 0, "DEPTH_COLUMN_ROW").dump()),
              "/operator/desc/BlockSize: expected at least 1, found 0");
}

TEST(DepthToSpace1Validation, ChannelsMustBeDivisibleByBlockSizeSquared) {
    auto op = make_op();
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 1, 6, 9}, 3, "DEPTH_COLUMN_ROW").dump())
                  .find("/operator/desc/InputTensor/Sizes: expected a channel count (Sizes[1]) divisible by "
                        "BlockSize^2 = 9 (BlockSize 3), found 8"),
              std::string::npos);
    // B*B wraps to 0 (B = 65536) or 1 (B = 2^32 - 1) in 32-bit arithmetic; neither may slip through.
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 8, 2, 3}, 65536, "DEPTH_COLUMN_ROW").dump())
                  .find("BlockSize^2 = 4294967296 "),
              std::string::npos);
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 8, 2, 3}, 4294967295u, "DEPTH_COLUMN_ROW").dump())
                  .find("BlockSize^2 = 18446744065119617025 "),
              std::string::npos);
}

TEST(DepthToSpace1Validation, OrderMustBeKnown) {
    auto op = make_op();
    EXPECT_NE(rejection(*op, desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, "ROW_COLUMN_DEPTH").dump())
                  .find("/operator/desc/Order: expected one of DEPTH_COLUMN_ROW, COLUMN_ROW_DEPTH"),
              std::string::npos);
    json numeric = desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, "");
    numeric["Order"] = 2;
    EXPECT_NE(rejection(*op, numeric.dump()).find("/operator/desc/Order: expected one of"), std::string::npos);
}

TEST(DepthToSpace1Validation, RequiredMembers) {
    auto op = make_op();
    for (const char* member : {"InputTensor", "OutputTensor", "BlockSize", "Order"}) {
        json desc = desc_json(DataType::kFloat32, {1, 8, 2, 3}, {1, 2, 4, 6}, 2, "DEPTH_COLUMN_ROW");
        desc.erase(member);
        EXPECT_NE(rejection(*op, desc.dump()).find("/operator/desc/" + std::string(member) + ": missing required member"),
                  std::string::npos)
            << member;
    }
}

// ---------------------------------------------------------------------------------------------------------
// Feature levels (spec §4.3).

Result<FeatureLevel> feature_level_of(DataType type) {
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(type, {1, 4, 2, 3}, {1, 1, 4, 6}, 2, "DEPTH_COLUMN_ROW").dump());
    if (!desc.is_ok()) return desc.status();
    return min_feature_level(*op, **desc);
}

TEST(DepthToSpace1FeatureLevel, EightTypesNeed2_1) {
    for (DataType type : {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kInt16, DataType::kInt8,
                          DataType::kUint32, DataType::kUint16, DataType::kUint8}) {
        auto level = feature_level_of(type);
        ASSERT_TRUE(level.is_ok()) << data_type_name(type) << ": " << level.status().message();
        EXPECT_EQ(*level, fl(2, 1)) << data_type_name(type);
    }
}

TEST(DepthToSpace1FeatureLevel, SixtyFourBitTypesNeed5_0) {
    for (DataType type : {DataType::kFloat64, DataType::kInt64, DataType::kUint64}) {
        auto level = feature_level_of(type);
        ASSERT_TRUE(level.is_ok()) << data_type_name(type) << ": " << level.status().message();
        EXPECT_EQ(*level, fl(5, 0)) << data_type_name(type);
    }
}

TEST(DepthToSpace1FeatureLevel, FourBitTypesAreRejected) {
    for (DataType type : {DataType::kUint4, DataType::kInt4}) {
        auto level = feature_level_of(type);
        ASSERT_FALSE(level.is_ok()) << data_type_name(type);
        EXPECT_EQ(level.status().code(), ErrorCode::kInvalidInput);
        EXPECT_NE(level.status().message().find("InputTensor: data type " + std::string(data_type_name(type)) +
                                                " not allowed"),
                  std::string::npos)
            << level.status().message();
    }
}

// The naive gather form (the reference before it copied whole rows): one source_offset per output element.
HostTensor gather_formulation(const HostTensor& input, uint32_t b, bool dcr) {
    TensorDesc out_desc;
    out_desc.data_type = input.data_type();
    out_desc.sizes = d2s_output_sizes(input.desc().sizes, b);
    HostTensor out(out_desc);
    const DepthSpaceOrder order = dcr ? DepthSpaceOrder::kDepthColumnRow : DepthSpaceOrder::kColumnRowDepth;
    uint32_t at[4];
    for (uint64_t i = 0; i < out.element_count(); ++i) {
        unravel_index(i, out_desc.sizes, at);
        const uint64_t from = source_offset(input.desc().sizes, b, order, at[0], at[1], at[2], at[3]);
        std::memcpy(out.element_ptr(i), input.element_ptr(from), input.element_bytes());
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------
// Properties: the reference equals the naive gather and both independent formulations, bit for bit, on random bit patterns.

void expect_matches_formulations(const Op& op, DataType type, const Dims& in_sizes, uint32_t block, bool dcr,
                                 std::mt19937_64& rng) {
    const Dims out_sizes = d2s_output_sizes(in_sizes, block);
    auto desc = parse_desc(op, desc_json(type, in_sizes, out_sizes, block, dcr ? "DEPTH_COLUMN_ROW" : "COLUMN_ROW_DEPTH")
                                   .dump());
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    const HostTensor input = random_bits_tensor(type, in_sizes, rng);
    auto outputs = testing::run_reference(op, **desc, {&input});
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    const HostTensor& output = (*outputs)[0];
    const std::string what = std::string(data_type_name(type)) + " " + format_dims(in_sizes) + " B=" +
                             std::to_string(block) + (dcr ? " DCR" : " CRD");
    EXPECT_EQ(first_difference(output, gather_formulation(input, block, dcr)), -1) << "vs naive gather, " << what;
    EXPECT_EQ(first_difference(output, scatter_formulation(input, block, dcr)), -1) << "vs scatter form, " << what;
    EXPECT_EQ(first_difference(output, transpose_formulation(input, block, dcr)), -1) << "vs transpose form, " << what;
}

TEST(DepthToSpace1Property, MatchesScatterAndTransposeFormsForEveryTypeBlockAndOrder) {
    const uint64_t seed = 0xd25e0001;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto op = make_op();
    for (DataType type : kAllTensorDataTypes)
        for (uint32_t block = 1; block <= 5; ++block)  // 5: the any-block path
            for (bool dcr : {true, false})
                for (int trial = 0; trial < 3; ++trial) {
                    const Dims in_sizes = {uint32_t(1 + rng() % 2), uint32_t((1 + rng() % 3) * block * block),
                                           uint32_t(1 + rng() % 4), uint32_t(1 + rng() % 5)};
                    expect_matches_formulations(*op, type, in_sizes, block, dcr, rng);
                }
}

TEST(DepthToSpace1Property, LargeTensorSplitAcrossThreads) {
    const uint64_t seed = 0xd25e0002;
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto op = make_op();
    expect_matches_formulations(*op, DataType::kFloat32, {2, 48, 20, 30}, 4, true, rng);
    expect_matches_formulations(*op, DataType::kUint8, {2, 48, 20, 30}, 4, false, rng);
}

TEST(DepthToSpace1Property, FloatSpecialsSurviveBitExactly) {
    // BlockSize 1 is the identity, so every bit pattern must come out where it went in.
    auto op = make_op();
    auto desc = parse_desc(*op, desc_json(DataType::kFloat32, {1, 1, 1, 4}, {1, 1, 1, 4}, 1, "DEPTH_COLUMN_ROW").dump());
    ASSERT_TRUE(desc.is_ok()) << desc.status().message();
    const uint32_t bits[4] = {0x80000000u, 0x7f800001u, 0xffc01234u, 0x00000001u};  // -0, sNaN, qNaN payload, denorm
    HostTensor input = testing::make_tensor(DataType::kFloat32, {1, 1, 1, 4}, {0, 0, 0, 0});
    for (int i = 0; i < 4; ++i) input.set<uint32_t>(i, bits[i]);
    auto outputs = testing::run_reference(*op, **desc, {&input});
    ASSERT_TRUE(outputs.is_ok()) << outputs.status().message();
    for (int i = 0; i < 4; ++i) EXPECT_EQ((*outputs)[0].get<uint32_t>(i), bits[i]) << "element " << i;
}

}  // namespace
}  // namespace dmltool::ops::depth_to_space1
