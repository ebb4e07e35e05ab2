// The ELEMENT_WISE_* table: one row per DirectML operator type. The members, feature levels and constraints come
// from the facts (dml_facts.inc, via spec_from_facts); a row adds the reference function in double precision, its
// error bound with the bound's source (docs/element-wise.md lists them), and our kernels' body name.
//
// Error scales are in units of float32's u = 2^-24 (function_math.h). Sources named in the bound texts:
//   [D3D] the Direct3D 11 floating-point rules: add/subtract/multiply within 0.5 ulp (truncation allowed), denormals
//         flushed to sign-preserved zero, NaN in gives NaN out, min/max return the non-NaN operand;
//   [FS]  the D3D11.3 functional spec's instruction precisions: rcp 1 ulp, rsq 2 ulp, div 2.5 ulp, exp2/log2 3 ulp;
//   [COND] the function's condition: an argument rounded once (|x| u) moves the result by |x f'(x)| u.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "ops/element_wise/engine.h"
#include "ops/element_wise/reference_trig.h"
#include "ops/element_wise/rows.h"

namespace dmltool::ops::element_wise {

namespace {

using namespace rows;
using Args = std::span<const double>;
using IntArgs = std::span<const int64_t>;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

constexpr std::string_view kRounded =
    "correctly rounded or truncated, one ulp ([D3D]: add, subtract, multiply within 0.5 ulp, truncation allowed)";
constexpr std::string_view kExact = "exact: the result is one of the inputs or an integer ([D3D] min/max rules)";
constexpr std::string_view kTranscendental =
    "16 u relative + 16 u absolute, u = 2^-24: a float32 implementation with range reduction ([FS] gives exp2 and "
    "log2 3 ulp and nothing for the others)";

// ---- Unary float functions ------------------------------------------------------------------------------------

double identity(Args x, const ElementWiseDesc&) { return x[0]; }
int64_t identity_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0]; }
double absolute(Args x, const ElementWiseDesc&) { return std::fabs(x[0]); }
int64_t absolute_int(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(x[0] < 0 ? 0 - uint64_t(x[0]) : x[0], t); }
double negate(Args x, const ElementWiseDesc&) { return -x[0]; }
int64_t negate_int(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(0 - uint64_t(x[0]), t); }
double ceil_f(Args x, const ElementWiseDesc&) { return std::ceil(x[0]); }
double floor_f(Args x, const ElementWiseDesc&) { return std::floor(x[0]); }
double acos_f(Args x, const ElementWiseDesc&) { return std::acos(x[0]); }
double asin_f(Args x, const ElementWiseDesc&) { return std::asin(x[0]); }
double atan_f(Args x, const ElementWiseDesc&) { return std::atan(x[0]); }
double cos_f(Args x, const ElementWiseDesc&) { return reference_cos(x[0]); }
double sin_f(Args x, const ElementWiseDesc&) { return reference_sin(x[0]); }
double tan_f(Args x, const ElementWiseDesc&) { return reference_tan(x[0]); }
double exp_f(Args x, const ElementWiseDesc&) { return std::exp(x[0]); }
double log_f(Args x, const ElementWiseDesc&) { return x[0] == 0 ? -HUGE_VAL : std::log(x[0]); }
double recip(Args x, const ElementWiseDesc&) { return 1.0 / x[0]; }
double sqrt_f(Args x, const ElementWiseDesc&) { return std::sqrt(x[0]); }
double erf_f(Args x, const ElementWiseDesc&) { return std::erf(x[0]); }
double sinh_f(Args x, const ElementWiseDesc&) { return std::sinh(x[0]); }
double cosh_f(Args x, const ElementWiseDesc&) { return std::cosh(x[0]); }
double tanh_f(Args x, const ElementWiseDesc&) { return std::tanh(x[0]); }
double asinh_f(Args x, const ElementWiseDesc&) { return std::asinh(x[0]); }
double acosh_f(Args x, const ElementWiseDesc&) { return std::acosh(x[0]); }
// The documented formula ln(x + sqrt(x^2 - 1)) in float32 below -1 (the exact value is NaN): x + sqrt(x^2 - 1)
// cancels to 0 (ln gives -inf) or below (NaN), or x^2 overflows float32 and the result is +inf. DirectML 1.15.4
// gives exactly those infinities (random cases of seeds 20261129/30).
int acosh_others(Args x, const ElementWiseDesc&, double* out) {
    if (!(x[0] < -1)) return 0;
    const float f = float(x[0]);
    out[0] = std::isinf(f * f) ? HUGE_VAL : -HUGE_VAL;
    return 1;
}
double atanh_f(Args x, const ElementWiseDesc&) { return std::atanh(x[0]); }
// -0 gives 0 (the docs say so); NaN falls into the formula's "else 0" branch.
double sign_f(Args x, const ElementWiseDesc&) { return x[0] < 0 ? -1.0 : x[0] > 0 ? 1.0 : 0.0; }
// UINT64 elements from 2^63 on arrive as negative int64 bit patterns: an unsigned input's sign is 1 unless it is 0
// (DirectML 1.15.4 gives 1 there; results/directml_element_wise_2026-11-29.txt).
int64_t sign_int(IntArgs x, DataType, const ElementWiseDesc& d) {
    if (!d.inputs.empty() && d.inputs[0] && !is_signed_integer(d.inputs[0]->data_type)) return x[0] != 0 ? 1 : 0;
    return x[0] < 0 ? -1 : x[0] > 0 ? 1 : 0;
}
double is_nan(Args x, const ElementWiseDesc&) { return std::isnan(x[0]) ? 1.0 : 0.0; }
double is_infinity(Args x, const ElementWiseDesc& d) {
    switch (attr_uint(d, "InfinityMode")) {
        case 1: return x[0] == HUGE_VAL ? 1.0 : 0.0;   // POSITIVE
        case 2: return x[0] == -HUGE_VAL ? 1.0 : 0.0;  // NEGATIVE
        default: return std::isinf(x[0]) ? 1.0 : 0.0;  // EITHER
    }
}
double round_f(Args x, const ElementWiseDesc& d) {
    switch (attr_uint(d, "RoundingMode")) {
        case 1: return std::trunc(x[0]);  // TOWARD_ZERO
        case 2: return std::round(x[0]);  // TOWARD_INFINITY: halves away from zero
        default: return std::nearbyint(x[0]);  // HALVES_TO_NEAREST_EVEN (the default rounding mode)
    }
}

