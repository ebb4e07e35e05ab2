// DataType mirrors DML_TENSOR_DATA_TYPE (same numeric values) and carries the per-type facts every other
// module needs: element size, signedness, names as case files spell them, and IEEE half conversion.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dmltool {

enum class DataType : uint8_t {
    kUnknown = 0,
    kFloat32 = 1,
    kFloat16 = 2,
    kUint32 = 3,
    kUint16 = 4,
    kUint8 = 5,
    kInt32 = 6,
    kInt16 = 7,
    kInt8 = 8,
    kFloat64 = 9,
    kUint64 = 10,
    kInt64 = 11,
    kUint4 = 12,  // parsed so that case files using them get "not supported by <op>", not "unknown"
    kInt4 = 13,
};

inline constexpr DataType kAllTensorDataTypes[] = {
    DataType::kFloat32, DataType::kFloat16, DataType::kUint32, DataType::kUint16, DataType::kUint8, DataType::kInt32,
    DataType::kInt16,   DataType::kInt8,    DataType::kFloat64, DataType::kUint64, DataType::kInt64,
};

size_t element_size_in_bits(DataType type);  // 4, 8, 16, 32 or 64; 0 for kUnknown
size_t element_size(DataType type);          // bytes; only for whole-byte types
bool is_float(DataType type);
bool is_signed_integer(DataType type);
bool is_integer(DataType type);

// "FLOAT16" (the DML suffix).
std::string_view data_type_name(DataType type);
// Accepts "FLOAT16" and "DML_TENSOR_DATA_TYPE_FLOAT16".
std::optional<DataType> parse_data_type(std::string_view text);
// "FLOAT32, FLOAT16, INT8" style list of every valid name, for error messages.
std::string all_data_type_names();

// Smallest and largest values of an integer type, as doubles/int64 for range checks.
int64_t integer_min(DataType type);
uint64_t integer_max(DataType type);
// `value` in an integer type: truncated toward zero and saturated to the type's range (NaN: 0), returned as the
// value's 64-bit two's complement bits (a UINT64 value above INT64_MAX as it is). Never converts an out-of-range
// double, which is undefined behaviour.
uint64_t saturate_to_integer(double value, DataType type);

// IEEE 754 binary16 <-> binary32, round to nearest even, NaN payloads preserved where representable.
float half_to_float(uint16_t bits);
uint16_t float_to_half(float value);
uint16_t double_to_half(double value);  // single rounding from double (no double rounding through float)
// The same conversion by power-of-two scaling and std::nearbyint (the general path, and the tests' check of
// double_to_half's bit-level fast path for the normal range).
uint16_t double_to_half_by_scaling(double value);

}  // namespace dmltool
