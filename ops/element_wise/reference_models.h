// The math of the family's semantics deviation models (engine.h, kModel*) that the reference (reference.cpp)
// evaluates in their place: DirectML 1.15.4's measured departures, each as small as its evidence allows
// (results/directml_element_wise_2026-11-29.txt, section 8). Never part of the contract.
#pragma once

#include <array>
#include <span>
#include <vector>

namespace dmltool::ops::element_wise::models {

// The coarse approximations' unit roundoffs over float32's (as the registry's coarse-approximation entries, op.cpp):
// ATAN/ATAN_YX 2^-19, ASINH 2^-16.
inline constexpr double kAtanCoarseFactor = 32;
inline constexpr double kAsinhCoarseFactor = 256;

// LOG's argument: a float32 denormal's bits read as a normal number of exponent -127, 2^-127 (1 + m 2^-23) =
// 2^-127 + |x| / 2. Writes the arguments to `modelled` and returns true where the model changes them.
bool log_denormal_as_normal(std::span<const double> given, std::vector<double>& modelled);

// ATAN's (x) or ATAN_YX's (y, x) arguments with one NaN operand and the other finite and nonzero, read as a ratio
// of 1: ATAN(NaN) as atan(1), ATAN_YX(NaN, x) as atan2(x, x), ATAN_YX(y, NaN) as atan2(|y|, |y|). Returns true (and
// `modelled`) where the model changes them.
bool atan_nan_as_one(std::span<const double> given, std::vector<double>& modelled);

// POW's exp2(y log2 |x|) with the sign of an odd integral y, 0 for x = +-0, NaN for a negative x and a non-integral
// or infinite y. log2 reads a float32 denormal |x| as a normal number of exponent -127 (as LOG's model:
// 2^-127 + |x| / 2). A float exponent's parity is its float-to-int32 conversion's (Direct3D's ftoi saturates): from
// 2^31 on every float32 y is odd (INT_MAX), from -2^31 down even (INT_MIN); an integer exponent's is its own.
// (results/directml_element_wise_2026-11-30_pow_modulus.txt.)
double pow_exp2_log2(double x, double y, bool float_exponent = true);

// ASINH as ln(x + sqrt(x^2 + 1)) in float32 with the square root rounded down, to nearest and up (its rounding, or a
// fused multiply-add before it): the three results, the nearest root's in the middle. x^2 overflowing gives +inf
// alone; x = -inf gives NaN (-inf + inf).
std::array<double, 3> asinh_float32_formula(double x);

}  // namespace dmltool::ops::element_wise::models
