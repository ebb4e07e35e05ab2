#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "core/tensor.h"

namespace dmltool {
namespace {

TensorDesc make_desc(DataType type, Dims sizes, std::optional<Dims> strides = std::nullopt) {
    TensorDesc desc;
    desc.data_type = type;
    desc.sizes = std::move(sizes);
    desc.strides = std::move(strides);
    return desc;
}

// Validates with the size filled in, failing the test when the desc is rejected.
TensorDesc valid_desc(DataType type, Dims sizes, std::optional<Dims> strides = std::nullopt,
                      TensorRole role = TensorRole::kInput) {
    TensorDesc desc = make_desc(type, std::move(sizes), std::move(strides));
    Status s = validate_tensor_desc(desc, role, false);
    EXPECT_TRUE(s.is_ok()) << s.message();
    return desc;
}

// Message of a rejected desc; empty (and a test failure) when it was accepted.
std::string rejection(TensorDesc desc, TensorRole role = TensorRole::kInput, bool total_given = false) {
    Status s = validate_tensor_desc(desc, role, total_given);
    EXPECT_FALSE(s.is_ok()) << describe(desc) << " was accepted";
    EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
    return s.message();
}

// The worked values of spec §2.4 (DMLCalcBufferTensorSize).
TEST(CalcBufferTensorSize, MatchesSpecTable) {
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kFloat32, {1, 1, 2, 3}, std::nullopt), 24u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kFloat32, {1, 1, 2, 3}, Dims{6, 6, 3, 1}), 24u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kUint8, {1, 3, 5, 5}, std::nullopt), 76u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kUint8, {3}, std::nullopt), 4u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kFloat16, {2, 3, 4, 5}, Dims{0, 1, 0, 0}), 8u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kInt4, {5}, std::nullopt), 4u);
}

TEST(CalcBufferTensorSize, EdgeCases) {
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kUnknown, {4}, std::nullopt), 0u);
    // Padding strides: last index (1*10 + 2*1) + 1 = 13 floats = 52 bytes.
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kFloat32, {2, 3}, Dims{10, 1}), 52u);
    // A single element never takes less than 4 bytes.
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kInt8, {1}, std::nullopt), 4u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kFloat64, {3}, std::nullopt), 24u);
    EXPECT_EQ(calc_buffer_tensor_size(DataType::kUint16, {3}, std::nullopt), 8u);
    // (2^32-2) * (2^32-1) + 1 elements of 8 bits overflow 64 bits of *bits*.
    EXPECT_FALSE(calc_buffer_tensor_size(DataType::kUint8, {0xffffffffu}, Dims{0xffffffffu}).has_value());
    EXPECT_FALSE(calc_buffer_tensor_size(DataType::kUint8, {0xffffffffu, 0xffffffffu, 0xffffffffu}, std::nullopt)
                     .has_value());
}

TEST(CheckedArithmetic, DetectsOverflow) {
    EXPECT_EQ(checked_mul(1ull << 32, 1ull << 31), 1ull << 63);
    EXPECT_FALSE(checked_mul(1ull << 32, 1ull << 32).has_value());
    EXPECT_FALSE(checked_add(std::numeric_limits<uint64_t>::max(), 1).has_value());
    EXPECT_EQ(checked_element_count({2, 3, 4}), 24u);
    EXPECT_FALSE(checked_element_count({0xffffffffu, 0xffffffffu, 0xffffffffu}).has_value());
}

TEST(PackedStrides, RowMajor) {
    EXPECT_EQ(packed_strides({2, 3, 4}), (Dims{12, 4, 1}));
    EXPECT_EQ(packed_strides({7}), (Dims{1}));
    EXPECT_TRUE(make_desc(DataType::kFloat32, {2, 3}, Dims{3, 1}).is_packed());
    EXPECT_FALSE(make_desc(DataType::kFloat32, {2, 3}, Dims{4, 1}).is_packed());
}

TEST(ValidateTensorDesc, FillsTotalSizeWhenNotGiven) {
    TensorDesc desc = valid_desc(DataType::kUint8, {1, 3, 5, 5});
    EXPECT_EQ(desc.total_size_in_bytes, 76u);
    EXPECT_EQ(desc.element_count(), 75u);
}

