// The semantics deviation models' math (reference_models.h): what DirectML 1.15.4 computes where it departs from
// the contract, as measured by the probes of results/directml_element_wise_2026-11-29.txt, section 8.
#include "ops/element_wise/reference_models.h"

#include <cmath>
#include <limits>

namespace dmltool::ops::element_wise::models {

bool log_denormal_as_normal(std::span<const double> given, std::vector<double>& modelled) {
    const double x = given[0];
    if (x == 0 || !(std::fabs(x) < 0x1p-126)) return false;
    modelled.assign(given.begin(), given.end());
    modelled[0] = std::copysign(0x1p-127 + std::fabs(x) / 2, x);
    return true;
}

bool atan_nan_as_one(std::span<const double> given, std::vector<double>& modelled) {
    // The ratio min(|y|, |x|) / max(|y|, |x|) under Direct3D's min/max (the non-NaN operand) is 1 when one operand is
    // NaN and the other finite and nonzero; the quadrants are the measured ones (probes: (NaN, -1) gives -3 pi/4,
    // (-5, NaN) pi/4). ATAN(x) is ATAN_YX(x, 1).
    const bool yx = given.size() > 1;
    const double y = given[0], x = yx ? given[1] : 1.0;
    const auto finite_nonzero = [](double v) { return std::isfinite(v) && v != 0; };
    if (std::isnan(y) && finite_nonzero(x)) {
        modelled.assign(given.begin(), given.end());
        modelled[0] = x;
        return true;
    }
    if (yx && std::isnan(x) && finite_nonzero(y)) {
        modelled.assign(given.begin(), given.end());
        modelled[0] = modelled[1] = std::fabs(y);
        return true;
    }
    return false;
}

double pow_exp2_log2(double x, double y, bool float_exponent) {
    if (x == 0) return 0;
    const bool integral = std::isfinite(y) && y == std::trunc(y);
    if (x < 0 && !integral) return std::numeric_limits<double>::quiet_NaN();
    double m = std::fabs(x);
    if (m < 0x1p-126) m = 0x1p-127 + m / 2;  // a float32 denormal's bits read with exponent -127
    const double magnitude = std::exp2(y * std::log2(m));
    const bool odd = float_exponent && std::fabs(y) >= 0x1p31 ? y > 0 : std::fmod(y, 2.0) != 0;
    return x < 0 && odd ? -magnitude : magnitude;
}

std::array<double, 3> asinh_float32_formula(double value) {
    const float x = float(value);
    const float root = std::sqrt(x * x + 1.0f);
    const bool finite = std::isfinite(root);  // false for x^2 overflowing, an infinite or a NaN x
    const float roots[3] = {finite ? std::nextafter(root, 0.0f) : root, root,
                            finite ? std::nextafter(root, HUGE_VALF) : root};
    std::array<double, 3> w{};
    for (int k = 0; k < 3; ++k) w[k] = std::log(double(float(x + roots[k])));  // ln of 0: -inf, of a negative sum: NaN
    return w;
}

}  // namespace dmltool::ops::element_wise::models