// Error scales of the transcendental functions: kTranscendental plus the condition terms of [COND].
double exp_scale(Args x, double y, const ElementWiseDesc&) { return std::fabs(y) * (16 + 2 * std::fabs(x[0])); }
double trig_scale(Args x, double y, const ElementWiseDesc&) { return 16 * std::fabs(y) + 4 * std::fabs(x[0]) + 16; }
double tan_scale(Args x, double y, const ElementWiseDesc&) {
    return 16 * std::fabs(y) + 4 * std::fabs(x[0]) * (1 + y * y) + 16;
}
double hyperbolic_scale(Args x, double y, const ElementWiseDesc&) {
    return std::fabs(y) * (16 + 2 * std::fabs(x[0])) + 16;
}
// ln near 1 is where log2 has an absolute bound ([FS]: 2^-21 absolute in [0.5, 2]): 16 u absolute covers it.
double log_scale(Args, double y, const ElementWiseDesc&) { return 16 * std::fabs(y) + 16; }
// 1 - x^2 and x^2 - 1 of the inverse functions round with |x^2| u: the condition near +-1 is |x / sqrt(1 - x^2)|.
double inverse_trig_scale(Args x, double y, const ElementWiseDesc&) {
    const double t = std::fabs(1 - x[0] * x[0]);
    return 16 * std::fabs(y) + 16 + (t > 0 ? 2 * x[0] * x[0] / std::sqrt(t) : 0);
}
double atanh_scale(Args x, double y, const ElementWiseDesc&) {
    const double t = std::fabs(1 - x[0] * x[0]);
    return 16 * std::fabs(y) + 16 + (t > 0 ? 2 * std::fabs(x[0]) / t : 0);
}

// ---- Binary float functions ----------------------------------------------------------------------------------

