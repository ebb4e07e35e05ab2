#include "core/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

namespace dmltool {
namespace {

struct TypeInfo {
    DataType type;
    std::string_view name;
    size_t bits;
};

constexpr TypeInfo kTypes[] = {
    {DataType::kFloat32, "FLOAT32", 32}, {DataType::kFloat16, "FLOAT16", 16}, {DataType::kUint32, "UINT32", 32},
    {DataType::kUint16, "UINT16", 16},   {DataType::kUint8, "UINT8", 8},      {DataType::kInt32, "INT32", 32},
    {DataType::kInt16, "INT16", 16},     {DataType::kInt8, "INT8", 8},        {DataType::kFloat64, "FLOAT64", 64},
    {DataType::kUint64, "UINT64", 64},   {DataType::kInt64, "INT64", 64},     {DataType::kUint4, "UINT4", 4},
    {DataType::kInt4, "INT4", 4},
};

const TypeInfo* find_info(DataType type) {
    for (const auto& info : kTypes)
        if (info.type == type) return &info;
    return nullptr;
}

}  // namespace

size_t element_size_in_bits(DataType type) {
    const TypeInfo* info = find_info(type);
    return info ? info->bits : 0;
}

size_t element_size(DataType type) { return element_size_in_bits(type) / 8; }

bool is_float(DataType type) {
    return type == DataType::kFloat16 || type == DataType::kFloat32 || type == DataType::kFloat64;
}

bool is_signed_integer(DataType type) {
    return type == DataType::kInt8 || type == DataType::kInt16 || type == DataType::kInt32 ||
           type == DataType::kInt64 || type == DataType::kInt4;
}

bool is_integer(DataType type) { return type != DataType::kUnknown && !is_float(type); }

std::string_view data_type_name(DataType type) {
    const TypeInfo* info = find_info(type);
    return info ? info->name : std::string_view("UNKNOWN");
}

std::optional<DataType> parse_data_type(std::string_view text) {
    constexpr std::string_view kPrefix = "DML_TENSOR_DATA_TYPE_";
    if (text.substr(0, kPrefix.size()) == kPrefix) text.remove_prefix(kPrefix.size());
    for (const auto& info : kTypes)
        if (info.name == text) return info.type;
    return std::nullopt;
}

std::string all_data_type_names() {
    std::string out;
    for (const auto& info : kTypes) {
        if (!out.empty()) out += ", ";
        out += info.name;
    }
    return out;
}

int64_t integer_min(DataType type) {
    switch (type) {
        case DataType::kInt4: return -8;
        case DataType::kInt8: return std::numeric_limits<int8_t>::min();
        case DataType::kInt16: return std::numeric_limits<int16_t>::min();
        case DataType::kInt32: return std::numeric_limits<int32_t>::min();
        case DataType::kInt64: return std::numeric_limits<int64_t>::min();
        default: return 0;
    }
}

uint64_t integer_max(DataType type) {
    switch (type) {
        case DataType::kInt4: return 7;
        case DataType::kUint4: return 15;
        case DataType::kInt8: return std::numeric_limits<int8_t>::max();
        case DataType::kUint8: return std::numeric_limits<uint8_t>::max();
        case DataType::kInt16: return std::numeric_limits<int16_t>::max();
        case DataType::kUint16: return std::numeric_limits<uint16_t>::max();
        case DataType::kInt32: return std::numeric_limits<int32_t>::max();
        case DataType::kUint32: return std::numeric_limits<uint32_t>::max();
        case DataType::kInt64: return std::numeric_limits<int64_t>::max();
        case DataType::kUint64: return std::numeric_limits<uint64_t>::max();
        default: return 0;
    }
}

uint64_t saturate_to_integer(double value, DataType type) {
    if (std::isnan(value)) return 0;  // the conversions below truncate toward zero
    if (value <= double(integer_min(type))) return uint64_t(integer_min(type));
    // integer_max + 1: a power of two (a 64-bit type's integer_max already rounds up to it as a double).
    if (value >= double(integer_max(type)) + 1) return integer_max(type);
    return value < 0 ? uint64_t(int64_t(value)) : uint64_t(value);
}

float half_to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);  // Inf or NaN, payload kept
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {
        // Subnormal half: normalise into a float32 normal.
        int shift = 0;
        while ((mantissa & 0x400u) == 0) {
            mantissa <<= 1;
            ++shift;
        }
        mantissa &= 0x3ffu;
        bits = sign | (uint32_t(113 - shift) << 23) | (mantissa << 13);
    }
    return std::bit_cast<float>(bits);
}

