// Building blocks of the table rows (functions*.cpp here, ops/activation/functions.cpp): attribute accessors,
// integer wrap-around, and the common error-scale rules (M in units of float32's u = 2^-24, function_math.h).
#pragma once

#include <cmath>
#include <span>
#include <string_view>
#include <vector>

#include "ops/element_wise/desc.h"
#include "core/dtype.h"
#include "ops/element_wise/function_math.h"

namespace dmltool::ops::element_wise::rows {

// Attribute value accessors for the rows' functions.
inline float attr_float(const ElementWiseDesc& d, std::string_view name) { return d.attribute(name)->float_value; }
inline uint32_t attr_uint(const ElementWiseDesc& d, std::string_view name) { return d.attribute(name)->uint_value; }

// The low bits of `value` as an element of integer `type` (two's complement wrap-around; UINT64 as its bits).
inline int64_t wrap(uint64_t value, DataType type) {
    const unsigned bits = unsigned(element_size_in_bits(type));
    if (bits >= 64) return int64_t(value);
    const uint64_t mask = (uint64_t(1) << bits) - 1;
    const uint64_t low = value & mask;
    if (is_signed_integer(type) && (low >> (bits - 1))) return int64_t(low | ~mask);
    return int64_t(low);
}

// M = R * |y| + A: R units of relative and A units of absolute rounding error (u = 2^-24 each).
template <int R, int A>
double relative_absolute(std::span<const double>, double y, const ElementWiseDesc&) {
    return R * std::fabs(y) + A;
}

// Correctly rounded or truncated (D3D11: add, subtract, multiply within 0.5 ulp, truncation allowed): one ulp.
inline double one_rounding(std::span<const double>, double y, const ElementWiseDesc&) { return std::fabs(y); }

}  // namespace dmltool::ops::element_wise::rows
