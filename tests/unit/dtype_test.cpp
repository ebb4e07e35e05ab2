#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cmath>
#include <random>

#include "core/dtype.h"

namespace dmltool {
namespace {

TEST(DataType, ParsesSuffixAndFullName) {
    EXPECT_EQ(parse_data_type("FLOAT16"), DataType::kFloat16);
    EXPECT_EQ(parse_data_type("DML_TENSOR_DATA_TYPE_UINT64"), DataType::kUint64);
    EXPECT_FALSE(parse_data_type("float16").has_value());
    EXPECT_FALSE(parse_data_type("DML_TENSOR_DATA_TYPE_").has_value());
}

TEST(DataType, SizesMatchDirectMl) {
    EXPECT_EQ(element_size(DataType::kInt8), 1u);
    EXPECT_EQ(element_size(DataType::kFloat16), 2u);
    EXPECT_EQ(element_size(DataType::kUint32), 4u);
    EXPECT_EQ(element_size(DataType::kInt64), 8u);
    EXPECT_EQ(element_size_in_bits(DataType::kInt4), 4u);
    EXPECT_EQ(unsigned(DataType::kFloat64), 9u);  // DML_TENSOR_DATA_TYPE_FLOAT64
}

// A double in an integer type: truncated toward zero, saturated at the type's ends (the 64-bit ends, which no
// double holds exactly, included), NaN 0; the result as 64-bit two's complement bits.
TEST(DataType, SaturatesDoublesToIntegers) {
    EXPECT_EQ(saturate_to_integer(-2.9, DataType::kInt8), uint64_t(-2));
    EXPECT_EQ(saturate_to_integer(2.9, DataType::kUint8), 2u);
    EXPECT_EQ(saturate_to_integer(127.9, DataType::kInt8), 127u);
    EXPECT_EQ(saturate_to_integer(128.0, DataType::kInt8), 127u);
    EXPECT_EQ(saturate_to_integer(-129.0, DataType::kInt8), uint64_t(-128));
    EXPECT_EQ(saturate_to_integer(-0.5, DataType::kUint32), 0u);
    EXPECT_EQ(saturate_to_integer(4294967295.5, DataType::kUint32), 4294967295u);
    EXPECT_EQ(saturate_to_integer(1e10, DataType::kUint32), 4294967295u);
    EXPECT_EQ(saturate_to_integer(-1e10, DataType::kInt32), uint64_t(int64_t(INT32_MIN)));
    EXPECT_EQ(saturate_to_integer(0x1p63, DataType::kInt64), uint64_t(INT64_MAX));
    EXPECT_EQ(saturate_to_integer(0x1.fffffffffffffp62, DataType::kInt64), uint64_t(0x7ffffffffffffc00));
    EXPECT_EQ(saturate_to_integer(-0x1p63, DataType::kInt64), uint64_t(INT64_MIN));
    EXPECT_EQ(saturate_to_integer(-1e300, DataType::kInt64), uint64_t(INT64_MIN));
    EXPECT_EQ(saturate_to_integer(0x1p64, DataType::kUint64), UINT64_MAX);
    EXPECT_EQ(saturate_to_integer(0x1.fffffffffffffp63, DataType::kUint64), uint64_t(0xfffffffffffff800));
    EXPECT_EQ(saturate_to_integer(INFINITY, DataType::kUint16), 65535u);
    EXPECT_EQ(saturate_to_integer(-INFINITY, DataType::kInt16), uint64_t(-32768));
    EXPECT_EQ(saturate_to_integer(NAN, DataType::kInt64), 0u);
    EXPECT_EQ(saturate_to_integer(8.0, DataType::kInt4), 7u);
}

// Every half converts to float and back to the same bits (NaNs keep their payload).
TEST(Half, RoundTripsAllBitPatterns) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) {
        const float f = half_to_float(uint16_t(bits));
        ASSERT_EQ(float_to_half(f), bits) << std::hex << bits;
    }
}

TEST(Half, RoundsToNearestEven) {
    EXPECT_EQ(float_to_half(1.0f), 0x3c00);
    EXPECT_EQ(float_to_half(65504.0f), 0x7bff);
    EXPECT_EQ(float_to_half(65520.0f), 0x7c00);  // the tie above the largest half rounds to infinity
    EXPECT_EQ(float_to_half(65519.0f), 0x7bff);
    // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even (1.0).
    EXPECT_EQ(float_to_half(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    EXPECT_EQ(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -24)), 0x0001);   // smallest subnormal
    EXPECT_EQ(float_to_half(std::ldexp(1.0f, -25)), 0x0000);   // tie to even: zero
    EXPECT_EQ(float_to_half(std::ldexp(1.5f, -25)), 0x0001);
    EXPECT_EQ(float_to_half(-0.0f), 0x8000);
    EXPECT_EQ(float_to_half(-INFINITY), 0xfc00);
    // Rounding straight from double must not double-round through float.
    EXPECT_EQ(double_to_half(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3c01);
}

// double_to_half's bit-level fast path (normal half range) against the scaling path: random doubles of every
// exponent around the half range, exact ties at the rounding bit, the values next to ties and range edges.
TEST(Half, FastPathMatchesScalingPath) {
    std::mt19937_64 rng(0x4a1f);
    auto check = [](double v) {
        ASSERT_EQ(double_to_half(v), double_to_half_by_scaling(v)) << std::hexfloat << v;
    };
    for (int i = 0; i < 400000; ++i) {
        const uint64_t fraction = rng() & ((uint64_t(1) << 52) - 1);
        const uint64_t exponent = uint64_t(1023 - 26 + int(rng() % 45));  // 2^-26 .. 2^18
        const uint64_t sign = (rng() & 1) << 63;
        const uint64_t random = sign | (exponent << 52) | fraction;
        const uint64_t tie = (random & ~((uint64_t(1) << 42) - 1)) | (uint64_t(1) << 41);  // exactly halfway
        for (uint64_t bits : {random, tie, tie - 1, tie + 1}) check(std::bit_cast<double>(bits));
    }
    for (double v : {65504.0, 65519.99, 65520.0, 0x1p-14, 0x1.ffcp-15, 0x1.ffep-15, 0x1.fffp-15, -0x1p-14, 1.0,
                     2047.5, 2048.5, 4095.5})
        check(v);
}

}  // namespace
}  // namespace dmltool
