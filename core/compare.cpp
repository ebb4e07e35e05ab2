#include "core/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
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

// Half the distance between adjacent values of the float `type` around magnitude v (>= 0): the output rounding a
// correct implementation adds after computing v. (Integer outputs have their own rule in compare_to_exact.)
double half_ulp(DataType type, double v) {
    int exponent = 0;
    switch (type) {
        case DataType::kFloat32:
            if (v < 0x1p-126) return 0x1p-150;
            std::frexp(v, &exponent);  // v = f * 2^exponent, f in [0.5, 1): ulp = 2^(exponent - 24)
            return std::ldexp(1.0, exponent - 25);
        case DataType::kFloat16:
            if (v < 0x1p-14) return 0x1p-25;
            std::frexp(v, &exponent);
            return std::ldexp(1.0, exponent - 12);
        case DataType::kFloat64:
            std::frexp(v, &exponent);
            return std::ldexp(1.0, exponent - 54);
        default: return 0.5;  // not reached: integer outputs are judged without it
    }
}

}  // namespace

bool all_same_bits(const HostTensor& t) {
    const size_t n = t.element_bytes();
    for (uint64_t i = 1; i < t.element_count(); ++i)
        if (std::memcmp(t.element_ptr(i), t.element_ptr(0), n) != 0) return false;
    return true;
}

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