double add(Args x, const ElementWiseDesc&) { return x[0] + x[1]; }
int64_t add_int(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) + uint64_t(x[1]), t); }
double subtract(Args x, const ElementWiseDesc&) { return x[0] - x[1]; }
int64_t subtract_int(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) - uint64_t(x[1]), t); }
double multiply(Args x, const ElementWiseDesc&) { return x[0] * x[1]; }
int64_t multiply_int(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) * uint64_t(x[1]), t); }
double divide(Args x, const ElementWiseDesc&) { return x[0] / x[1]; }
// Integer division truncates (the docs); division by zero is left undefined by the docs: the reference writes 0 and
// `generate` never divides by zero.
int64_t divide_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    if (x[1] == 0) return 0;
    if (t == DataType::kUint64) return int64_t(uint64_t(x[0]) / uint64_t(x[1]));
    if (x[1] == -1) return wrap(0 - uint64_t(x[0]), t);
    return x[0] / x[1];
}
double divide_scale(Args, double y, const ElementWiseDesc&) { return 5 * std::fabs(y); }  // [FS] 2.5 ulp
double mean(Args x, const ElementWiseDesc&) { return 0.5 * (x[0] + x[1]); }
// (a + b) rounded in float32 may overflow where the mean does not: the float32 evaluation is right too.
double mean_float32(Args x, const ElementWiseDesc& d) {
    if (!is_float(d.output.data_type)) return mean(x, d);  // integers: no float32 sum
    return double(float(x[0] + x[1])) * 0.5;
}
// Integers: (a + b) / 2 in the type's integer arithmetic, the sum wrapping around where it overflows (the family's
// rule for ADD) and the division truncating (DIVIDE's rule) or rounding the .5 either way. DirectML 1.15.4 wraps
// the INT32 sum and truncates (random cases of seeds 20261129/30: 961710351 for a = -402124561, b = -1969422032).
int mean_wrapped_others(Args x, const ElementWiseDesc& d, double* out) {
    const DataType t = d.output.data_type;
    if (!is_integer(t) || t == DataType::kInt64 || t == DataType::kUint64) return 0;
    const double sum = double(wrap(uint64_t(int64_t(x[0])) + uint64_t(int64_t(x[1])), t));
    if (sum == x[0] + x[1]) return 0;  // no overflow: the exact mean's band already holds it
    out[0] = std::trunc(sum / 2);
    out[1] = sum / 2 == std::trunc(sum / 2) ? out[0] : out[0] + (sum < 0 ? -1 : 1);
    return 2;
}
double difference_square(Args x, const ElementWiseDesc&) { return (x[0] - x[1]) * (x[0] - x[1]); }
int64_t difference_square_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    const uint64_t d = uint64_t(x[0]) - uint64_t(x[1]);
    return wrap(d * d, t);
}
double difference_square_scale(Args, double y, const ElementWiseDesc&) { return 3 * std::fabs(y); }
// max/min: [D3D] returns the non-NaN operand (IEEE 754-2008 maxNum); a NaN-propagating maximum is as right.
double max_f(Args x, const ElementWiseDesc&) { return std::fmax(x[0], x[1]); }
double min_f(Args x, const ElementWiseDesc&) { return std::fmin(x[0], x[1]); }
double max_alternative(Args x, const ElementWiseDesc& d) {
    return std::isnan(x[0]) || std::isnan(x[1]) ? kNan : max_f(x, d);
}
double min_alternative(Args x, const ElementWiseDesc& d) {
    return std::isnan(x[0]) || std::isnan(x[1]) ? kNan : min_f(x, d);
}
int64_t max_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    if (t == DataType::kUint64) return int64_t(std::max(uint64_t(x[0]), uint64_t(x[1])));
    return std::max(x[0], x[1]);
}
int64_t min_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    if (t == DataType::kUint64) return int64_t(std::min(uint64_t(x[0]), uint64_t(x[1])));
    return std::min(x[0], x[1]);
}
double atan_yx(Args x, const ElementWiseDesc&) { return std::atan2(x[0], x[1]); }
// Modulus: the float results are exact in IEEE (fmod), but a - b * trunc(a / b) in float32 loses |a| u.
double mod_truncate(Args x, const ElementWiseDesc&) { return std::fmod(x[0], x[1]); }
double mod_floor(Args x, const ElementWiseDesc&) {
    const double r = std::fmod(x[0], x[1]);
    return r != 0 && ((r < 0) != (x[1] < 0)) ? r + x[1] : r;
}
// The documented a - b * trunc(a / b) and a - b * floor(a / b) in float32 (DirectML 1.15.4, results/
// directml_element_wise_2026-11-29.txt sections 7 and 8, results/directml_element_wise_2026-11-30_pow_modulus.txt):
// - the subtraction and the product lose |a| u each (4 u (|a| + |y|));
// - the quotient rounds ([FS] div: 2.5 ulp, at most 5 u |q|) and, below float32's smallest normal, may flush or
//   underflow to +-0 ([D3D]): where a / b lies within that of an integer n', trunc or floor may take n' instead of
//   n, and the result is a - b n' = y - b (n' - n). Where the rounding reaches less than half an integer, one
//   neighbour at most: that value is right too, judged on its own (FunctionMath::separate_alternative; MODULUS_FLOOR
//   11.5 % -4.6e-5: 9.5e-7 where y = -4.57e-5; TRUNCATE -184363.28 % -0.7213: 0 where y = -0.7196; FLOOR 1.14e-34 %
//   -3.9e30: a, the quotient -2.9e-65 being 0 in float32, where y = a + b = -3.9e30). From half an integer on
//   (|q| >= 2^-1 / (5 u), about 1.7e6) every integer within reach is: y moves by up to (5 u |q| + 1) |b| =
//   5 u |a| + |b|, which the error scale takes (746042432 % 83.0066 gave -128 where y = 59.28: n + 2);
// - b = +-inf with a finite: a / b = +-0 and b * 0 is NaN (IEEE 754), where the C and Python operators the remarks
//   name give a (or, for MODULUS_FLOOR with signs that differ, b): both readings of the docs are right;
// - a quotient, or MODULUS_FLOOR's product b * floor(a / b), beyond float32's range (other values below): a minus
//   that infinity (18.5 % 2.19e-38: -inf; FLOOR 3.4e38 % -8.4e37: b * -5 overflows, -inf).
constexpr double kQuotientReach = 5 * 0x1p-24;  // [FS] div's 2.5 ulp, relative: 2.5 * 2^-23
double mod_scale(Args x, double y, const ElementWiseDesc&) {
    const double a = x[0], b = x[1], q = a / b;
    double m = 4 * (std::fabs(a) + std::fabs(y));
    if (std::isfinite(q) && kQuotientReach * std::fabs(q) >= 0.5) m += 5 * std::fabs(a) + std::fabs(b) / 0x1p-24;
    return m;
}
// `floored`: MODULUS_FLOOR; the exact result where no neighbouring quotient is in reach.
double mod_float32(Args x, const ElementWiseDesc& d, bool floored) {
    const double a = x[0], b = x[1], q = a / b;
    const auto exact = [&] { return floored ? mod_floor(x, d) : mod_truncate(x, d); };
    if (std::isinf(b) && std::isfinite(a)) return kNan;
    const double reach = kQuotientReach * std::fabs(q);
    if (!std::isfinite(q) || q == 0 || reach >= 0.5) return exact();  // the error scale covers the rest
    const auto to_integer = [floored](double v) { return floored ? std::floor(v) : std::trunc(v); };
    const double n = to_integer(q), below = to_integer(q - reach), above = to_integer(q + reach);
    // A quotient below the smallest normal may also be +-0 in float32 (flushed, or underflowed): trunc and floor 0.
    const double other = below != n ? below : above != n ? above : std::fabs(q) < 0x1p-126 ? 0.0 : n;
    return other == n ? exact() : a - b * other;
}
double mod_truncate_float32(Args x, const ElementWiseDesc& d) { return mod_float32(x, d, false); }
double mod_floor_float32(Args x, const ElementWiseDesc& d) { return mod_float32(x, d, true); }
// The float32 formula's infinities: the quotient beyond float32's range (within its rounding of FLT_MAX + half an
// ulp), -+inf with the sign opposite to a's (8347.35 % -4.7e-36: -inf; -9508.3 % 4.1e-38: +inf); MODULUS_FLOOR's
// product b * floor(a / b) beyond it, a minus that infinity (3.4e38 % -8.4e37: -inf).
int mod_overflow(Args x, double* out, bool floored) {
    const double a = x[0], b = x[1];
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0 || b == 0) return 0;
    constexpr double kOverflow = 0x1p128 - 0x1p103;
    const double q = a / b;
    if (std::fabs(q) * (1 + kQuotientReach) >= kOverflow) {
        out[0] = -std::copysign(HUGE_VAL, a);
        return 1;
    }
    const double product = b * (floored ? std::floor(q) : std::trunc(q));
    if (std::fabs(product) * (1 + 0x1p-24) < kOverflow) return 0;
    out[0] = -std::copysign(HUGE_VAL, product);
    return 1;
}
int mod_truncate_overflow(Args x, const ElementWiseDesc&, double* out) { return mod_overflow(x, out, false); }
int mod_floor_overflow(Args x, const ElementWiseDesc&, double* out) { return mod_overflow(x, out, true); }
int64_t mod_truncate_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    if (x[1] == 0) return 0;
    if (t == DataType::kUint64) return int64_t(uint64_t(x[0]) % uint64_t(x[1]));
    if (x[1] == -1) return 0;
    return x[0] % x[1];
}
int64_t mod_floor_int(IntArgs x, DataType t, const ElementWiseDesc& d) {
    const int64_t r = mod_truncate_int(x, t, d);
    if (t == DataType::kUint64 || !is_signed_integer(t)) return r;
    return r != 0 && ((r < 0) != (x[1] < 0)) ? r + x[1] : r;
}

// ---- Powers --------------------------------------------------------------------------------------------------

