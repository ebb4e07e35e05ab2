#include "core/compare.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace dmltool {
namespace {

uint64_t raw_bits(const HostTensor& t, uint64_t i) {
    uint64_t bits = 0;
    std::memcpy(&bits, t.element_ptr(i), t.element_bytes());
    return bits;
}

bool is_nan_bits(DataType type, uint64_t bits) {
    switch (type) {
        case DataType::kFloat16: return (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff);
        case DataType::kFloat32: return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
        case DataType::kFloat64: return (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0xfffffffffffffull);
        default: return false;
    }
}

// Maps float bits onto integers ordered like the values (+0 and -0 both to 0).
int64_t ordered(DataType type, uint64_t bits) {
    const unsigned width = unsigned(element_size_in_bits(type));
    const uint64_t sign = 1ull << (width - 1);
    const int64_t magnitude = int64_t(bits & (sign - 1));
    return (bits & sign) ? -magnitude : magnitude;
}

std::string value_text(const HostTensor& t, uint64_t i) {
    char buffer[96];
    const DataType type = t.data_type();
    if (is_float(type)) {
        const int hex_digits = int(t.element_bytes() * 2);
        std::snprintf(buffer, sizeof buffer, "%.9g (0x%0*llx)", t.get_as_double(i), hex_digits,
                      (unsigned long long)raw_bits(t, i));
    } else if (type == DataType::kUint64) {
        std::snprintf(buffer, sizeof buffer, "%llu", (unsigned long long)t.get<uint64_t>(i));
    } else {
        std::snprintf(buffer, sizeof buffer, "%lld", (long long)t.get_as_int64(i));
    }
    return buffer;
}

bool all_same_bits(const HostTensor& t) {
    const size_t n = t.element_bytes();
    for (uint64_t i = 1; i < t.element_count(); ++i)
        if (std::memcmp(t.element_ptr(i), t.element_ptr(0), n) != 0) return false;
    return true;
}

}  // namespace

uint64_t ulp_distance(DataType type, uint64_t a, uint64_t b) {
    if (is_float(type)) {
        const bool a_nan = is_nan_bits(type, a), b_nan = is_nan_bits(type, b);
        if (a_nan || b_nan) return a_nan && b_nan ? 0 : std::numeric_limits<uint64_t>::max();
        const int64_t x = ordered(type, a), y = ordered(type, b);
        return x > y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
    }
    // Integers: sign-extend signed types from their width, then take |a - b| in 128 bits.
    const unsigned width = unsigned(element_size_in_bits(type));
    __int128 x = a, y = b;
    if (is_signed_integer(type) && width < 64) {
        const uint64_t sign = 1ull << (width - 1);
        x = __int128(int64_t((a ^ sign) - sign));
        y = __int128(int64_t((b ^ sign) - sign));
    } else if (type == DataType::kInt64) {
        x = int64_t(a);
        y = int64_t(b);
    }
    const __int128 d = x > y ? x - y : y - x;
    return d > __int128(std::numeric_limits<uint64_t>::max()) ? std::numeric_limits<uint64_t>::max() : uint64_t(d);
}

std::string describe_tolerance(const Tolerance& tolerance) {
    if (tolerance.bitwise) return "bit-exact";
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "ulp <= %llu or |diff| <= %g", (unsigned long long)tolerance.ulp, tolerance.abs);
    return buffer;
}

std::string format_mismatch(const Mismatch& m) {
    std::string out = "[";
    for (size_t i = 0; i < m.coordinates.size(); ++i) out += (i ? "," : "") + std::to_string(m.coordinates[i]);
    out += "] expected " + m.expected + " got " + m.got;
    char buffer[96];
    if (m.ulp_error == std::numeric_limits<uint64_t>::max())
        std::snprintf(buffer, sizeof buffer, " (NaN mismatch)");
    else
        std::snprintf(buffer, sizeof buffer, " |diff| %g, %llu ulp", m.abs_error, (unsigned long long)m.ulp_error);
    return out + buffer;
}

CompareResult compare_tensors(const HostTensor& expected, const HostTensor& got, const Tolerance& tolerance,
                              size_t max_reported) {
    CompareResult result;
    const DataType type = expected.data_type();
    result.element_count = expected.element_count();
    if (got.data_type() != type || got.desc().sizes != expected.desc().sizes) {
        result.verdict = Verdict::kFailed;
        result.reason = "shape or type differs: expected " + describe(expected.desc()) + ", got " + describe(got.desc());
        return result;
    }
    std::vector<uint32_t> coordinates(expected.desc().sizes.size());
    for (uint64_t i = 0; i < result.element_count; ++i) {
        const uint64_t a = raw_bits(expected, i), b = raw_bits(got, i);
        if (a == b) continue;
        const uint64_t ulp = ulp_distance(type, a, b);
        const double diff = std::fabs(expected.get_as_double(i) - got.get_as_double(i));
        const bool nan_involved = ulp == std::numeric_limits<uint64_t>::max() || (ulp == 0 && std::isnan(diff));
        bool pass;
        if (tolerance.bitwise)
            pass = false;
        else if (ulp == 0)
            pass = true;  // +0 vs -0, or two NaNs with different payloads
        else
            pass = !nan_involved && (ulp <= tolerance.ulp || diff <= tolerance.abs);
        if (!nan_involved) {
            result.max_abs_error = std::max(result.max_abs_error, diff);
            result.max_ulp_error = std::max(result.max_ulp_error, ulp);
        }
        if (pass) continue;
        ++result.mismatch_count;
        if (result.mismatches.size() < max_reported) {
            unravel_index(i, expected.desc().sizes, coordinates.data());
            result.mismatches.push_back({i, coordinates, value_text(expected, i), value_text(got, i), diff, ulp});
        }
    }
    if (result.mismatch_count) {
        result.verdict = Verdict::kFailed;
        result.reason = std::to_string(result.mismatch_count) + " of " + std::to_string(result.element_count) +
                        " elements outside tolerance (" + describe_tolerance(tolerance) + ")";
        return result;
    }
    if (result.element_count > 1) {
        const bool expected_constant = all_same_bits(expected);
        if (!expected_constant && all_same_bits(got)) {
            result.verdict = Verdict::kMistrusted;
            result.reason = "output is constant (" + value_text(got, 0) +
                            " everywhere) while the expectation is not: a kernel that writes nothing would pass";
        } else if (expected_constant) {
            result.verdict = Verdict::kMistrusted;
            result.reason = "expected output is constant (" + value_text(expected, 0) +
                            " everywhere): the case cannot tell a correct kernel from one that writes that constant";
        }
    }
    return result;
}

}  // namespace dmltool