// "2^-24" for a power of two, else the number.
static std::string number_text(double value) {
    int exponent = 0;
    char text[32];
    if (value > 0 && std::frexp(value, &exponent) == 0.5)
        std::snprintf(text, sizeof text, "2^%d", exponent - 1);
    else
        std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string describe_tolerance(const Tolerance& tolerance) {
    if (tolerance.bitwise) return "bit-exact";
    char buffer[224];
    if (tolerance.error_bound) {
        std::string text = "error bound |got - exact| <= 1.01*u*M + F + output rounding (integers: < 1 + 1.01*u*M + "
                           "F), u = " + number_text(tolerance.unit_roundoff) + " (docs/semantics.md)";
        if (tolerance.arithmetic_unit_roundoff > tolerance.unit_roundoff)
            text += ", a narrower arithmetic's M (coordinates included) with u = " +
                    number_text(tolerance.arithmetic_unit_roundoff);
        if (tolerance.arithmetic_smallest_normal > 0)
            text += ", subnormals below " + number_text(tolerance.arithmetic_smallest_normal) + " flushed";
        if (tolerance.arithmetic_overflow > 0)
            text += ", NaN or infinity accepted where an input reaches " + number_text(tolerance.arithmetic_overflow);
        if (tolerance.narrowing_toward_zero) text += ", FLOAT16 outputs rounded to nearest or toward zero";
        return text;
    }
    std::snprintf(buffer, sizeof buffer, "ulp <= %llu or |diff| <= %g", (unsigned long long)tolerance.ulp, tolerance.abs);
    return buffer;
}

std::string format_mismatch(const Mismatch& m) { return format_mismatch(m, CompareResult{}); }

std::string format_mismatch(const Mismatch& m, const CompareResult& sides) {
    // Named sides: "got" alone read as "the reference is wrong" even where the reference was the judge and the
    // case file's expected values the judged.
    const std::string expected_side = !sides.expected_side.empty() ? sides.expected_side
                                       : m.bound >= 0              ? std::string("exact")
                                                                   : std::string("expected");
    const std::string got_side = sides.got_side.empty() ? std::string("got") : sides.got_side;
    std::string out = "[";
    for (size_t i = 0; i < m.coordinates.size(); ++i) out += (i ? "," : "") + std::to_string(m.coordinates[i]);
    out += "] " + expected_side + " " + m.expected + ", " + got_side + " " + m.got + ":";
    char buffer[128];
    if (m.bound >= 0) {
        std::snprintf(buffer, sizeof buffer, " error %.3g, bound %.3g, ratio %.3g", m.abs_error, m.bound,
                      m.bound > 0 ? m.abs_error / m.bound : std::numeric_limits<double>::infinity());
        return out + buffer;
    }
    if (m.ulp_error == std::numeric_limits<uint64_t>::max())
        std::snprintf(buffer, sizeof buffer, " NaN mismatch");
    else
        std::snprintf(buffer, sizeof buffer, " |diff| %g, %llu ulp", m.abs_error, (unsigned long long)m.ulp_error);
    return out + buffer;
}

CompareResult compare_tensors(const HostTensor& expected, const HostTensor& got, const Tolerance& tolerance,
                              size_t max_reported, const AcceptsElement& also_accepts) {
    CompareResult result;
    const DataType type = expected.data_type();
    result.element_count = expected.element_count();
    if (got.data_type() != type || got.desc().sizes != expected.desc().sizes) {
        result.verdict = Verdict::kFailed;
        result.reason = "shape or type differs: expected " + describe(expected.desc()) + ", got " + describe(got.desc());
        return result;
    }
    std::vector<uint32_t> coordinates(expected.desc().sizes.size());
    // Identical bytes are identical elements (the loop below skips them): blocks that memcmp equal are skipped
    // whole, so a correct output of the perf suite's 67M elements is judged at memory speed.
    constexpr uint64_t kBlock = 4096;
    const size_t element_bytes = expected.element_bytes();
    for (uint64_t i = 0; i < result.element_count; ++i) {
        if (i % kBlock == 0 && element_bytes > 0) {
            const uint64_t n = std::min(kBlock, result.element_count - i);
            if (std::memcmp(expected.element_ptr(i), got.element_ptr(i), n * element_bytes) == 0) {
                i += n - 1;
                continue;
            }
        }
        const uint64_t a = raw_bits(expected, i), b = raw_bits(got, i);
        if (a == b) continue;
        if (also_accepts && also_accepts(i, expected.element_ptr(i)) && also_accepts(i, got.element_ptr(i))) continue;
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
    if (result.element_count > 0) apply_zero_trust(result, all_same_bits(expected), value_text(expected, 0), got);
    return result;
}

void apply_zero_trust(CompareResult& result, bool expected_constant, const std::string& expected_text,
                      const HostTensor& got) {
    result.expected_constant = expected_constant && result.element_count > 1;
    if (result.verdict != Verdict::kPassed || result.element_count <= 1) return;
    if (!expected_constant && all_same_bits(got)) {
        result.verdict = Verdict::kMistrusted;
        result.reason = "output is constant (" + value_text(got, 0) +
                        " everywhere) while the expectation is not: a kernel that writes nothing would pass";
    } else if (expected_constant) {
        result.verdict = Verdict::kMistrusted;
        result.reason = "expected output is constant (" + expected_text +
                        " everywhere): the case cannot tell a correct kernel from one that writes that constant";
    }
}

ExactOutput exact_output_from(const HostTensor& values, const ExactOutput& like) {
    ExactOutput out;
    out.exact.resize(values.element_count());
    for (uint64_t i = 0; i < values.element_count(); ++i) out.exact[i] = values.get_as_double(i);
    out.scale = like.scale;
    out.arithmetic_scale = like.arithmetic_scale;
    out.nonfinite_allowed = like.nonfinite_allowed;
    out.largest_input = like.largest_input;
    out.absolute_floor = like.absolute_floor;
    // Where `values` holds a NaN or an infinity that the contract merely allows (an evaluation order's IEEE
    // special value, not the exact result), it says nothing about the other output: judge that one by the
    // reference's exact value instead.
    if (like.exact.size() == out.exact.size())
        for (uint64_t i = 0; i < out.exact.size(); ++i)
            if (!std::isfinite(out.exact[i]) && !like.nonfinite_allowed.empty() && like.nonfinite_allowed[i])
                out.exact[i] = like.exact[i];
    return out;
}

CompareResult compare_to_exact(const ExactOutput& exact, const HostTensor& got, const Tolerance& tolerance,
                               size_t max_reported, double bound_factor) {
    CompareResult result;
    const DataType type = got.data_type();
    result.element_count = got.element_count();
    if (exact.exact.size() != result.element_count || exact.scale.size() != result.element_count) {
        result.verdict = Verdict::kFailed;
        result.reason = "the reference's exact values cover " + std::to_string(exact.exact.size()) +
                        " elements, the output has " + std::to_string(result.element_count);
        return result;
    }
    const double u = tolerance.unit_roundoff;
    std::vector<uint32_t> coordinates(got.desc().sizes.size());
    // The values every element accepts, intersected: [lowest, highest] (integers: the open interval). When some
    // one value lies in it, a constant output can be right, so the expectation counts as constant (zero trust).
    double lowest = -std::numeric_limits<double>::infinity(), highest = std::numeric_limits<double>::infinity();
    for (uint64_t i = 0; i < result.element_count; ++i) {
        const double want = exact.exact[i];
        const double value = got.get_as_double(i);
        double bound = 0, error = 0;
        bool pass;
        const bool nonfinite_allowed =
            (!exact.nonfinite_allowed.empty() && exact.nonfinite_allowed[i]) ||
            (tolerance.arithmetic_overflow > 0 && !exact.largest_input.empty() &&
             exact.largest_input[i] >= tolerance.arithmetic_overflow);
        // An allowed NaN or infinity got: judged as such, but a finite exact value still bounds what a constant
        // output could be (the zero-trust intersection below): a case whose SOFTPLUS of 3.4e38 came out +inf
        // was MISTRUSTED as if 0.22 passed there too (lavapipe campaign, seed 20261205 #429).
        const bool special = nonfinite_allowed && !std::isfinite(value);
        if (special) {
            // NaN, or an infinity where the exact value is finite or that same infinity; a NaN stays a NaN.
            pass = std::isnan(want) ? std::isnan(value) : std::isnan(value) || std::isfinite(want) || value == want;
            error = pass ? 0 : std::numeric_limits<double>::infinity();
        } else if (!std::isfinite(want)) {
            pass = std::isnan(want) ? std::isnan(value) : value == want;
            error = pass ? 0 : std::numeric_limits<double>::infinity();
        }
        if (std::isfinite(want)) {
            double computing = 1.01 * u * exact.scale[i] + exact.absolute_floor;
            if (tolerance.arithmetic_smallest_normal > 0x1p-126)  // the same flushes in a narrower arithmetic
                computing += exact.absolute_floor * (tolerance.arithmetic_smallest_normal / 0x1p-126 - 1.0);
            if (tolerance.arithmetic_unit_roundoff > u)
                computing += 1.01 * (tolerance.arithmetic_unit_roundoff - u) *
                             (exact.arithmetic_scale.empty() ? exact.scale[i] : exact.arithmetic_scale[i]);
            if (!special) {
                error = std::fabs(value - want);
                if (std::isnan(error)) error = std::numeric_limits<double>::infinity();  // got NaN
            }
            double below = 0, above = 0;  // the accepted distance under and over the exact value
            if (is_float(type)) {
                const double rounding = half_ulp(type, std::fabs(want) + computing);
                below = above = bound_factor * (computing + rounding);
                // Round toward zero on narrowing (Tolerance::narrowing_toward_zero): a whole ulp on the zero side of
                // the exact value; against another implementation's output (bound_factor > 1), whose own rounding
                // may have gone either way, on both sides.
                if (tolerance.narrowing_toward_zero && type == DataType::kFloat16) {
                    const double widened = bound_factor * (computing + 2 * rounding);
                    if (bound_factor > 1) below = above = widened;
                    else if (want > 0) below = widened;
                    else if (want < 0) above = widened;
                    else below = above = widened;
                }
                if (!special) {
                    bound = value < want ? below : above;
                    pass = error <= bound;
                }
            } else {
                // Any conversion of a value v within `computing` of the exact one to an integer (truncation,
                // floor, ceil, any rounding; the documentation names none): floor(want - computing) <= got <=
                // ceil(want + computing), which for an integer got is |got - want| < 1 + computing. Centred on
                // another implementation's integer output (bound_factor 2), both lie within that open distance
                // of the exact value, hence within twice it of each other.
                bound = bound_factor * (1.0 + computing);
                below = above = bound;
                pass = error < bound;
            }
            lowest = std::max(lowest, want - below), highest = std::min(highest, want + above);
            if (std::isfinite(error)) {
                result.max_abs_error = std::max(result.max_abs_error, error);
                if (bound > 0) result.max_bound_ratio = std::max(result.max_bound_ratio, error / bound);
            }
        }
        // A discrete other right value of this element (ExactOutput::also_accepts): another evaluation order's
        // IEEE special value, an overflow's round-toward-zero result; judged on the value got alone.
        if (!pass && exact.also_accepts && exact.also_accepts(i, got.element_ptr(i))) pass = true;
        if (pass) continue;
        ++result.mismatch_count;
        if (result.mismatches.size() < max_reported) {
            unravel_index(i, got.desc().sizes, coordinates.data());
            char text[64];
            std::snprintf(text, sizeof text, "%.9g", want);
            result.mismatches.push_back({i, coordinates, std::string(text), value_text(got, i), error, 0, bound});
        }
    }
    if (result.mismatch_count) {
        result.verdict = Verdict::kFailed;
        char ratio[48];
        std::snprintf(ratio, sizeof ratio, "%.3g", result.max_bound_ratio);
        result.reason = std::to_string(result.mismatch_count) + " of " + std::to_string(result.element_count) +
                        " elements outside the error bound (" + describe_tolerance(tolerance) +
                        "; largest error/bound " + ratio + ")";
        return result;
    }
    // The expectation is constant when one value passes at every element: blends of equal values differ in their
    // last double bits, and an integer conversion maps -0.9 and 0.9 both to 0, so a correct output is then
    // constant (zero trust: the runner proves its writes with two poison patterns, rather than calling a right
    // constant output MISTRUSTED). Non-finite exact values must all be the same.
    bool constant = true;
    const double first = exact.exact.empty() ? 0.0 : exact.exact[0];
    for (uint64_t i = 0; i < result.element_count && constant; ++i) {
        const double v = exact.exact[i];
        constant = std::isfinite(v) ? std::isfinite(first) : v == first || (std::isnan(v) && std::isnan(first));
    }
    if (constant && std::isfinite(first))
        constant = is_float(type) ? lowest <= highest : std::floor(lowest) + 1.0 < highest;
    if (result.element_count > 0) {
        char text[48];
        std::snprintf(text, sizeof text, "%.9g", exact.exact[0]);
        apply_zero_trust(result, constant, text, got);
    }
    return result;
}

}  // namespace dmltool
