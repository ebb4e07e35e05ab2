// The ACTIVATION_* table: one row per DirectML operator type, on the engine of ops/element_wise (desc.h). As there,
// members, feature levels and constraints come from the facts (dml_facts.inc); a row adds the reference function,
// its error bound and source (docs/element-wise.md), and our kernels' body name. Error scales in units of u = 2^-24.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ops/element_wise/engine.h"
#include "ops/element_wise/rows.h"

namespace dmltool::ops::activation {

namespace {

using namespace element_wise;
using namespace element_wise::rows;
using Args = std::span<const double>;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

constexpr std::string_view kExact = "exact: the result is x, 0 or a constant";
constexpr std::string_view kFromExp =
    "16 u relative + 16 u absolute (scaled by the attributes) + the exponent's rounding [COND]: from exp2 ([FS] 3 ulp)";

double a(const ElementWiseDesc& d, std::string_view name) { return double(attr_float(d, name)); }

// max(0, x) in [D3D] returns 0 for NaN (the non-NaN operand); a NaN-propagating maximum is as right.
double relu(Args x, const ElementWiseDesc&) { return std::fmax(0.0, x[0]); }
double nan_alternative(Args x, const ElementWiseDesc& d) { return std::isnan(x[0]) ? kNan : d.function->math->exact(x, d); }
double identity(Args x, const ElementWiseDesc&) { return x[0]; }
double elu(Args x, const ElementWiseDesc& d) { return x[0] >= 0 ? x[0] : a(d, "Alpha") * std::expm1(x[0]); }
double elu_scale(Args x, double y, const ElementWiseDesc& d) {
    return 16 * std::fabs(y) + 16 * std::fabs(a(d, "Alpha")) * (1 + (x[0] < 0 ? std::fabs(x[0]) * std::exp(x[0]) : 0));
}
double celu(Args x, const ElementWiseDesc& d) {
    const double alpha = a(d, "Alpha");
    return std::fmax(0.0, x[0]) + std::fmin(0.0, alpha * std::expm1(x[0] / alpha));
}
double celu_scale(Args x, double y, const ElementWiseDesc& d) {
    const double alpha = a(d, "Alpha");
    return 16 * std::fabs(y) + 16 * std::fabs(alpha) + 4 * std::fabs(x[0]) * std::exp(std::fmin(0.0, x[0] / alpha));
}
double scaled_elu(Args x, const ElementWiseDesc& d) {
    return a(d, "Gamma") * (x[0] > 0 ? x[0] : a(d, "Alpha") * std::expm1(x[0]));
}
double scaled_elu_scale(Args x, double y, const ElementWiseDesc& d) {
    return 16 * std::fabs(y) +
           16 * std::fabs(a(d, "Gamma") * a(d, "Alpha")) * (1 + (x[0] < 0 ? std::fabs(x[0]) * std::exp(x[0]) : 0));
}
double hard_sigmoid(Args x, const ElementWiseDesc& d) {
    return std::fmax(0.0, std::fmin(a(d, "Alpha") * x[0] + a(d, "Beta"), 1.0));
}
// The clamp to [0, 1] in the other order, min(max(t, 0), 1), or as Direct3D's saturate (which gives 0 for NaN): under
// [D3D]'s min/max (the non-NaN operand) a NaN argument gives 0 there, 1 in the documented order (random cases of
// seeds 20261129/30: dmltool's kernel and DirectML give 0).
int hard_sigmoid_others(Args x, const ElementWiseDesc& d, double* out) {
    if (!std::isnan(a(d, "Alpha") * x[0] + a(d, "Beta"))) return 0;
    out[0] = 0.0;
    return 1;
}
// Alpha * x rounds, + Beta rounds (or one fused multiply-add): u (|Alpha x| + |Alpha x + Beta|) each.
double linear_scale(Args x, double y, const ElementWiseDesc& d) {
    return 2 * (std::fabs(a(d, "Alpha") * x[0]) + std::fabs(y)) + 2 * std::fabs(a(d, "Beta"));
}
// Whether the clamp to [0, 1] of t = Alpha x + Beta is exact in any float32 evaluation: t lies beyond 0 or 1 by more
// than its two roundings (or one fused multiply-add), so the computed t is too, and the clamp gives exactly 0 or 1.
// HARD_SIGMOID is then exact, and HARD_SWISH's x * clamp exact (0 or x). Without this, M grew with |Alpha x| however
// far t lay outside, and random cases of large inputs (seeds 20261129 #1 HARD_SWISH, 20261130 #0 HARD_SIGMOID) were
// MISTRUSTED: the bound let any value pass, the runner's poison patterns included.
bool clamp_is_exact(Args x, const ElementWiseDesc& d) {
    const double ax = a(d, "Alpha") * x[0], t = ax + a(d, "Beta");
    if (!std::isfinite(t)) return false;
    const double e = 1.01 * 0x1p-24 * (2 * (std::fabs(ax) + std::fabs(t)) + 2 * std::fabs(a(d, "Beta")));
    return t + e < 0 || t - e > 1;
}
double hard_sigmoid_scale(Args x, double y, const ElementWiseDesc& d) {
    return clamp_is_exact(x, d) ? 0.0 : linear_scale(x, y, d);
}
double leaky_relu(Args x, const ElementWiseDesc& d) { return x[0] >= 0 ? x[0] : a(d, "Alpha") * x[0]; }
double linear(Args x, const ElementWiseDesc& d) { return a(d, "Alpha") * x[0] + a(d, "Beta"); }
double parameterized_relu(Args x, const ElementWiseDesc&) { return x[0] >= 0 ? x[0] : x[1] * x[0]; }
// Integer tensors: s * x in the type's integer arithmetic, wrapping around like ELEMENT_WISE_MULTIPLY (the family's
// rule for integer overflow, docs/element-wise.md); DirectML 1.15.4 wraps too.
int64_t parameterized_relu_int(std::span<const int64_t> x, DataType t, const ElementWiseDesc&) {
    return x[0] >= 0 ? x[0] : wrap(uint64_t(x[1]) * uint64_t(x[0]), t);
}
double softplus_of(double t) { return t > 30 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }
double parametric_softplus(Args x, const ElementWiseDesc& d) { return a(d, "Alpha") * softplus_of(a(d, "Beta") * x[0]); }
// The formula in float32 overflows e^(Beta x) where the exact value is finite: that evaluation is right too.
double parametric_softplus_float32(Args x, const ElementWiseDesc& d) {
    const float e = std::exp(float(a(d, "Beta") * x[0]));
    return a(d, "Alpha") * double(std::log(1.0f + e));
}
double softplus_scale(Args x, double y, const ElementWiseDesc& d) {
    const double alpha = d.attribute("Alpha") ? a(d, "Alpha") : 1.0;
    const double beta = d.attribute("Beta") ? a(d, "Beta") : a(d, "Steepness");
    return 16 * std::fabs(y) + 16 * std::fabs(alpha) * (1 + std::fabs(beta * x[0]));
}
double softplus(Args x, const ElementWiseDesc& d) {
    const double s = a(d, "Steepness");
    return softplus_of(s * x[0]) / s;
}
double softplus_float32(Args x, const ElementWiseDesc& d) {
    const float s = attr_float(d, "Steepness");
    return double(std::log(1.0f + std::exp(s * float(x[0]))) / s);
}
double scaled_tanh(Args x, const ElementWiseDesc& d) { return a(d, "Alpha") * std::tanh(a(d, "Beta") * x[0]); }
double scaled_tanh_scale(Args x, double y, const ElementWiseDesc& d) {
    const double t = std::tanh(a(d, "Beta") * x[0]);
    return 16 * std::fabs(y) + 16 * std::fabs(a(d, "Alpha")) * (1 + std::fabs(a(d, "Beta") * x[0]) * (1 - t * t));
}
double sigmoid_of(double t) { return 1.0 / (1.0 + std::exp(-t)); }
double sigmoid(Args x, const ElementWiseDesc&) { return sigmoid_of(x[0]); }
double sigmoid_scale(Args x, double y, const ElementWiseDesc&) {
    return 16 * std::fabs(y) + 16 + 4 * std::fabs(x[0]) * y * (1 - y);
}
double softsign(Args x, const ElementWiseDesc&) { return x[0] / (1 + std::fabs(x[0])); }
double tanh_f(Args x, const ElementWiseDesc&) { return std::tanh(x[0]); }
double thresholded_relu(Args x, const ElementWiseDesc& d) { return x[0] > a(d, "Alpha") ? x[0] : 0.0; }
double shrink(Args x, const ElementWiseDesc& d) {
    const double bias = a(d, "Bias"), threshold = a(d, "Threshold");
    return x[0] > threshold ? x[0] - bias : x[0] < -threshold ? x[0] + bias : 0.0;
}
double gelu(Args x, const ElementWiseDesc&) { return 0.5 * x[0] * (1 + std::erf(x[0] / std::sqrt(2.0))); }
double gelu_scale(Args x, double y, const ElementWiseDesc&) { return 16 * std::fabs(y) + 16 * std::fabs(x[0]) * 0.5 + 16; }
double swish(Args x, const ElementWiseDesc& d) { return x[0] * sigmoid_of(a(d, "SigmoidInputScale") * x[0]); }
double swish_scale(Args x, double y, const ElementWiseDesc& d) {
    const double t = a(d, "SigmoidInputScale") * x[0], s = sigmoid_of(t);
    return 16 * std::fabs(y) + 16 + 4 * std::fabs(x[0] * t) * s * (1 - s);
}
double hard_swish(Args x, const ElementWiseDesc& d) {
    return x[0] * std::fmax(0.0, std::fmin(a(d, "Alpha") * x[0] + a(d, "Beta"), 1.0));
}
// Where t = Alpha x + Beta is NaN with x not (Alpha 0, x infinite: 0 * inf), the clamp gives 1 in the documented
// order under [D3D]'s min/max (the reference: x), 0 in the other order or as saturate (HARD_SIGMOID's other value:
// x * 0 = NaN, dmltool's kernel, lavapipe campaign seed 20261203 #2623) or NaN: NaN is right too.
double hard_swish_alternative(Args x, const ElementWiseDesc& d) {
    return std::isnan(a(d, "Alpha") * x[0] + a(d, "Beta")) ? kNan : hard_swish(x, d);
}
double hard_swish_scale(Args x, double y, const ElementWiseDesc& d) {
    if (clamp_is_exact(x, d)) return 0.0;
    return 2 * std::fabs(y) + 2 * std::fabs(x[0]) * (std::fabs(a(d, "Alpha") * x[0]) + std::fabs(a(d, "Beta")));
}

// ---- Reductions over axes (element_wise::run_lanes): one lane = the elements that differ only in the axes ---------

// y_i = e^(x_i - max) / sum_j e^(x_j - max). M_i: each exponential carries (16 + 2 |x_j| + 2 |x_j - max|) u
// relative (exp2 [FS] and its argument [COND], with or without subtracting the maximum), the sum n u (naive
// summation), the division 5 u. The |x_j| term (an evaluation of e^(x_j) itself) is capped at 104: beyond it e^(x_j)
// is infinite or zero in float32 (e^-104 < 2^-149), so that evaluation has no finite right answer to widen for;
// uncapped, a lane holding FLOAT32's largest value let any value pass (seed 20261129 SOFTMAX1 #7 MISTRUSTED).
double exp_argument(double x) { return std::fmin(std::fabs(x), 104.0); }

void softmax_lane(std::span<const double> x, std::span<double> y, std::span<double> scale) {
    double largest = -HUGE_VAL;
    for (double v : x) largest = std::fmax(largest, v);
    double sum = 0;
    for (size_t j = 0; j < x.size(); ++j) sum += std::exp(x[j] - largest);
    // sum_j y_j (16 + 2 |x_j| + 2 |x_j - max|). An exponential that is exactly 0 (x_j = -inf) carries no error: its
    // term is skipped, not 0 * inf = NaN, which made every element's scale NaN (read as 0: half an ulp) in a lane
    // holding a -inf.
    double weighted = 0;
    for (size_t j = 0; j < x.size(); ++j) {
        y[j] = std::exp(x[j] - largest) / sum;
        // An element whose exponential is 0 (-inf, or far below the maximum) adds no error; skipped, since its
        // |x_j - max| may be infinite and 0 * inf would make every M of the lane NaN, i.e. no bound at all beyond
        // the output's rounding (a lane {-inf, 1, 2, 3}: DirectML's 0.665240884 for 0.665240956 FAILED).
        if (y[j] != 0) weighted += y[j] * (16 + 2 * exp_argument(x[j]) + 2 * std::fabs(x[j] - largest));
    }
    for (size_t j = 0; j < x.size(); ++j)
        scale[j] = y[j] == 0 ? 0.0
                             : y[j] * (16 + 2 * exp_argument(x[j]) + 2 * std::fabs(x[j] - largest) + weighted +
                                       double(x.size()) + 5);
}

// y_i = (x_i - max) - ln(sum_j e^(x_j - max)): absolute errors of the subtraction and of the log of the sum.
void log_softmax_lane(std::span<const double> x, std::span<double> y, std::span<double> scale) {
    double largest = -HUGE_VAL;
    for (double v : x) largest = std::fmax(largest, v);
    double sum = 0;
    for (size_t j = 0; j < x.size(); ++j) sum += std::exp(x[j] - largest);
    const double log_sum = std::log(sum);
    double weighted = 0;
    for (size_t j = 0; j < x.size(); ++j) {
        const double p = std::exp(x[j] - largest) / sum;
        if (p != 0) weighted += p * (16 + 2 * exp_argument(x[j]) + 2 * std::fabs(x[j] - largest));  // as softmax's
    }
    for (size_t j = 0; j < x.size(); ++j) {
        y[j] = (x[j] - largest) - log_sum;
        scale[j] = 2 * (std::fabs(y[j]) + std::fabs(x[j]) + std::fabs(largest)) + 16 * std::fabs(log_sum) + 16 +
                   weighted + double(x.size());
    }
}

// DirectML 1.15.4's LOG_SOFTMAX (engine.h, kModelLogSoftmaxSumFloor; a deviation model, not the contract): the sum
// floored at float32's 1e-20 by a maximum that returns the non-NaN operand, so a NaN sum (a NaN or +inf in the lane)
// becomes 1e-20 (probe: lane {NaN, 1, 2, 3} gives {NaN, 44.0517006, ...} = x - 3 - ln(1e-20)). The maximum ignores
// NaN too. M as the contract's, from the floored sum.
void log_softmax_floor_lane(std::span<const double> x, std::span<double> y, std::span<double> scale) {
    double largest = -HUGE_VAL;
    for (double v : x) largest = std::fmax(largest, v);
    double sum = 0;
    for (size_t j = 0; j < x.size(); ++j) sum += std::exp(x[j] - largest);
    const double floor = double(1e-20f);
    const bool floored = !(sum >= floor);  // true for NaN
    const double log_sum = std::log(floored ? floor : sum);
    // The floor is a constant: no exponential's error reaches a floored lane (their weights p_j relative to the floor
    // would be up to 1e20 and let any value pass).
    double weighted = 0;
    for (size_t j = 0; j < x.size() && !floored; ++j) {
        const double p = std::exp(x[j] - largest) / sum;
        if (p != 0) weighted += p * (16 + 2 * exp_argument(x[j]) + 2 * std::fabs(x[j] - largest));
    }
    for (size_t j = 0; j < x.size(); ++j) {
        y[j] = (x[j] - largest) - log_sum;
        scale[j] = 2 * (std::fabs(y[j]) + std::fabs(x[j]) + std::fabs(largest)) + 16 * std::fabs(log_sum) + 16 +
                   weighted + double(x.size());
    }
}

// 1 at the first largest element (in increasing index order), 0 elsewhere; exact.
void hardmax_lane(std::span<const double> x, std::span<double> y, std::span<double> scale) {
    size_t best = 0;
    for (size_t j = 1; j < x.size(); ++j)
        if (x[j] > x[best] || (std::isnan(x[best]) && !std::isnan(x[j]))) best = j;
    for (size_t j = 0; j < x.size(); ++j) {
        y[j] = j == best ? 1.0 : 0.0;
        scale[j] = 0;
    }
}

// HARDMAX's other reading where a lane holds NaN: a scan from element 0 keeping the first element that no later one
// exceeds, x[j] > x[best] under IEEE 754 / [D3D] comparisons (false with a NaN), so a leading NaN keeps the 1. The
// docs' "the first largest element" says nothing of NaN; DirectML 1.15.4 scans so (random case seed 20261129 #6:
// row {NaN, 1.37e16, 4.0e10, ...} gets its 1 at index 0), the reference and dmltool's kernel skip NaN.
void hardmax_scan_lane(std::span<const double> x, std::span<double> y, std::span<double> scale) {
    size_t best = 0;
    for (size_t j = 1; j < x.size(); ++j)
        if (x[j] > x[best]) best = j;
    for (size_t j = 0; j < x.size(); ++j) {
        y[j] = j == best ? 1.0 : 0.0;
        scale[j] = 0;
    }
}

// The v1 reductions: rows along the last dimension of an InputTensor of effective rank at most 2 (the facts).
Status validate_rows(const ElementWiseDesc& d, const std::string& path) {
    const Dims& sizes = d.output.sizes;
    size_t first = 0;
    while (first + 1 < sizes.size() && sizes[first] == 1) ++first;
    if (sizes.size() - first > 2)
        return invalid_input(path + "/InputTensor/Sizes: expected at most 2 dimensions after leading sizes of 1 (the "
                             "reduction runs along the last dimension), found " + format_dims(sizes));
    return Status::ok();
}

// The "1" reductions: every Axes value names a dimension, once.
Status validate_axes(const ElementWiseDesc& d, const std::string& path) {
    const std::vector<uint32_t>& axes = d.attribute("Axes")->uint_array;
    const uint32_t rank = d.output.rank();
    if (axes.empty()) return invalid_input(path + "/Axes: expected at least one axis, found an empty array");
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < axes.size(); ++i) {
        if (axes[i] >= rank)
            return invalid_input(path + "/Axes/" + std::to_string(i) + ": expected an axis in [0, " +
                                 std::to_string(rank - 1) + "] (the OutputTensor has " + std::to_string(rank) +
                                 " dimensions), found " + std::to_string(axes[i]));
        if (seen[axes[i]])
            return invalid_input(path + "/Axes/" + std::to_string(i) + ": expected each axis once, found " +
                                 std::to_string(axes[i]) + " again");
        seen[axes[i]] = true;
    }
    return Status::ok();
}

// ---- The table ------------------------------------------------------------------------------------------------

const FunctionMath kRelu{.exact = relu, .alternative = nan_alternative, .bound_source = kExact};
const FunctionMath kIdentity{.exact = identity, .bound_source = "exact: y = x"};
const FunctionMath kElu{.exact = elu, .error_scale = elu_scale, .bound_source = kFromExp};
const FunctionMath kCelu{.exact = celu, .error_scale = celu_scale, .bound_source = kFromExp};
const FunctionMath kScaledElu{.exact = scaled_elu, .error_scale = scaled_elu_scale, .bound_source = kFromExp};
const FunctionMath kHardSigmoid{.exact = hard_sigmoid, .error_scale = hard_sigmoid_scale, .alternative = nan_alternative,
                                .other_values = hard_sigmoid_others, .bound_source = "Alpha x + Beta: two roundings, then exact clamps"};
const FunctionMath kLeakyRelu{.exact = leaky_relu, .error_scale = rows::one_rounding,
                              .bound_source = "one rounding (Alpha x)"};
const FunctionMath kLinear{.exact = linear, .error_scale = linear_scale, .bound_source = "Alpha x + Beta: two roundings"};
const FunctionMath kParameterizedRelu{.exact = parameterized_relu, .integer = parameterized_relu_int, .error_scale = rows::one_rounding,
                                      .bound_source = "one rounding (s x)"};
const FunctionMath kParametricSoftplus{.exact = parametric_softplus, .error_scale = softplus_scale,
                                       .alternative = parametric_softplus_float32, .bound_source = kFromExp};
const FunctionMath kSoftplus{.exact = softplus, .error_scale = softplus_scale, .alternative = softplus_float32,
                             .bound_source = kFromExp};
const FunctionMath kScaledTanh{.exact = scaled_tanh, .error_scale = scaled_tanh_scale, .bound_source = kFromExp};
const FunctionMath kSigmoid{.exact = sigmoid, .error_scale = sigmoid_scale, .bound_source = kFromExp};
const FunctionMath kSoftsign{.exact = softsign, .error_scale = relative_absolute<6, 0>,
                             .bound_source = "three roundings (|x| + 1, the division [FS] 2.5 ulp)"};
const FunctionMath kTanh{.exact = tanh_f, .error_scale = relative_absolute<16, 16>, .bound_source = kFromExp};
// A NaN input: the documented "x if x > Alpha, else 0" under [D3D]'s comparison (false with NaN) gives 0, an
// evaluation as a product x * (x > Alpha) or a NaN-propagating select gives NaN ([D3D]: NaN in, NaN out); the docs
// say nothing of NaN, so both are right (as RELU's). DirectML 1.15.4 gives NaN, dmltool's kernel 0 (probe in
// results/directml_element_wise_2026-11-29.txt, section 8).
const FunctionMath kThresholdedRelu{.exact = thresholded_relu, .alternative = nan_alternative, .bound_source = kExact};
const FunctionMath kShrink{.exact = shrink, .error_scale = rows::one_rounding, .bound_source = "one rounding (x -+ Bias)"};
const FunctionMath kGelu{.exact = gelu, .error_scale = gelu_scale,
                         .bound_source = "16 u relative + 16 u absolute + 8 |x| u: erf [COND] and the products"};
const FunctionMath kSwish{.exact = swish, .error_scale = swish_scale, .bound_source = kFromExp};
const FunctionMath kHardSwish{.exact = hard_swish, .error_scale = hard_swish_scale, .alternative = hard_swish_alternative,
                              .bound_source = "Alpha x + Beta and the product: three roundings"};
const FunctionMath kSoftmax{.lane = softmax_lane, .validate = validate_rows,
                            .bound_source = "per exponential (16 + 2|x| + 2|x - max|) u, the sum n u, the division"};
const FunctionMath kLogSoftmax{.lane = log_softmax_lane, .deviation_lane = log_softmax_floor_lane, .validate = validate_rows,
                               .bound_source = "absolute: the subtraction, the log of the sum ([FS] log2)"};
const FunctionMath kHardmax{.lane = hardmax_lane, .lane_alternative = hardmax_scan_lane, .validate = validate_rows,
                            .bound_source = "exact (a lane with NaN: either reading of the first largest)"};
const FunctionMath kSoftmax1{.lane = softmax_lane, .validate = validate_axes,
                             .bound_source = "per exponential (16 + 2|x| + 2|x - max|) u, the sum n u, the division"};
const FunctionMath kLogSoftmax1{.lane = log_softmax_lane, .deviation_lane = log_softmax_floor_lane, .validate = validate_axes,
                                .bound_source = "absolute: the subtraction, the log of the sum ([FS] log2)"};
const FunctionMath kHardmax1{.lane = hardmax_lane, .lane_alternative = hardmax_scan_lane, .validate = validate_axes,
                             .bound_source = "exact (a lane with NaN: either reading of the first largest)"};

}  // namespace