TEST(ValidateTensorDesc, KeepsLargerGivenTotalSize) {
    TensorDesc desc = make_desc(DataType::kFloat32, {1, 1, 2, 3});
    desc.total_size_in_bytes = 100;
    ASSERT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, true).is_ok());
    EXPECT_EQ(desc.total_size_in_bytes, 100u);
    desc.total_size_in_bytes = 24;  // exactly the minimum is fine
    EXPECT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, true).is_ok());
}

TEST(ValidateTensorDesc, RejectsZeroSize) {
    EXPECT_EQ(rejection(make_desc(DataType::kFloat32, {1, 0, 2})), ".Sizes[1]: expected a size >= 1, found 0");
}

TEST(ValidateTensorDesc, RejectsRankZeroAndNine) {
    EXPECT_EQ(rejection(make_desc(DataType::kFloat32, {})), ".Sizes: expected 1 to 8 dimensions, found 0");
    EXPECT_EQ(rejection(make_desc(DataType::kFloat32, {1, 1, 1, 1, 1, 1, 1, 1, 1})),
              ".Sizes: expected 1 to 8 dimensions, found 9");
    TensorDesc eight = make_desc(DataType::kFloat32, {1, 1, 1, 1, 1, 1, 1, 2});
    EXPECT_TRUE(validate_tensor_desc(eight, TensorRole::kInput, false).is_ok());
}

TEST(ValidateTensorDesc, RejectsMoreThanUint32MaxElements) {
    const std::string message = rejection(make_desc(DataType::kUint8, {65536, 65536}));
    EXPECT_NE(message.find(".Sizes: expected at most 4294967295 elements"), std::string::npos) << message;
    EXPECT_NE(message.find("found 4294967296 in {65536,65536}"), std::string::npos) << message;
    // 2^32 - 1 elements is exactly the limit.
    TensorDesc at_limit = make_desc(DataType::kUint8, {65535, 65537});
    EXPECT_TRUE(validate_tensor_desc(at_limit, TensorRole::kInput, false).is_ok());
    // A product that overflows 64 bits must not wrap around into an accepted count.
    const std::string huge = rejection(make_desc(DataType::kUint8, {0xffffffffu, 0xffffffffu, 0xffffffffu}));
    EXPECT_NE(huge.find("more than 2^64"), std::string::npos) << huge;
}

TEST(ValidateTensorDesc, RejectsOverflowingStrides) {
    EXPECT_EQ(rejection(make_desc(DataType::kUint8, {0xffffffffu}, Dims{0xffffffffu})),
              ".Strides: expected an addressed range of at most 2^64 bits (DMLCalcBufferTensorSize), found {4294967295} "
              "over Sizes {4294967295}, which addresses more");
}

TEST(ValidateTensorDesc, RejectsStrideCountMismatch) {
    EXPECT_EQ(rejection(make_desc(DataType::kFloat32, {2, 3}, Dims{1})),
              ".Strides: expected 2 entries (one per dimension), found 1");
}

TEST(ValidateTensorDesc, RejectsTooSmallTotalSize) {
    TensorDesc desc = make_desc(DataType::kFloat32, {1, 1, 2, 3});
    desc.total_size_in_bytes = 20;
    const std::string message = rejection(desc, TensorRole::kInput, true);
    EXPECT_EQ(message, ".TotalTensorSizeInBytes: expected at least 24 (DMLCalcBufferTensorSize of FLOAT32 {1,1,2,3}), "
                       "found 20");
}

TEST(ValidateTensorDesc, RejectsBadAlignment) {
    TensorDesc not_power = make_desc(DataType::kFloat32, {4});
    not_power.guaranteed_base_offset_alignment = 24;
    EXPECT_EQ(rejection(not_power),
              ".GuaranteedBaseOffsetAlignment: expected 0 or a power of two >= the element size (4), found 24");
    TensorDesc too_small = make_desc(DataType::kFloat64, {4});
    too_small.guaranteed_base_offset_alignment = 4;
    EXPECT_NE(rejection(too_small).find("(8), found 4"), std::string::npos);
    TensorDesc ok = make_desc(DataType::kFloat32, {4});
    ok.guaranteed_base_offset_alignment = 16;
    EXPECT_TRUE(validate_tensor_desc(ok, TensorRole::kInput, false).is_ok());
}