// A negative base gives NaN unless the exponent is integral (the docs).
double power(double base, double exponent) {
    if (base < 0 && exponent != std::trunc(exponent)) return kNan;
    return std::pow(base, exponent);
}
double pow_f(Args x, const ElementWiseDesc&) { return power(x[0], x[1]); }
double constant_pow(Args x, const ElementWiseDesc& d) { return power(x[0], attr_float(d, "Exponent")); }
// The docs name no special values; IEEE 754's powr (exp(e log x)) differs from its pow (the reference's): powr(1,
// +-inf), powr(x, NaN), powr(NaN, e), powr(+-0, +-0), powr(+inf, +-0) are NaN, powr(+-0, e < 0) is +inf. Both are
// right; a negative base: powr(|x|, e) with an odd integral e's sign (the docs' rule), else NaN. dmltool's kernel
// (exp2(e log2 |x|)) gives powr's (results/directml_element_wise_2026-11-29.txt section 8).
double powr_reading(double base, double exponent) {
    if (std::isnan(base) || std::isnan(exponent)) return kNan;
    if (base < 0 || (base == 0 && std::signbit(base))) {
        if (base != 0) {
            if (!std::isfinite(exponent) || exponent != std::trunc(exponent)) return kNan;
            const double magnitude = powr_reading(-base, exponent);
            return std::fmod(exponent, 2.0) != 0 ? -magnitude : magnitude;
        }
        base = 0;  // powr treats -0 as +0
    }
    if (base == 0) return exponent == 0 ? kNan : exponent < 0 ? HUGE_VAL : 0.0;
    if (std::isinf(base) && exponent == 0) return kNan;
    if (base == 1 && std::isinf(exponent)) return kNan;
    return std::pow(base, exponent);
}
double pow_powr(Args x, const ElementWiseDesc&) { return powr_reading(x[0], x[1]); }
double constant_pow_powr(Args x, const ElementWiseDesc& d) { return powr_reading(x[0], attr_float(d, "Exponent")); }
// exp2(e * log2|x|): log2 and the product round ([FS] 3 ulp each), relative error |e log2 x| u in the exponent.
// For |x| in [0.5, 2], [FS] bounds log2 by 2^-21 absolute instead (8 u): e times that in the exponent, a relative
// error of ln 2 * 8 |e| u in the result (0.99245^-73.02: 41 u off, DirectML 1.15.4, seed 20261202 #29). log2(1) is
// exact (a significand of 1 leaves nothing to approximate): |x| = 1 keeps the bound of its rounding alone.
double pow_scale_of(double base, double exponent, double y) {
    const double l = base != 0 ? std::fabs(exponent * std::log2(std::fabs(base))) : 0;
    const double a = std::fabs(base);
    const double near_one = a >= 0.5 && a <= 2 && a != 1 ? 8 * std::numbers::ln2 * std::fabs(exponent) : 0;
    return std::fabs(y) * (16 + 4 * l + near_one);
}
double pow_scale(Args x, double y, const ElementWiseDesc&) { return pow_scale_of(x[0], x[1], y); }
double constant_pow_scale(Args x, double y, const ElementWiseDesc& d) {
    return pow_scale_of(x[0], attr_float(d, "Exponent"), y);
}
// Integral types: exact (the docs), by repeated squaring with wrap-around; a negative exponent (of a signed
// exponent type, whatever the base's type) truncates 1 / x^-e: 1 for x = 1, +-1 for x = -1, else 0.
int64_t pow_int(IntArgs x, DataType t, const ElementWiseDesc&) {
    int64_t base = x[0], exponent = x[1];
    if (exponent < 0 && t != DataType::kUint64) {
        if (base == 1) return 1;
        if (base == -1) return (exponent % 2) ? -1 : 1;
        return 0;
    }
    uint64_t result = 1, b = uint64_t(base), e = uint64_t(exponent);
    while (e) {
        if (e & 1) result *= b;
        b *= b;
        e >>= 1;
    }
    return wrap(result, t);
}

// ---- Comparisons and logic (UINT8/UINT32 outputs of 0 and 1) -------------------------------------------------

double equals(Args x, const ElementWiseDesc&) { return x[0] == x[1] ? 1 : 0; }
double greater(Args x, const ElementWiseDesc&) { return x[0] > x[1] ? 1 : 0; }
double less(Args x, const ElementWiseDesc&) { return x[0] < x[1] ? 1 : 0; }
double greater_equal(Args x, const ElementWiseDesc&) { return x[0] >= x[1] ? 1 : 0; }
double less_equal(Args x, const ElementWiseDesc&) { return x[0] <= x[1] ? 1 : 0; }
// Integer inputs compare as integers (64-bit values do not fit a double); UINT64 as unsigned.
bool unsigned_inputs(const ElementWiseDesc& d) {
    const TensorDesc* a = d.input("ATensor");
    return a && !is_signed_integer(a->data_type);
}
int64_t equals_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0] == x[1]; }
int64_t greater_int(IntArgs x, DataType, const ElementWiseDesc& d) {
    return unsigned_inputs(d) ? uint64_t(x[0]) > uint64_t(x[1]) : x[0] > x[1];
}
int64_t less_int(IntArgs x, DataType, const ElementWiseDesc& d) {
    return unsigned_inputs(d) ? uint64_t(x[0]) < uint64_t(x[1]) : x[0] < x[1];
}
int64_t greater_equal_int(IntArgs x, DataType, const ElementWiseDesc& d) {
    return unsigned_inputs(d) ? uint64_t(x[0]) >= uint64_t(x[1]) : x[0] >= x[1];
}
int64_t less_equal_int(IntArgs x, DataType, const ElementWiseDesc& d) {
    return unsigned_inputs(d) ? uint64_t(x[0]) <= uint64_t(x[1]) : x[0] <= x[1];
}
double logical_and(Args x, const ElementWiseDesc&) { return x[0] != 0 && x[1] != 0 ? 1 : 0; }
double logical_or(Args x, const ElementWiseDesc&) { return x[0] != 0 || x[1] != 0 ? 1 : 0; }
double logical_xor(Args x, const ElementWiseDesc&) { return (x[0] != 0) != (x[1] != 0) ? 1 : 0; }
double logical_not(Args x, const ElementWiseDesc&) { return x[0] == 0 ? 1 : 0; }
int64_t logical_and_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0] != 0 && x[1] != 0; }
int64_t logical_or_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0] != 0 || x[1] != 0; }
int64_t logical_xor_int(IntArgs x, DataType, const ElementWiseDesc&) { return (x[0] != 0) != (x[1] != 0); }
int64_t logical_not_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0] == 0; }

// ---- Bit operations (integer types only: the data type gives the element width) ---------------------------------

uint64_t width_mask(const ElementWiseDesc& d) {
    const unsigned bits = unsigned(element_size_in_bits(d.inputs[0]->data_type));
    return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
}
int64_t bit_and(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) & uint64_t(x[1]), t); }
int64_t bit_or(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) | uint64_t(x[1]), t); }
int64_t bit_xor(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(uint64_t(x[0]) ^ uint64_t(x[1]), t); }
int64_t bit_not(IntArgs x, DataType t, const ElementWiseDesc&) { return wrap(~uint64_t(x[0]), t); }
int64_t bit_count(IntArgs x, DataType, const ElementWiseDesc& d) {
    return std::popcount(uint64_t(x[0]) & width_mask(d));
}
// A logical shift of the element's bits; a count >= the width is left undefined by the docs: the reference gives
// 0 and `generate` never asks for one.
int64_t shift_left(IntArgs x, DataType t, const ElementWiseDesc& d) {
    const uint64_t count = uint64_t(x[1]) & width_mask(d);
    if (count >= element_size_in_bits(t)) return 0;
    return wrap((uint64_t(x[0]) & width_mask(d)) << count, t);
}
int64_t shift_right(IntArgs x, DataType t, const ElementWiseDesc& d) {
    const uint64_t count = uint64_t(x[1]) & width_mask(d);
    if (count >= element_size_in_bits(t)) return 0;
    return wrap((uint64_t(x[0]) & width_mask(d)) >> count, t);
}