uint16_t double_to_half(double value) {
    // Fast path for results in the normal half range [2^-14, 65520): round the double's 52-bit fraction to 10
    // bits, ties to even, on the bits (a carry out of the fraction correctly bumps the exponent; the range check
    // keeps it below infinity). Everything else, and the tests' check of this path, is double_to_half_by_scaling.
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    const int exponent = int((bits >> 52) & 0x7ff) - 1023;
    if (exponent >= -14 && exponent <= 15) {
        const uint64_t combined = (uint64_t(exponent + 15) << 52) | (bits & ((uint64_t(1) << 52) - 1));
        const uint64_t rounded = (combined + ((uint64_t(1) << 41) - 1) + ((combined >> 42) & 1)) >> 42;
        if (rounded < 0x7c00u) return uint16_t(((bits >> 48) & 0x8000u) | rounded);
    }
    return double_to_half_by_scaling(value);
}

uint16_t double_to_half_by_scaling(double value) {
    const uint64_t bits = std::bit_cast<uint64_t>(value);
    const uint16_t sign = uint16_t((bits >> 48) & 0x8000u);
    if (std::isnan(value)) {
        // Keep the top payload bits (quiet bit included); a payload that truncates to zero stays a NaN.
        const uint16_t payload = uint16_t((bits >> 42) & 0x3ffu);
        return uint16_t(sign | 0x7c00u | (payload ? payload : 0x200u));
    }
    const double magnitude = std::fabs(value);
    if (magnitude >= 65520.0) return uint16_t(sign | 0x7c00u);  // rounds to infinity
    if (magnitude < std::ldexp(1.0, -25)) {
        // Below half the smallest subnormal: rounds to zero (exactly 2^-25 ties to even = zero too).
        return sign;
    }
    int exponent;
    std::frexp(magnitude, &exponent);  // magnitude = m * 2^exponent, m in [0.5, 1)
    // Quantum of the destination: normals have 10 fraction bits, subnormals a fixed 2^-24 step.
    const int quantum_exponent = std::max(exponent - 11, -24);
    const double scaled = std::ldexp(magnitude, -quantum_exponent);  // exact: power-of-two scaling
    const double rounded = std::nearbyint(scaled);                     // default mode: ties to even
    const double result = std::ldexp(rounded, quantum_exponent);
    // Re-encode the (exactly representable) rounded magnitude.
    if (result < std::ldexp(1.0, -14)) return uint16_t(sign | uint16_t(rounded));  // subnormal (or 2^-14 carry)
    int e;
    const double m = std::frexp(result, &e);  // result = m * 2^e, m in [0.5,1)
    const uint16_t biased = uint16_t(e - 1 + 15);
    const uint16_t fraction = uint16_t(std::ldexp(m, 11)) & 0x3ffu;
    return uint16_t(sign | (biased << 10) | fraction);
}

uint16_t float_to_half(float value) {
    if (std::isnan(value)) {
        // Straight from the float bits: widening to double would quiet a signalling NaN and change its payload.
        const uint32_t bits = std::bit_cast<uint32_t>(value);
        const uint16_t payload = uint16_t((bits >> 13) & 0x3ffu);
        return uint16_t(((bits >> 16) & 0x8000u) | 0x7c00u | (payload ? payload : 0x200u));
    }
    return double_to_half(double(value));
}

}  // namespace dmltool
