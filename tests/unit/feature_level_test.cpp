#include <gtest/gtest.h>

#include "core/feature_level.h"

namespace dmltool {
namespace {

TEST(FeatureLevel, ParsesAllSpellings) {
    EXPECT_EQ(FeatureLevel::parse("5_1"), fl(5, 1));
    EXPECT_EQ(FeatureLevel::parse("5.1"), fl(5, 1));
    EXPECT_EQ(FeatureLevel::parse("DML_FEATURE_LEVEL_5_1"), fl(5, 1));
    EXPECT_EQ(FeatureLevel::parse("1_0")->value, 0x1000);
    EXPECT_EQ(FeatureLevel::parse("6_4")->value, 0x6400);
}

TEST(FeatureLevel, RejectsLevelsDirectMlDoesNotDefine) {
    for (const char* text : {"5_3", "7_0", "0_0", "1_1", "2_2", "51", "5_", "_1", "5-1", "5_1 ", " 5_1", "",
                             "DML_FEATURE_LEVEL_", "DML_FEATURE_LEVEL_9_9", "dml_feature_level_5_1", "5_10", "a_b"})
        EXPECT_FALSE(FeatureLevel::parse(text).has_value()) << "'" << text << "'";
}

TEST(FeatureLevel, FormatsAndOrders) {
    EXPECT_EQ(fl(2, 1).to_string(), "2_1");
    EXPECT_EQ(kHighestFeatureLevel.to_string(), "6_4");
    EXPECT_LT(fl(4, 1), fl(5, 0));
    EXPECT_LT(fl(5, 0), fl(5, 1));
    // Every known level survives a format/parse round trip.
    for (FeatureLevel level : kAllFeatureLevels) EXPECT_EQ(FeatureLevel::parse(level.to_string()), level);
    EXPECT_EQ(all_feature_level_names(),
              "1_0, 2_0, 2_1, 3_0, 3_1, 4_0, 4_1, 5_0, 5_1, 5_2, 6_0, 6_1, 6_2, 6_3, 6_4");
}

TEST(DataTypeSet, ContainsAndLists) {
    constexpr DataTypeSet set{DataType::kInt8, DataType::kFloat32};
    EXPECT_TRUE(set.contains(DataType::kInt8));
    EXPECT_FALSE(set.contains(DataType::kUint8));
    EXPECT_EQ(set.to_string(), "FLOAT32, INT8");  // in enum order, not insertion order
}

TEST(RankRange, Formats) {
    EXPECT_EQ((RankRange{4, 4}).to_string(), "4");
    EXPECT_EQ((RankRange{1, 8}).to_string(), "1 to 8");
    EXPECT_TRUE((RankRange{3, 4}).contains(3));
    EXPECT_FALSE((RankRange{3, 4}).contains(5));
}

TensorDesc desc_of(DataType type, Dims sizes) {
    TensorDesc d;
    d.data_type = type;
    d.sizes = std::move(sizes);
    return d;
}

// Shaped like the SPLIT table (spec §5.4), highest row first as in the docs, so the derivation must not rely on
// the row order.
const FeatureLevelTable& split_like_table() {
    static const DataTypeSet k32 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32, DataType::kInt16,
                                    DataType::kInt8,    DataType::kUint32,  DataType::kUint16, DataType::kUint8};
    static const DataTypeSet k64 = {DataType::kFloat64, DataType::kFloat32, DataType::kFloat16, DataType::kInt64,
                                    DataType::kInt32,   DataType::kInt16,   DataType::kInt8,    DataType::kUint64,
                                    DataType::kUint32,  DataType::kUint16,  DataType::kUint8};
    static const DataTypeSet k10 = {DataType::kFloat32, DataType::kFloat16, DataType::kInt32,
                                    DataType::kInt16,   DataType::kUint32,  DataType::kUint16};
    static const FeatureLevelTable table = {
        {fl(4, 1), {{"In", {1, 8}, k64}, {"Out", {1, 8}, k64}}},
        {fl(3, 0), {{"In", {1, 8}, k32}, {"Out", {1, 8}, k32}}},
        {fl(2, 1), {{"In", {4, 4}, k32}, {"Out", {4, 4}, k32}}},
        {fl(1, 0), {{"In", {4, 4}, k10}, {"Out", {4, 4}, k10}}},
    };
    return table;
}

Result<FeatureLevel> derive(const TensorDesc& in, const TensorDesc* out) {
    const TensorUse uses[] = {{"In", "In", &in}, {"Out", "Out", out}};
    return derive_min_feature_level("TEST_OP", split_like_table(), uses);
}

TEST(DeriveMinFeatureLevel, PicksLowestAllowingRow) {
    const TensorDesc f32_4d = desc_of(DataType::kFloat32, {1, 2, 3, 4});
    const TensorDesc i8_4d = desc_of(DataType::kInt8, {1, 2, 3, 4});
    const TensorDesc f32_2d = desc_of(DataType::kFloat32, {3, 4});
    const TensorDesc f64_1d = desc_of(DataType::kFloat64, {5});
    EXPECT_EQ(*derive(f32_4d, &f32_4d), fl(1, 0));
    EXPECT_EQ(*derive(i8_4d, &i8_4d), fl(2, 1));  // 8-bit types arrived in 2_1
    EXPECT_EQ(*derive(f32_2d, &f32_2d), fl(3, 0));
    EXPECT_EQ(*derive(f64_1d, &f64_1d), fl(4, 1));
    // One tensor alone decides when it needs more than the other.
    EXPECT_EQ(*derive(f32_4d, &i8_4d), fl(2, 1));
}

TEST(DeriveMinFeatureLevel, IgnoresAbsentOptionalTensors) {
    const TensorDesc f32_4d = desc_of(DataType::kFloat32, {1, 2, 3, 4});
    EXPECT_EQ(*derive(f32_4d, nullptr), fl(1, 0));
}

TEST(DeriveMinFeatureLevel, ExplainsDisallowedType) {
    const TensorDesc u4 = desc_of(DataType::kUint4, {4});
    auto result = derive(u4, &u4);
    ASSERT_FALSE(result.is_ok());
    EXPECT_EQ(result.status().code(), ErrorCode::kInvalidInput);
    EXPECT_EQ(result.status().message(),
              "TEST_OP: In: data type UINT4 not allowed (expected one of FLOAT32, FLOAT16, UINT32, UINT16, UINT8, "
              "INT32, INT16, INT8, FLOAT64, UINT64, INT64) at any feature level up to 4_1");
}

TEST(DeriveMinFeatureLevel, ExplainsDisallowedRank) {
    static const FeatureLevelTable table = {{fl(2, 1), {{"X", {4, 4}, {DataType::kFloat32}}}}};
    const TensorDesc x = desc_of(DataType::kFloat32, {1, 2, 3, 4, 5});
    const TensorUse uses[] = {{"X", "X", &x}};
    auto result = derive_min_feature_level("OP", table, uses);
    ASSERT_FALSE(result.is_ok());
    EXPECT_EQ(result.status().message(), "OP: X: 5 dimensions not allowed (expected 4) at any feature level up to 2_1");
}

TEST(DeriveMinFeatureLevel, NamesTheOffendingArrayElement) {
    const TensorDesc ok = desc_of(DataType::kFloat32, {1, 2, 3, 4});
    const TensorDesc bad = desc_of(DataType::kUint4, {1, 2, 3, 4});
    const TensorUse uses[] = {{"In", "In", &ok}, {"Out", "Out[0]", &ok}, {"Out", "Out[1]", &bad}};
    auto result = derive_min_feature_level("TEST_OP", split_like_table(), uses);
    ASSERT_FALSE(result.is_ok());
    EXPECT_NE(result.status().message().find("TEST_OP: Out[1]: data type UINT4 not allowed"), std::string::npos)
        << result.status().message();
}

}  // namespace
}  // namespace dmltool