// ---- Clamps, selection ----------------------------------------------------------------------------------------

// Min and Max are cast to an integer tensor's type first: truncated toward zero (the docs), then saturated.
double clip_bound(double bound, DataType type) {
    if (!is_integer(type)) return bound;
    return std::clamp(std::trunc(bound), double(integer_min(type)), double(integer_max(type)));
}
double clip(Args x, const ElementWiseDesc& d) {
    const DataType t = d.output.data_type;
    return std::fmax(clip_bound(attr_float(d, "Min"), t), std::fmin(x[0], clip_bound(attr_float(d, "Max"), t)));
}
// Integer tensors in int64 (a double rounds INT64/UINT64 values above 2^53), the bounds cast as clip_bound does.
int64_t clip_int(IntArgs x, DataType t, const ElementWiseDesc& d) {
    const auto bound = [t](double v) { return int64_t(saturate_to_integer(v, t)); };
    const int64_t lo = bound(attr_float(d, "Min")), hi = bound(attr_float(d, "Max"));
    if (t == DataType::kUint64) return int64_t(std::max(uint64_t(lo), std::min(uint64_t(x[0]), uint64_t(hi))));
    return std::max(lo, std::min(x[0], hi));
}
double clip1(Args x, const ElementWiseDesc& d) {
    return std::fmax(d.attribute("Min")->scalar.as_double(), std::fmin(x[0], d.attribute("Max")->scalar.as_double()));
}
int64_t clip1_int(IntArgs x, DataType t, const ElementWiseDesc& d) {
    const int64_t lo = d.attribute("Min")->scalar.as_int64(), hi = d.attribute("Max")->scalar.as_int64();
    if (t == DataType::kUint64) return int64_t(std::max(uint64_t(lo), std::min(uint64_t(x[0]), uint64_t(hi))));
    return std::max(lo, std::min(x[0], hi));
}
double nan_alternative(Args x, const ElementWiseDesc& d) {
    return std::isnan(x[0]) ? kNan : d.function->math->exact(x, d);
}
double threshold(Args x, const ElementWiseDesc& d) { return std::fmax(x[0], attr_float(d, "Min")); }
// The clamp of NaN in the other order, min(max(x, Min), Max): Min under [D3D]'s min/max (the documented order,
// max(Min, min(x, Max)), gives Max; a NaN-propagating one NaN). dmltool's FLOAT16 kernel gives Min.
int clip_others(Args x, const ElementWiseDesc& d, double* out) {
    if (!std::isnan(x[0])) return 0;
    out[0] = clip_bound(attr_float(d, "Min"), d.output.data_type);
    return 1;
}
// CLIP1 likewise, its Min a scalar union in the output's type (random case seed 20261201 #10, FLOAT16 NaN: dmltool's
// kernel -0.5 = Min, DirectML 1.0625 = Max).
int clip1_others(Args x, const ElementWiseDesc& d, double* out) {
    if (!std::isnan(x[0])) return 0;
    out[0] = d.attribute("Min")->scalar.as_double();
    return 1;
}
// An integer tensor's THRESHOLD: Min converted to the type first. The THRESHOLD page does not say how; CLIP's page
// says for its Min and Max: truncated toward zero. So max(x, trunc(Min)) is right too (DirectML 1.15.4 gives it:
// 0 for Min -0.875, random case seed 20261130 #4).
int threshold_others(Args x, const ElementWiseDesc& d, double* out) {
    if (!is_integer(d.output.data_type) || std::isnan(x[0])) return 0;
    out[0] = std::fmax(x[0], clip_bound(attr_float(d, "Min"), d.output.data_type));
    return 1;
}
double select(Args x, const ElementWiseDesc&) { return x[0] != 0 ? x[1] : x[2]; }
int64_t select_int(IntArgs x, DataType, const ElementWiseDesc&) { return x[0] != 0 ? x[1] : x[2]; }

// ---- Quantization ---------------------------------------------------------------------------------------------

// The value before rounding: the engine rounds it to the nearest integer, accepts both neighbours at an exact tie
// (the docs name no tie rule) and saturates to the output type's range.
// (The engine saturates to the output type after rounding, so that the error band of a value beyond the range
// collapses to the range's end.)
double quantize_value(double value, DataType) { return value; }
double quantize(Args x, const ElementWiseDesc& d) {
    const double zero_point = std::isnan(x[2]) ? 0 : x[2];
    return quantize_value(x[0] / x[1] + zero_point, d.output.data_type);
}
// x / scale in float32 ([FS] 2.5 ulp); the zero point adds exactly.
double quantize_scale(Args x, double, const ElementWiseDesc&) { return 5 * std::fabs(x[0] / x[1]); }
double dequantize(Args x, const ElementWiseDesc&) { return (x[0] - (std::isnan(x[2]) ? 0 : x[2])) * x[1]; }
// x and the zero point convert to float32 (32-bit integers round), subtract, multiply: three roundings.
double dequantize_scale(Args x, double y, const ElementWiseDesc&) {
    const double z = std::isnan(x[2]) ? 0 : x[2];
    return 3 * std::fabs(y) + std::fabs(x[1]) * (std::fabs(x[0]) + std::fabs(z));
}
// Inputs in member order: A, AScale, AZeroPoint, B, BScale, BZeroPoint, OutputScale, OutputZeroPoint.
double zero_or(double v) { return std::isnan(v) ? 0 : v; }
double quantized_add(Args x, const ElementWiseDesc& d) {
    const double a = (x[0] - zero_or(x[2])) * x[1], b = (x[3] - zero_or(x[5])) * x[4];
    return quantize_value((a + b) / x[6] + zero_or(x[7]), d.output.data_type);
}
double quantized_add_scale(Args x, double, const ElementWiseDesc&) {
    const double a = (x[0] - zero_or(x[2])) * x[1], b = (x[3] - zero_or(x[5])) * x[4];
    return 8 * (std::fabs(a) + std::fabs(b)) / std::fabs(x[6]);
}

