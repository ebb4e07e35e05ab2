// The reference's per-element helpers (reference.cpp): float32 and FLOAT16 rounding facts, the float32 arguments of
// ScaleBias, and the band of values an element accepts. Internal to the family's reference.
#pragma once

#include <array>
#include <cmath>
#include <limits>

#include "core/dtype.h"

namespace dmltool::ops::element_wise::reference_detail {

constexpr double kUnitRoundoff = 0x1p-24;  // float32
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Half the spacing of `type`'s values near |v| (floats; 0 for integers): the rounding of an intermediate.
inline double half_spacing(DataType type, double v) {
    v = std::fabs(v);
    int exponent = 0;
    switch (type) {
        case DataType::kFloat32:
            if (v < 0x1p-126) return 0x1p-150;
            std::frexp(v, &exponent);
            return std::ldexp(1.0, exponent - 25);
        case DataType::kFloat16:
            if (v < 0x1p-14) return 0x1p-25;
            std::frexp(v, &exponent);
            return std::ldexp(1.0, exponent - 12);
        default: return 0;
    }
}

// The magnitude from which `type` rounds to infinity (to nearest).
inline double overflow_threshold(DataType type) {
    switch (type) {
        case DataType::kFloat32: return 0x1.ffffffp127;
        case DataType::kFloat16: return 65520.0;
        default: return kInfinity;
    }
}

inline bool is_float32_denormal(double v) { return v != 0 && std::fabs(v) < 0x1p-126; }

// The float32 arguments x * Scale + Bias that Direct3D arithmetic gives (each operation rounded to nearest or
// truncated, or one fused multiply-add): the function is evaluated at each, since the ends of the rounding interval
// alone miss what a periodic function does inside it (TAN of 63983776 * 0.8125 + 0.125: the interval spans four
// periods; the float32 product then sum, 51986816, has tan 19.9, the ends 0.58 and 0.52: lavapipe campaign, seed
// 20261203 #1599). The double sums round once more, which can only move a tie of float32 by one neighbour.
inline std::array<double, 6> float32_scale_bias_arguments(double x, double scale, double bias) {
    const auto nearest = [](double v) { return double(float(v)); };
    const auto truncated = [](double v) {
        const float f = float(v);
        return double(std::fabs(double(f)) > std::fabs(v) ? std::nextafter(f, 0.0f) : f);
    };
    const double product = x * scale;  // exact: two float32 significands fit a double's
    const double n = nearest(product), t = truncated(product);
    return {nearest(n + bias), truncated(n + bias), nearest(t + bias), truncated(t + bias),
            nearest(product + bias), truncated(product + bias)};
}

// The band of values an element accepts: [low, high] from finite candidates, and the non-finite candidates.
// The smallest magnitude that float32 rounding (to nearest) takes to infinity: FLT_MAX plus half its spacing.
constexpr double kFloat32Overflow = 0x1p128 - 0x1p103;

// Up to two other right values per element (ExactOutput::also_accepts), each judged on its own: the value got passes
// when it lies within `tolerances[k]` of `values[k]` (0: exactly that value; a value of NaN: none). Unlike the band,
// nothing between them and the band is accepted. The tolerances are floats (24 bytes per output element, not 32).
struct OtherValues {
    std::array<double, 2> values = {kNan, kNan};
    std::array<float, 2> tolerances = {0, 0};
    bool any() const { return !std::isnan(values[0]); }
};
constexpr OtherValues kNoOtherValues = {};

inline void add_other_value(OtherValues& others, double v, double tolerance = 0) {
    for (size_t k = 0; k < others.values.size(); ++k)
        if (std::isnan(others.values[k])) {
            others.values[k] = v;
            float t = float(tolerance);  // rounded up: never narrower than asked
            if (double(t) < tolerance) t = std::nextafter(t, HUGE_VALF);
            others.tolerances[k] = t;
            return;
        }
}

struct Band {
    double low = kInfinity, high = -kInfinity;
    bool any_nan = false, any_positive_infinity = false, any_negative_infinity = false, any_finite = false;

    void add(double value, double scale) {
        if (std::isnan(value)) {
            any_nan = true;
        } else if (std::isinf(value)) {
            (value > 0 ? any_positive_infinity : any_negative_infinity) = true;
        } else {
            any_finite = true;
            // A scale of NaN comes from 0 * inf in a row's formula at an infinite argument: no error there.
            const double e = std::isnan(scale) ? 0.0 : 1.01 * kUnitRoundoff * scale;
            low = std::min(low, value - e), high = std::max(high, value + e);
        }
    }
};

}  // namespace dmltool::ops::element_wise::reference_detail