const std::vector<FunctionSpec>& activation_functions() {
    static const std::vector<FunctionSpec> table = {
        spec_from_facts("ACTIVATION_ELU", "ELU", &kElu),
        spec_from_facts("ACTIVATION_HARDMAX", "HARDMAX", &kHardmax),
        spec_from_facts("ACTIVATION_HARD_SIGMOID", "HARD_SIGMOID", &kHardSigmoid),
        spec_from_facts("ACTIVATION_IDENTITY", "IDENTITY", &kIdentity),
        spec_from_facts("ACTIVATION_LEAKY_RELU", "LEAKY_RELU", &kLeakyRelu),
        spec_from_facts("ACTIVATION_LINEAR", "LINEAR", &kLinear),
        spec_from_facts("ACTIVATION_LOG_SOFTMAX", "LOG_SOFTMAX", &kLogSoftmax),
        spec_from_facts("ACTIVATION_PARAMETERIZED_RELU", "PARAMETERIZED_RELU", &kParameterizedRelu),
        spec_from_facts("ACTIVATION_PARAMETRIC_SOFTPLUS", "PARAMETRIC_SOFTPLUS", &kParametricSoftplus),
        spec_from_facts("ACTIVATION_RELU", "RELU", &kRelu),
        spec_from_facts("ACTIVATION_SCALED_ELU", "SCALED_ELU", &kScaledElu),
        spec_from_facts("ACTIVATION_SCALED_TANH", "SCALED_TANH", &kScaledTanh),
        spec_from_facts("ACTIVATION_SIGMOID", "SIGMOID", &kSigmoid),
        spec_from_facts("ACTIVATION_SOFTMAX", "SOFTMAX", &kSoftmax),
        spec_from_facts("ACTIVATION_SOFTPLUS", "SOFTPLUS", &kSoftplus),
        spec_from_facts("ACTIVATION_SOFTSIGN", "SOFTSIGN", &kSoftsign),
        spec_from_facts("ACTIVATION_TANH", "TANH", &kTanh),
        spec_from_facts("ACTIVATION_THRESHOLDED_RELU", "THRESHOLDED_RELU", &kThresholdedRelu),
        spec_from_facts("ACTIVATION_SHRINK", "SHRINK", &kShrink),
        spec_from_facts("ACTIVATION_CELU", "CELU", &kCelu),
        spec_from_facts("ACTIVATION_GELU", "GELU", &kGelu),
        spec_from_facts("ACTIVATION_SOFTMAX1", "SOFTMAX", &kSoftmax1),
        spec_from_facts("ACTIVATION_LOG_SOFTMAX1", "LOG_SOFTMAX", &kLogSoftmax1),
        spec_from_facts("ACTIVATION_HARDMAX1", "HARDMAX", &kHardmax1),
        spec_from_facts("ACTIVATION_SWISH", "SWISH", &kSwish),
        spec_from_facts("ACTIVATION_HARD_SWISH", "HARD_SWISH", &kHardSwish),
    };
    return table;
}

std::vector<std::unique_ptr<Op>> make_ops() {
    std::vector<std::unique_ptr<Op>> ops;
    for (const FunctionSpec& f : activation_functions()) ops.push_back(make_family_op(f));
    return ops;
}

}  // namespace dmltool::ops::activation