// ---- Row-specific rules (the facts' CONSTRAINT notes) ------------------------------------------------------------

Status validate_clip1(const ElementWiseDesc& d, const std::string& path) {
    const DataType type = d.attribute("MinMaxDataType")->data_type;
    if (type != d.output.data_type)
        return invalid_input(path + "/MinMaxDataType: expected " + std::string(data_type_name(d.output.data_type)) +
                             " (the OutputTensor's DataType), found " + std::string(data_type_name(type)));
    return Status::ok();
}

Status validate_quantize(const ElementWiseDesc& d, const std::string& path) {
    const DataType input = d.input("InputTensor")->data_type, scale = d.input("ScaleTensor")->data_type;
    const DataType want = input == DataType::kInt32 ? DataType::kFloat32 : input;
    if (scale != want)
        return invalid_input(path + "/ScaleTensor/DataType: expected " + std::string(data_type_name(want)) +
                             (input == DataType::kInt32 ? " (for an INT32 InputTensor)" : " (the InputTensor's DataType)") +
                             ", found " + std::string(data_type_name(scale)));
    return Status::ok();
}

Status validate_quantized_add(const ElementWiseDesc& d, const std::string& path) {
    for (std::string_view name : {"AScaleTensor", "AZeroPointTensor", "BScaleTensor", "BZeroPointTensor",
                                  "OutputScaleTensor", "OutputZeroPointTensor"}) {
        const TensorDesc* t = d.input(name);
        if (t && t->element_count() != 1)
            return invalid_input(path + "/" + std::string(name) + "/Sizes: expected exactly 1 element (a per-tensor " +
                                 "scale or zero point), found " + format_dims(t->sizes));
    }
    return Status::ok();
}

// ---- The table ------------------------------------------------------------------------------------------------

const FunctionMath kIdentity{.exact = identity, .integer = identity_int, .bound_source = "exact: y = x"};
const FunctionMath kAbs{.exact = absolute, .integer = absolute_int, .bound_source = "exact: y = |x|"};
const FunctionMath kNegate{.exact = negate, .integer = negate_int, .bound_source = "exact: y = -x"};
const FunctionMath kCeil{.exact = ceil_f, .bound_source = kExact};
const FunctionMath kFloor{.exact = floor_f, .bound_source = kExact};
const FunctionMath kRound{.exact = round_f, .bound_source = kExact};
const FunctionMath kSign{.exact = sign_f, .integer = sign_int, .bound_source = kExact};
const FunctionMath kIsNan{.exact = is_nan, .bound_source = kExact};
const FunctionMath kIsInfinity{.exact = is_infinity, .bound_source = kExact};
const FunctionMath kAcos{.exact = acos_f, .error_scale = inverse_trig_scale, .bound_source = kTranscendental};
const FunctionMath kAsin{.exact = asin_f, .error_scale = inverse_trig_scale, .bound_source = kTranscendental};
const FunctionMath kAtan{.exact = atan_f, .error_scale = relative_absolute<16, 16>, .bound_source = kTranscendental};
const FunctionMath kCos{.exact = cos_f, .error_scale = trig_scale,
                        .bound_source = "16 u relative + 16 u absolute + 4 |x| u absolute (range reduction [COND])"};
const FunctionMath kSin{.exact = sin_f, .error_scale = trig_scale,
                        .bound_source = "16 u relative + 16 u absolute + 4 |x| u absolute (range reduction [COND])"};
const FunctionMath kTan{.exact = tan_f, .error_scale = tan_scale,
                        .bound_source = "16 u relative + 16 u absolute + 4 |x| (1 + y^2) u (range reduction [COND])"};
const FunctionMath kExp{.exact = exp_f, .error_scale = exp_scale,
                        .bound_source = "(16 + 2 |x|) u relative: exp2(x log2 e), [FS] 3 ulp + the rounded product [COND]"};
const FunctionMath kLog{.exact = log_f, .error_scale = log_scale,
                        .bound_source = "16 u relative + 16 u absolute: log2(x) ln 2, [FS] 3 ulp or 2^-21 absolute near 1"};
const FunctionMath kRecip{.exact = recip, .error_scale = relative_absolute<2, 0>, .bound_source = "one ulp ([FS] rcp 1 ulp)"};
const FunctionMath kSqrt{.exact = sqrt_f, .error_scale = relative_absolute<4, 0>,
                         .bound_source = "two ulp (as [FS]'s rsq; sqrt has no stated bound)"};
const FunctionMath kErf{.exact = erf_f, .error_scale = relative_absolute<16, 16>, .bound_source = kTranscendental};
const FunctionMath kSinh{.exact = sinh_f, .error_scale = hyperbolic_scale,
                         .bound_source = "(16 + 2 |x|) u relative + 16 u absolute: from exp [COND]"};
const FunctionMath kCosh{.exact = cosh_f, .error_scale = hyperbolic_scale,
                         .bound_source = "(16 + 2 |x|) u relative + 16 u absolute: from exp [COND]"};
const FunctionMath kTanh{.exact = tanh_f, .error_scale = relative_absolute<16, 16>, .bound_source = kTranscendental};
const FunctionMath kAsinh{.exact = asinh_f, .error_scale = relative_absolute<16, 16>, .bound_source = kTranscendental};
const FunctionMath kAcosh{.exact = acosh_f, .error_scale = inverse_trig_scale, .other_values = acosh_others,
                          .bound_source = kTranscendental};
const FunctionMath kAtanh{.exact = atanh_f, .error_scale = atanh_scale, .bound_source = kTranscendental};
const FunctionMath kAdd{.exact = add, .integer = add_int, .error_scale = one_rounding, .bound_source = kRounded};
const FunctionMath kSubtract{.exact = subtract, .integer = subtract_int, .error_scale = one_rounding,
                             .bound_source = kRounded};
const FunctionMath kMultiply{.exact = multiply, .integer = multiply_int, .error_scale = one_rounding,
                             .bound_source = kRounded};
const FunctionMath kDivide{.exact = divide, .integer = divide_int, .error_scale = divide_scale,
                           .bound_source = "2.5 ulp ([FS] div); integers truncate"};
const FunctionMath kMean{.exact = mean, .error_scale = one_rounding, .alternative = mean_float32,
                         .other_values = mean_wrapped_others, .bound_source = "one ulp; (a + b) may overflow in float32; integers: either neighbour of a .5"};