TEST(ValidateTensorDesc, RejectsZeroStrideOnOutputOnly) {
    const std::string message = rejection(make_desc(DataType::kFloat32, {2, 3}, Dims{0, 1}), TensorRole::kOutput);
    EXPECT_NE(message.find(".Strides[0]: expected a non-zero stride on an output tensor"), std::string::npos) << message;
    // Broadcasting inputs is the point of zero strides.
    TensorDesc input = make_desc(DataType::kFloat32, {2, 3}, Dims{0, 1});
    EXPECT_TRUE(validate_tensor_desc(input, TensorRole::kInput, false).is_ok());
    // A zero stride over a size-1 dimension aliases nothing.
    TensorDesc size_one = make_desc(DataType::kFloat32, {1, 3}, Dims{0, 1});
    EXPECT_TRUE(validate_tensor_desc(size_one, TensorRole::kOutput, false).is_ok());
}

TEST(ValidateTensorDesc, RejectsUnknownTypeAndFlags) {
    EXPECT_EQ(rejection(make_desc(DataType::kUnknown, {1})), ".DataType: expected a data type, found UNKNOWN");
    TensorDesc flags = make_desc(DataType::kFloat32, {1});
    flags.flags = 2;
    EXPECT_EQ(rejection(flags), ".Flags: expected NONE or OWNED_BY_DML (0 or 1), found 2");
}

TEST(Describe, NamesTypeSizesAndNonPackedStrides) {
    EXPECT_EQ(describe(make_desc(DataType::kFloat16, {1, 8, 2, 3})), "FLOAT16 {1,8,2,3}");
    EXPECT_EQ(describe(make_desc(DataType::kFloat16, {1, 8, 2, 3}, Dims{48, 6, 3, 1})), "FLOAT16 {1,8,2,3}");
    EXPECT_EQ(describe(make_desc(DataType::kInt8, {2, 3}, Dims{0, 1})), "INT8 {2,3} strides {0,1}");
}

TEST(UnravelIndex, RowMajorCoordinates) {
    uint32_t c[3];
    unravel_index(23, {2, 3, 4}, c);
    EXPECT_EQ(c[0], 1u);
    EXPECT_EQ(c[1], 2u);
    EXPECT_EQ(c[2], 3u);
    unravel_index(5, {2, 3, 4}, c);
    EXPECT_EQ(c[0], 0u);
    EXPECT_EQ(c[1], 1u);
    EXPECT_EQ(c[2], 1u);
}