const FunctionMath kDifferenceSquare{.exact = difference_square, .integer = difference_square_int,
                                     .error_scale = difference_square_scale, .bound_source = "1.5 ulp: two roundings"};
const FunctionMath kMax{.exact = max_f, .integer = max_int, .alternative = max_alternative, .bound_source = kExact};
const FunctionMath kMin{.exact = min_f, .integer = min_int, .alternative = min_alternative, .bound_source = kExact};
const FunctionMath kAtanYx{.exact = atan_yx, .error_scale = relative_absolute<16, 16>, .bound_source = kTranscendental};
const FunctionMath kModTruncate{.exact = mod_truncate, .integer = mod_truncate_int, .error_scale = mod_scale,
                                .alternative = mod_truncate_float32, .separate_alternative = true,
                                .other_values = mod_truncate_overflow,
                                .bound_source = "4 u (|a| + |y|), and 5 u |a| + |b| where the quotient's 2.5 ulp reach half an integer: a - b trunc(a / b) in float32"};
const FunctionMath kModFloor{.exact = mod_floor, .integer = mod_floor_int, .error_scale = mod_scale,
                             .alternative = mod_floor_float32, .separate_alternative = true,
                             .other_values = mod_floor_overflow,
                             .bound_source = "4 u (|a| + |y|), and 5 u |a| + |b| where the quotient's 2.5 ulp reach half an integer: a - b floor(a / b) in float32"};
// Integer outputs through floats (a float exponent): exp2(e log2 x) truncated, e.g. 21533^1.0 = 21532 and
// 32927^-3e-12 = 0 from DirectML (seed 20261130 #6, #7), is a right conversion (FunctionMath::integer_by_truncation).
const FunctionMath kPow{.exact = pow_f, .integer = pow_int, .error_scale = pow_scale, .alternative = pow_powr,
                        .integer_by_truncation = true,
                        .bound_source = "(16 + 4 |e log2 x| + 5.6 |e| for |x| in [0.5, 2]) u relative: exp2(e log2 x) [FS] [COND]"};
const FunctionMath kConstantPow{.exact = constant_pow, .error_scale = constant_pow_scale, .alternative = constant_pow_powr,
                                .bound_source = "(16 + 4 |e log2 x| + 5.6 |e| for |x| in [0.5, 2]) u relative: exp2(e log2 x) [FS] [COND]"};
const FunctionMath kEquals{.exact = equals, .integer = equals_int, .bound_source = kExact};
const FunctionMath kGreater{.exact = greater, .integer = greater_int, .bound_source = kExact};
const FunctionMath kLess{.exact = less, .integer = less_int, .bound_source = kExact};
const FunctionMath kGreaterEqual{.exact = greater_equal, .integer = greater_equal_int, .bound_source = kExact};
const FunctionMath kLessEqual{.exact = less_equal, .integer = less_equal_int, .bound_source = kExact};
const FunctionMath kLogicalAnd{.exact = logical_and, .integer = logical_and_int, .bound_source = kExact};
const FunctionMath kLogicalOr{.exact = logical_or, .integer = logical_or_int, .bound_source = kExact};
const FunctionMath kLogicalXor{.exact = logical_xor, .integer = logical_xor_int, .bound_source = kExact};
const FunctionMath kLogicalNot{.exact = logical_not, .integer = logical_not_int, .bound_source = kExact};
const FunctionMath kBitAnd{.exact = nullptr, .integer = bit_and, .bound_source = kExact};
const FunctionMath kBitOr{.exact = nullptr, .integer = bit_or, .bound_source = kExact};
const FunctionMath kBitXor{.exact = nullptr, .integer = bit_xor, .bound_source = kExact};
const FunctionMath kBitNot{.exact = nullptr, .integer = bit_not, .bound_source = kExact};
const FunctionMath kBitCount{.exact = nullptr, .integer = bit_count, .bound_source = kExact};
const FunctionMath kShiftLeft{.exact = nullptr, .integer = shift_left, .bound_source = kExact};
const FunctionMath kShiftRight{.exact = nullptr, .integer = shift_right, .bound_source = kExact};
const FunctionMath kClip{.exact = clip, .integer = clip_int, .alternative = nan_alternative,
                         .other_values = clip_others, .bound_source = kExact};
const FunctionMath kClip1{.exact = clip1, .integer = clip1_int, .alternative = nan_alternative,
                          .other_values = clip1_others, .validate = validate_clip1, .bound_source = kExact};
const FunctionMath kThreshold{.exact = threshold, .alternative = nan_alternative, .other_values = threshold_others,
                              .bound_source = kExact};
const FunctionMath kIf{.exact = select, .integer = select_int, .bound_source = "exact: selects a or b"};
const FunctionMath kQuantize{.exact = quantize, .error_scale = quantize_scale, .validate = validate_quantize,
                             .bound_source = "round(x / scale): 2.5 ulp of x / scale ([FS] div), ties either way"};
const FunctionMath kDequantize{.exact = dequantize, .error_scale = dequantize_scale,
                               .bound_source = "three roundings (integer to float32, subtract, multiply)"};
const FunctionMath kQuantizedAdd{.exact = quantized_add, .error_scale = quantized_add_scale,
                                 .validate = validate_quantized_add,
                                 .bound_source = "dequantize, add, divide by the output scale in float32, then round"};

// The facts list no "same Sizes" constraint for QUANTIZED_LINEAR_ADD (its page states only the dimension count);
// A, B and the output are element-wise operands all the same, and the scales and zero points one element each.
FunctionSpec quantized_linear_add_spec() {
    FunctionSpec spec = spec_from_facts("ELEMENT_WISE_QUANTIZED_LINEAR_ADD", "QUANTIZED_LINEAR_ADD", &kQuantizedAdd);
    spec.same_sizes_groups.push_back({"ATensor", "BTensor", "OutputTensor"});
    return spec;
}

}  // namespace

const std::vector<FunctionSpec>& element_wise_functions() {
    static const std::vector<FunctionSpec> table = {
        spec_from_facts("ELEMENT_WISE_IDENTITY", "IDENTITY", &kIdentity),
        spec_from_facts("ELEMENT_WISE_ABS", "ABS", &kAbs),
        spec_from_facts("ELEMENT_WISE_ACOS", "ACOS", &kAcos),
        spec_from_facts("ELEMENT_WISE_ADD", "ADD", &kAdd),
        spec_from_facts("ELEMENT_WISE_ASIN", "ASIN", &kAsin),
        spec_from_facts("ELEMENT_WISE_ATAN", "ATAN", &kAtan),
        spec_from_facts("ELEMENT_WISE_CEIL", "CEIL", &kCeil),
        spec_from_facts("ELEMENT_WISE_CLIP", "CLIP", &kClip),
        spec_from_facts("ELEMENT_WISE_COS", "COS", &kCos),
        spec_from_facts("ELEMENT_WISE_DIVIDE", "DIVIDE", &kDivide),
        spec_from_facts("ELEMENT_WISE_EXP", "EXP", &kExp),
        spec_from_facts("ELEMENT_WISE_FLOOR", "FLOOR", &kFloor),
        spec_from_facts("ELEMENT_WISE_LOG", "LOG", &kLog),
        spec_from_facts("ELEMENT_WISE_LOGICAL_AND", "LOGICAL_AND", &kLogicalAnd),
        spec_from_facts("ELEMENT_WISE_LOGICAL_EQUALS", "LOGICAL_EQUALS", &kEquals),
        spec_from_facts("ELEMENT_WISE_LOGICAL_GREATER_THAN", "LOGICAL_GREATER_THAN", &kGreater),
        spec_from_facts("ELEMENT_WISE_LOGICAL_LESS_THAN", "LOGICAL_LESS_THAN", &kLess),
        spec_from_facts("ELEMENT_WISE_LOGICAL_NOT", "LOGICAL_NOT", &kLogicalNot),
        spec_from_facts("ELEMENT_WISE_LOGICAL_OR", "LOGICAL_OR", &kLogicalOr),
        spec_from_facts("ELEMENT_WISE_LOGICAL_XOR", "LOGICAL_XOR", &kLogicalXor),
        spec_from_facts("ELEMENT_WISE_MAX", "MAX", &kMax),
        spec_from_facts("ELEMENT_WISE_MEAN", "MEAN", &kMean),
        spec_from_facts("ELEMENT_WISE_MIN", "MIN", &kMin),
        spec_from_facts("ELEMENT_WISE_MULTIPLY", "MULTIPLY", &kMultiply),
        spec_from_facts("ELEMENT_WISE_POW", "POW", &kPow),
        spec_from_facts("ELEMENT_WISE_CONSTANT_POW", "CONSTANT_POW", &kConstantPow),
        spec_from_facts("ELEMENT_WISE_RECIP", "RECIP", &kRecip),
        spec_from_facts("ELEMENT_WISE_SIN", "SIN", &kSin),
        spec_from_facts("ELEMENT_WISE_SQRT", "SQRT", &kSqrt),
        spec_from_facts("ELEMENT_WISE_SUBTRACT", "SUBTRACT", &kSubtract),
        spec_from_facts("ELEMENT_WISE_TAN", "TAN", &kTan),
        spec_from_facts("ELEMENT_WISE_THRESHOLD", "THRESHOLD", &kThreshold),
        spec_from_facts("ELEMENT_WISE_QUANTIZE_LINEAR", "QUANTIZE_LINEAR", &kQuantize),
        spec_from_facts("ELEMENT_WISE_DEQUANTIZE_LINEAR", "DEQUANTIZE_LINEAR", &kDequantize),
        spec_from_facts("ELEMENT_WISE_SIGN", "SIGN", &kSign),
        spec_from_facts("ELEMENT_WISE_IS_NAN", "IS_NAN", &kIsNan),
        spec_from_facts("ELEMENT_WISE_ERF", "ERF", &kErf),
        spec_from_facts("ELEMENT_WISE_SINH", "SINH", &kSinh),
        spec_from_facts("ELEMENT_WISE_COSH", "COSH", &kCosh),
        spec_from_facts("ELEMENT_WISE_TANH", "TANH", &kTanh),
        spec_from_facts("ELEMENT_WISE_ASINH", "ASINH", &kAsinh),
        spec_from_facts("ELEMENT_WISE_ACOSH", "ACOSH", &kAcosh),
        spec_from_facts("ELEMENT_WISE_ATANH", "ATANH", &kAtanh),
        spec_from_facts("ELEMENT_WISE_IF", "IF", &kIf),
        spec_from_facts("ELEMENT_WISE_ADD1", "ADD", &kAdd),
        spec_from_facts("ELEMENT_WISE_BIT_SHIFT_LEFT", "BIT_SHIFT_LEFT", &kShiftLeft),
        spec_from_facts("ELEMENT_WISE_BIT_SHIFT_RIGHT", "BIT_SHIFT_RIGHT", &kShiftRight),
        spec_from_facts("ELEMENT_WISE_ROUND", "ROUND", &kRound),
        spec_from_facts("ELEMENT_WISE_IS_INFINITY", "IS_INFINITY", &kIsInfinity),
        spec_from_facts("ELEMENT_WISE_MODULUS_TRUNCATE", "MODULUS_TRUNCATE", &kModTruncate),
        spec_from_facts("ELEMENT_WISE_MODULUS_FLOOR", "MODULUS_FLOOR", &kModFloor),
        spec_from_facts("ELEMENT_WISE_BIT_AND", "BIT_AND", &kBitAnd),
        spec_from_facts("ELEMENT_WISE_BIT_OR", "BIT_OR", &kBitOr),
        spec_from_facts("ELEMENT_WISE_BIT_XOR", "BIT_XOR", &kBitXor),
        spec_from_facts("ELEMENT_WISE_BIT_NOT", "BIT_NOT", &kBitNot),
        spec_from_facts("ELEMENT_WISE_BIT_COUNT", "BIT_COUNT", &kBitCount),
        spec_from_facts("ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL", "LOGICAL_GREATER_THAN_OR_EQUAL", &kGreaterEqual),
        spec_from_facts("ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL", "LOGICAL_LESS_THAN_OR_EQUAL", &kLessEqual),
        spec_from_facts("ELEMENT_WISE_ATAN_YX", "ATAN_YX", &kAtanYx),
        spec_from_facts("ELEMENT_WISE_DIFFERENCE_SQUARE", "DIFFERENCE_SQUARE", &kDifferenceSquare),
        quantized_linear_add_spec(),
        spec_from_facts("ELEMENT_WISE_CLIP1", "CLIP", &kClip1),
        spec_from_facts("ELEMENT_WISE_NEGATE", "NEGATE", &kNegate),
    };
    return table;
}

}  // namespace dmltool::ops::element_wise