TEST(HostTensor, ConvertsPerType) {
    HostTensor i8(valid_desc(DataType::kInt8, {2}));
    i8.set_from_double(0, -128);
    EXPECT_EQ(i8.get_as_int64(0), -128);
    EXPECT_EQ(i8.get_as_double(0), -128.0);
    HostTensor u64(valid_desc(DataType::kUint64, {1}));
    u64.set<uint64_t>(0, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(u64.get_as_double(0), 18446744073709551616.0);
    HostTensor f16(valid_desc(DataType::kFloat16, {1}));
    f16.set_from_double(0, 0.5);
    EXPECT_EQ(f16.get<uint16_t>(0), 0x3800);
    EXPECT_EQ(f16.get_as_double(0), 0.5);
    EXPECT_EQ(f16.bytes().size(), 2u);
}

HostTensor iota_float(const TensorDesc& desc, float first) {
    HostTensor t(desc);
    for (uint64_t i = 0; i < t.element_count(); ++i) t.set<float>(i, first + float(i));
    return t;
}

float physical_float(const std::vector<std::byte>& physical, size_t element) {
    float v;
    std::memcpy(&v, physical.data() + element * 4, 4);
    return v;
}

TEST(PhysicalLayout, PaddingStridesPlaceElementsAndKeepFill) {
    // {2,3} with row stride 4: elements at 0,1,2 and 4,5,6; element 3 is padding.
    TensorDesc desc = valid_desc(DataType::kFloat32, {2, 3}, Dims{4, 1});
    ASSERT_EQ(desc.total_size_in_bytes, 28u);
    HostTensor logical = iota_float(desc, 1.0f);
    const std::vector<std::byte> physical = to_physical(logical, std::byte{0xab});
    ASSERT_EQ(physical.size(), 28u);
    EXPECT_EQ(physical_float(physical, 0), 1.0f);
    EXPECT_EQ(physical_float(physical, 2), 3.0f);
    EXPECT_EQ(physical_float(physical, 4), 4.0f);
    EXPECT_EQ(physical_float(physical, 6), 6.0f);
    for (size_t b = 12; b < 16; ++b) EXPECT_EQ(physical[b], std::byte{0xab}) << b;
    HostTensor back = from_physical(desc, physical);
    for (uint64_t i = 0; i < 6; ++i) EXPECT_EQ(back.get<float>(i), float(i + 1)) << i;
}

TEST(PhysicalLayout, TransposedStrides) {
    // Column-major {2,3}: logical (r, c) lives at c*2 + r.
    TensorDesc desc = valid_desc(DataType::kFloat32, {2, 3}, Dims{1, 2});
    HostTensor logical = iota_float(desc, 0.0f);
    const std::vector<std::byte> physical = to_physical(logical);
    const float expected[] = {0, 3, 1, 4, 2, 5};
    for (size_t e = 0; e < 6; ++e) EXPECT_EQ(physical_float(physical, e), expected[e]) << e;
    HostTensor back = from_physical(desc, physical);
    for (uint64_t i = 0; i < 6; ++i) EXPECT_EQ(back.get<float>(i), float(i));
}

TEST(PhysicalLayout, BroadcastReadsOneLocation) {
    TensorDesc desc = valid_desc(DataType::kFloat32, {2, 3}, Dims{0, 1});
    ASSERT_EQ(desc.total_size_in_bytes, 12u);
    HostTensor logical = iota_float(desc, 1.0f);  // rows 1,2,3 and 4,5,6 compete for 3 floats
    const std::vector<std::byte> physical = to_physical(logical);
    // The later row wins.
    EXPECT_EQ(physical_float(physical, 0), 4.0f);
    EXPECT_EQ(physical_float(physical, 2), 6.0f);
    HostTensor back = from_physical(desc, physical);
    const float expected[] = {4, 5, 6, 4, 5, 6};
    for (uint64_t i = 0; i < 6; ++i) EXPECT_EQ(back.get<float>(i), expected[i]) << i;
}

TEST(PhysicalLayout, RoundsUpToFourBytesWithFill) {
    TensorDesc desc = valid_desc(DataType::kUint8, {3});
    HostTensor logical(desc);
    for (uint64_t i = 0; i < 3; ++i) logical.set<uint8_t>(i, uint8_t(10 + i));
    const std::vector<std::byte> physical = to_physical(logical, std::byte{0xcd});
    ASSERT_EQ(physical.size(), 4u);
    EXPECT_EQ(physical[0], std::byte{10});
    EXPECT_EQ(physical[2], std::byte{12});
    EXPECT_EQ(physical[3], std::byte{0xcd});
}

TEST(PhysicalLayout, LargerTotalSizeIsPadded) {
    TensorDesc desc = make_desc(DataType::kInt16, {2});
    desc.total_size_in_bytes = 32;
    ASSERT_TRUE(validate_tensor_desc(desc, TensorRole::kInput, true).is_ok());
    HostTensor logical(desc);
    logical.set<int16_t>(0, -2);
    logical.set<int16_t>(1, 7);
    const std::vector<std::byte> physical = to_physical(logical, std::byte{0x55});
    ASSERT_EQ(physical.size(), 32u);
    EXPECT_EQ(physical[31], std::byte{0x55});
    HostTensor back = from_physical(desc, physical);
    EXPECT_EQ(back.get<int16_t>(0), -2);
    EXPECT_EQ(back.get<int16_t>(1), 7);
}

}  // namespace
}  // namespace dmltool
